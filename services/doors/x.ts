import { digest } from '../../upstream/identity/keys.js';
import { DeckError, notConfigured } from '../../core/errors.js';
import type { Ctx } from '../context.js';
import { notResting } from './email.js';
import { proved, type Proved } from './proved.js';
import { newState, pkceVerifier, s256, X_TTL_MS, xKey } from './secrets.js';

/** Where X sends the person back: registered as the X app's callback URL. */
export const X_CALLBACK_PATH = '/auth/x/callback';

/** The X door, or 503 naming what configures it. */
function xDoor(ctx: Pick<Ctx, 'upstreams'>) {
  if (!ctx.upstreams.x) throw notConfigured('the X door', 'DECK_X_CLIENT_ID (and DECK_X_CLIENT_SECRET for a confidential client)');
  return ctx.upstreams.x;
}

const callbackOf = (ctx: Pick<Ctx, 'urls'>) => `${ctx.urls.base}${X_CALLBACK_PATH}`;

/**
 * Starts an X sign-in: a fresh state, kept (as its digest) for 10 minutes, and X's authorize URL with the S256
 * challenge of a verifier derived from that state. The state also goes to the person's browser (REST sets it as a
 * cookie), so only the browser that started a sign-in can finish it.
 */
export async function startX(ctx: Ctx): Promise<{ url: string; state: string }> {
  const door = xDoor(ctx);
  notResting(ctx);
  const now = ctx.clock();
  const state = newState();
  await ctx.store.doors.update(now, (d) => void (d.states[digest(state)] = { expires_at: now + X_TTL_MS }));
  return { url: door.authorizeUrl({ redirectUri: callbackOf(ctx), state, challenge: s256(pkceVerifier(ctx.store.salt, state)) }), state };
}

/** What X sent back to the callback, and the state the browser holds. */
export interface XReturn {
  code?: string;
  state?: string;
  error?: string;
  /** The state cookie the browser that started the sign-in carries. */
  browserState: string | null;
}

/**
 * Finishes an X sign-in: the state must be one this deck (or one sharing its store) issued, unspent and unexpired, and
 * the browser's own; the code is exchanged with the derived verifier, and the account X names is the door proved. A
 * state that does not hold is a refused credential under the login throttle (401); a person who declined at X is 403.
 */
export async function finishX(ctx: Ctx, back: XReturn): Promise<Proved> {
  const door = xDoor(ctx);
  const client = notResting(ctx);
  const now = ctx.clock();
  const state = back.state ?? '';
  const known = state.length > 0 && state.length <= 128 && state === back.browserState;
  const spent = known && (await ctx.store.doors.update(now, (d) => (d.states[digest(state)] ? (delete d.states[digest(state)], true) : false)));
  if (!spent) {
    await ctx.login.refused(client, now);
    throw new DeckError(401, 'x_state_refused', 'this X sign-in was not started in this browser, was finished already or expired: start again');
  }
  if (back.error || !back.code) throw new DeckError(403, 'x_declined', `X did not give consent (${(back.error ?? 'no code').slice(0, 64)})`);
  const account = await door.accountOf({ code: back.code, verifier: pkceVerifier(ctx.store.salt, state), redirectUri: callbackOf(ctx) });
  return proved(ctx, 'x', xKey(account.id), `@${account.username}`);
}
