import { z } from 'zod';
import { CardsSchema, DeckRegistrationSchema, SellerCardSchema } from '../cards/schema.js';
import { SELLER_IDS } from '../config/sellers.js';
import { Address, Hex32, IsoTime, Sha256Hex, UnixS } from '../core/schemas.js';
import { MARKETS, TIMEFRAMES } from '../engine/markets.js';
import { DEFAULT_TOOLSETS, toolsetsOf } from '../sellers/toolsets.js';
import type { Tool } from '../tools/define.js';
import { TOOLSETS } from '../tools/toolsets.js';
import { credentialStatuses, routeStatuses, type StatusFacts } from './statuses.js';
import { shareSchemas } from './openapi-components.js';
import { withoutSafeBounds } from './openapi-integers.js';
import { shareParameters } from './openapi-parameters.js';

type Schema = Record<string, unknown>;

const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted (a notification)', 400: 'The body is not JSON (or not the content-encoding it claims), the path has a bad percent-escape, or, where the route says so, an input failed its rule', 401: 'Sign in with POST /login first',
  402: 'No funding', 403: 'Forbidden (upgrade_required names the tier, or the Origin is refused)', 404: 'No such item of yours',
  405: 'No stream on a stateless endpoint', 409: 'Conflict', 413: 'Over the size cap', 415: 'Unsupported media type or content-encoding',
  422: 'An input failed its rule (problems names each field)', 429: 'A limit was reached (Retry-After says when to come back)',
  500: 'The deck failed (an engine failure is carried; anything else is logged, not shown)',
  502: 'An upstream refused or answered nonsense', 503: 'An upstream is not configured or cannot be reached',
};

const ERROR = { $ref: '#/components/schemas/Error' };
const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
const reply = (status: number, schema: Schema = { type: 'object' }) => [String(status), { description: REASONS[status] ?? 'Answer', ...json(schema) }] as const;
/**
 * A refusal in the error form: one shared response per status, named by its status alone (components.responses.409);
 * a route lists each it can answer, so the name is written some six hundred times.
 */
const refused = (status: number) => [String(status), { $ref: `#/components/responses/${status}` }] as const;
/** A JSON-RPC message as an MCP endpoint answers or takes it: one shared schema. */
const RPC = { $ref: '#/components/schemas/JsonRpc' };
/** A refusal an MCP endpoint answers in JSON-RPC (a transport's refusal is a JSON-RPC error): one shared response per status. */
const refusedRpc = (status: number) => [String(status), { $ref: `#/components/responses/JsonRpc${status}` }] as const;

/** The refusals the paths refer to, each stated once. */
function refusalsIn(paths: unknown): Record<string, Schema> {
  const names = [...new Set([...JSON.stringify(paths).matchAll(/"#\/components\/responses\/((?:JsonRpc)?\d+)"/g)].map((m) => m[1]!))];
  const status = (name: string) => Number(name.replace('JsonRpc', ''));
  return Object.fromEntries(
    names
      .sort((a, b) => Number(a.startsWith('JsonRpc')) - Number(b.startsWith('JsonRpc')) || status(a) - status(b))
      .map((name) => [name, { description: REASONS[status(name)] ?? 'Refused', ...json(name.startsWith('JsonRpc') ? RPC : ERROR) }]),
  );
}

/** A session or a key: the document's own security, which an operation that says nothing of its own needs. */
const SESSION = [{ deckSession: [] }, { deckKey: [] }];
/** An operation's security where it is not the document's: none, or optional (a credential, if sent, must verify). */
const securityOf = (access: Tool['access']) => (access === 'session' ? {} : { security: access === 'none' ? [] : [{}, ...SESSION] });

/**
 * A schema with its $defs (a recursive schema's definitions) moved into components.schemas as <prefix>.<name>:
 * inside an OpenAPI document a $ref resolves against the document, not the fragment it sits in.
 */
function hoisted(schema: Schema, prefix: string, components: Record<string, Schema>): Schema {
  const { $defs, ...rest } = schema as Schema & { $defs?: Record<string, Schema> };
  if (!$defs) return schema;
  const moved = <T>(x: T): T => JSON.parse(JSON.stringify(x).replaceAll('"#/$defs/', `"#/components/schemas/${prefix}.`)) as T;
  for (const [name, def] of Object.entries($defs)) components[`${prefix}.${name}`] = moved(def);
  return moved(rest);
}

/**
 * The success response's body: the tool's output schema, less the session a route moves into the deck_session cookie
 * (it never sits in the body REST sends).
 */
