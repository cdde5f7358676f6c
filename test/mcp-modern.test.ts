import { isInputRequiredResult, ProtocolError, type ElicitRequestParams, type InputRequiredResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { httpRefusal, APP_ON, MCP_PATHS, REHEARSAL_PARTS, MODERN_PROTOCOL, modernClient, rpc, type RpcError } from './support/mcp.js';

// Clients on protocol 2026-07-28 (the SDK 2.x Client, pinned): a client that declared URL-mode elicitation
// is sent to the join page with an input_required result; one that did not gets HTTP 401 with -32001 and data.next.
let deck: TestDeck;
let joinUrl: string;
let session: Record<string, string>;
let key: Record<string, string>;

beforeAll(async () => {
  deck = await testDeck();
  joinUrl = `${deck.url}/join`;
  const who = await signedIn(deck.url, 'modern_agent');
  session = who.bearer;
  key = { authorization: `Bearer ${who.key}` };
});
afterAll(() => deck.stop());

const URL_ELICITATION = { elicitation: { url: {} } };

/** The HTTP 401 and -32001 a keyless gated call ends with, and the join step its data names. */
function expectJoinRefusal(error: unknown) {
  const refusal = httpRefusal(error);
  expect(refusal.status).toBe(401);
  expect(refusal.error.code).toBe(-32001);
  expect(refusal.error.data).toMatchObject({ next: { step: 'join', url: joinUrl } });
}

describe.each(MCP_PATHS)('2026-07-28 client on %s', (path) => {
  // This protocol has no ping; server/discover (done at connect) stands in for initialize.
  it('lists tools, prompts, resources and templates and calls catalogue without a key', async () => {
    const client = await modernClient(`${deck.url}${path}`);
    expect(client.getServerVersion()?.version).toBe('1.0.0');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['catalogue', 'plans', 'account']));
    expect((await client.listPrompts()).prompts).toEqual([]);
    // The rehearsal app (test/mcp-app.test.ts) is listed where rehearse or plate_seal is served.
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(APP_ON.has(path) ? ['ui://deck/rehearsal.html'] : []);
    // A caller's rehearsal parts are templates where rehearse is served (test/mcp-resource-links.test.ts).
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(APP_ON.has(path) ? REHEARSAL_PARTS : []);
    const catalogue = await client.callTool({ name: 'catalogue', arguments: {} });
    expect(catalogue.structuredContent).toMatchObject({ ok: true });
    await client.close();
  });

  it('answers a keyless account with input_required: exactly one elicitation/create in URL mode to the join page', async () => {
    const client = await modernClient(`${deck.url}${path}`, { capabilities: URL_ELICITATION });
    // The 2.x client holds even an input_required result to the tool's outputSchema when it has listed one (such a
    // result is not the tool's answer and carries no structuredContent); a definition without one is handed in.
    const definition = { name: 'account', inputSchema: { type: 'object' as const } };
    const raw: unknown = await client.callTool({ name: 'account', arguments: {} }, { allowInputRequired: true, toolDefinition: definition });
    expect(isInputRequiredResult(raw)).toBe(true);
    expect(raw).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    const requests = Object.values((raw as InputRequiredResult).inputRequests ?? {});
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'elicitation/create', params: { mode: 'url', url: joinUrl, message: expect.stringContaining(joinUrl) } });
    // URL mode in this protocol carries no elicitationId.
    expect(requests[0]!.params).not.toHaveProperty('elicitationId');
    await client.close();
  });

  it('sends a client with an elicitation handler to the join page once, then ends with -32001 and data.next', async () => {
    const asked: ElicitRequestParams[] = [];
    const client = await modernClient(`${deck.url}${path}`, {
      capabilities: URL_ELICITATION,
      onElicit: (params) => {
        asked.push(params);
        return { action: 'accept' };
      },
    });
    expectJoinRefusal(await client.callTool({ name: 'account', arguments: {} }).catch((e: unknown) => e));
    expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: joinUrl })]);
    await client.close();
  });

  it('answers a client without URL elicitation with -32001 and data.next', async () => {
    for (const capabilities of [{}, { elicitation: {} }]) {
      const client = await modernClient(`${deck.url}${path}`, { capabilities });
      expectJoinRefusal(await client.callTool({ name: 'account', arguments: {} }).catch((e: unknown) => e));
      await client.close();
    }
  });

  it.each([
    ['the session', () => session],
    ['the key', () => key],
  ])('answers account as the principal with %s as bearer', async (_, headers) => {
    const client = await modernClient(`${deck.url}${path}`, { capabilities: URL_ELICITATION, headers: headers() });
    const account = await client.callTool({ name: 'account', arguments: {} });
    expect(account.isError).toBeFalsy();
    expect(account.structuredContent).toMatchObject({ principal: { name: 'modern_agent', tier: 'free' } });
    await client.close();
  });
});

