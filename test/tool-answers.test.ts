import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolByName } from '../tools/registry.js';
import { answered, callAnswered } from './support/answers.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { legacyClient } from './support/mcp.js';

// Every tool of the studio, the forge, the book, the agent rail, the typed lane, the copy seller, the series, the
// mandates and the records declares the answer it gives as a zod schema: the tests of each area parse the answers
// they receive with it (test/support/answers.ts). Here: that each declares one, and that the schemas are strict.

const AREAS: Record<string, string[]> = {
  studio: ['forge', 'forge_read', 'forge_onboard', 'forge_lanes', 'workflow_read', 'strategies', 'strategy_quote', 'forge_trial', 'rehearse', 'grade', 'score', 'score_read', 'image_attach', 'studio_state', 'studio_act'],
  book: ['order_place', 'order_cancel', 'orders', 'fills', 'positions', 'book_caps', 'book_caps_set'],
  agent: ['model_register', 'my_models', 'my_model', 'run_start', 'runs', 'run_read', 'run_stop'],
  typed: ['typed_decision_schema', 'decision_post'],
  copy: ['models', 'model_record', 'follow_quote'],
  series: ['series_terms', 'series_quote', 'series_open', 'series_list', 'series_read', 'series_revoke', 'epoch_open'],
  mandates: ['mandate_add'],
  records: ['history', 'history_entry', 'lab', 'ladder', 'registry', 'roadmap'],
};

describe('the answers the tools declare', () => {
  it.each(Object.entries(AREAS))('every %s tool declares an output schema that states itself as a JSON Schema object', (_area, names) => {
    for (const name of names) {
      const output = toolByName.get(name)?.output;
      expect(output, name).toBeTruthy();
      // Nothing in it is left unstated: a part JSON Schema cannot say throws here.
      const schema = z.toJSONSchema(output!, { io: 'output' });
      // An object at the root, as MCP's outputSchema must be.
      expect((schema as { type?: string }).type, name).toBe('object');
      // No tuple words of the newer drafts, which an MCP client's draft-07 validator reads as "no items at all".
      expect(JSON.stringify(schema), name).not.toContain('"prefixItems"');
    }
  });
});

describe('an answer off its schema', () => {
  let deck: TestDeck;
  let me: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    deck = await testDeck();
    me = await signedIn(deck.url, 'answer_reader');
  });
  afterAll(() => deck.stop());

  it('fails with a field missing, renamed or not declared, at the top or nested', async () => {
    const { status, body } = await callAnswered(`${deck.url}/forge?onboard=ema-cross`, { headers: me.bearer });
    expect(status).toBe(200);
    const { intent, ...missing } = body;
    expect(() => answered('forge_onboard', missing)).toThrow(/intent/);
    expect(() => answered('forge_onboard', { ...missing, words: intent })).toThrow(/words/);
    expect(() => answered('forge_onboard', { ...body, extra: 1 })).toThrow(/extra/);
    const { market, ...script } = body.script;
    expect(() => answered('forge_onboard', { ...body, script })).toThrow(/script\.market/);
    expect(() => answered('forge_onboard', { ...body, script: { ...script, market: 'DOGE' } })).toThrow(/script\.market/);
    expect(market).toBe('BTC');
  });

  it("fails with an entry of another ledger's shape than the one it names", async () => {
    expect((await callAnswered(`${deck.url}/meter`, { body: { action: 'forge' }, headers: me.bearer })).status).toBe(200);
    const acts = (await callAnswered(`${deck.url}/records/history`, { headers: me.bearer })).body.acts as { ledger: string; seq: number }[];
    expect(acts.map((a) => a.ledger)).toEqual(['meter']);
    const { body } = await callAnswered(`${deck.url}/records/history/meter/${acts[0]!.seq}`, { headers: me.bearer });
    expect(body.entry).toMatchObject({ action: 'forge' });
    expect(() => answered('history_entry', { ...body, ledger: 'grades' })).toThrow(/not an entry of the grades ledger/);
  });

  it('is the same answer over MCP: structuredContent parses by the schema REST answers do', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      for (const [name, args] of [
        ['forge_onboard', { onboard: 'ema-cross' }],
        ['forge_lanes', {}],
        ['strategies', {}],
        ['strategy_quote', { name: 'ema-cross' }],
        ['book_caps', {}],
        ['my_models', {}],
        ['runs', {}],
        ['orders', {}],
        ['fills', {}],
        ['positions', {}],
        ['history', {}],
        ['lab', {}],
        ['ladder', {}],
        ['registry', {}],
        ['roadmap', {}],
        ['series_list', {}],
        ['score_read', { stage: 'parts' }],
        ['studio_state', {}],
      ] as const) {
        const got = await client.callTool({ name, arguments: args });
        expect(got.isError, name).toBeFalsy();
        answered(name, got.structuredContent);
      }
    } finally {
      await client.close();
    }
  });
});
