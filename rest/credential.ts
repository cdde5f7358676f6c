import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';
import { type Caller, type Ctx } from '../services/context.js';
import { callContext, type Services } from '../services/runtime.js';
import { admitCredential, principalFrom, SESSION_COOKIE, type Audience } from '../services/identity/credentials.js';
import type { Principal } from '../core/principal.js';
import { endOf } from './request-end.js';

/** An Authorization header of the Bearer scheme (any case) and what follows the scheme's spaces. */
const BEARER = /^bearer\s+([^]*)$/i;

/** The bearer of an Authorization header, when there is one. */
export function bearerOf(req: Request): string | null {
  const auth = req.headers.authorization;
  const token = auth ? BEARER.exec(auth)?.[1]?.trim() : undefined;
  return token || null;
}

/** The deck_session cookie a browser sent, when there is one. */
function cookieOf(req: Request): string | null {
  const header = req.headers.cookie;
  return header ? (parseCookies(header)[SESSION_COOKIE] ?? null) : null;
}

/** The credential a request carries: the bearer first, then the deck_session cookie. */
export const credentialOf = (req: Request): string | null => bearerOf(req) ?? cookieOf(req);

/**
 * Whether the request's credential is the cookie, the one a browser sends by itself on a request another site's page
 * makes. A bearer is never sent by itself, so a request carrying one is not on the browser's ambient authority.
 */
export const byCookie = (req: Request): boolean => bearerOf(req) === null && cookieOf(req) !== null;

/**
 * The client as express sees it: the socket's address, or the forwarded one when DECK_TRUST_PROXY trusts the proxy.
 * Trusting none (the default), express's answers are the socket's own, read here without its per-request parse of the
 * forwarding headers.
 */
export const callerOf = (s: Services, req: Request): Caller =>
  s.config.trustProxy === false
    ? { address: req.socket.remoteAddress ?? 'unknown', secure: (req.socket as { encrypted?: boolean }).encrypted === true }
    : { address: req.ip ?? req.socket.remoteAddress ?? 'unknown', secure: req.secure };

/** A request's call context, and what became of the credential it came with. */
export interface Admitted {
  ctx: Ctx;
  /** A credential came and did not verify: REST answers 401, MCP -32001 with HTTP 401. */
  refused: boolean;
  /** A refused credential that is a live session bound to another endpoint: where it is bound ("/": every MCP endpoint). */
  boundTo: string | null;
  /** Seconds the client's address rests under the login throttle (0: it does not); its credential was not checked. */
  restingS: number;
}

/**
 * The call context for a request. `guarded` (every route that answers a refused credential with 401, and MCP) checks
 * the credential under the login throttle; an unguarded route (join, login, logout) only reads whose it is. `at` is
 * the MCP endpoint's path, or 'rest' (a session bound to an MCP endpoint is refused there).
 */
export async function contextOf(s: Services, req: Request, guarded: boolean, at: Audience = 'rest'): Promise<Admitted> {
  // On a store many decks share, a request that reads it first catches up with what the others wrote (one query when
  // nothing changed): a write acknowledged by any deck is seen by the next request, whichever deck answers it. The
  // OAuth endpoints, the SDK's handlers, do so on their own paths (oauth.ts); the rest (health, cards, OpenAPI) read
  // no store state a deck holds in memory.
  if (s.store.backend.shared) await s.store.backend.catchUp();
  const caller = callerOf(s, req);
  const value = credentialOf(req);
  let principal: Principal | null = null;
  let restingS = 0;
  let boundTo: string | null = null;
  if (value && guarded) {
    const admitted = await admitCredential(s, caller, value, at);
    if ('principal' in admitted) principal = admitted.principal;
    if ('restingS' in admitted) restingS = admitted.restingS;
    if ('refused' in admitted) boundTo = admitted.boundTo;
  } else if (value) principal = await principalFrom(s, value, 'any');
  const credential = principal && value && principal.via !== 'payment' ? { kind: principal.via, value } : null;
  return { ctx: callContext(s, principal, credential, caller, endOf(req.res!)), refused: value !== null && principal === null && restingS === 0, boundTo, restingS };
}
