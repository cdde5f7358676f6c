import { isInputRequiredResult, ProtocolError, type ElicitRequestParams, type InputRequiredResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { httpRefusal, MCP_PATHS, modernClient } from './support/mcp.js';

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
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    const catalogue = await client.callTool({ name: 'catalogue', arguments: {} });
    expect(catalogue.structuredContent).toMatchObject({ ok: true });
    await client.close();
  });

  it('answers a keyless account with input_required: exactly one elicitation/create in URL mode to the join page', async () => {
    const client = await modernClient(`${deck.url}${path}`, { capabilities: URL_ELICITATION });
    const raw: unknown = await client.callTool({ name: 'account', arguments: {} }, { allowInputRequired: true });
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
