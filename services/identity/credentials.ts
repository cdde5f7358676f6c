import { randomBytes } from 'node:crypto';
import { walletStatusOf, type Account } from '../../store/accounts.js';
import { digest } from '../../upstream/identity/keys.js';
import type { Caller } from '../context.js';
import type { Reach } from '../context.js';
import { tierOf } from '../plans/standing.js';
import type { Principal } from '../../core/principal.js';
import { clientOf } from './client.js';

export const SESSION_COOKIE = 'deck_session';

/** A session token: 32 random bytes; kept by the deck only as its digest. */
export const newSessionToken = (): string => `ds_${randomBytes(32).toString('base64url')}`;

/**
 * Where a credential is presented: an MCP endpoint (its path), the REST facade, or a route that only reads whose
 * credential it is (join, login, logout: logout ends whatever session it is shown).
 */
export type Audience = string | 'rest' | 'any';

/**
 * Whether a session may be used where it is presented. A session issued to an OAuth client is bound to the resource
 * it was asked for: its MCP endpoint, or every MCP endpoint ("/"); never the REST facade. Other sessions go anywhere.
 */
const reaches = (resource: string | undefined, at: Audience): boolean =>
  resource === undefined || at === 'any' || resource === at || (resource === '/' && at !== 'rest');

/**
 * Who a credential (the session value or the key, as cookie or bearer) belongs to, presented at `at`.
 * null: the credential does not verify there. An unreachable door throws (503), it does not read as refused.
 */
export async function principalFrom(s: Reach, credential: string, at: Audience): Promise<Principal | null> {
  if (credential.length > 512) return null;
  if (credential.startsWith(s.config.keyPrefix)) {
    const found = await s.upstreams.door.verify(credential);
    const account = found ? s.store.accounts.byId(found.id) : null;
    return account ? toPrincipal(s, account, 'key') : null;
  }
  const hash = digest(credential);
  const session = s.store.sessions.get(hash);
  if (!session || session.expires_at <= s.clock() || !reaches(session.resource, at)) return null;
  const account = s.store.accounts.byId(session.principal_id);
  // A rotated key ends every session minted under the old one, but the one that asked for the rotation.
  if (!account || (account.key_gen !== session.key_gen && account.kept_session !== hash)) return null;
  return toPrincipal(s, account, 'session');
}

/**
 * Where a live session that does not reach `at` is bound (an MCP endpoint's path, or "/" for every one), so its refusal
 * can say so; null when the credential is no live session or reaches `at`.
 */
export function boundElsewhere(s: Reach, credential: string, at: Audience): string | null {
  if (credential.length > 512 || credential.startsWith(s.config.keyPrefix)) return null;
  const session = s.store.sessions.get(digest(credential));
  if (!session || session.expires_at <= s.clock() || session.resource === undefined || reaches(session.resource, at)) return null;
  const account = s.store.accounts.byId(session.principal_id);
  return account && account.key_gen === session.key_gen ? session.resource : null;
}

/** What a credential presented to a guarded door comes to: its principal, refused (saying where it is bound, if so), or refused while its address rests. */
export type Admission = { principal: Principal } | { refused: true; boundTo: string | null } | { restingS: number };

/**
 * A credential presented as the bearer or the cookie, checked under the login throttle. A credential that verifies
 * always goes through: a key is 256 random bits, too long to guess, so the throttle is not what keeps keys safe; it
 * slows an address scanning for them, and one address (a hosted MCP client, a NAT) serves many people whose own keys
 * and sessions must not be shut out by another's guesses or stale token. A credential that does not verify counts
 * against its address like a refused key at login; once the address rests, such a credential is answered 429 for the
 * rest of the window (and no longer counted). A credential that verifies does not clear the count: only a login does,
 * so presenting one's own session between guesses buys no more guesses.
 */
export async function admitCredential(s: Reach, caller: Caller, credential: string, at: Audience): Promise<Admission> {
  const principal = await principalFrom(s, credential, at);
  if (principal) return { principal };
  const client = clientOf(s, caller);
  const restingS = s.login.restingFor(client, s.clock());
  if (restingS > 0) return { restingS };
  await s.login.refused(client, s.clock());
  return { refused: true, boundTo: boundElsewhere(s, credential, at) };
}

function toPrincipal(s: Reach, a: Account, via: Principal['via']): Principal {
  return { id: a.id, name: a.name, agent_id: a.agent_id, wallet: a.wallet, wallet_status: walletStatusOf(a), tier: tierOf(s, a), via };
}
