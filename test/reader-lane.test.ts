import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readRule, type RuleReading } from '../engine/reader/index.js';
import { startReaderModel, type ReaderFixture } from './fixtures/reader-model.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, refusalIn } from './support/mcp.js';
import { answered, callAnswered } from './support/answers.js';
import { meterSpent } from './support/studio.js';

// The model reader lane against a local chat-completions lane over real HTTP: a reading is accepted whole (the
// reading schema, and every span quoting the text) or refused whole; the lane is the house's, funded for the plan,
// max and house tiers; GET /forge/lanes says per principal whether it is open and why not; workflow_read and POST
// /forge take lane, the embedded lane staying the default.

const HOUSE_KEY = `sk-reader-${'r'.repeat(32)}`;
const WRONG_KEY = `sk-wrong-${'w'.repeat(32)}`;
const MODEL = 'reader-test-model';
const RULE =
  'BTC on the 1 minute chart, long and short, around the clock: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';

type Who = Awaited<ReturnType<typeof signedIn>>;

/** A faithful lane: its reading is the embedded reader's, to the byte. */
const faithful = (text: string) => JSON.stringify(readRule(text));
/** The faithful reading with one change. */
const altered = (change: (r: RuleReading) => unknown) => (text: string) => JSON.stringify(change(readRule(text)));

let lane: ReaderFixture;
let grants: string;
/** A deck with the model lane on the house key. */
let deck: TestDeck;
/** A deck with no model lane (DECK_READER_URL unset). */
let laneless: TestDeck;
/** A deck whose key the lane does not accept. */
let wrongKey: TestDeck;
let free: Who;
let plan: Who;
let house: Who;
/** A plan principal of the laneless deck. */
let lanelessPlan: Who;

const forge = (url: string, who: Who, body: unknown) => callAnswered(`${url}/forge`, { body, headers: who.bearer });
const lanesOf = async (url: string, who: Who) => (await callAnswered(`${url}/forge/lanes`, { headers: who.bearer })).body.lanes as Record<string, unknown>[];

/** workflow_read over MCP on /mcp/studio: the structured answer, and whether it is an error. */
async function read(url: string, who: Who, args: Record<string, unknown>) {
  const client = await legacyClient(`${url}/mcp/studio`, who.bearer);
  try {
    const got = await client.callTool({ name: 'workflow_read', arguments: args });
    if (!got.isError) answered('workflow_read', got.structuredContent);
    return { isError: got.isError === true, body: got.isError === true ? refusalIn(got) : (got.structuredContent as Record<string, any>) };
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  lane = await startReaderModel([HOUSE_KEY], faithful);
  grants = await grantsFile([
    { name: 'reader_plan', tier: 'plan' },
    { name: 'reader_house', tier: 'house' },
  ]);
  deck = await testDeck({ DECK_GRANTS: grants, DECK_READER_URL: lane.url, DECK_READER_KEY: HOUSE_KEY, DECK_READER_MODEL: MODEL });
  laneless = await testDeck({ DECK_GRANTS: grants });
  wrongKey = await testDeck({ DECK_GRANTS: grants, DECK_READER_URL: lane.url, DECK_READER_KEY: WRONG_KEY });
  free = await signedIn(deck.url, 'reader_free');
  plan = await signedIn(deck.url, 'reader_plan');
  house = await signedIn(deck.url, 'reader_house');
  lanelessPlan = await signedIn(laneless.url, 'reader_plan');
}, 60_000);
afterAll(async () => {
  await Promise.all([deck.stop(), laneless.stop(), wrongKey.stop()]);
  await lane.close();
  await rm(dirname(grants), { recursive: true, force: true });
});
beforeEach(() => {
  lane.mode = 'answer';
  lane.jsonMode = true;
  lane.answer = faithful;
});

