import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';
import type { Caller, Ctx, Services } from '../tools/context.js';
import { principalFrom, SESSION_COOKIE } from '../tools/identity/credentials.js';

/** The credential a request carries: the bearer first, then the deck_session cookie. */
export function credentialOf(req: Request): string | null {
  const auth = req.headers.authorization;
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim() || null;
  const header = req.headers.cookie;
  return header ? (parseCookies(header)[SESSION_COOKIE] ?? null) : null;
}

export const callerOf = (req: Request): Caller => ({ address: req.socket.remoteAddress ?? 'unknown', secure: req.secure });

/**
 * The call context for a request. `refused` is true when a credential came and did not verify: the
 * adapters answer that with 401 (REST) or -32001 with HTTP 401 (MCP).
 */
export async function contextOf(s: Services, req: Request, readCredential = true): Promise<{ ctx: Ctx; refused: boolean }> {
  const value = readCredential ? credentialOf(req) : null;
  const principal = value ? await principalFrom(s, value) : null;
  const credential = principal && value ? { kind: principal.via, value } : null;
  return { ctx: { ...s, principal, credential, caller: callerOf(req) }, refused: value !== null && principal === null };
}
