import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  TaskMetadataSchema,
  type JSONRPCMessage,
  type ProgressToken,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Ctx } from '../services/context.js';
import { listedAs, listingOf, unknownToolMessage, type McpEndpoint } from './endpoints.js';
import { instructionsFor } from './instructions.js';
import { KEY_REQUIRED, RESOURCE_NOT_FOUND, UNKNOWN_TOOL, Written, type Reply } from './json-rpc.js';
import { endpointResources } from './resources.js';
import { callOnEndpoint, joinStep, resultJson, type CallOutcome, type Paying } from './tool-call.js';
import { TASK_TOOLS } from './task-tools.js';
import { progressNote, TASKS_CAPABILITY, type DeckTasks, type Hear } from './tasks.js';

/** JSON-RPC's code for a method no handler serves, and for a failure the SDK does not name. */
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;

/** A refusal a handler answers: a JSON-RPC error, its message sent as written. */
export class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A request as checkMessage passed it: its params already hold to its method's schema (LEGACY_REQUESTS). */
interface Call {
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

type Handler = (params: Record<string, unknown>, ctx: Ctx, toolsets: ReadonlySet<string>, hear: Hear | undefined) => unknown;

/** The progressToken a request gave in its _meta, if any. */
const tokenOf = (params: Record<string, unknown>): ProgressToken | undefined => {
  const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isSafeInteger(token)) ? token : undefined;
};

/** A call that gave a progressToken and can hear notifications is told each step of its work as progress. */
const heard = (ctx: Ctx, params: Record<string, unknown>, hear: Hear | undefined): Ctx => {
  const token = tokenOf(params);
  if (!hear || token === undefined) return ctx;
  let step = 0;
  return { ...ctx, progress: (words) => hear(progressNote(token, ++step, words)) };
};

/**
 * 2025-era MCP (the protocols the SDK 1.x line speaks, up to 2025-11-25), stateless: the deck answers each checked
 * request itself, with handlers and answers built once per endpoint. It answers as the SDK 1.32 `Server` with these
 * handlers did (test/mcp-legacy-parity.test.ts holds the two side by side), without what that class keeps for a
 * session a stateless endpoint does not have: no per-request AbortController, request bookkeeping or second schema
 * pass over a message checkMessage has already checked, and no cancellation one request could send another.
 *
 * - initialize answers the client's protocol when the SDK supports it, else its latest, with the capabilities,
 *   serverInfo and instructions; ping answers {}; the tool, prompt and resource lists answer the prebuilt listings
 *   (the resources: the MCP App page of an endpoint serving a tool that opens it, and the templates of a caller's
 *   rehearsal parts where rehearse is served, each read by resources/read: sellers/resources.ts)
 *   (tools/list of the endpoint's default toolsets as JSON written at start, one per tier; another choice of
 *   toolsets is written when asked).
 * - tools/call answers the tool's result, its body serialized once (resultJson); a handler's refusal is a JSON-RPC error with its code, message and data;
 *   an unknown method is -32601 "Method not found".
 * - A request asking for task-augmented execution (`params.task`) is refused as the SDK refuses it: the deck declares
 *   no task capability.
 * - A notification changes nothing and answers nothing.
 */