describe('GET /forge/lanes, per principal', () => {
  it('opens the model lane to the plan and house tiers, and lists it closed on the free tier naming the plans', async () => {
    const [embedded, model] = await lanesOf(deck.url, free);
    expect(embedded).toMatchObject({ id: 'embedded', available: true });
    expect(model).toMatchObject({ id: 'model', available: false, reason: 'not funded on the free tier: take a plan (plan-29, premium-99)' });
    expect((await lanesOf(deck.url, plan))[1]).toMatchObject({ id: 'model', available: true, model: MODEL, funded: 'plan' });
    expect((await lanesOf(deck.url, house))[1]).toMatchObject({ id: 'model', available: true, model: MODEL, funded: 'house' });
  });

  it('lists the model lane unavailable, not configured, on a deck without DECK_READER_URL, whatever the tier', async () => {
    const lanes = await lanesOf(laneless.url, lanelessPlan);
    expect(lanes.map((l) => [l.id, l.available])).toEqual([['embedded', true], ['model', false]]);
    expect(lanes[1]).toMatchObject({ reason: 'not configured: set DECK_READER_URL' });
  });
});

describe('workflow_read with lane model', () => {
  it('accepts a faithful reading: the seven parts with their spans, asked once at temperature 0 in JSON mode, metered', async () => {
    const before = await meterSpent(deck.url, plan);
    const asked = lane.requests.length;
    const got = await read(deck.url, plan, { text: RULE, lane: 'model' });
    expect(got.isError).toBe(false);
    expect(got.body.parts).toEqual(readRule(RULE));
    expect(got.body.parts.stop.spans.map((s: { text: string }) => s.text).join(' ')).toMatch(/2 ATR\(14\)/);
    expect(lane.requests.length).toBe(asked + 1);
    const { bearer, body } = lane.requests.at(-1)!;
    expect(bearer).toBe(HOUSE_KEY);
    expect(body).toMatchObject({ model: MODEL, temperature: 0, response_format: { type: 'json_object' } });
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0]!.content).toMatch(/seven parts/);
    expect(body.messages[1]!.content).toBe(RULE);
    const units = ((await callAnswered(`${deck.url}/price?action=read_model`)).body.prices as { units: number }[])[0]!.units;
    expect(units).toBeGreaterThan(0);
    expect(await meterSpent(deck.url, plan)).toBe(before + units);
  });

  it('stays on the embedded lane by default: the lane is not asked, and the reading is the deterministic one', async () => {
    const asked = lane.requests.length;
    const got = await read(deck.url, free, { text: RULE });
    expect(got.body.parts).toEqual(readRule(RULE));
    expect((await read(deck.url, free, { text: RULE, lane: 'embedded' })).body).toEqual(got.body);
    expect(lane.requests.length).toBe(asked);
  });

  it('refuses a reading citing words not in the text (502, naming the part), and spends nothing', async () => {
    lane.answer = altered((r) => {
      const s = r.entry.spans[0]!;
      return { ...r, entry: { ...r.entry, spans: [{ ...s, text: 'x'.repeat(s.to - s.from) }, ...r.entry.spans.slice(1)] } };
    });
    const before = await meterSpent(deck.url, plan);
    const got = await read(deck.url, plan, { text: RULE, lane: 'model' });
    expect(got.isError).toBe(true);
    expect(got.body).toMatchObject({ status: 502, error: 'model_reading_refused' });
    expect(got.body.problems).toEqual([expect.stringMatching(/^entry\.spans\.0: span \d+-\d+ is not the words it quotes$/)]);
    expect(await meterSpent(deck.url, plan)).toBe(before);
  });

  it('refuses a span that runs past the text', async () => {
    lane.answer = altered((r) => ({ ...r, market: { ...r.market, spans: [{ from: RULE.length, to: RULE.length + 3, text: 'BTC' }] } }));
    const got = await read(deck.url, plan, { text: RULE, lane: 'model' });
    expect(got.body).toMatchObject({ status: 502, error: 'model_reading_refused' });
    expect(got.body.problems).toEqual([expect.stringMatching(/^market\.spans\.0: span \d+-\d+ runs past the text/)]);
  });

  it('refuses a reading failing the schema, naming where, and never takes a part of it', async () => {
    lane.answer = altered((r) => ({ ...r, market: { ...r.market, value: 'CL' } }));
    const bad = await read(deck.url, plan, { text: RULE, lane: 'model' });
    expect(bad.body).toMatchObject({ status: 502, error: 'model_reading_refused' });
    expect(bad.body.problems).toEqual([expect.stringMatching(/^market\.value: /)]);
    expect(bad.body.parts).toBeUndefined();

    lane.answer = altered(({ exit: _, ...six }) => six);
    expect((await read(deck.url, plan, { text: RULE, lane: 'model' })).body.problems).toEqual([expect.stringMatching(/^exit: /)]);
    lane.answer = altered((r) => ({ ...r, side: { status: 'read', value: 'long', spans: [] } }));
    expect((await read(deck.url, plan, { text: RULE, lane: 'model' })).body.problems).toEqual(['side: a read part has a value and cites its words']);
    lane.answer = () => 'The rule trades BTC.';
    expect((await read(deck.url, plan, { text: RULE, lane: 'model' })).body).toMatchObject({ status: 502, problems: ['the answer is not JSON'] });
  });

  it('completes a reading by the documented defaults as the embedded reader does, and refuses a default its rule does not give', async () => {
    const text = 'ES 5m: buy when price crosses above VWAP, stop 2 ATR, target 2R.';
    // The embedded lane as the deck serves it: the engine's reading with the notes of what the forge adds.
    const embedded = (await read(deck.url, plan, { text, lane: 'embedded' })).body.parts as RuleReading;
    expect(embedded.stop.status).toBe('defaulted');
    // The lane answers what the words state and no more: no session, an ATR without its length.
    lane.answer = altered((r) => ({
      ...r,
      session: { status: 'missing', value: null, spans: [] },
      stop: { status: 'read', value: { kind: 'distance', distance: { unit: 'atr', n: 2, period: null } }, spans: r.stop.spans },
    }));
    const completed = await read(deck.url, plan, { text, lane: 'model' });
    expect(completed.isError).toBe(false);
    expect(completed.body.parts).toEqual(embedded);
    // A lane that passes its own number off as the default is refused whole.
    lane.answer = altered((r) => ({ ...r, stop: { ...r.stop, value: { kind: 'distance', distance: { unit: 'atr', n: 2, period: 10 } } } }));
    const claimed = await read(deck.url, plan, { text, lane: 'model' });
    expect(claimed.body).toMatchObject({ status: 502, error: 'model_reading_refused' });
    expect(claimed.body.problems).toEqual(["stop.defaults.0: atr_length puts 14 as an ATR's length, not at .distance.period"]);
  });

  it('refuses a reading the model declines to give', async () => {
    lane.mode = 'refuse';
    const got = await read(deck.url, plan, { text: RULE, lane: 'model' });
    expect(got.body).toMatchObject({ status: 502, error: 'model_reading_refused', problems: ['the model refused to read the rule'] });
  });

  it('asks once more without JSON mode when the lane does not know it, and accepts a fenced answer', async () => {
    lane.jsonMode = false;
    lane.answer = (text) => `\`\`\`json\n${faithful(text)}\n\`\`\``;
    const asked = lane.requests.length;
    const got = await read(deck.url, house, { text: RULE, lane: 'model' });
    expect(got.body.parts).toEqual(readRule(RULE));
    const [first, second] = lane.requests.slice(asked);
    expect(first!.body.response_format).toEqual({ type: 'json_object' });
    expect(second!.body.response_format).toBeUndefined();
    expect(lane.requests.length).toBe(asked + 2);
  });

  it('is 503 when the lane cannot be reached', async () => {
    lane.mode = 'down';
    const got = await read(deck.url, plan, { text: RULE, lane: 'model' });
    expect(got.body).toMatchObject({ status: 503, error: 'upstream_unreachable', upstream: 'the model reader' });
  });

  it('is 502 carrying only the status, type and code when the lane answers outside 2xx: the key is never echoed', async () => {
    const who = await signedIn(wrongKey.url, 'reader_plan');
    const got = await read(wrongKey.url, who, { text: RULE, lane: 'model' });
    expect(got.body).toMatchObject({ status: 502, error: 'model_reader_refused', reader: { status: 401, type: 'invalid_request_error', code: 'invalid_api_key' } });
    expect(JSON.stringify(got.body)).not.toContain(WRONG_KEY);
    expect(lane.requests.at(-1)!.bearer).toBe(WRONG_KEY);
  });

  it('is 503 naming DECK_READER_URL when the lane is not configured', async () => {
    const got = await read(laneless.url, lanelessPlan, { text: RULE, lane: 'model' });
    expect(got.body).toMatchObject({ status: 503, error: 'upstream_not_configured' });
    expect(got.body.message).toMatch(/set DECK_READER_URL/);
  });

  it('is 402 on the free tier, naming the plans that would fund it; the lane is not asked', async () => {
    const asked = lane.requests.length;
    const got = await read(deck.url, free, { text: RULE, lane: 'model' });
    expect(got.body).toMatchObject({ status: 402, error: 'no_reader_funding', fund: ['plan'], plans: ['plan-29', 'premium-99'] });
    expect(lane.requests.length).toBe(asked);
  });

  it('refuses a lane that is not one of the two (422 naming lane)', async () => {
    const got = await read(deck.url, plan, { text: RULE, lane: 'oracle' });
    expect(got.body).toMatchObject({ status: 422, error: 'bad_input', problems: [expect.objectContaining({ field: 'lane' })] });
  });
});