describe('2026-07-28 client on /mcp only', () => {
  it('answers an unknown tool with -32602', async () => {
    const client = await modernClient(`${deck.url}/mcp`);
    const refusal = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ProtocolError);
    expect((refusal as ProtocolError).code).toBe(-32602);
    await client.close();
  });

  it('calls plans and price without a key', async () => {
    const client = await modernClient(`${deck.url}/mcp`);
    expect((await client.callTool({ name: 'plans', arguments: {} })).structuredContent).toMatchObject({ ok: true, mine: null });
    expect((await client.callTool({ name: 'price', arguments: {} })).structuredContent).toMatchObject({ ok: true });
    await client.close();
  });
});

describe('a 2026-07-28 client that declares its protocol only in _meta (no MCP-Protocol-Version, Mcp-Method or Mcp-Name)', () => {
  const STANDARD = ['mcp-protocol-version', 'mcp-method', 'mcp-name'];
  const meta = (capabilities: Record<string, unknown> = {}) => ({
    'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  });
  const call = (name: string, capabilities?: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name, arguments: {}, _meta: meta(capabilities) },
  });

  it.each(MCP_PATHS)('is served on %s: tools/list and a keyless tools/call answer 200 with their results', async (path) => {
    const listed = await rpc(`${deck.url}${path}`, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    expect(listed.status).toBe(200);
    expect((listed.body as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toContain('catalogue');
    const catalogue = await rpc(`${deck.url}${path}`, call('catalogue'));
    expect(catalogue.status).toBe(200);
    expect(catalogue.body).toMatchObject({ id: 7, result: { structuredContent: { ok: true } } });
  });

  it('gets input_required to the join page for a keyless gated call when it declared URL-mode elicitation in _meta', async () => {
    const answer = await rpc(`${deck.url}/mcp`, call('account', URL_ELICITATION));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: { resultType: 'input_required', inputRequests: { join: { method: 'elicitation/create', params: { mode: 'url', url: joinUrl } } } } });
    // Without the declaration, the same call gets -32001 naming the join step.
    const refused = await rpc(`${deck.url}/mcp`, call('account'));
    expect((refused.body as RpcError).error).toMatchObject({ code: -32001, data: { next: { step: 'join', url: joinUrl } } });
  });

  it('is still refused with 400 -32020 when a header it did send disagrees with its body', async () => {
    const answer = await rpc(`${deck.url}/mcp`, call('catalogue'), { 'mcp-protocol-version': MODERN_PROTOCOL, 'mcp-method': 'tools/list' });
    expect(answer.status).toBe(400);
    expect((answer.body as RpcError).error.code).toBe(-32020);
  });

  it("is served to the SDK's 2.x client whose requests lose the three headers on the way", async () => {
    const stripped: string[] = [];
    const client = await modernClient(`${deck.url}/mcp`, {
      capabilities: URL_ELICITATION,
      fetch: (url, init) => {
        const headers = new Headers(init?.headers);
        for (const h of STANDARD) if (headers.has(h)) stripped.push(h) && headers.delete(h);
        return fetch(url, { ...init, headers });
      },
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('catalogue');
    expect((await client.callTool({ name: 'catalogue', arguments: {} })).structuredContent).toMatchObject({ ok: true });
    // The 2.x client holds even an input_required result to the tool's outputSchema when it has listed one (such a
    // result is not the tool's answer and carries no structuredContent); a definition without one is handed in.
    const definition = { name: 'account', inputSchema: { type: 'object' as const } };
    const raw: unknown = await client.callTool({ name: 'account', arguments: {} }, { allowInputRequired: true, toolDefinition: definition });
    expect(isInputRequiredResult(raw)).toBe(true);
    expect(stripped).toEqual(expect.arrayContaining(STANDARD));
    await client.close();
  });
});

