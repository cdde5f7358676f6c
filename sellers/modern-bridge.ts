import type { Request, Response } from 'express';
import type { Ctx } from '../services/context.js';
import type { McpEndpoint } from './endpoints.js';
import type { ModernCall } from './modern-server.js';
import { instructionsFor } from './instructions.js';

/** Where a 2026-07-28 request declares its protocol: params._meta[PROTOCOL_META]. */
export const PROTOCOL_META = 'io.modelcontextprotocol/protocolVersion';
/** The body field Mcp-Name repeats, per method (the 2026-07-28 transport's table). */
const NAMED_BY: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** A header value as the transport carries it: as is when it is plain visible ASCII, else in its base64 sentinel. */
const headerValue = (v: string): string => (/^[\x21-\x7e]+$/.test(v) ? v : `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`);

/**
 * The standard headers of a 2026-07-28 request (MCP-Protocol-Version, Mcp-Method, Mcp-Name) that its body states
 * and the client left out. The contract serves a client on the protocol its request declares in params._meta, and
 * the body holds everything those headers repeat, so a request declaring it there alone is served; the 2.x handler
 * would refuse it with -32020 for the missing header. A header the client did send is passed on as sent: one that
 * disagrees with the body is still refused.
 */
function headersStatedInBody(body: unknown, sent: Headers): [string, string][] {
  const m = body as { id?: unknown; method?: unknown; params?: Record<string, unknown> & { _meta?: Record<string, unknown> } } | null;
  const version = m?.params?._meta?.[PROTOCOL_META];
  if (typeof m !== 'object' || m === null || m.id === undefined || typeof m.method !== 'string' || typeof version !== 'string') return [];
  const field = NAMED_BY[m.method];
  const name = field === undefined ? undefined : m.params?.[field];
  const stated: [string, string | undefined][] = [
    ['mcp-protocol-version', version],
    ['mcp-method', m.method],
    ['mcp-name', typeof name === 'string' ? name : undefined],
  ];
  return stated.filter((h): h is [string, string] => h[1] !== undefined && !sent.has(h[0])).map(([k, v]) => [k, headerValue(v)]);
}

/** The instructions server/discover answers (the only 2026-07-28 answer that carries them); no other request reads the tape's holdings for them. */
const describes = async (body: unknown, e: McpEndpoint, ctx: Ctx): Promise<string> =>
  (body as { method?: unknown } | null)?.method === 'server/discover' ? instructionsFor(e, ctx) : '';

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
    for (const [k, v] of headersStatedInBody(body, headers)) headers.set(k, v);
    const call: ModernCall = { ctx, endpoint, toolsets, instructions: await describes(body, endpoint, ctx), seen: { keyRequired: false } };
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