function answerSchema(tool: Tool, components: Record<string, Schema>): Schema {
  const schema = hoisted(tool.outputSchema, `${tool.name}.answer`, components);
  if (tool.rest!.cookie !== 'set') return schema;
  const { session: _cookie, ...properties } = schema.properties as Record<string, Schema>;
  return { ...schema, properties, required: (schema.required as string[]).filter((k) => k !== 'session') };
}

function operationOf(tool: Tool, components: Record<string, Schema>, facts: StatusFacts) {
  const rest = tool.rest!;
  const { $schema: _dialect, ...inputSchema } = hoisted(tool.inputSchema, tool.name, components);
  const pathParams = [...rest.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const props = (inputSchema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((inputSchema.required as string[] | undefined) ?? []);
  const inQuery = rest.method !== 'POST' ? Object.keys(props).filter((k) => !pathParams.includes(k)) : [];
  const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k)));
  const parameters = [
    ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } })),
    // A query parameter is optional unless it says required (OpenAPI's default).
    ...inQuery.map((name) => ({ name, in: 'query', ...(required.has(name) ? { required: true } : {}), schema: props[name] ?? {} })),
  ];
  const body =
    rest.method === 'POST' && rest.body !== 'none'
      ? { requestBody: { required: true, ...json({ ...inputSchema, properties: bodyProps, required: [...required].filter((k) => !pathParams.includes(k)) }) } }
      : {};
  return {
    operationId: tool.name,
    tags: [tool.toolset.id],
    summary: tool.title,
    description: tool.description,
    ...securityOf(tool.access),
    ...(parameters.length ? { parameters } : {}),
    ...body,
    responses: Object.fromEntries([reply(rest.status ?? 200, answerSchema(tool, components)), ...routeStatuses(tool, facts).map((s) => refused(s))]),
    ...(tool.surface === 'both' ? { 'x-mcp-tool': tool.name } : {}),
  };
}

/** The document's sections, the toolsets' and two of routes no tool makes: every operation is under one (a test holds it). */
export const TAGS = [
  ...Object.values(TOOLSETS).map((t) => ({ name: t.id, description: t.description })),
  { name: 'mcp', description: "The MCP endpoints: the deck's own (every tool; tools/list shows the toolsets ?toolsets= names) and one per seller." },
  { name: 'cards', description: "How the deck is described: the seller cards (ERC-8004 registration files, also the coordination layer's cards) and this document." },
] as const;

const schemaOf = (schema: z.ZodType): Schema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Schema;
  return rest;
};
/** The deck's wire types and its markets and timeframes: a shared shape that is one of them is named for it. */
export const NAMED_TYPES = Object.fromEntries(
  Object.entries({ Address, Hex32, IsoTime, Sha256Hex, UnixS, Market: z.enum(MARKETS), Timeframe: z.enum(TIMEFRAMES) }).map(([name, schema]) => [name, schemaOf(schema)]),
);
const CARD = schemaOf(SellerCardSchema);
const CARDS = schemaOf(CardsSchema);
const REGISTRATION = schemaOf(DeckRegistrationSchema);
const LAST = { type: ['object', 'null'], properties: { outcome: { enum: ['ok', 'refused', 'unreachable'] }, status: { type: ['integer', 'null'] }, at: { type: 'string', format: 'date-time' }, ms: { type: 'integer' } }, required: ['outcome', 'status', 'at', 'ms'] };
const READY = {
  type: 'object',
  required: ['ok', 'ready', 'store', 'upstreams'],
  properties: {
    ok: { type: 'boolean' },
    ready: { type: 'boolean' },
    store: { type: 'object', required: ['writable'], properties: { writable: { type: 'boolean' }, why: { type: 'string' } }, additionalProperties: false },
    upstreams: {
      type: 'array',
      items: { type: 'object', required: ['upstream', 'variable', 'last'], properties: { upstream: { type: 'string' }, variable: { type: 'string' }, last: LAST }, additionalProperties: false },
      description: "every configured upstream, the variable that configured it and its last answer since start (null: not asked yet)",
    },
  },
  additionalProperties: false,
};
/** Every plate's JSON opens with how, of what and where it was drawn; each style adds the numbers it was drawn from. */
const PLATE_JSON = {
  type: 'object',
  required: ['style', 'market', 'tf', 'from', 'to', 'size'],
  properties: {
    style: { type: 'string' },
    market: { type: 'string' },
    tf: { type: 'string' },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    size: { type: 'object', required: ['width', 'height'], properties: { width: { type: 'integer' }, height: { type: 'integer' } } },
    bars: { type: 'object', description: 'the drawn bars: count, first_t, last_t, digest (sha256 of their columns), last' },
    price: { type: 'object', description: 'low, high, decimals' },
    volume: { type: 'object' },
    indicators: { type: 'array', items: { type: 'object' } },
    marks: { type: 'array', items: { type: 'object', properties: { kind: { enum: ['level', 'zone'] }, placed: { type: 'string' } } } },
  },
};

