import { ClientMetadataFetcher } from '../../../upstream/oauth/client-metadata.js';
import { Authorizations } from './authorizations.js';
import { ClientMetadataCache } from './clients.js';
import { protectedResources, type ProtectedResource } from './resources.js';

/** The OAuth door's state: its issuer, the resources it issues tokens for, what waits for consent, fetched clients. */
export interface OAuthDoor {
  /** The authorization server's issuer identifier (RFC 8414): the deck's base URL. */
  issuer: string;
  resources: readonly ProtectedResource[];
  authorizations: Authorizations;
  clientMetadata: ClientMetadataCache;
  fetcher: ClientMetadataFetcher;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The door, built once at start. A deck whose own address is a loopback one is a developer's: it may fetch client
 * metadata documents from this machine and its network, which any other deck refuses.
 */
export function openOAuthDoor(base: string, endpoints: readonly { path: string; name: string }[]): OAuthDoor {
  return {
    issuer: base,
    resources: protectedResources(base, endpoints),
    authorizations: new Authorizations(),
    clientMetadata: new ClientMetadataCache(),
    fetcher: new ClientMetadataFetcher(LOOPBACK_HOST.test(new URL(base).hostname)),
  };
}
