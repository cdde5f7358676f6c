import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import type { Services } from '../tools/context.js';
import { contextOf } from '../rest/credential.js';
import { resting } from '../tools/identity/login-throttle.js';
import { bodyFailure } from '../rest/errors.js';
import { sendJson } from '../rest/json-answer.js';
import { jsonBody } from '../rest/json-body.js';
import { originAllowed, ownOrigin } from '../rest/origin.js';
import { MAX_BATCH_MESSAGES, MIB, runBatch, tooManyMessages } from './batch.js';
import { DECK_ENDPOINT, SELLER_ENDPOINTS, type McpEndpoint } from './endpoints.js';
import {
  checkMessage,
  idOf,
  INVALID_REQUEST,
  KEY_REQUIRED,
  LEGACY_REQUESTS,
  PARSE_ERROR,
  replyJson,
  rpcError,
  TOOL_REQUESTS,
  type Reply,
} from './json-rpc.js';
import { legacyServer, type LegacyServer } from './legacy-server.js';
import { modernBridge } from './modern-bridge.js';
import { SELLER_IDS } from './sellers.js';

/** The client's address rests under the login throttle (HTTP 429 with Retry-After; error.data.retry_after_s). */
const RESTING = -32005;
/** The largest body the MCP endpoints read. */
const MAX_BODY_BYTES = 4 * MIB;

const PROTOCOL_META = 'io.modelcontextprotocol/protocolVersion';
/** The first protocol of the era whose requests carry their own envelope in _meta. */
const MODERN_PROTOCOL = '2026-07-28';

/** A message of the 2026-07-28 era claims its protocol in params._meta (the 2025 era never does). */
const claimsModern = (m: unknown): boolean =>
  typeof (m as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta?.[PROTOCOL_META] === 'string';

export const AUTH_RULE =
  'initialize, ping, tools/list, notifications, prompts/list, resources/list and resources/templates/list answer without a key; ' +
  'so do the keyless tools. Every other tools/call needs "Authorization: Bearer <deck_session value or key>" or the deck_session cookie.';

const MCP_PATHS = ['/mcp', '/mcp/:seller'];


/**
 * POST /mcp and /mcp/{seller}: stateless JSON-RPC over HTTP, one JSON answer (an array for a batch); GET describes the
 * endpoint. The routes go on the app itself, and a POST passes through one route handler that admits, reads and
 * answers: a router of their own and a handler per step would each be one more dispatch through express per request.
 */
export function mcpRoutes(app: Router, s: Services, version: string): void {
  const servers = new Map<McpEndpoint, LegacyServer>();
  for (const e of [DECK_ENDPOINT, ...SELLER_ENDPOINTS.values()]) servers.set(e, legacyServer(e, version));
  const modernAnswer = modernBridge(s.urls.base, version);
  // Browser Origins allowed here: DECK_ORIGINS, or the deck's own when it is not set.
  const origins = s.config.origins ?? [ownOrigin(s)];

  const endpointOf = (req: Request, res: Response): McpEndpoint | null => {
    const seller = req.params.seller;
    if (seller === undefined) return DECK_ENDPOINT;
    const e = SELLER_ENDPOINTS.get(String(seller));
    if (!e) res.status(404).json({ ok: false, error: 'unknown_seller', message: `no seller ${String(seller)}`, sellers: SELLER_IDS });
    return e ?? null;
  };

  // The endpoint and the Origin are settled before the body is read, so neither answer depends on the body.
  const admitted = (req: Request, res: Response): boolean => {
    if (!endpointOf(req, res)) return false;
    if (!originAllowed(req.headers.origin, origins)) {
      res.status(403).json(rpcError(null, INVALID_REQUEST, `Origin ${req.headers.origin} is not on the allowlist`));
      return false;
    }
    return true;
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
    });
  };

  const handle = async (req: Request, res: Response) => {
    const e = endpointOf(req, res)!;
    const body: unknown = req.body;
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    if (messages.length === 0) {
      res.status(400).json(rpcError(null, INVALID_REQUEST, 'an empty batch: send at least one JSON-RPC message'));
      return;
    }
    // Counted before anything else is done for the batch, the bearer's check included.
    if (messages.length > MAX_BATCH_MESSAGES) {
      res.status(413).json(tooManyMessages(messages.length));
      return;
    }
    const { ctx, refused, restingS } = await contextOf(s, req, true);
    if (restingS > 0) {
      const { message, details } = resting(restingS);
      const answers = messages.filter((m) => idOf(m) !== null).map((m) => rpcError(idOf(m), RESTING, message, details));
      res.status(429).set('retry-after', String(details.retry_after_s));
      res.json(batch ? answers : (answers[0] ?? rpcError(null, RESTING, message, details)));
      return;
    }
    if (refused) {
      const answers = messages.filter((m) => idOf(m) !== null).map((m) => rpcError(idOf(m), KEY_REQUIRED, 'the bearer did not verify'));
      res.status(401).json(batch ? answers : (answers[0] ?? rpcError(null, KEY_REQUIRED, 'the bearer did not verify')));
      return;
    }
    const header = req.headers['mcp-protocol-version'];
    const modern = messages.some(claimsModern) || (typeof header === 'string' && header >= MODERN_PROTOCOL);
    const server = servers.get(e)!;
    if (!batch) {
      // A lone message that is not JSON-RPC is a bad request; one whose params are malformed is answered as a call.
      const checked = checkMessage(body, modern ? TOOL_REQUESTS : LEGACY_REQUESTS);
      if (!checked.ok) {
        res.status(checked.refusal.error.code === INVALID_REQUEST ? 400 : 200).json(checked.refusal);
        return;
      }
      if (modern) return modernAnswer(req, res, ctx, e, body);
      const reply = await server.dispatch(checked.message, ctx);
      if (reply === null) res.status(202).end();
      else sendJson(req, res, replyJson(reply));
      return;
    }
    // Protocol 2026-07-28 has no batches: the 2.x line refuses them in its own words.
    if (modern) return modernAnswer(req, res, ctx, e, body);
    const replies = await runBatch(messages, (m) => {
      const checked = checkMessage(m, LEGACY_REQUESTS);
      return checked.ok ? server.dispatch(checked.message, ctx) : checked.refusal;
    });
    if (replies.length === 0) res.status(202).end();
    else sendJson(req, res, `[${replies.join(',')}]`);
  };

  // A body that cannot be read is a JSON-RPC error with the REST refusal's status, never an HTML page or the REST
  // form: -32700 when no JSON could be had from it (not JSON, or not the encoding it claims), -32600 otherwise.
  const parseFailure: ErrorRequestHandler = (err, req, res, next) => {
    const failure = bodyFailure(err, req);
    if (!failure) return next(err);
    const code = failure.status === 400 ? PARSE_ERROR : INVALID_REQUEST;
    const message = failure.status === 413 ? `the body is over the MCP endpoints' cap of ${MAX_BODY_BYTES / MIB} MiB` : failure.message;
    res.status(failure.status).json(rpcError(null, code, code === PARSE_ERROR ? `Parse error: ${message}` : message));
  };

  const json = jsonBody(MAX_BODY_BYTES);
  const post: RequestHandler = (req, res, next) => {
    if (!admitted(req, res)) return;
    json(req, res, (err?: unknown) => (err ? parseFailure(err, req, res, next) : void handle(req, res).catch(next)));
  };
  app.get(MCP_PATHS, describe);
  app.post(MCP_PATHS, post);
}
