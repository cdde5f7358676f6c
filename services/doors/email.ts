import { digest } from '../../upstream/identity/keys.js';
import { DeckError, limitReached, notConfigured } from '../../core/errors.js';
import type { EmailAsk } from '../../store/doors.js';
import type { Ctx } from '../context.js';
import { clientOf } from '../identity/client.js';
import { resting } from '../identity/login-throttle.js';
import { proved, type Proved } from './proved.js';
import { ASK_TTL_MS, emailKey, keyed, maskEmail, newCode, newLinkToken } from './secrets.js';

/** Sign-in mails: at most this many to one address, and from one client, in a window of an hour. */
export const SENDS_PER_ADDRESS = 5;
export const SENDS_PER_CLIENT = 20;
const SEND_WINDOW_MS = 3_600_000;
/** Wrong codes one sign-in takes before it is dropped (a new mail is then needed). */
export const CODE_TRIES = 5;

/** The email door, or 503 naming what configures it: nothing is ever sent without it. */
export function mailer(ctx: Pick<Ctx, 'upstreams'>) {
  if (!ctx.upstreams.mail) throw notConfigured('the email door', 'DECK_SMTP_URL and DECK_EMAIL_FROM');
  return ctx.upstreams.mail;
}

/** 429 while the client's address rests under the login throttle: the doors share the key's throttle. */
export function notResting(ctx: Ctx): string {
  const client = clientOf(ctx, ctx.caller);
  const restingS = ctx.login.restingFor(client, ctx.clock());
  if (restingS > 0) throw resting(restingS);
  return client;
}

const codeDigest = (salt: string, token: string, code: string) => keyed(salt, 'code', `${digest(token)}|${code}`);

/**
 * Sends a sign-in mail: a six-digit code and a link, each good once for 15 minutes (a newer mail to the same address
 * replaces the one before). The same mail goes whether or not a principal is linked to the address, so the answer says
 * nothing about who has an account. Limits: SENDS_PER_ADDRESS to one address and SENDS_PER_CLIENT from one client an
 * hour (429), counted with the sign-in in one write, so sends at once cannot pass them; a mail the server refuses
 * takes its sign-in and its count back.
 */
export async function sendSignIn(ctx: Ctx, address: string) {
  const mail = mailer(ctx);
  const client = notResting(ctx);
  const now = ctx.clock();
  const key = emailKey(ctx.store.salt, address);
  const label = maskEmail(address);
  const token = newLinkToken();
  const code = newCode();
  const expires_at = now + ASK_TTL_MS;
  const counted = [`to:${key}`, `from:${client}`];
  await ctx.store.doors.update(now, (d) => {
    const [to, from] = counted.map((k) => d.sends[k] ?? { until: now + SEND_WINDOW_MS, n: 0 });
    for (const [w, most, who] of [[to!, SENDS_PER_ADDRESS, 'to one address'], [from!, SENDS_PER_CLIENT, 'from one client']] as const) {
      if (w.n >= most) throw limitReached('email_limit', `at most ${most} sign-in mails an hour ${who}`, (w.until - now) / 1000);
    }
    for (const [k, ask] of Object.entries(d.asks)) if (ask.key === key) delete d.asks[k];
    d.asks[digest(token)] = { key, label, code: codeDigest(ctx.store.salt, token, code), tries: 0, expires_at } satisfies EmailAsk;
    d.sends[counted[0]!] = { until: to!.until, n: to!.n + 1 };
    d.sends[counted[1]!] = { until: from!.until, n: from!.n + 1 };
  });
  const link = new URL(ctx.urls.join);
  link.searchParams.set('email_token', token);
  try {
    await mail.send({
      to: address,
      subject: 'Your sign-in code for the deck',
      text: [
        `Your sign-in code: ${code}`,
        '',
        `Or open this link to sign in: ${link.href}`,
        '',
        'The code and the link work once, for 15 minutes. If you did not ask to sign in, ignore this mail: nothing happens without them.',
      ].join('\n'),
    });
  } catch (error) {
    await ctx.store.doors.update(ctx.clock(), (d) => {
      delete d.asks[digest(token)];
      for (const k of counted) if (d.sends[k]) d.sends[k].n = Math.max(0, d.sends[k].n - 1);
    });
    throw error;
  }
  ctx.log.info('email_sent', { to: label });
  return {
    ok: true as const,
    sent: true as const,
    to: label,
    expires_at: new Date(expires_at).toISOString(),
    next: `enter the code with POST ${ctx.urls.base}/auth/email/verify { "email", "code" }, or open the link in the mail`,
  };
}

/** A sign-in's code or link: one of the two. */
export type Presented = { token: string } | { email: string; code: string };

/**
 * Checks a sign-in's link token, or its address and code, and spends it: good once. A wrong one is a refused
 * credential under the login throttle, as a wrong key is (401); five wrong codes drop the sign-in. Proved, the door
 * signs in or gives a proof (see proved).
 */
export async function verifySignIn(ctx: Ctx, presented: Presented): Promise<Proved> {
  mailer(ctx);
  const client = notResting(ctx);
  const now = ctx.clock();
  const salt = ctx.store.salt;
  const ask = await ctx.store.doors.update(now, (d) => {
    if ('token' in presented) {
      const k = digest(presented.token);
      const found = d.asks[k] ?? null;
      delete d.asks[k];
      return found;
    }
    const key = emailKey(salt, presented.email);
    const entry = Object.entries(d.asks).find(([, a]) => a.key === key);
    if (!entry) return null;
    const [k, found] = entry;
    // The token is not presented: the code's digest is matched against the one each token's digest keys.
    if (keyed(salt, 'code', `${k}|${presented.code}`) === found.code) {
      delete d.asks[k];
      return found;
    }
    found.tries += 1;
    if (found.tries >= CODE_TRIES) delete d.asks[k];
    return null;
  });
  if (!ask) {
    await ctx.login.refused(client, now);
    throw new DeckError(401, 'code_refused', 'the code or link is wrong, used or expired: ask for a new mail with POST /auth/email');
  }
  return proved(ctx, 'email', ask.key, ask.label);
}
