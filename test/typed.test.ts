import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { movableClock, type MovableClock } from './support/clock.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { legacyClient, refusalIn } from './support/mcp.js';
import { callAnswered } from './support/answers.js';

// The typed-decision lane: typed-decision.v1 served as a JSON Schema document of its own, every decision validated
// against it (a refused one names its field and is counted against the model), and one decision posted for a model
// without a replay, onto its live book on the paper venue (real BTC bars, a clock the test moves).

const btc = sampleRows('BTC-1m');
const at = new Map(btc.map((r, i) => [r[0], i]));
const q2 = (x: number) => Math.round(x * 100) / 100;
/** 5 April 2018, 09:30:10 UTC: a day the shipped BTC minutes hold whole. */
const T0 = Date.UTC(2018, 3, 5, 9, 30, 10) / 1000;

let clock: MovableClock;
let venue: VenueFixture;
let deck: TestDeck;
let op: Awaited<ReturnType<typeof signedIn>>;

const decide = (decision: unknown, model = 'typed_m') => callAnswered(`${deck.url}/typed/decisions`, { body: { model, decision }, headers: op.bearer });
const fields = (body: { problems?: { field: string }[] }) => (body.problems ?? []).map((p) => p.field).sort();
const refusedOf = async (model = 'typed_m') => (await callAnswered(`${deck.url}/agent/models/${model}`, { headers: op.bearer })).body.model.refused;
/** The last close the venue has printed by now. */
const lastClose = () => btc[at.get(Math.floor(clock() / 60_000) * 60 - 60)!]![4];

