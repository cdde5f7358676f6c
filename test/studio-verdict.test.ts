import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VerdictSchema } from '../engine/verdict/index.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { grantsFile, legacyClient } from './support/mcp.js';
import { answered, callAnswered } from './support/answers.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

// Every rehearsal and trial answers its verdict, typed, over REST and MCP alike: how likely its result is to be luck
// or overfitting, deflated for the rules the principal forged or rehearsed on the same market and timeframe. Over the
// sample tape a deck with no venue seeds itself with (ES 1m, October 2013).

let deck: TestDeck;
let alice: Awaited<ReturnType<typeof signedIn>>;
let bob: Awaited<ReturnType<typeof signedIn>>;
let grants: string;
const TO = 1381525200;
const CROSS = 'ES on the 1 minute chart, long and short: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';
const ASK = { to: TO, hours: 24 };

const forge = async (intent: string, who = alice) => (await callAnswered(`${deck.url}/forge`, { body: { intent }, headers: who.bearer })).body.seed_hash as string;
const rehearse = (body: Record<string, unknown>, who = alice) => callAnswered(`${deck.url}/studio/rehearse`, { body: { ...ASK, ...body }, headers: who.bearer });

beforeAll(async () => {
  // House tier: more forges than the free tier's three a day.
  grants = await grantsFile([
    { name: 'verdict_alice', tier: 'house' },
    { name: 'verdict_bob', tier: 'house' },
  ]);
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_GRANTS: grants });
  alice = await signedIn(deck.url, 'verdict_alice');
  bob = await signedIn(deck.url, 'verdict_bob');
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('the verdict of a rehearsal', () => {
  it('answers a typed verdict: the deflated Sharpe after your own trials, the neighbourhood and its PBO, the search test, Monte Carlo, costs and bias checks', async () => {
    const seed = await forge(CROSS);
    const { status, body } = await rehearse({ seed_hash: seed });
    expect(status).toBe(200);
    answered('rehearse', body);
    const v = VerdictSchema.parse(body.verdict);
    expect(v.deflated_sharpe.trials).toMatchObject({ n: 1, market: 'ES', timeframe: '1m' });
    expect(v.neighbourhood.numbers.map((n) => n.name)).toEqual(['EMA length 9', 'EMA length 21', 'stop 2 atr', 'ATR length 14', 'target 2 r']);
    expect(v.neighbourhood.rules).toBe(51);
    expect(v.neighbourhood.results[0]).toEqual({ values: [9, 21, 2, 14, 2], trades: body.stats.n, total_r: body.stats.total_r });
    expect(v.neighbourhood.pbo?.splits).toBe(16);
    expect(v.search?.rules).toBe(51);
    expect(v.monte_carlo?.paths).toBe(1000);
    expect(v.costs).toMatchObject({ market: 'ES', fee: body.costs.fee, slippage_ticks: body.costs.slippage_ticks });
    // The catalogue states, with no key, the costs every rehearsal on the market fills at.
    const catalogue = await (await fetch(`${deck.url}/catalogue`)).json();
    expect(catalogue.costs.map((c: { market: string }) => c.market)).toEqual(catalogue.markets);
    expect(catalogue.costs.find((c: { market: string }) => c.market === 'ES')).toEqual({
      market: 'ES', name: 'E-mini S&P 500 futures', tick: 0.25, point_value: 50, ...body.costs,
    });
    expect(v.bias.look_ahead).toMatchObject({ changed: 0, series_changed: 0 });
    expect(v.bias.warm_up.map((w) => w.factor)).toEqual([2, 4]);
    expect(body.summary).toContain(v.words);
    expect(body.summary).toContain('never a forecast');
  });

  it('deflates for the other rules you forged or rehearsed on the same market and timeframe, and says how many', async () => {
    const seed = await forge(CROSS);
    const before = (await rehearse({ seed_hash: seed })).body.verdict.deflated_sharpe.trials.n as number;
    // Another rule on ES 1m counts once forged; rehearsed, its Sharpe ratio joins the variance.
    const other = await forge(CROSS.replace('Target 2R', 'Target 3R'));
    const afterForge = (await rehearse({ seed_hash: seed })).body.verdict;
    expect(afterForge.deflated_sharpe.trials.n).toBe(before + 1);
    await rehearse({ seed_hash: other });
    const afterRehearsal = (await rehearse({ seed_hash: seed })).body.verdict;
    expect(afterRehearsal.deflated_sharpe.trials).toMatchObject({ n: before + 1, others_rehearsed: 1, variance_from: 'record' });
    expect(afterRehearsal.words).toContain(`after your ${before + 1} trials on ES 1m`);
    // Rehearsing a rule again is not another trial; a rule on another timeframe is not one of these; nor are another principal's.
    expect((await rehearse({ seed_hash: seed })).body.verdict.deflated_sharpe.trials.n).toBe(before + 1);
    await forge(CROSS.replace('1 minute', '5 minute'));
    await forge(CROSS.replace('Target 2R', 'Target 4R'), bob);
    expect((await rehearse({ seed_hash: seed })).body.verdict.deflated_sharpe.trials.n).toBe(before + 1);
  });

  it('answers the same bytes for the same rehearsal, over REST and MCP alike', async () => {
    const seed = await forge(CROSS, bob);
    const first = await rehearse({ seed_hash: seed }, bob);
    const again = await rehearse({ seed_hash: seed }, bob);
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    const client = await legacyClient(`${deck.url}/mcp/studio`, bob.bearer);
    try {
      const result = await client.callTool({ name: 'rehearse', arguments: { seed_hash: seed, ...ASK, trades_limit: 5 } });
      const shown = result.structuredContent as { verdict: unknown };
      answered('rehearse', shown);
      expect(shown.verdict).toEqual(first.body.verdict);
    } finally {
      await client.close();
    }
  });

  it('is in every trial too, and on the plate of a rehearsal', async () => {
    const script = (await callAnswered(`${deck.url}/forge?onboard=ema-cross`, { headers: alice.bearer })).body.script as Record<string, unknown>;
    const trial = await callAnswered(`${deck.url}/forge/trial`, { body: { script: { ...script, market: 'ES', timeframe: '1m' }, hours: 24 }, headers: alice.bearer });
    expect(trial.status).toBe(200);
    answered('forge_trial', trial.body);
    expect(VerdictSchema.parse(trial.body.verdict).neighbourhood.rules).toBeGreaterThan(1);
    const seed = await forge(CROSS);
    const { body } = await rehearse({ seed_hash: seed, plate: true });
    const state = await (await fetch(body.plate.json)).json();
    expect(state.verdict).toMatchObject({ label: body.verdict.label, neighbours: body.verdict.neighbourhood.results.slice(1).map((x: { total_r: number }) => x.total_r) });
    expect(state.verdict.line).toContain(`${body.verdict.neighbourhood.positive}/${body.verdict.neighbourhood.rules} neighbours`);
  });
});
