import type { NamedTargets } from '../../upstream/named-targets.js';
import { ClientMetadataFetcher } from '../../upstream/oauth/client-metadata.js';
import { Askers } from './askers.js';
import { Authorizations } from './authorizations.js';
import { ClientMetadataCache } from './metadata-cache.js';
import { protectedResources, type ProtectedResource } from './resources.js';

/** The OAuth door's state: its issuer, the resources it issues tokens for, what waits for consent, fetched clients. */
export interface OAuthDoor {
  /** The authorization server's issuer identifier (RFC 8414): the deck's base URL. */
  issuer: string;
  resources: readonly ProtectedResource[];
  authorizations: Authorizations;
  clientMetadata: ClientMetadataCache;
  fetcher: ClientMetadataFetcher;
  /** The requests waiting on each client's metadata document: its fetch ends when they all have. */
  askers: Askers;
}

/**
 * The door, built once at start. Client metadata documents are fetched as every URL a person names is: at a public
 * address (this machine's loopback too with DECK_LOOPBACK_TARGETS=1).
 */
export function openOAuthDoor(base: string, endpoints: readonly { path: string; name: string }[], targets: NamedTargets): OAuthDoor {
  return {
    issuer: base,
    resources: protectedResources(base, endpoints),
    authorizations: new Authorizations(),
    clientMetadata: new ClientMetadataCache(),
    fetcher: new ClientMetadataFetcher(targets),
    askers: new Askers(),
  };
}