beforeAll(async () => {
  clock = movableClock(T0);
  venue = await startVenue({ 'BTC/1m': btc });
  venue.clock = clock;
  deck = await testDeck({ DECK_TAPE_URL: venue.url }, clock);
  op = await signedIn(deck.url, 'typed_op');
  for (const [name, caps] of [['typed_m', {}], ['typed_capped', { max_order_size: 0.05 }]] as const) {
    const r = await callAnswered(`${deck.url}/agent/models`, { body: { name, decide_url: 'https://93.184.215.14/decide', market: 'BTC', caps }, headers: op.bearer });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await deck.stop();
  await venue.close();
});

describe('the typed-decision.v1 document', () => {
  it('is served to anyone as a JSON Schema of its own, made from the schema every answer is checked with', async () => {
    const res = await callAnswered(`${deck.url}/typed/typed-decision.v1.json`);
    expect(res.status).toBe(200);
    const schema = res.body;
    expect(schema).toMatchObject({ $id: `${deck.url}/typed/typed-decision.v1.json`, title: 'typed-decision.v1', $schema: 'https://json-schema.org/draft/2020-12/schema' });
    const validate = new Ajv2020.default({ strict: false }).compile(schema);
    for (const good of [
      { action: 'hold', why: 'quiet' },
      { version: 'typed-decision.v1', action: 'enter', side: 'short', size: 2, stop: 101.5, target: 90, why: 'breakdown' },
      { action: 'exit', why: 'done' },
    ]) {
      expect(validate(good), JSON.stringify(good)).toBe(true);
    }
    for (const bad of [{ action: 'hold' }, { action: 'enter', side: 'long', size: 1, why: 'no stop' }, { action: 'buy', why: 'x' }, { action: 'hold', why: 'x', confidence: 0.9 }]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('is listed in the OpenAPI document under the typed tag, as the lane and the book and agent routes are under theirs', async () => {
    const { paths } = (await callAnswered(`${deck.url}/openapi.json`)).body;
    expect(paths['/typed/typed-decision.v1.json'].get.tags).toEqual(['typed']);
    expect(paths['/typed/decisions'].post.tags).toEqual(['typed']);
    expect(paths['/book/orders'].post.tags).toEqual(['book']);
    expect(paths['/book/orders/{id}'].delete.tags).toEqual(['book']);
    expect(paths['/agent/runs'].post.tags).toEqual(['agent']);
    expect(paths['/agent/models'].post.tags).toEqual(['agent']);
  });
});

describe('a decision that fails the contract', () => {
  it('is refused 422 bad_decision naming each field, and counted against the model by field', async () => {
    const cases: [unknown, string[]][] = [
      [{ action: 'hold' }, ['decision.why']],
      [{ action: 'buy', why: 'x' }, ['decision.action']],
      [{ why: 'nothing' }, ['decision.action']],
      [{ action: 'enter', side: 'long', size: -1, why: '' }, ['decision.size', 'decision.stop', 'decision.why']],
      [{ action: 'enter', side: 'up', size: 0.01, stop: 1, why: 'x' }, ['decision.side']],
      [{ action: 'hold', why: 'x', confidence: 0.9 }, ['decision.confidence']],
      [{ version: 'typed-decision.v2', action: 'hold', why: 'x' }, ['decision.version']],
    ];
    for (const [decision, named] of cases) {
      const r = await decide(decision);
      expect(r.status, JSON.stringify(decision)).toBe(422);
      expect(r.body.error).toBe('bad_decision');
      expect(fields(r.body), JSON.stringify(decision)).toEqual(named);
    }
    expect(await refusedOf()).toEqual({
      total: 7,
      fields: { why: 2, action: 2, size: 1, stop: 1, side: 1, confidence: 1, version: 1 },
    });
    expect((await callAnswered(`${deck.url}/book/orders?model=typed_m`, { headers: op.bearer })).body.orders.total).toBe(0);
  });

  it('is refused the same over MCP, as an error result naming the field', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, op.bearer);
    const r = await client.callTool({ name: 'decision_post', arguments: { model: 'typed_m', decision: { action: 'exit' } } });
    expect(r.isError).toBe(true);
    expect(refusalIn(r)).toMatchObject({ status: 422, error: 'bad_decision', problems: [{ field: 'decision.why' }] });
    await client.close();
    expect((await refusedOf()).total).toBe(8);
  });
});

describe('a decision posted without a replay', () => {
  it("enters the model's live book as a market order now, filled at the next bar's open", async () => {
    const c = lastClose();
    const r = await decide({ action: 'enter', side: 'long', size: 0.01, stop: q2(c - 200), target: q2(c + 600), why: 'test entry' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, model: 'typed_m', order: { source: 'decision', why: 'test entry', side: 'buy', size: 0.01, status: 'working', mode: 'live' }, position: { side: 'flat' } });
    // Still working: a second decision cannot apply yet (409), and is counted.
    const again = await decide({ action: 'exit', why: 'changed my mind' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'order_working', problems: [{ field: 'decision.action' }] });
    const next = at.get(Math.ceil(T0 / 60) * 60)!;
    clock.set(btc[next]![0] + 60);
    const pos = await callAnswered(`${deck.url}/book/positions?model=typed_m`, { headers: op.bearer });
    expect(pos.body.positions).toEqual([{ market: 'BTC', side: 'long', size: 0.01, entry: q2(btc[next]![1] + 0.5), stop: q2(c - 200), target: q2(c + 600), opened_t: btc[next]![0] }]);
  });

  it('refuses what cannot apply to the position (409 not_flat), and holds place nothing', async () => {
    const c = lastClose();
    const again = await decide({ action: 'enter', side: 'short', size: 0.01, stop: q2(c + 200), why: 'flip' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'not_flat', problems: [{ field: 'decision.action' }] });
    const held = await decide({ action: 'hold', why: 'wait' });
    expect(held.body).toMatchObject({ ok: true, order: null, position: { side: 'long' } });
  });

  it('exits the whole position at the next bar', async () => {
    const r = await decide({ action: 'exit', why: 'done' });
    expect(r.body.order).toMatchObject({ side: 'sell', size: 0.01, status: 'working' });
    clock.advance(120);
    expect((await callAnswered(`${deck.url}/book/positions?model=typed_m`, { headers: op.bearer })).body.positions).toEqual([]);
    const exit = await decide({ action: 'exit', why: 'again' });
    expect(exit.status).toBe(409);
    expect(exit.body.error).toBe('flat');
  });

  it("refuses an entry over the model's caps or with its stop on the wrong side, naming decision.<field>, counted", async () => {
    const c = lastClose();
    const over = await decide({ action: 'enter', side: 'long', size: 0.1, stop: q2(c - 100), why: 'big' }, 'typed_capped');
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ error: 'over_caps', problems: [{ field: 'decision.size' }], caps: [{ cap: 'max_order_size', limit: 0.05 }] });
    const wrong = await decide({ action: 'enter', side: 'long', size: 0.01, stop: q2(c + 100), why: 'upside down' }, 'typed_capped');
    expect(wrong.status).toBe(422);
    expect(fields(wrong.body)).toEqual(['decision.stop']);
    expect(await refusedOf('typed_capped')).toEqual({ total: 2, fields: { size: 1, stop: 1 } });
  });

  it('answers 404 for a model that is not yours', async () => {
    const r = await decide({ action: 'hold', why: 'x' }, 'nobody_s');
    expect(r.status).toBe(404);
  });
});
