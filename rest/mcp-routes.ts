import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import type { Services } from '../services/runtime.js';
import { contextOf } from './credential.js';
import { resting } from '../services/identity/login-throttle.js';
import { bodyFailure } from './errors.js';
import { sendJson } from './json-answer.js';
import { answerStream } from './mcp-stream.js';
import { jsonBody, parsedOnPool } from './json-body.js';
import { originAllowed, ownOrigin } from './origin.js';
import { MAX_BATCH_MESSAGES, MIB, runBatch, tooManyMessages } from '../sellers/batch.js';
import { DECK_ENDPOINT, lockedBy, SELLER_ENDPOINTS, type McpEndpoint } from '../sellers/endpoints.js';
import {
  checkMessage,
  idOf,
  INVALID_PARAMS,
  INVALID_REQUEST,
  KEY_REQUIRED,
  LEGACY_REQUESTS,
  PARSE_ERROR,
  replyJson,
  rpcError,
  TOOL_REQUESTS,
  type Reply,
} from '../sellers/json-rpc.js';
import { legacyServer, type LegacyServer } from '../sellers/legacy-server.js';
import type { DeckTasks } from '../sellers/tasks.js';
import { modernBridge, PROTOCOL_META } from '../sellers/modern-bridge.js';
import { SELLER_IDS } from '../config/sellers.js';
import { chooseToolsets } from '../sellers/toolsets.js';
import { challenges } from '../services/oauth/resources.js';
import type { JsonBounds } from '../core/json-bounds.js';

/** The client's address rests under the login throttle (HTTP 429 with Retry-After; error.data.retry_after_s). */
const RESTING = -32005;
/** The largest body the MCP endpoints read. */
const MAX_BODY_BYTES = 4 * MIB;
/**
 * What an MCP body may hold, checked before it is parsed: the deepest tool input inside a batch's envelope (the batch,
 * a message, its params, the arguments), the most entries a tool input holds and room for a full batch's envelopes,
 * and a string as long as the body.
 */
const MCP_BOUNDS: JsonBounds = {
  depth: Math.max(...DECK_ENDPOINT.tools.map((t) => t.bounds.depth)) + 4,
  entries: Math.max(...DECK_ENDPOINT.tools.map((t) => t.bounds.entries)) + 8 * MAX_BATCH_MESSAGES,
  string: MAX_BODY_BYTES,
};

/** The first protocol of the era whose requests carry their own envelope in _meta. */
const MODERN_PROTOCOL = '2026-07-28';

