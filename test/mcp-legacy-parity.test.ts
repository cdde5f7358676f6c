import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECK_ENDPOINT, listingFor, SELLER_ENDPOINTS, unknownToolMessage, type McpEndpoint } from '../sellers/endpoints.js';
import { instructionsFor } from '../sellers/instructions.js';
import { checkMessage, KEY_REQUIRED, LEGACY_REQUESTS, replyJson, RESOURCE_NOT_FOUND, UNKNOWN_TOOL } from '../sellers/json-rpc.js';
import { endpointResources } from '../sellers/resources.js';
import { legacyServer, Refusal } from '../sellers/legacy-server.js';
import { deckTasks } from '../sellers/tasks.js';
import { callOnEndpoint, joinStep } from '../sellers/tool-call.js';
import type { Ctx } from '../services/context.js';
import { principalFrom } from '../services/identity/credentials.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { oddString, oddValue } from './fuzz/values.js';

// The deck answers 2025-era requests itself (sellers/legacy-server.ts). Here each checked message is answered by it and
// by the SDK 1.32 Server it replaced (a long-lived Server per endpoint with the deck's handlers, as the deck ran it
// before), and the two answers must be the same bytes: initialize's negotiation, ping, every list, calls that answer,
// refuse, fail their schema or name no tool, unknown methods, task-augmented requests, notifications.

/** The reference: the SDK's Server with the handlers the deck registered on it, over an in-memory transport. */
async function sdkServer(e: McpEndpoint, ctx: Ctx) {
  const server = new Server(
    { name: e.name, version: '1.0.0' },
    { capabilities: { tools: { listChanged: false }, prompts: {}, resources: {} }, instructions: await instructionsFor(e, ctx) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listingFor(e, ctx.principal)] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const outcome = await callOnEndpoint(e, ctx, req.params.name, req.params.arguments ?? {});
    if (outcome.kind === 'unknown_tool') throw new Refusal(UNKNOWN_TOOL, unknownToolMessage(e, outcome.name));
    if (outcome.kind === 'join_required') {
      const { message, next } = joinStep(req.params.name, ctx.urls);
      throw new Refusal(KEY_REQUIRED, message, { next });
    }
    return outcome.result;
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
  const resources = endpointResources(e);
  server.setRequestHandler(ListResourcesRequestSchema, () => resources.list);
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const read = await resources.read(ctx, req.params.uri);
    if (read.kind === 'contents') return read.result as never;
    if (read.kind === 'not_found') throw new Refusal(RESOURCE_NOT_FOUND, read.message, { uri: req.params.uri });
    const { message, next } = joinStep(read.uri, ctx.urls);
    throw new Refusal(KEY_REQUIRED, message, { next });
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resources.templates as never);
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const answers: JSONRPCMessage[] = [];
  ours.onmessage = (m) => void answers.push(m);
  await ours.start();
  await server.connect(theirs);
  return {
    /** One message in; the answer to a request, none to anything else (after every reply the SDK would send). */
    async answer(message: JSONRPCMessage): Promise<JSONRPCMessage | null> {
      answers.length = 0;
      await ours.send(message);
      const wanted = 'method' in message && 'id' in message;
      for (let turn = 0; turn < 200 && (wanted ? answers.length === 0 : turn < 5); turn++) await new Promise((r) => setImmediate(r));
      if (answers.length > 1) throw new Error(`the SDK answered ${answers.length} messages to one`);
      return answers[0] ?? null;
    },
    close: () => server.close(),
  };
}

const PROTOCOLS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07', '2026-07-28', '1999-01-01', ''];
// The task requests are the deck's own (a Server without a task store has none): test/mcp-tasks.test.ts holds them.
const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/get', 'completion/complete', 'logging/setLevel', 'notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'nope', '', 'constructor', '__proto__', 'hasOwnProperty'];
const TOOLS = ['catalogue', 'plans', 'price', 'account', 'tape', 'forge', 'skills', 'strategies', 'nope', 'constructor', '__proto__'];

const params: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom({}, [], null, 'p') },
  {
    weight: 6,
    arbitrary: fc.record(
      {
        name: fc.oneof(fc.constantFrom(...TOOLS), oddString),
        arguments: fc.oneof(fc.constant({}), fc.record({ tier: fc.constantFrom('free', 'max'), action: oddString }, { requiredKeys: [] }), oddValue),
        protocolVersion: fc.oneof(fc.constantFrom(...PROTOCOLS), oddValue),
        capabilities: fc.oneof(fc.constant({}), oddValue),
        clientInfo: fc.oneof(fc.constant({ name: 'c', version: '1' }), oddValue),
        cursor: fc.oneof(fc.constant('c'), oddValue),
        uri: fc.oneof(fc.constantFrom('ui://deck/rehearsal.html', 'ui://deck/nothing.html'), oddValue),
        task: fc.oneof(fc.constant({}), fc.constant({ ttl: 5 }), fc.constant({ ttl: 'x' }), oddValue),
        _meta: fc.oneof(
          fc.constant({ progressToken: 1 }),
          fc.constant({ 'io.modelcontextprotocol/related-task': { taskId: 't' } }),
          fc.constant({ progressToken: 1.5 }),
          oddValue,
        ),
        requestId: fc.nat(),
        progressToken: fc.nat(),
        progress: fc.nat(),
      },
      { requiredKeys: [] },
    ),
  },
);

