import type { z } from 'zod';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  InitializeRequestSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { firstFew, namedKeys } from '../core/errors.js';
import { excessOfValue, type JsonBounds } from '../core/json-bounds.js';

// What a message to the MCP endpoints must be before either SDK line sees it, and the words for what it is not.

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const UNKNOWN_TOOL = INVALID_PARAMS;
export const KEY_REQUIRED = -32001;
/** MCP's code for a resources/read of a URI the endpoint does not serve. */
export const RESOURCE_NOT_FOUND = -32002;

export const rpcError = (id: RequestId | null, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0' as const,
  id,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});
export type RpcErrorAnswer = ReturnType<typeof rpcError>;

/** A result whose JSON is already written (a listing built at start, a tool's answer): its reply splices the text in. */
export class Written {
  constructor(readonly json: string) {}
}
interface WrittenReply {
  result: Written;
  jsonrpc: '2.0';
  id: RequestId;
}
export type Reply = JSONRPCMessage | RpcErrorAnswer | WrittenReply;

/** A reply's JSON, as JSON.stringify writes it; a written result goes in as it was written, in the same place. */
export const replyJson = (r: Reply): string =>
  'result' in r && r.result instanceof Written ? `{"result":${r.result.json},"jsonrpc":"2.0","id":${JSON.stringify(r.id)}}` : JSON.stringify(r);

/** A message's id when it is one JSON-RPC allows (a string or an integer), else null. */
export const idOf = (m: unknown): RequestId | null => {
  const id = (m as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
};

/** A value in a few words, never echoing more than a short scalar of it. */
function what(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if ((typeof v === 'string' && v.length <= 40) || typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  return `a ${typeof v}`;
}

const KINDS: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
};

/** zod's issues in the words a caller reads: what the field should be, and what it was. */
const inWords: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${KINDS[issue.expected] ?? issue.expected}, ${issue.input === undefined ? 'but it is missing' : `got ${what(issue.input)}`}`;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${what(issue.input)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${namedKeys(issue.keys)}`;
    case 'invalid_union': {
      // A value none of a few plain types took (a request id, a progress token): name the types.
      const kinds = issue.errors.map((branch) => (branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0 ? branch[0]!.expected : null));
      if (kinds.some((k) => k === null)) return undefined;
      return `expected ${[...new Set(kinds.map((k) => KINDS[k!] ?? k!))].join(' or ')}, got ${what(issue.input)}`;
    }
    default:
      return undefined;
  }
};

/** Every problem of a value against a schema, each naming its field ("params.arguments: expected an object, got null"). */
function problemsIn(schema: z.ZodType, value: unknown): string | null {
  const parsed = schema.safeParse(value, { error: inWords });
  if (parsed.success) return null;
  const { shown, more } = firstFew(parsed.error.issues);
  return shown.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') + more;
}

/**
 * The one kind of JSON-RPC message a value can be, by its keys: each kind's schema is strict, so `method` rules out
 * both responses, `id` beside it the notification, and `result` and `error` each rule out the other. The SDK's
 * JSONRPCMessageSchema (their union, tried in turn) takes a value exactly when this kind's schema does, so one object
 * schema decides instead of four; and a value no kind takes is explained against the kind it looks most like.
 */
const kindOf = (m: object): z.ZodType =>
  'method' in m ? ('id' in m ? JSONRPCRequestSchema : JSONRPCNotificationSchema) : 'error' in m ? JSONRPCErrorResponseSchema : 'result' in m ? JSONRPCResultResponseSchema : JSONRPCRequestSchema;

const isObject = (m: unknown): m is object => typeof m === 'object' && m !== null && !Array.isArray(m);

/** Why a value the SDK does not take as a JSON-RPC 2.0 message is not one, naming the field. */
function whyNotJsonRpc(m: unknown): string {
  if (!isObject(m)) return `a JSON-RPC message is an object, not ${what(m)}`;
  return problemsIn(kindOf(m), m) ?? 'not a JSON-RPC 2.0 message';
}

/** The SDK schemas of some requests, by method. */
const byMethod = (schemas: readonly (z.ZodObject & { shape: { method: z.ZodLiteral<string> } })[]): ReadonlyMap<string, z.ZodType> =>
  new Map(schemas.map((s) => [s.shape.method.value, s]));

/**
 * The requests both SDK lines serve on every endpoint. The params the deck's handlers read there (a tool's name and
 * arguments, a list's cursor) are the same in both eras, so both are checked with the schemas the long-lived 1.32
 * server parses with, and a malformed call is answered in the same words whichever line serves it. What only
 * protocol 2026-07-28 carries (its _meta envelope, requestState, inputResponses) the 2.x line checks itself.
 */
export const TOOL_REQUESTS = byMethod([
  ListToolsRequestSchema,
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
]);

/**
 * The requests the 1.32 line serves: the tool requests, the handshake and ping only 2025-era clients send, and the
 * 2025-11-25 task requests.
 */
export const LEGACY_REQUESTS: ReadonlyMap<string, z.ZodType> = new Map([
  ...TOOL_REQUESTS,
  ...byMethod([InitializeRequestSchema, PingRequestSchema, GetTaskRequestSchema, GetTaskPayloadRequestSchema, ListTasksRequestSchema, CancelTaskRequestSchema]),
]);

/** A message checked before an SDK line sees it: a JSON-RPC message, or the answer refusing it. */
export type Checked = { ok: true; message: JSONRPCMessage } | { ok: false; refusal: RpcErrorAnswer };

/** What a tool's arguments may hold, by the tool's name (a name the endpoint does not serve: a tool input's). */
export type ArgumentBounds = (tool: unknown) => JsonBounds;

/**
 * A tools/call whose arguments hold more than its tool reads, refused before any schema walks them (the body was read
 * under the endpoint's bounds, wide enough for its largest tool): -32602 naming params.arguments.
 */
function argumentsBeyond(m: object, bounds: ArgumentBounds): string | null {
  const { method, params } = m as { method?: unknown; params?: unknown };
  if (method !== 'tools/call' || !isObject(params) || !('arguments' in params)) return null;
  const { name, arguments: args } = params as { name?: unknown; arguments: unknown };
  const excess = excessOfValue(args, bounds(name));
  return excess && `params.arguments: ${excess.message}, more than ${typeof name === 'string' ? name.slice(0, 64) : 'a tool'} reads`;
}

/**
 * Checks one message: not JSON-RPC 2.0 is -32600, a request of a served method whose params fail the method's
 * schema is -32602 (an SDK would answer -32603 with the schema's raw report); each names the field. A tool's
 * arguments are held to its bounds first.
 */
export function checkMessage(m: unknown, requests: ReadonlyMap<string, z.ZodType>, bounds: ArgumentBounds): Checked {
  const beyond = isObject(m) ? argumentsBeyond(m, bounds) : null;
  if (beyond) return { ok: false, refusal: rpcError(idOf(m), INVALID_PARAMS, beyond) };
  const parsed = isObject(m) ? kindOf(m).safeParse(m) : null;
  if (!parsed?.success) return { ok: false, refusal: rpcError(idOf(m), INVALID_REQUEST, whyNotJsonRpc(m)) };
  const message = parsed.data as JSONRPCMessage;
  const schema = 'method' in message && 'id' in message ? requests.get(message.method) : undefined;
  const problems = schema ? problemsIn(schema, message) : null;
  if (problems) return { ok: false, refusal: rpcError(idOf(m), INVALID_PARAMS, problems) };
  return { ok: true, message };
}
