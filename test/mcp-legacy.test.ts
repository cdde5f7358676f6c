import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { httpRefusal, legacyClient, APP_ON, MCP_PATHS, REHEARSAL_PARTS } from './support/mcp.js';

// A 2025-era client (the SDK 1.x Client over Streamable HTTP) on every MCP endpoint: what answers without a
// key, what a keyless gated call is told, and the session or the key as bearer.
let deck: TestDeck;
let session: Record<string, string>;
let key: Record<string, string>;

beforeAll(async () => {
  deck = await testDeck();
  const who = await signedIn(deck.url, 'legacy_agent');
  session = who.bearer;
  key = { authorization: `Bearer ${who.key}` };
});
afterAll(() => deck.stop());

const structured = (r: unknown) => (r as { structuredContent: Record<string, unknown> }).structuredContent;

describe.each(MCP_PATHS)('2025-era client on %s', (path) => {
  it('connects, pings and lists tools, prompts, resources and templates without a key', async () => {
    const client = await legacyClient(`${deck.url}${path}`);
    expect(client.getServerVersion()?.version).toBe('1.0.0');
    expect(await client.ping()).toEqual({});
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['catalogue', 'plans', 'account']));
    expect(await client.listPrompts()).toEqual({ prompts: [] });
    // The rehearsal app (test/mcp-app.test.ts) is listed where rehearse or plate_seal is served.
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(APP_ON.has(path) ? ['ui://deck/rehearsal.html'] : []);
    // A caller's rehearsal parts are templates where rehearse is served (test/mcp-resource-links.test.ts).
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(APP_ON.has(path) ? REHEARSAL_PARTS : []);
    await client.close();
  });

  it('calls catalogue and plans without a key', async () => {
    const client = await legacyClient(`${deck.url}${path}`);
    const catalogue = await client.callTool({ name: 'catalogue', arguments: {} });
    expect(catalogue.isError).toBeUndefined();
    expect(structured(catalogue).sellers).toHaveLength(3);
    const plans = await client.callTool({ name: 'plans', arguments: {} });
    expect(structured(plans)).toMatchObject({ ok: true, mine: null, principal: null });
    await client.close();
  });

  it('answers a keyless call of account with HTTP 401 and -32001 whose data.next.url is the join page', async () => {
    const client = await legacyClient(`${deck.url}${path}`);
    const refusal = httpRefusal(await client.callTool({ name: 'account', arguments: {} }).catch((e: unknown) => e));
    expect(refusal.status).toBe(401);
    expect(refusal.error.code).toBe(-32001);
    expect(refusal.error.data).toMatchObject({ next: { step: 'join', url: `${deck.url}/join` } });
    await client.close();
  });

  it.each([
    ['the session as bearer', () => session],
    ['the key as bearer', () => key],
    ['the deck_session cookie', () => ({ cookie: `deck_session=${session.authorization!.replace(/^Bearer /, '')}` })],
  ])('answers account as the principal with %s', async (_, headers) => {
    const client = await legacyClient(`${deck.url}${path}`, headers());
    const account = await client.callTool({ name: 'account', arguments: {} });
    expect(account.isError).toBeUndefined();
    expect(structured(account).principal).toMatchObject({ name: 'legacy_agent', tier: 'free' });
    await client.close();
  });
});

describe('2025-era client on /mcp only', () => {
  it('calls price without a key', async () => {
    const client = await legacyClient(`${deck.url}/mcp`);
    const price = await client.callTool({ name: 'price', arguments: {} });
    expect(structured(price)).toMatchObject({ ok: true });
    expect(structured(price).sellers).toHaveLength(3);
    await client.close();
  });

  it('sends a keyless caller to the configured join page', async () => {
    const elsewhere = await testDeck({ DECK_JOIN_URL: 'https://join.example/deck' });
    const client = await legacyClient(`${elsewhere.url}/mcp`);
    const refusal = httpRefusal(await client.callTool({ name: 'account', arguments: {} }).catch((e: unknown) => e));
    expect(refusal.error.code).toBe(-32001);
    expect(refusal.error.data).toMatchObject({ next: { url: 'https://join.example/deck' } });
    await client.close();
    await elsewhere.stop();
  });
});
