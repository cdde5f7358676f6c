import { digest } from '../../upstream/identity/keys.js';
import type { DoorKind } from '../../store/doors.js';
import type { Ctx } from '../context.js';
import { clientOf } from '../identity/client.js';
import { openSession, type Opened } from '../identity/session.js';
import { newProof, PROOF_TTL_MS } from './secrets.js';

/** What a door answers once the person proved the address or the account. */
export interface Proved {
  /** Signed in as the principal the door is linked to. */
  signed_in: boolean;
  door: DoorKind;
  label: string;
  name?: string;
  agent_id?: string;
  expires_at: string;
  /** The door is linked to no principal yet: this proof joins with it (POST /join) or links it (POST /me/doors). */
  proof?: string;
  next: string;
  /** The session REST moves into the deck_session cookie (never in the body). */
  session?: Opened;
}

/** The account a door is linked to, when the link and the account both hold. */
export function linkedAccount(ctx: Pick<Ctx, 'store'>, key: string) {
  const link = ctx.store.doors.data.links[key];
  return link ? ctx.store.accounts.byId(link.principal_id) : null;
}

/**
 * A door proved (the code or link of a mail, X's consent): when it is linked to a principal, a session as that principal,
 * as a login with the key gives; otherwise a proof, good for 15 minutes, that joins a new principal with this door or
 * links it to the principal signed in. Either way it clears the client's refused count, as a login does.
 */
export async function proved(ctx: Ctx, door: DoorKind, key: string, label: string): Promise<Proved> {
  const now = ctx.clock();
  await ctx.login.cleared(clientOf(ctx, ctx.caller));
  const account = linkedAccount(ctx, key);
  if (account) {
    const session = await openSession(ctx, account);
    ctx.log.info('door_sign_in', { door, name: account.name });
    return {
      signed_in: true,
      door,
      label,
      name: account.name,
      agent_id: account.agent_id,
      expires_at: new Date(session.expires_at).toISOString(),
      next: `signed in as ${account.name} for ${ctx.config.sessionHours} hours; a new key, if you lost yours: POST ${ctx.urls.base}/me/key { "confirm": "rotate" }`,
      session,
    };
  }
  const proof = newProof();
  const expires_at = now + PROOF_TTL_MS;
  await ctx.store.doors.update(now, (d) => void (d.proofs[digest(proof)] = { door, key, label, expires_at }));
  return {
    signed_in: false,
    door,
    label,
    expires_at: new Date(expires_at).toISOString(),
    proof,
    next: `${label} is linked to no principal yet: join with POST ${ctx.urls.base}/join { "name", "proof" }, or, signed in, link it with POST ${ctx.urls.base}/me/doors { "proof" }, within 15 minutes`,
  };
}
