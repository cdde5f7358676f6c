import { InvalidRequestError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import express, { type RequestHandler, type Router } from 'express';
import type { Services } from '../services/runtime.js';
import { REQUEST_TTL_MS } from '../services/oauth/authorizations.js';
import { clientFor, metadataUrl, registerClient } from '../services/oauth/clients.js';
import { resourceMetadata, resourceNamed } from '../services/oauth/resources.js';
import { challengeOf, exchangeCode, refresh, revoke, verifyAccess } from '../services/oauth/tokens.js';

/** Where the authorization server's endpoints sit under the deck's base URL. */
export const OAUTH_PATHS = { authorize: '/oauth/authorize', token: '/oauth/token', register: '/oauth/register', revoke: '/oauth/revoke' } as const;

/** The authorization server's metadata (RFC 8414), as the deck's OAuth door is built. */
export function authorizationServerMetadata(s: Services): OAuthMetadata {
  const base = s.urls.base;
  return {
    issuer: s.oauth.issuer,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${base}/openapi.json`,
  };
}

/**
 * The deck as an OAuth 2.1 authorization server and the metadata of its protected resources, on the MCP SDK's own
 * handlers (authorization with PKCE S256 only, token, dynamic registration, revocation, metadata): the protocol's
 * checks are the SDK's, the deck supplies who the clients are and what a grant is (tools/oauth). Each is mounted on
 * the app itself at its own path: a router of their own would be entered, and walked, by every request.
 */
export function oauthRoutes(app: Router, s: Services): void {
  const provider: OAuthServerProvider = {
    clientsStore: { getClient: (id) => clientFor(s, id), registerClient: (c) => registerClient(s, c) },
    async authorize(client, params, res) {
      if (!params.resource) throw new InvalidRequestError('resource is required (RFC 8707): the URL of the MCP endpoint the token is for');
      const resource = resourceNamed(s.oauth.resources, params.resource.href);
      if (!resource) {
        throw new InvalidTargetError(`${params.resource.href} is not the deck's: ask for one of ${s.oauth.resources.map((r) => r.url).join(', ')}`);
      }
      const now = s.clock();
      const id = s.oauth.authorizations.open(
        {
          client_id: client.client_id,
          client_name: client.client_name ?? null,
          redirect_uri: params.redirectUri,
          code_challenge: params.codeChallenge,
          state: params.state ?? null,
          resource: resource.path,
          expires_at: now + REQUEST_TTL_MS,
        },
        now,
      );
      // The person answers on the onboarding page, where they join or sign in first.
      res.redirect(302, `${s.urls.base}/join?authorization=${id}`);
    },
    challengeForAuthorizationCode: (client, code) => challengeOf(s, client.client_id, code),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) => exchangeCode(s, client.client_id, code, redirectUri, resource),
    exchangeRefreshToken: (client, token, _scopes, resource) => refresh(s, client.client_id, token, resource),
    verifyAccessToken: async (token) => verifyAccess(s, token),
    revokeToken: (client, request) => revoke(s, client.client_id, request.token),
  };
  // Who the client is was settled by DECK_TRUST_PROXY (req.ip); the limiter need not second-guess a forwarded header.
  const rateLimit = { validate: { xForwardedForHeader: false } };
  app.use('/.well-known/oauth-authorization-server', metadataHandler(authorizationServerMetadata(s)));
  // Longest path first: each is mounted as a prefix, and the root document's path begins every endpoint's.
  for (const r of [...s.oauth.resources].sort((a, b) => b.metadataPath.length - a.metadataPath.length)) {
    app.use(r.metadataPath, metadataHandler(resourceMetadata(r, s.oauth.issuer, `${s.urls.base}/openapi.json`)));
  }
  // The clients, requests and grants are store documents: on a shared store, caught up first (as contextOf does).
  if (s.store.backend.shared) {
    for (const path of Object.values(OAUTH_PATHS)) {
      app.use(path, (_req, _res, next) => void s.store.backend.catchUp().then(() => next(), next));
    }
  }
  // Who asks for a client known by its metadata document, so its fetch ends when they all have. The form is read here
  // (the handlers' own reader then finds it read): the client id is in it, or in the query.
  const asking: RequestHandler = (req, res, next) => {
    const id: unknown = req.method === 'POST' ? (req.body as { client_id?: unknown } | undefined)?.client_id : req.query.client_id;
    if (typeof id === 'string' && metadataUrl(id)) res.once('close', s.oauth.askers.asking(id));
    next();
  };
  for (const path of [OAUTH_PATHS.authorize, OAUTH_PATHS.token, OAUTH_PATHS.revoke]) app.use(path, express.urlencoded({ extended: false }), asking);
  app.use(OAUTH_PATHS.authorize, authorizationHandler({ provider, rateLimit }));
  app.use(OAUTH_PATHS.token, tokenHandler({ provider, rateLimit }));
  app.use(OAUTH_PATHS.register, clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit }));
  app.use(OAUTH_PATHS.revoke, revocationHandler({ provider, rateLimit }));
}