export function legacyServer(e: McpEndpoint, version: string, tasks: DeckTasks) {
  const capabilities = { tools: { listChanged: false }, prompts: {}, resources: {} };
  // A client that declares tasks is told the deck serves them; any other is answered as before.
  const withTasks = { ...capabilities, tasks: TASKS_CAPABILITY };
  const serverInfo = { name: e.name, version };
  const resources = endpointResources(e);
  // tools/list of the default toolsets for each tier, written once.
  const defaults = new Set(e.defaults);
  const lists = new Map([...e.listings.keys()].map((tier) => [tier, new Written(JSON.stringify({ tools: listingOf(e, tier, defaults) }))]));
  const sameSet = (a: ReadonlySet<string>) => a.size === defaults.size && [...a].every((t) => defaults.has(t));

  const handlers = new Map<string, Handler>([
    [
      'initialize',
      async (params, ctx) => {
        const requested = params.protocolVersion as string;
        const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
        const declared = (params.capabilities as { tasks?: unknown } | undefined)?.tasks !== undefined;
        return { protocolVersion, capabilities: declared ? withTasks : capabilities, serverInfo, instructions: await instructionsFor(e, ctx) };
      },
    ],
    ['ping', () => ({})],
    [
      'tools/list',
      (_params, ctx, toolsets) =>
        sameSet(toolsets) ? lists.get(listedAs(ctx.principal))! : new Written(JSON.stringify({ tools: listingOf(e, listedAs(ctx.principal), toolsets) })),
    ],
    [
      'tools/call',
      async (params, ctx, _toolsets, hear) => {
        const name = params.name as string;
        const outcome = await callOnEndpoint(e, heard(ctx, params, hear), name, params.arguments ?? {}, params._meta);
        if (outcome.kind === 'unknown_tool') throw new Refusal(UNKNOWN_TOOL, unknownToolMessage(e, outcome.name));
        if (outcome.kind === 'join_required') {
          const { message, next } = joinStep(name, ctx.urls);
          throw new Refusal(KEY_REQUIRED, message, { next });
        }
        return new Written(resultJson(outcome.result));
      },
    ],
    ['tasks/get', (params, ctx) => tasks.get(ctx, params.taskId)],
    ['tasks/result', (params, ctx, _toolsets, hear) => tasks.result(ctx, params.taskId, hear)],
    ['tasks/list', (params, ctx) => tasks.list(ctx, params.cursor)],
    ['tasks/cancel', (params, ctx) => tasks.cancel(ctx, params.taskId)],
    ['prompts/list', () => ({ prompts: [] })],
    ['resources/list', () => resources.list],
    [
      'resources/read',
      async (params, ctx) => {
        const read = await resources.read(ctx, params.uri as string);
        if (read.kind === 'contents') return read.result;
        if (read.kind === 'not_found') throw new Refusal(RESOURCE_NOT_FOUND, read.message, { uri: params.uri });
        const { message, next } = joinStep(read.uri, ctx.urls);
        throw new Refusal(KEY_REQUIRED, message, { next });
      },
    ],
    ['resources/templates/list', () => resources.templates],
  ]);

  /** A tools/call as a task: the same call as tools/call's, run under the task's signal; the answer is the task. */
  const startTask = (id: RequestId, params: Record<string, unknown>, ttl: number | undefined, ctx: Ctx) => {
    const name = params.name as string;
    if (!ctx.principal) return paidTask(id, params, ttl, ctx);
    return tasks.start(ctx, id, { method: 'tools/call', params }, ttl, tokenOf(params), async (signal, say) => {
      await say(`${name} is running`);
      // Each step of the work is the task's status message, and its progress for a call that gave a progressToken.
      const progress = (words: string) => void say(`${name}: ${words}`);
      const outcome = await callOnEndpoint(e, { ...ctx, ended: () => signal, progress }, name, params.arguments ?? {});
      // The tool is served here and the caller signed in (both checked before the task was made).
      return (outcome as Extract<typeof outcome, { kind: 'result' }>).result;
    });
  };

  /**
   * A keyless task call: a tool priced per call is paid as its tools/call is (the payment in _meta x402/payment), and
   * becomes the payer's task once the payment has settled, before its work runs. Until then it is the very tools/call:
   * the PaymentRequired, a refusal the tool foresees or a payment refused answers as that call's result, and no task
   * is made; a tool not priced asks for a key.
   */
  const paidTask = async (id: RequestId, params: Record<string, unknown>, ttl: number | undefined, ctx: Ctx) => {
    const name = params.name as string;
    const abort = new AbortController();
    let say: ((words: string) => Promise<void>) | null = null;
    let payer: Ctx['principal'] = null;
    let settled!: () => void;
    const paidFor = new Promise<null>((resolve) => (settled = () => resolve(null)));
    const paying: Paying = (payment, principal) => ({
      get settled() {
        return payment.settled;
      },
      async settle(call, bars) {
        tasks.room(principal.agent_id);
        await payment.settle(call, bars);
        payer = principal;
        settled();
      },
      unserved: (call, error) => payment.unserved(call, error),
    });
    const progress = (words: string) => void say?.(`${name}: ${words}`);
    const call = callOnEndpoint(e, { ...ctx, ended: () => abort.signal, progress }, name, params.arguments ?? {}, params._meta, paying);
    const outcome = await Promise.race([paidFor, call]);
    if (outcome?.kind === 'join_required') {
      const { message, next } = joinStep(name, ctx.urls);
      throw new Refusal(KEY_REQUIRED, message, { next });
    }
    if (outcome) return new Written(resultJson((outcome as Extract<typeof outcome, { kind: 'result' }>).result));
    const work = async (_signal: AbortSignal, told: (words: string) => Promise<void>) => {
      say = told;
      await told(`${name} is running`);
      return ((await call) as Extract<CallOutcome, { kind: 'result' }>).result;
    };
    return tasks.start({ ...ctx, principal: payer }, id, { method: 'tools/call', params }, ttl, tokenOf(params), work, abort);
  };

  const failed = (id: RequestId, error: unknown): Reply => {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
    return {
      jsonrpc: '2.0',
      id,
      error: { code: Number.isSafeInteger(code) ? (code as number) : INTERNAL_ERROR, message: message ?? 'Internal error', ...(data !== undefined ? { data } : {}) },
    };
  };

  /**
   * Answers one checked message: a request with its answer, a notification with null. `hear`, given where the answer
   * can be a stream, is told the request's notifications (a tools/call's progress, a task's on its tasks/result).
   */
  async function dispatch(message: JSONRPCMessage, ctx: Ctx, toolsets: ReadonlySet<string>, hear?: Hear): Promise<Reply | null> {
    if (!('method' in message) || !('id' in message)) return null;
    const { id, method, params } = message as Call;
    const handler = handlers.get(method);
    if (!handler) return { jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } };
    try {
      // The task requests themselves may carry the task's metadata (the SDK client's stream does): it asks nothing new.
      const task = params && 'task' in params && !method.startsWith('tasks/') ? TaskMetadataSchema.safeParse(params.task) : null;
      if (task?.success) {
        const name = params!.name;
        if (method !== 'tools/call' || typeof name !== 'string' || !TASK_TOOLS.has(name) || !e.byName.has(name)) {
          throw new Error(`Server does not support task creation (required for ${method})`);
        }
        return { result: (await startTask(id, params!, task.data.ttl, ctx)) as Record<string, unknown>, jsonrpc: '2.0', id } as Reply;
      }
      // The SDK's own order of keys: result, then jsonrpc and id.
      return { result: (await handler(params ?? {}, ctx, toolsets, hear)) as Record<string, unknown>, jsonrpc: '2.0', id } as Reply;
    } catch (error) {
      return failed(id, error);
    }
  }

  return { dispatch };
}

export type LegacyServer = ReturnType<typeof legacyServer>;
