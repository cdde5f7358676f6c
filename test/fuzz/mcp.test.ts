import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyClient, MCP_PATHS, MODERN_PROTOCOL } from '../support/mcp.js';
import { FUZZ_TIMEOUT_MS, fuzzTarget, runs, SEED, stillAnswers, type FuzzTarget, type Shot } from './target.js';
import { bombText, mutated, oddString, oddValue, type Schema } from './values.js';
import { mcpFaults, Tally } from './verdict.js';

interface Tool {
  name: string;
  inputSchema: Schema;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL,
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
};

/** Methods a client may send, known to the deck or not. */
const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/get', 'completion/complete', 'logging/setLevel', 'server/discover', 'notifications/initialized', 'notifications/cancelled', 'nope/nope', '', 'constructor', '__proto__'];

/** `params` as careless clients send them: missing, of the wrong kind, or a tools/call with a broken name or arguments. */
const oddParams = (tools: Tool[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(undefined, null, [], 'params', 7, {}),
    fc.record({ name: fc.oneof(fc.constantFrom(...tools.map((t) => t.name)), oddString), arguments: oddValue }, { requiredKeys: [] }),
    fc.record({ protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-06-18', MODERN_PROTOCOL), oddString), capabilities: oddValue, clientInfo: oddValue }, { requiredKeys: [] }),
    fc.record({ cursor: oddValue, _meta: oddValue }, { requiredKeys: [] }),
  );

const id: fc.Arbitrary<unknown> = fc.oneof({ weight: 6, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom('x', null, { a: 1 }, [1], 1.5, 'y'.repeat(5_000), undefined) });

/** One JSON-RPC message: mostly a tools/call of a real tool with arguments near its schema, else anything. */
function message(tools: Tool[], modern: boolean): fc.Arbitrary<Record<string, unknown>> {
  const call = fc.constantFrom(...tools).chain((t) =>
    mutated(t.inputSchema).map((args) => ({ name: t.name, arguments: args, ...(modern ? { _meta: MODERN_META } : {}) })),
  );
  return fc.record({
    jsonrpc: fc.oneof({ weight: 12, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom(undefined, '1.0', 2) }),
    id,
    method: fc.oneof({ weight: 4, arbitrary: fc.constant('tools/call') }, { weight: 3, arbitrary: fc.constantFrom(...METHODS) }),
    params: fc.oneof({ weight: 3, arbitrary: call }, { weight: 2, arbitrary: oddParams(tools) }),
  }).map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)));
}

/** A body: one message, a batch, a giant batch of cheap calls, or bytes that are not JSON-RPC at all. */
function body(tools: Tool[], modern: boolean): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: message(tools, modern).map((m) => JSON.stringify(m)) },
    { weight: 3, arbitrary: fc.array(message(tools, modern), { minLength: 1, maxLength: 20 }).map((ms) => JSON.stringify(ms)) },
    { weight: 1, arbitrary: fc.integer({ min: 500, max: 20_000 }).map((n) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })))) },
    { weight: 1, arbitrary: fc.integer({ min: 4_200_000, max: 5_000_000 }).map((n) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'catalogue', arguments: { pad: 'a'.repeat(n) } } })) },
    { weight: 2, arbitrary: fc.oneof(fc.constantFrom('', '{', '[]', '[[]]', '42', 'null', '"x"', '{"jsonrpc":"2.0"}', '[{"jsonrpc":"2.0","method":"ping"}]'), oddValue.map((v) => JSON.stringify(v) ?? 'null')) },
    // Bombs: the whole body, or a tool's arguments, of many keys or nested deep.
    { weight: 2, arbitrary: bombText },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...tools.map((t) => t.name)), bombText)
        .map(([name, args]) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`),
    },
  );
}

function shotOf(target: FuzzTarget, tools: Tool[]): fc.Arbitrary<Shot> {
  return fc.record({
    path: fc.constantFrom(...MCP_PATHS),
    modern: fc.boolean(),
    auth: fc.constantFrom('anonymous', 'bearer', 'cookie', 'bogus-bearer'),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', undefined),
    transport: fc.constantFrom('json', 'json', 'json', 'json', 'plain', 'gzipLie', 'none', 'latin1', 'noCharset', 'emptyCharset'),
    origin: fc.constantFrom(undefined, undefined, undefined, 'https://evil.example'),
  }).chain((s) =>
    body(tools, s.modern).map((text) => {
      const headers: Record<string, string> = {};
      if (s.accept) headers.accept = s.accept;
      const types: Record<string, string> = { plain: 'text/plain', latin1: 'application/json; charset=latin1', noCharset: 'application/json; charset', emptyCharset: 'application/json; charset=' };
      if (s.transport !== 'none') headers['content-type'] = types[s.transport] ?? 'application/json';
      if (s.transport === 'gzipLie') headers['content-encoding'] = 'gzip';
      headers['mcp-protocol-version'] = s.modern ? MODERN_PROTOCOL : '2025-11-25';
      if (s.origin) headers.origin = s.origin;
      if (s.auth === 'bearer') headers.authorization = `Bearer ${target.session}`;
      if (s.auth === 'cookie') headers.cookie = `deck_session=${target.session}`;
      if (s.auth === 'bogus-bearer') headers.authorization = 'Bearer deck_live_0000000000000000000000000000000000';
      return { method: 'POST', path: s.path, headers, body: text };
    }),
  );
}

describe('fuzzed MCP requests derived from tools/list', () => {
  let target: FuzzTarget;
  let tools: Tool[];

  beforeAll(async () => {
    target = await fuzzTarget();
    const client = await legacyClient(`${target.url}/mcp`, { authorization: `Bearer ${target.session}` });
    tools = (await client.listTools()).tools as Tool[];
    await client.close();
  });
  afterAll(async () => {
    await target?.stop();
  });

  it('answers JSON-RPC, never an internal error or a 5xx the spec does not name, never stalls, and keeps answering', async () => {
    expect(tools.length).toBeGreaterThan(10);
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(shotOf(target, tools), async (shot) => {
        const answer = await target.send(shot);
        const faults = mcpFaults(answer);
        if (tally.cases % 25 === 24) {
          const alive = await stillAnswers(target);
          if (alive.status !== 200 || alive.ms > 2_000) faults.push(`the deck stopped answering: ${alive.status} in ${Math.round(alive.ms)} ms`);
        }
        tally.record(`POST ${shot.path} ${JSON.stringify(shot.headers).slice(0, 300)} ${String(shot.body).slice(0, 200)}`, answer.status, faults);
      }),
      { seed: SEED, numRuns: runs(300) },
    );
    console.log(tally.summary('MCP'));
    expect(tally.faults.slice(0, 12)).toEqual([]);
    expect((await stillAnswers(target)).status).toBe(200);
  }, FUZZ_TIMEOUT_MS);
});
