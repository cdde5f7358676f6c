import { randomUUID } from 'node:crypto';
import { InvalidClientError, InvalidClientMetadataError, TemporarilyUnavailableError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import type { Keeping, RegisteredClient } from '../../store/oauth.js';
import { ClientMetadataUnavailable } from '../../upstream/oauth/client-metadata.js';
import type { Services } from '../runtime.js';

/**
 * How registrations are kept: at most DECK_OAUTH_CLIENTS; one never used (no grant made under it) a day after it was
 * made (a client registers just before it sends its person to consent); one no grant names any more, 30 days after
 * its last grant was made.
 */
const keeping = (s: Services): Keeping => ({ most: s.config.oauthClients, unusedMs: 24 * 3_600_000, idleMs: 30 * 24 * 3_600_000 });
/** How long a fetched client metadata document is trusted before it is fetched again. */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where a client may be sent back to (OAuth 2.1): https, http only to this machine's loopback (a native app's
 * listener), or an app's own scheme (com.example.app:/callback); never a fragment, never javascript: or data:.
 */
function redirectProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (u.hash) return 'a redirect URI carries no fragment';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:') return LOOPBACK.has(u.hostname) ? null : 'http is allowed only to a loopback address; use https';
  if (['javascript:', 'data:', 'file:', 'blob:', 'about:', 'vbscript:'].includes(u.protocol)) return `${u.protocol} is not a redirect scheme`;
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol) ? null : 'a private-use scheme is a reversed domain name (com.example.app:)';
}

const Url = z.string().max(2000);
/** The metadata the deck keeps of a client, from a registration or a metadata document. */
const ClientMetadata = z.object({
  redirect_uris: z.array(Url).min(1, 'at least one redirect URI').max(10, 'at most 10 redirect URIs'),
  client_name: z.string().max(120).optional(),
  client_uri: Url.optional(),
  logo_uri: Url.optional(),
  scope: z.string().max(1000).optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  token_endpoint_auth_method: z.string().optional(),
});

function checked(raw: unknown): z.output<typeof ClientMetadata> {
  const parsed = ClientMetadata.safeParse(raw);
  if (!parsed.success) throw new InvalidClientMetadataError(parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; '));
  const bad = parsed.data.redirect_uris.map((u, i) => [i, redirectProblem(u)] as const).filter(([, why]) => why !== null);
  if (bad.length) throw new InvalidClientMetadataError(bad.map(([i, why]) => `redirect_uris.${i}: ${why}`).join('; '));
  const grants = parsed.data.grant_types ?? ['authorization_code', 'refresh_token'];
  const unknown = grants.filter((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unknown.length) throw new InvalidClientMetadataError(`grant_types: the deck grants authorization_code and refresh_token only, not ${unknown.join(', ')}`);
  return parsed.data;
}

const asClient = ({ used_at: _, ...c }: RegisteredClient): OAuthClientInformationFull => c;

/**
 * Registers a client (RFC 7591). Every client is public and proves itself with PKCE: a client that asks for a
 * secret is registered without one and told so by token_endpoint_auth_method "none", so the deck keeps no
 * client secret at all.
 */
export async function registerClient(s: Services, raw: unknown): Promise<OAuthClientInformationFull> {
  const m = checked(raw);
  const now = s.clock();
  const client: RegisteredClient = {
    client_id: randomUUID(),
    client_id_issued_at: Math.floor(now / 1000),
    redirect_uris: m.redirect_uris,
    ...(m.client_name !== undefined ? { client_name: m.client_name } : {}),
    ...(m.client_uri !== undefined ? { client_uri: m.client_uri } : {}),
    ...(m.logo_uri !== undefined ? { logo_uri: m.logo_uri } : {}),
    ...(m.scope !== undefined ? { scope: m.scope } : {}),
    grant_types: m.grant_types ?? ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  const kept = await s.store.oauth.register(client, now, keeping(s));
  if (kept === 'full') {
    s.log.error('oauth_clients_full', { most: s.config.oauthClients });
    throw new TemporarilyUnavailableError(`the deck keeps ${s.config.oauthClients} client registrations and every one is in use; try again later`);
  }
  return asClient(kept);
}

/** A client id that is a metadata document's URL: https, a path, no fragment, no credentials. */
export function metadataUrl(id: string): URL | null {
  if (!id.startsWith('https://')) return null;
  try {
    const u = new URL(id);
    return u.pathname !== '/' && !u.hash && !u.username && !u.password ? u : null;
  } catch {
    return null;
  }
}

/**
 * The client an id names: a registered one, or, when the id is an https URL, the Client ID Metadata Document it
 * points to, fetched and checked (its client_id must be that URL; it may not claim a secret). Undefined: no such client.
 */
export async function clientFor(s: Services, id: string): Promise<OAuthClientInformationFull | undefined> {
  const registered = s.store.oauth.client(id, s.clock(), keeping(s));
  if (registered) return asClient(registered);
  const url = metadataUrl(id);
  if (!url) return undefined;
  const now = s.clock();
  const cached = s.oauth.clientMetadata.get(id, now);
  if (cached) return cached;
  let doc: unknown;
  try {
    doc = await s.oauth.fetcher.fetch(url, s.oauth.askers.signal(id));
  } catch (error) {
    if (error instanceof ClientMetadataUnavailable) throw new InvalidClientError(`the client metadata document at ${id}: ${error.message}`);
    throw error;
  }
  const stated = (doc as { client_id?: unknown } | null)?.client_id;
  if (stated !== id) throw new InvalidClientError(`the client metadata document at ${id} names another client_id`);
  if ((doc as Record<string, unknown>).client_secret !== undefined) throw new InvalidClientError(`the client metadata document at ${id} may not carry a client_secret`);
  let m: z.output<typeof ClientMetadata>;
  try {
    m = checked(doc);
  } catch (error) {
    throw new InvalidClientError(`the client metadata document at ${id}: ${(error as Error).message}`);
  }
  if (m.token_endpoint_auth_method !== undefined && m.token_endpoint_auth_method !== 'none') {
    throw new InvalidClientError(`the client metadata document at ${id}: token_endpoint_auth_method must be none (the deck's clients are public and use PKCE)`);
  }
  const client: OAuthClientInformationFull = { ...m, client_id: id, token_endpoint_auth_method: 'none' };
  s.oauth.clientMetadata.put(id, client, now);
  return client;
}

/** Whether a client's name and links were vouched for by its own domain (a metadata document) or only stated. */
export const vouchedHost = (clientId: string): string | null => metadataUrl(clientId)?.host ?? null;