describe('POST /forge with lane model', () => {
  it('forges the same seed_hash and code as the embedded lane when the readings are equal', async () => {
    const embedded = await forge(deck.url, plan, { intent: RULE });
    const asked = lane.requests.length;
    const model = await forge(deck.url, plan, { intent: RULE, lane: 'model' });
    expect(model.status).toBe(200);
    expect(lane.requests.length).toBe(asked + 1);
    expect(model.body.seed_hash).toBe(embedded.body.seed_hash);
    expect(model.body.code).toBe(embedded.body.code);
    expect(model.body.scan).toEqual(embedded.body.scan);
  });

  it('forges what the model read: a reading that differs forges a different seed', async () => {
    lane.answer = altered((r) => ({ ...r, stop: { ...r.stop, value: { kind: 'distance', distance: { unit: 'atr', n: 3, period: 14 } } } }));
    const embedded = await forge(deck.url, house, { intent: RULE });
    const model = await forge(deck.url, house, { intent: RULE, lane: 'model' });
    expect(model.status).toBe(200);
    expect(model.body.script.stop).toMatchObject({ distance: { unit: 'atr', n: 3 } });
    expect(model.body.seed_hash).not.toBe(embedded.body.seed_hash);
  });

  it('refuses a refused reading (502) and keeps nothing; 503 not configured; 402 on the free tier', async () => {
    lane.answer = altered((r) => ({ ...r, stop: { ...r.stop, spans: [{ from: 0, to: 4, text: 'Stop' }] } }));
    const before = await meterSpent(deck.url, plan);
    const refused = await forge(deck.url, plan, { intent: RULE, lane: 'model' });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ error: 'model_reading_refused', problems: [expect.stringMatching(/^stop\.spans\.0: /)] });
    expect(await meterSpent(deck.url, plan)).toBe(before);

    const unconfigured = await forge(laneless.url, lanelessPlan, { intent: RULE, lane: 'model' });
    expect(unconfigured.status).toBe(503);
    expect(unconfigured.body.message).toMatch(/DECK_READER_URL/);

    const unfunded = await forge(deck.url, free, { intent: RULE, lane: 'model' });
    expect(unfunded.status).toBe(402);
    expect(unfunded.body).toMatchObject({ error: 'no_reader_funding', fund: ['plan'] });
  });
});