/** Routes that are not tools: the MCP endpoints, the cards and this document. */
function fixedPaths(facts: StatusFacts): Record<string, Schema> {
  // What the routes that read the caller's credential (the MCP endpoints, /auth/x, /metrics) add on this deck.
  const credential = credentialStatuses(facts);
  const seller = { name: 'seller', in: 'path', required: true, schema: { type: 'string', enum: SELLER_IDS } };
  const toolsets = {
    name: 'toolsets',
    in: 'query',
    description:
      `The toolsets tools/list shows, comma-separated (the tags of the same names), or all; default names the ones a bare URL lists (on /mcp: ${DEFAULT_TOOLSETS.join(', ')}; on a seller's endpoint: all its own). ` +
      'A name the endpoint does not have is 400. tools/call serves every tool of the endpoint by name, listed or not.',
    schema: { type: 'string', examples: ['book,agent', 'all'] },
  };
  const mcpPost = (params: Schema[]) => ({
    tags: ['mcp'],
    summary: 'MCP over stateless Streamable HTTP: one POST, one application/json answer',
    security: [{}, ...SESSION],
    parameters: [...params, toolsets],
    requestBody: { required: true, ...json(RPC) },
    responses: Object.fromEntries([
      reply(200, RPC),
      ['202', { description: REASONS[202] }],
      ...[400, 401, 403, 413, 415, 429].map((status) => refusedRpc(status)),
      ...(params.length ? [refused(404)] : []),
      ...[...credential, 500].map((status) => refused(status)),
    ]),
  });
  const mcpGet = (params: Schema[]) => ({
    tags: ['mcp'],
    summary: 'The endpoint: name, transport, auth rule, tool names and toolsets',
    security: [],
    parameters: [...params, toolsets],
    responses: Object.fromEntries([reply(200), refused(400), refused(405), ...(params.length ? [refused(404)] : [])]),
  });
  return {
    '/mcp': { get: mcpGet([]), post: mcpPost([]) },
    '/mcp/{seller}': { get: mcpGet([seller]), post: mcpPost([seller]) },
    '/cards': { get: { tags: ['cards'], summary: 'Every seller card', security: [], responses: Object.fromEntries([reply(200, CARDS), refused(500)]) } },
    '/cards/{seller}': {
      get: { tags: ['cards'], summary: "A seller's card (an ERC-8004 registration file)", security: [], parameters: [seller], responses: Object.fromEntries([reply(200, CARD), ...[400, 404, 500].map((st) => refused(st))]) },
    },
    '/.well-known/agent-registration.json': {
      get: {
        tags: ['cards'],
        summary: "ERC-8004's endpoint-domain proof: the deck's registration file, with every seller's registrations",
        description:
          'The domain hosts one agent per seller, each registered with its own card (GET /cards/{seller}) as its agentURI; a verifier of any of them finds its { agentId, agentRegistry } in registrations here. `agents` names the card each belongs to.',
        security: [],
        responses: Object.fromEntries([reply(200, REGISTRATION), reply(500, ERROR)]),
      },
    },
    '/auth/x': {
      get: {
        tags: ['identity'],
        summary: 'Sign in with X: a redirect to X\'s authorize URL (OAuth 2.0 with PKCE)',
        description: 'Sets the state as an httpOnly cookie on /auth/x, so only this browser finishes the sign-in. 503 when the X door is not configured; 429 while the address rests under the login throttle.',
        security: [],
        responses: { '302': { description: "To X's authorize URL" }, ...Object.fromEntries([...new Set([429, 500, 503, ...credential])].map((st) => refused(st))) },
      },
    },
    '/auth/x/callback': {
      get: {
        tags: ['identity'],
        summary: 'Where X sends the person back: always a redirect to the join page',
        description:
          'Signed in (the deck_session cookie set): ?door=x. An X account linked to no principal: ?door=x&proof=<proof>, to join with (POST /join) or link (POST /me/doors). Refused: ?door=x&door_error=<code> (x_state_refused, x_declined, login_resting, upstream_refused, upstream_unreachable, upstream_silent, upstream_not_configured).',
        security: [],
        parameters: ['code', 'state', 'error'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
        responses: { '302': { description: 'To the join page' }, ...Object.fromEntries([refused(500)]) },
      },
    },
    '/openapi.json': { get: { tags: ['cards'], summary: 'This document', security: [], responses: Object.fromEntries([reply(200)]) } },
    '/metrics': {
      get: {
        tags: ['plane'],
        summary: "The deck's metrics in the Prometheus text format",
        description:
          'Requests by surface (rest, mcp), method, route and status with their latency; tool calls by tool, surface and outcome (ok, refused, failed) with their latency; upstream calls by upstream and outcome (ok, refused, unreachable) with their latency; the depth of every guard (the chat lane among them); the entries of every ledger; and the process\'s own metrics (prom-client\'s defaults). ' +
          'Only for the house: a caller on loopback (the client address, read behind DECK_TRUST_PROXY), the DECK_METRICS_TOKEN bearer, or a house principal. Otherwise 401 without a credential, 403 naming the house tier with one.',
        security: [{}, { metricsToken: [] }, ...SESSION],
        responses: {
          '200': { description: 'The metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
          ...Object.fromEntries([401, 403, 429, ...credential, 500].map((s) => refused(s))),
        },
      },
    },
    '/health': {
      get: {
        tags: ['plane'],
        summary: 'Alive: the process answers (for a load balancer)',
        security: [],
        responses: Object.fromEntries([reply(200, { type: 'object', properties: { ok: { const: true }, alive: { const: true }, version: { type: 'string' }, uptime_s: { type: 'integer' } } })]),
      },
    },
    '/ready': {
      get: {
        tags: ['plane'],
        summary: 'Ready: the store takes a write; each configured upstream\'s last answer since start',
        description:
          'Ready (200) when the data directory takes a write (a probe written whole, synced and renamed); 503 when it does not. upstreams lists every configured upstream by name with the variable that configured it and its last answer ({ outcome, status, at, ms }, or null when not asked since start); an upstream does not decide readiness, since every route that needs none still serves.',
        security: [],
        responses: { ...Object.fromEntries([reply(200, READY)]), '503': { description: 'The store did not take a write', ...json(READY) } },
      },
    },
    '/plates/{file}': {
      get: {
        tags: ['plates'],
        summary: "A sealed plate's PNG (<id>.png) or its chart_state (<id>.json); the id is their hash; the plate names no one and carries no mark's note or price (marks are drawn as lines and bands)",
        security: [],
        parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{64}\\.(png|json)$' } }],
        responses: {
          '200': { description: 'The PNG or the chart_state', content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } }, 'application/json': { schema: PLATE_JSON } } },
          ...Object.fromEntries([400, 404, 500].map((st) => refused(st))),
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1.0 document, generated once at start from the registry and what the deck's configuration adds to its
 * routes' statuses (its tier locks, a remote identity door).
 */
export function openapiDocument(tools: readonly Tool[], base: string, version: string, facts: StatusFacts) {
  const paths: Record<string, Record<string, unknown>> = fixedPaths(facts);
  const defs: Record<string, Schema> = {};
  for (const tool of tools) {
    if (!tool.rest) continue;
    const path = tool.rest.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[tool.rest.method.toLowerCase()] = operationOf(tool, defs, facts);
  }
  const doc = withoutSafeBounds({
    openapi: '3.1.0',
    info: { title: 'the deck', version, description: 'A trading-rule workbench served to agents (MCP), registries (seller cards) and people (this REST facade).' },
    servers: [{ url: base }],
    security: SESSION,
    tags: TAGS,
    paths,
    components: {
      responses: refusalsIn(paths),
      securitySchemes: {
        deckSession: { type: 'apiKey', in: 'cookie', name: 'deck_session', description: 'The session from POST /login; its value is also accepted as "Authorization: Bearer".' },
        deckKey: { type: 'http', scheme: 'bearer', description: 'The key shown once at POST /join, as the bearer.' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'DECK_METRICS_TOKEN, for a metrics scraper that is not on loopback (GET /metrics only).' },
      },
      schemas: {
        JsonRpc: { type: 'object', description: 'A JSON-RPC 2.0 message, or an array of them (a batch)' },
        Error: {
          type: 'object',
          required: ['ok', 'error', 'message'],
          properties: {
            ok: { const: false },
            error: { type: 'string' },
            message: { type: 'string' },
            problems: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
          },
        },
        ...defs,
      },
    },
    'x-mcp': {
      endpoint: `${base}/mcp`,
      sellers: SELLER_IDS.map((id) => `${base}/mcp/${id}`),
      // Every tool /mcp serves (and lists with ?toolsets=all), by toolset; a bare /mcp lists the default toolsets.
      tools: tools.filter((t) => t.surface === 'both').map((t) => t.name),
      toolsets: Object.fromEntries(toolsetsOf(tools.filter((t) => t.surface === 'both'))),
      default_toolsets: DEFAULT_TOOLSETS,
    },
  });
  shareSchemas(doc, NAMED_TYPES);
  shareParameters(doc);
  return doc;
}
