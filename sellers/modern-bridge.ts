import type { Request, Response } from 'express';
import type { Ctx } from '../tools/context.js';
import type { McpEndpoint } from './endpoints.js';
import type { ModernCall } from './modern-server.js';

/**
 * Hands a 2026-07-28 request from express to the 2.x SDK's web-standard handler and its answer back. The SDK
 * is loaded on the first such request, so a deck whose clients are all 2025-era never pays for it.
 */
export function modernBridge(base: string, version: string) {
  let handler: Promise<ReturnType<typeof import('./modern-server.js').modernHandler>> | null = null;
  const once = () => (handler ??= import('./modern-server.js').then((m) => m.modernHandler(version)));
  return async (req: Request, res: Response, ctx: Ctx, endpoint: McpEndpoint, toolsets: ReadonlySet<string>, body: unknown, challenge: string): Promise<void> => {
    // The handler reads the parsed body, so the web Request it is handed carries the headers only.
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'content-length') headers.set(k, v);
    const call: ModernCall = { ctx, endpoint, toolsets, seen: { keyRequired: false } };
    const answer = await (await once()).fetch(new Request(`${base}${req.originalUrl}`, { method: 'POST', headers }), {
      parsedBody: body,
      authInfo: { token: '', clientId: 'deck', scopes: [], extra: { ...call } },
    });
    // A call that needed a key and came without one (no URL elicitation to send the person by) is HTTP 401.
    if (call.seen.keyRequired) res.status(401).set('www-authenticate', challenge);
    else res.status(answer.status);
    answer.headers.forEach((v, k) => void (k !== 'transfer-encoding' && k !== 'content-length' && res.setHeader(k, v)));
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
}
