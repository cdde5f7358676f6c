import { randomBytes } from 'node:crypto';
import { InvalidGrantError, InvalidTargetError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { digest } from '../../upstream/identity/keys.js';
import type { Reach } from '../context.js';
import { newSessionToken } from '../identity/credentials.js';
import { resourceNamed } from './resources.js';

/** A refresh token lives this long unused; each refresh replaces it with a new one that lives as long. */
export const REFRESH_TTL_MS = 30 * 24 * 3_600_000;

const newRefreshToken = (): string => `dr_${randomBytes(32).toString('base64url')}`;
const newGrantId = (): string => `g_${randomBytes(12).toString('base64url')}`;

/** The path a token request's `resource` names; it must be the one consented to (RFC 8707), else invalid_target. */
function sameResource(s: Reach, requested: URL | undefined, consented: string): void {
  if (requested === undefined) return;
  const r = resourceNamed(s.oauth.resources, requested.href);
  if (!r || r.path !== consented) throw new InvalidTargetError(`resource ${requested.href} is not the one consented to`);
}

/** A deck session of the principal bound to the grant's resource: the access token (same lifetime as a login's). */
async function accessFor(s: Reach, grant: string, g: { principal_id: string; key_gen: number; resource: string }, refresh: string): Promise<OAuthTokens> {
  const now = s.clock();
  const token = newSessionToken();
  const ttlMs = s.config.sessionHours * 3_600_000;
  await s.store.sessions.add(digest(token), { principal_id: g.principal_id, key_gen: g.key_gen, expires_at: now + ttlMs, resource: g.resource, grant }, now);
  return { access_token: token, token_type: 'Bearer', expires_in: Math.floor(ttlMs / 1000), refresh_token: refresh };
}

/** Ends grants: their refresh tokens and every session issued under them. */
export async function endGrants(s: Reach, ids: readonly string[]): Promise<void> {
  await s.store.oauth.endGrants(ids);
  await s.store.sessions.removeGrants(ids);
}

/** The account a grant acts for, if its key was not rotated since consent; otherwise the grant ends. */
async function stillValid(s: Reach, grant: string, g: { principal_id: string; key_gen: number }): Promise<void> {
  const account = s.store.accounts.byId(g.principal_id);
  if (account && account.key_gen === g.key_gen) return;
  await endGrants(s, [grant]);
  throw new InvalidGrantError('the key this was granted under was rotated: ask the person again');
}

/**
 * The PKCE challenge of a code, for the SDK's check. A code already exchanged is refused, and the grant its first
 * exchange made is ended (OAuth 2.1: a code used twice may be stolen).
 */
export async function challengeOf(s: Reach, clientId: string, code: string): Promise<string> {
  const c = s.oauth.authorizations.code(code, s.clock());
  if (!c || c.client_id !== clientId) throw new InvalidGrantError('the code is unknown, expired or not this client\'s');
  if (c.grant !== null) {
    await endGrants(s, [c.grant]);
    throw new InvalidGrantError('the code was already used; the tokens it gave are revoked');
  }
  return c.code_challenge;
}

/** Exchanges a code (its PKCE verifier checked by the SDK) for an access and a refresh token; the grant starts. */
export async function exchangeCode(s: Reach, clientId: string, code: string, redirectUri: string | undefined, resource: URL | undefined): Promise<OAuthTokens> {
  const now = s.clock();
  const c = s.oauth.authorizations.code(code, now);
  if (!c || c.client_id !== clientId) throw new InvalidGrantError('the code is unknown, expired or not this client\'s');
  if (redirectUri !== undefined && redirectUri !== c.redirect_uri) throw new InvalidGrantError('redirect_uri is not the one the code was issued to');
  sameResource(s, resource, c.resource);
  const id = newGrantId();
  if (!s.oauth.authorizations.spend(code, id, now)) throw new InvalidGrantError('the code was already used');
  const grant = { client_id: clientId, principal_id: c.principal_id, key_gen: c.key_gen, resource: c.resource };
  await stillValid(s, id, grant);
  const refresh = newRefreshToken();
  await s.store.oauth.addGrant(id, { ...grant, refresh: digest(refresh), refresh_expires_at: now + REFRESH_TTL_MS, spent: [], created_at: now }, now);
  return accessFor(s, id, grant, refresh);
}

/**
 * A refresh: the token is replaced by a new one and a new access token is issued. A refresh token presented after
 * it was replaced is a replay (stolen, or a client's bug): the whole grant ends.
 */
export async function refresh(s: Reach, clientId: string, token: string, resource: URL | undefined): Promise<OAuthTokens> {
  const now = s.clock();
  const found = s.store.oauth.grantOfRefresh(digest(token));
  if (!found || found.grant.client_id !== clientId) throw new InvalidGrantError('the refresh token is unknown, revoked or not this client\'s');
  const { id, grant } = found;
  if (found.spent) {
    await endGrants(s, [id]);
    throw new InvalidGrantError('the refresh token was already used; the grant is revoked');
  }
  if (grant.refresh_expires_at <= now) throw new InvalidGrantError('the refresh token has expired: ask the person again');
  sameResource(s, resource, grant.resource);
  await stillValid(s, id, grant);
  const next = newRefreshToken();
  if (!(await s.store.oauth.rotate(id, digest(token), digest(next), now + REFRESH_TTL_MS))) {
    await endGrants(s, [id]);
    throw new InvalidGrantError('the refresh token was already used; the grant is revoked');
  }
  return accessFor(s, id, grant, next);
}

/**
 * Revocation (RFC 7009): an access or refresh token of this client ends its whole grant. A token that is unknown or
 * another client's changes nothing, and the answer is the same.
 */
export async function revoke(s: Reach, clientId: string, token: string): Promise<void> {
  const hash = digest(token);
  const session = s.store.sessions.get(hash);
  const grant = session?.grant ?? s.store.oauth.grantOfRefresh(hash)?.id;
  if (grant && s.store.oauth.grant(grant)?.client_id === clientId) await endGrants(s, [grant]);
}

/** Ends a session (sign-out): a session an OAuth client holds ends with its grant, refresh token and all. */
export async function endSession(s: Reach, token: string): Promise<void> {
  const hash = digest(token);
  const grant = s.store.sessions.get(hash)?.grant;
  if (grant) await endGrants(s, [grant]);
  else await s.store.sessions.remove(hash);
}

/** What an access token is, for the SDK's bearer checks: its client, resource and expiry. */
export function verifyAccess(s: Reach, token: string): AuthInfo {
  const session = s.store.sessions.get(digest(token));
  const grant = session?.grant ? s.store.oauth.grant(session.grant) : null;
  if (!session || !grant || session.expires_at <= s.clock()) throw new InvalidTokenError('the access token is unknown, expired or revoked');
  const resource = s.oauth.resources.find((r) => r.path === session.resource);
  return {
    token,
    clientId: grant.client_id,
    scopes: [],
    expiresAt: Math.floor(session.expires_at / 1000),
    ...(resource ? { resource: new URL(resource.url) } : {}),
  };
}