/** Messages as clients send them, right and wrong: every method, a tool's name and arguments, _meta, task, odd ids. */
const message: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), fc.constantFrom('a', 'ü', -7, 0)), method: fc.constantFrom(...METHODS), params }, { requiredKeys: ['jsonrpc', 'id', 'method'] }) },
  { weight: 2, arbitrary: fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constantFrom(...METHODS), params }, { requiredKeys: ['jsonrpc', 'method'] }) },
  {
    weight: 1,
    arbitrary: fc.record(
      { jsonrpc: fc.constantFrom('2.0', '1.0'), id: fc.constantFrom(1, null, 1.5), method: fc.constantFrom(...METHODS), params, result: fc.constantFrom({}, 1), error: fc.constantFrom({ code: 1, message: 'm' }, 'e') },
      { requiredKeys: ['jsonrpc'] },
    ),
  },
);

/** What every client sends first, and the cases a fuzzer might take long to reach. */
const KNOWN: unknown[] = [
  ...PROTOCOLS.map((protocolVersion, id) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } } })),
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 'p', method: 'ping' },
  { jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'ui://deck/rehearsal.html' } },
  { jsonrpc: '2.0', id: 'n', method: 'resources/read', params: { uri: 'ui://deck/nothing.html' } },
  ...METHODS.map((method, id) => ({ jsonrpc: '2.0', id, method })),
  ...TOOLS.map((name, id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } })),
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'catalogue', arguments: { extra: 1 } } },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'catalogue', arguments: {}, task: { ttl: 1000 } } },
  { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { task: {} } },
  { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } } },
  { jsonrpc: '2.0', id: 5, method: 'nope', params: { task: {} } },
  { jsonrpc: '2.0', id: 6, result: {} },
  { jsonrpc: '2.0', id: 7, error: { code: 1, message: 'm' } },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
];

let deck: TestDeck;
let contexts: [string, Ctx][];

beforeAll(async () => {
  deck = await testDeck();
  const { session } = await signedIn(deck.url, 'parity_agent');
  const caller = { address: '127.0.0.1', secure: false };
  const ended = () => new AbortController().signal;
  // A fixed clock: the two lines answer the same call a moment apart.
  const s = { ...deck.services, clock: () => Date.UTC(2025, 5, 1) };
  contexts = [
    ['anonymous', { ...s, principal: null, credential: null, caller, ended, payment: null }],
    ['signed in', { ...s, principal: await principalFrom(s, session, 'any'), credential: { kind: 'session', value: session }, caller, ended, payment: null }],
  ];
});
afterAll(() => deck.stop());

describe.each([DECK_ENDPOINT, SELLER_ENDPOINTS.get('candles')!])('the deck and the SDK 1.32 Server on $path', (e) => {
  it('answer every checked 2025-era message with the same bytes, anonymous and signed in', async () => {
    for (const [who, ctx] of contexts) {
      const ours = legacyServer(e, '1.0.0', deckTasks());
      const sdk = await sdkServer(e, ctx);
      let compared = 0;
      const compare = async (m: unknown) => {
        const checked = checkMessage(m, LEGACY_REQUESTS, e.argumentBounds);
        if (!checked.ok) return;
        const [mine, theirs] = [await ours.dispatch(checked.message, ctx, new Set(e.defaults)), await sdk.answer(checked.message)];
        expect(mine && replyJson(mine), `${who}: ${JSON.stringify(m).slice(0, 300)}`).toBe(theirs && JSON.stringify(theirs));
        compared++;
      };
      for (const m of KNOWN) await compare(m);
      await fc.assert(fc.asyncProperty(message, compare), { seed: 16, numRuns: 400 });
      await sdk.close();
      expect(compared).toBeGreaterThan(200);
    }
  }, 120_000);
});

/** Bounds no message of these properties passes: the SDK's schema alone decides. */
const UNBOUNDED = { depth: Infinity, entries: Infinity, string: Infinity };

describe('checkMessage', () => {
  it("takes as a JSON-RPC message exactly what the SDK's JSONRPCMessageSchema takes, parsed the same", () => {
    const any = fc.oneof(message, oddValue, fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), result: oddValue, error: oddValue, method: oddString }, { requiredKeys: [] }));
    fc.assert(
      fc.property(any, (m) => {
        const sdk = JSONRPCMessageSchema.safeParse(m);
        const ours = checkMessage(m, new Map(), () => UNBOUNDED);
        expect(ours.ok).toBe(sdk.success);
        if (ours.ok) expect(JSON.stringify(ours.message)).toBe(JSON.stringify(sdk.data));
      }),
      { seed: 16, numRuns: 3000 },
    );
  });
});
