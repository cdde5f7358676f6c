import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../tools/context.js';
import { contextOf } from '../rest/credential.js';
import { DECK_ENDPOINT, SELLER_ENDPOINTS, type McpEndpoint } from './endpoints.js';
import { KEY_REQUIRED, legacyServer, type LegacyServer } from './legacy-server.js';
import { modernBridge } from './modern-bridge.js';
import { SELLER_IDS } from './sellers.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

const rpcError = (id: RequestId | null, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0' as const,
  id,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});

type Reply = JSONRPCMessage | ReturnType<typeof rpcError>;

const PROTOCOL_META = 'io.modelcontextprotocol/protocolVersion';
/** The first protocol of the era whose requests carry their own envelope in _meta. */
const MODERN_PROTOCOL = '2026-07-28';

/** A message of the 2026-07-28 era claims its protocol in params._meta (the 2025 era never does). */
const claimsModern = (m: unknown): boolean =>
  typeof (m as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta?.[PROTOCOL_META] === 'string';

const idOf = (m: unknown): RequestId | null => {
  const id = (m as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

export const AUTH_RULE =
  'initialize, ping, tools/list, notifications, prompts/list, resources/list and resources/templates/list answer without a key; ' +
  'so do the keyless tools. Every other tools/call needs "Authorization: Bearer <deck_session value or key>" or the deck_session cookie.';

/** Whether a browser Origin may call the MCP endpoints (calls without an Origin are not from a browser page). */
function originAllowed(s: Services, origin: string | undefined): boolean {
  if (!origin) return true;
  const allowed = s.config.origins ?? [new URL(s.urls.base).origin];
  return allowed.includes(origin);
}

/** POST /mcp and /mcp/{seller}: stateless JSON-RPC over HTTP, one JSON answer (an array for a batch). */
export async function mcpRouter(s: Services, version: string): Promise<Router> {
  const servers = new Map<McpEndpoint, LegacyServer>();
  for (const e of [DECK_ENDPOINT, ...SELLER_ENDPOINTS.values()]) servers.set(e, await legacyServer(e, version));
  const modern = modernBridge(s.urls.base, version);

  const endpointOf = (req: Request, res: Response): McpEndpoint | null => {
    const seller = req.params.seller;
    if (seller === undefined) return DECK_ENDPOINT;
    const e = SELLER_ENDPOINTS.get(String(seller));
    if (!e) res.status(404).json({ ok: false, error: 'unknown_seller', message: `no seller ${String(seller)}`, sellers: SELLER_IDS });
    return e ?? null;
  };

  // The endpoint and the Origin are settled before the body is read, so neither answer depends on the body.
  const admit = (req: Request, res: Response, next: () => void) => {
    if (!endpointOf(req, res)) return;
    if (!originAllowed(s, req.headers.origin)) {
      res.status(403).json(rpcError(null, INVALID_REQUEST, `Origin ${req.headers.origin} is not on the allowlist`));
      return;
    }
    next();
  };

  const describe = (req: Request, res: Response) => {
    const e = endpointOf(req, res);
    if (!e) return;
    // A GET asking only for an event stream is a client looking for server-sent events: a stateless endpoint has none.
    if (req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream' && !req.accepts('application/json')) {
      res.status(405).set('allow', 'POST').json({ ok: false, error: 'no_stream', message: 'this endpoint is stateless: POST JSON-RPC to it' });
      return;
    }
    res.json({
      ok: true,
      name: e.name,
      endpoint: `${s.urls.base}${e.path}`,
      transport: 'streamable-http, stateless: one POST, one application/json answer; batches answer an array; notifications answer 202',
      auth: AUTH_RULE,
      join_url: s.urls.join,
      tools: e.tools.map((t) => t.name),
      // Tools a tier locks: tools/list shows them only to callers whose tier opens them.
      tier_locked: Object.fromEntries(e.tools.filter((t) => t.tier).map((t) => [t.name, t.tier])),
    });
  };

  const handle = async (req: Request, res: Response) => {
    const e = endpointOf(req, res)!;
    const body: unknown = req.body;
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    if (messages.length === 0) {
      res.status(400).json(rpcError(null, INVALID_REQUEST, 'an empty batch'));
      return;
    }
    const { ctx, refused } = await contextOf(s, req);
    if (refused) {
      const answers = messages.filter((m) => idOf(m) !== null).map((m) => rpcError(idOf(m), KEY_REQUIRED, 'the bearer did not verify'));
      res.status(401).json(batch ? answers : (answers[0] ?? rpcError(null, KEY_REQUIRED, 'the bearer did not verify')));
      return;
    }
    const header = req.headers['mcp-protocol-version'];
    if (messages.some(claimsModern) || (typeof header === 'string' && header >= MODERN_PROTOCOL)) return modern(req, res, ctx, e, body);
    const server = servers.get(e)!;
    const answers = await Promise.all(
      messages.map((m): Promise<Reply | null> | Reply => {
        const parsed = JSONRPCMessageSchema.safeParse(m);
        if (!parsed.success) return rpcError(idOf(m), INVALID_REQUEST, 'not a JSON-RPC 2.0 message');
        return server.dispatch(parsed.data, ctx);
      }),
    );
    const replies = answers.filter((a): a is Reply => a !== null);
    if (replies.length === 0) res.status(202).end();
    else res.json(batch ? replies : replies[0]);
  };

  // A body that does not parse is JSON-RPC -32700, never an HTML page or the REST error form.
  const parseFailure: ErrorRequestHandler = (err, _req, res, next) => {
    if ((err as { type?: string }).type === 'entity.parse.failed') res.status(400).json(rpcError(null, PARSE_ERROR, 'Parse error: the body is not JSON'));
    else next(err);
  };

  const router = express.Router();
  const json = express.json({ type: () => true, limit: '4mb', strict: false });
  router.get(['/mcp', '/mcp/:seller'], describe);
  router.post(['/mcp', '/mcp/:seller'], admit, json, handle, parseFailure);
  return router;
}
