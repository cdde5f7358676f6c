import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, modernClient } from './support/mcp.js';

// Every time a tool takes is unix seconds or an ISO-8601 UTC string, over MCP and REST alike; anything else is
// refused naming the field and both forms. The deck runs on the shipped sample (ES 1m, the CME week of Oct 2013).
let deck: TestDeck;
let grants: string;
let bearer: Record<string, string>;

const FROM_ISO = '2013-10-08T13:30:00Z';
const TO_ISO = '2013-10-08T14:00:00Z';
const FROM = Date.parse(FROM_ISO) / 1000;
const TO = Date.parse(TO_ISO) / 1000;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'times_plan', tier: 'plan' }]);
  deck = await testDeck({ DECK_GRANTS: grants, DECK_SAMPLE_TAPE: 'on' });
  bearer = (await signedIn(deck.url, 'times_plan')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

type Tape = { candles: { t: number }[] };

describe('tape over MCP', () => {
  it.each(['legacy', 'modern'] as const)('(%s client) reads the same window from ISO strings as from unix seconds', async (era) => {
    const client = era === 'legacy' ? await legacyClient(`${deck.url}/mcp`, bearer) : await modernClient(`${deck.url}/mcp`, { headers: bearer });
    const read = async (from: unknown, to: unknown) =>
      (await client.callTool({ name: 'tape', arguments: { market: 'ES', tf: '1m', from, to } })) as { structuredContent?: Tape; isError?: boolean; content: { text: string }[] };
    const byIso = await read(FROM_ISO, TO_ISO);
    const bySeconds = await read(FROM, TO);
    expect(byIso.isError).toBeUndefined();
    expect(byIso.structuredContent!.candles.length).toBe(30);
    expect(byIso.structuredContent!.candles[0]!.t).toBe(FROM);
    expect(byIso.structuredContent).toEqual(bySeconds.structuredContent);
    const mixed = await read(FROM_ISO, TO);
    expect(mixed.structuredContent).toEqual(bySeconds.structuredContent);
    await client.close();
  });

  it('refuses a time in neither form, naming the field and both forms', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, bearer);
    for (const from of ['Oct 8 2013', '2013-10-08T13:30:00+02:00', 1.5, true]) {
      const r = (await client.callTool({ name: 'tape', arguments: { market: 'ES', tf: '1m', from, to: TO } })) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError).toBe(true);
      const body = JSON.parse(r.content.at(-1)!.text) as { message: string };
      expect(body.message).toMatch(/from: expected unix seconds \(an integer\) or an ISO-8601 UTC time \(2013-10-08T13:30:00Z\)/);
    }
    await client.close();
  });
});

describe('GET /timetravel/candles over REST', () => {
  const get = (from: string, to: string) =>
    fetch(`${deck.url}/timetravel/candles/ES/1m?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, { headers: bearer });

  it('reads the same window from ISO strings as from unix seconds', async () => {
    const byIso = await get(FROM_ISO, TO_ISO);
    const bySeconds = await get(String(FROM), String(TO));
    expect(byIso.status).toBe(200);
    const a = (await byIso.json()) as Tape;
    expect(a.candles.length).toBe(30);
    expect(a).toEqual(await bySeconds.json());
  });

  it('refuses a time in neither form with its status, naming the field and both forms', async () => {
    const r = await get('yesterday', TO_ISO);
    expect(r.status).toBe(422);
    expect(((await r.json()) as { message: string }).message).toMatch(/from: expected unix seconds \(an integer\) or an ISO-8601 UTC time/);
  });
});

describe('the tools that take a time', () => {
  it('all take both forms, with the same small JSON Schema', () => {
    const times: Record<string, string[]> = { tape: ['from', 'to'], rehearse: ['to'], studio_act: ['to'], forecast: ['t', 'from'], run_start: ['to'], series_open: ['from'], plate_seal: ['from', 'to'] };
    for (const [name, fields] of Object.entries(times)) {
      const props = MCP_TOOLS.find((t) => t.name === name)!.listedSchema.properties as Record<string, { anyOf?: { type: string }[]; description?: string }>;
      for (const f of fields) {
        expect(props[f]!.anyOf!.map((o) => o.type), `${name}.${f}`).toEqual(['integer', 'string']);
        expect(props[f]!.description, `${name}.${f}`).toMatch(/unix seconds or ISO-8601 UTC|ISO-8601 UTC \(…Z\) or unix seconds|ISO-8601 UTC or unix seconds/);
      }
    }
  });
});
