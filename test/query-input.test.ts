import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, refusalIn } from './support/mcp.js';

// Numbers are numbers for an agent: a query string's text is read as the number or yes/no a tool takes in the REST
// binding alone, so tools/list never shows a string form of a number and MCP takes none.

let grants: string;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;

// The house tier is listed every tool there is.
beforeAll(async () => {
  grants = await grantsFile([{ name: 'numbers', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  me = await signedIn(deck.url, 'numbers');
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

type Schema = { type?: string; anyOf?: Schema[]; pattern?: string; description?: string; [key: string]: unknown };

describe('what agents are shown', () => {
  it('lists every number as a number and every yes/no as a boolean, with no string form beside it', async () => {
    const client = await legacyClient(`${deck.url}/mcp?toolsets=all`, me.bearer);
    const { tools } = await client.listTools();
    await client.close();
    const stringlyNumbers = tools.flatMap((t) =>
      Object.entries((t.inputSchema.properties ?? {}) as Record<string, Schema>)
        // A time is the one field that takes text beside a number: an ISO-8601 UTC string or unix seconds.
        .filter(([, p]) => !/ISO-8601 UTC/.test(p.description ?? ''))
        .filter(([, p]) => (p.anyOf ?? []).some((a) => a.type === 'string') && (p.anyOf ?? []).some((a) => a.type === 'integer' || a.type === 'boolean'))
        .map(([name]) => `${t.name}.${name}`),
    );
    expect(stringlyNumbers).toEqual([]);
    const tape = tools.find((t) => t.name === 'tape')!.inputSchema.properties as Record<string, Schema>;
    expect(tape.from).toMatchObject({ anyOf: [{ type: 'integer' }, { type: 'string' }] });
    const forecast = tools.find((t) => t.name === 'forecast')!.inputSchema.properties as Record<string, Schema>;
    expect(forecast.history).toMatchObject({ type: 'boolean' });
  });

  it('refuses a number sent as text over MCP, naming the field', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    const answer = await client.callTool({ name: 'tape', arguments: { market: 'ES', tf: '1m', from: '1381152600', to: 1381156200 } });
    await client.close();
    const refusal = refusalIn(answer);
    expect(refusal.problems.map((p: { field: string }) => p.field)).toEqual(['from']);
  });
});

describe('the REST binding', () => {
  it('reads a query string as the numbers and yes/no the tool takes, and refuses text that is neither, naming it', async () => {
    expect((await call(`${deck.url}/grants?all=0`, { headers: me.bearer })).status).toBe(200);
    const refused = await call(`${deck.url}/grants?all=maybe`, { headers: me.bearer });
    expect(refused.status).toBe(422);
    expect(refused.body.problems.map((p: { field: string }) => p.field)).toEqual(['all']);
    const page = await call(`${deck.url}/records/history?limit=2`, { headers: me.bearer });
    expect(page.status).toBe(200);
    const bad = await call(`${deck.url}/records/history?limit=two`, { headers: me.bearer });
    expect(bad.status).toBe(422);
    expect(bad.body.problems.map((p: { field: string }) => p.field)).toEqual(['limit']);
  });
});