/** A message of the 2026-07-28 era claims its protocol in params._meta (the 2025 era never does). */
const claimsModern = (m: unknown): boolean =>
  typeof (m as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta?.[PROTOCOL_META] === 'string';

/** How a client chooses what tools/list shows, said where the endpoint describes itself. */
export const TOOLSETS_RULE =
  'tools/list shows the toolsets the endpoint URL names, as ?toolsets=book,agent (all: every toolset; default: the ones a bare URL lists); ' +
  'tools/call serves every tool of the endpoint by name, listed or not. Each toolset is the OpenAPI tag of the same name.';

export const AUTH_RULE =
  'initialize, ping, tools/list, notifications, prompts/list, resources/list and resources/templates/list answer without a key; ' +
  'so do the keyless tools. Every other tools/call needs "Authorization: Bearer <deck_session value or key>" or the deck_session cookie.';

/** Whether an answer is the -32001 of a call that needs a key. */
const keyRequired = (reply: Reply): boolean => 'error' in reply && reply.error.code === KEY_REQUIRED;

const MCP_PATHS = ['/mcp', '/mcp/:seller'];

/**
 * POST /mcp and /mcp/{seller}: stateless JSON-RPC over HTTP, one JSON answer (an array for a batch); GET describes the
 * endpoint. The routes go on the app itself, and a POST passes through one route handler that admits, reads and
 * answers: a router of their own and a handler per step would each be one more dispatch through express per request.
 */
export function mcpRoutes(app: Router, s: Services, version: string, tasks: DeckTasks): void {
  // The endpoints as this deck serves them: tools/list follows its plans file's tier locks.
  const deckEndpoint = lockedBy(DECK_ENDPOINT, s.offer.locks);
  const sellerEndpoints = new Map([...SELLER_ENDPOINTS].map(([id, e]) => [id, lockedBy(e, s.offer.locks)]));
  const endpoints = [deckEndpoint, ...sellerEndpoints.values()];
  const servers = new Map<McpEndpoint, LegacyServer>();
  for (const e of endpoints) servers.set(e, legacyServer(e, version, tasks));
  const modernAnswer = modernBridge(s.urls.base, version);
  // What a 401 from each endpoint says beside its -32001 (RFC 9728): where its Protected Resource Metadata is.
  const challenge = new Map(endpoints.map((e) => [e, challenges(s.urls.base, s.oauth.resources.find((r) => r.path === e.path)!)]));
  // Browser Origins allowed here: DECK_ORIGINS, or the deck's own when it is not set.
  const origins = s.config.origins ?? [ownOrigin(s)];

  const endpointOf = (req: Request, res: Response): McpEndpoint | null => {
    const seller = req.params.seller;
    if (seller === undefined) return deckEndpoint;
    const e = sellerEndpoints.get(String(seller));
    if (!e) res.status(404).json({ ok: false, error: 'unknown_seller', message: `no seller ${String(seller)}`, sellers: SELLER_IDS });
    return e ?? null;
  };

  /** The endpoint and the toolsets its tools/list shows; a toolsets parameter that names none it has is refused (400). */
  const viewOf = (req: Request, res: Response, refuse: (message: string, e: McpEndpoint) => void) => {
    const e = endpointOf(req, res);
    if (!e) return null;
    const choice = chooseToolsets(req.query.toolsets, e.toolsets, e.defaults);
    if (!choice.ok) {
      refuse(choice.message, e);
      return null;
    }
    return { e, toolsets: choice.toolsets };
  };
  const rpcRefusal = (res: Response) => (message: string) => void res.status(400).json(rpcError(null, INVALID_PARAMS, message));

  // The endpoint and the Origin are settled before the body is read, so neither answer depends on the body.
  const admitted = (req: Request, res: Response): boolean => {
    if (!viewOf(req, res, rpcRefusal(res))) return false;
    if (!originAllowed(req.headers.origin, origins)) {
      res.status(403).json(rpcError(null, INVALID_REQUEST, `Origin ${req.headers.origin} is not on the allowlist`));
      return false;
    }
    return true;
  };

  const describe = (req: Request, res: Response) => {
    const view = viewOf(req, res, (message, e) =>
      res.status(400).json({ ok: false, error: 'invalid_toolsets', message, toolsets: [...e.toolsets.keys()] }),
    );
    if (!view) return;
    const { e, toolsets } = view;
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
      // Every tool the endpoint serves; tools/list shows those of the listed toolsets.
      tools: e.tools.map((t) => t.name),
      toolsets: Object.fromEntries(e.toolsets),
      default_toolsets: e.defaults,
      listed_toolsets: [...e.toolsets.keys()].filter((n) => toolsets.has(n)),
      toolsets_rule: TOOLSETS_RULE,
      // Tools a tier locks: tools/list shows them only to callers whose tier opens them.
      tier_locked: Object.fromEntries(e.tools.filter((t) => e.locks.has(t.name)).map((t) => [t.name, e.locks.get(t.name)])),
    });
  };

  const handle = async (req: Request, res: Response) => {
    const { e, toolsets } = viewOf(req, res, rpcRefusal(res))!;
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
    const { ctx, refused, boundTo, restingS } = await contextOf(s, req, true, e.path);
    const challenged = challenge.get(e)!;
    if (restingS > 0) {
      const { message, details } = resting(restingS);
      const answers = messages.filter((m) => idOf(m) !== null).map((m) => rpcError(idOf(m), RESTING, message, details));
      res.status(429).set('retry-after', String(details.retry_after_s));
      res.json(batch ? answers : (answers[0] ?? rpcError(null, RESTING, message, details)));
      return;
    }
    if (refused) {
      // A token bound to another endpoint is told where it is bound: the client asks for one for this endpoint.
      const why =
        boundTo === null
          ? 'the bearer did not verify'
          : `the bearer is bound to another endpoint, ${boundTo}, not ${e.path}: use it there, or get a token for ${s.urls.base}${e.path} (its OAuth resource)`;
      const answers = messages.filter((m) => idOf(m) !== null).map((m) => rpcError(idOf(m), KEY_REQUIRED, why));
      res.status(401).set('www-authenticate', challenged.invalid);
      res.json(batch ? answers : (answers[0] ?? rpcError(null, KEY_REQUIRED, why)));
      return;
    }
    const header = req.headers['mcp-protocol-version'];
    const modern = messages.some(claimsModern) || (typeof header === 'string' && header >= MODERN_PROTOCOL);
    const server = servers.get(e)!;
    if (!batch) {
      // A lone message that is not JSON-RPC is a bad request; one whose params are malformed is answered as a call.
      const checked = checkMessage(body, modern ? TOOL_REQUESTS : LEGACY_REQUESTS, e.argumentBounds);
      if (!checked.ok) {
        res.status(checked.refusal.error.code === INVALID_REQUEST ? 400 : 200).json(checked.refusal);
        return;
      }
      if (modern) return modernAnswer(req, res, ctx, e, toolsets, body, challenged.missing);
      const stream = answerStream(req, res, checked.message);
      const reply = await server.dispatch(checked.message, ctx, toolsets, stream.hear);
      if (reply === null) res.status(202).end();
      else if (stream.end(replyJson(reply))) return;
      else {
        // A call that needs a key and came without one is HTTP 401: an OAuth client signs in by the header, another
        // reads the join step in the body.
        if (keyRequired(reply)) res.status(401).set('www-authenticate', challenged.missing);
        sendJson(req, res, replyJson(reply));
      }
      return;
    }
    // Protocol 2026-07-28 has no batches: the 2.x line refuses them in its own words.
    if (modern) return modernAnswer(req, res, ctx, e, toolsets, body, challenged.missing);
    // A batch answers each call in its place (HTTP 200); one that needed a key adds the header for OAuth clients.
    let needsKey = false;
    const replies = await runBatch(messages, async (m) => {
      const checked = checkMessage(m, LEGACY_REQUESTS, e.argumentBounds);
      const reply = checked.ok ? await server.dispatch(checked.message, ctx, toolsets) : checked.refusal;
      if (reply && keyRequired(reply)) needsKey = true;
      return reply;
    });
    if (needsKey) res.set('www-authenticate', challenged.missing);
    if (replies.length === 0) res.status(202).end();
    else sendJson(req, res, `[${replies.join(',')}]`);
  };

  // A body that cannot be read is a JSON-RPC error with the REST refusal's status, never an HTML page or the REST
  // form: -32700 when no JSON could be had from it (not JSON, or not the encoding it claims), -32600 otherwise (a
  // malformed content-type among them: the body was never read).
  const parseFailure: ErrorRequestHandler = (err, req, res, next) => {
    const failure = bodyFailure(err, req);
    if (!failure) return next(err);
    const code = failure.status === 400 && failure.code !== 'bad_content_type' ? PARSE_ERROR : INVALID_REQUEST;
    const message = failure.status === 413 && failure.details.bounds === undefined ? `the body is over the MCP endpoints' cap of ${MAX_BODY_BYTES / MIB} MiB` : failure.message;
    res.status(failure.status).json(rpcError(null, code, code === PARSE_ERROR ? `Parse error: ${message}` : message));
  };

  const json = jsonBody(MAX_BODY_BYTES, MCP_BOUNDS, parsedOnPool(s.pool));
  const post: RequestHandler = (req, res, next) => {
    if (!admitted(req, res)) return;
    json(req, res, (err?: unknown) => (err ? parseFailure(err, req, res, next) : void handle(req, res).catch(next)));
  };
  app.get(MCP_PATHS, describe);
  app.post(MCP_PATHS, post);
}
