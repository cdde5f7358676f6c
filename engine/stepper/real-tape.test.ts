import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EMA_CROSS } from '../../test/fixtures/scripts.js';
import { sampleFile } from '../../test/support/tape-file.js';
import { inCashSession } from '../calendar.js';
import { codeOf } from '../decider/codegen.js';
import { compileDecider, runnableDecider } from '../decider/compile.js';
import type { Decider, DeciderModule } from '../decider/contract.js';
import { irOf } from '../decider/ir.js';
import { trialSession, type Script } from '../decider/script.js';
import { seriesOf } from '../decider/series.js';
import { DEFAULT_COSTS, slippageOf } from './costs.js';
import { Machine } from './machine.js';
import { rehearse } from './rehearse.js';

// The real BTC 1m bars shipped (12,423 Coinbase minutes over nine days of 2016 to 2018, months apart, and sparse in
// 2016): an EMA(9)/EMA(21) cross, both sides, a 2 ATR(14) stop and a 2R target, at BTC's default costs. A trade
// open when a stretch of days ends is out at the next one's open, beyond its stop or not, as over a weekend.
const bars = sampleFile('BTC-1m');
const emaCross: Script = EMA_CROSS;
const ir = irOf(emaCross);
const seed = 'e'.repeat(64);
const version = 'test.v1';
const decider = compileDecider(ir, seed, version);
const costs = DEFAULT_COSTS.BTC;
const slip = slippageOf('BTC', costs);
const envelope = rehearse(ir, decider, bars, { seed, folds: 4 });
const scratch = await mkdtemp(join(tmpdir(), 'deck-decider-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const q = (x: number) => Math.round(x * 100) / 100;
const indexOf = new Map(Array.from(bars.t, (t, i) => [t, i]));

describe('an EMA cross with a 2 ATR stop and a 2R target on real BTC 1m bars', () => {
  it('trades, and every trade obeys its stop: out at the stop (slippage against) or at an open beyond it', () => {
    const { trades } = envelope;
    expect(trades.length).toBeGreaterThan(100);
    for (const trade of trades) {
      const d = trade.side === 'long' ? 1 : -1;
      const risk = d * (trade.entry - trade.stop);
      expect(risk).toBeGreaterThan(0);
      const fees = (trade.entry + trade.exit) * (costs.fee.per_side / 10_000);
      if (trade.why !== 'stop') continue;
      const open = bars.o[indexOf.get(trade.exit_t)!]!;
      const gapped = d * (open - trade.stop) <= 0;
      expect(trade.exit).toBe(gapped ? q(open - d * slip) : q(trade.stop - d * slip));
      // No trade loses more than 1R plus its slippage and fees, unless the market opened through its stop.
      if (!gapped) expect(trade.r).toBeGreaterThanOrEqual(-1 - (slip + fees) / risk - 1e-3);
    }
    // A target is reached before costs; after them a tight stop can leave even a 2R target below zero.
    expect(trades.filter((x) => x.why === 'target').every((x) => (x.side === 'long' ? 1 : -1) * (x.exit - x.entry) > 0)).toBe(true);
  });

  it('runs the generated TypeScript exactly as the stepper runs the compiled decider', async () => {
    const file = join(scratch, 'decider.ts');
    await writeFile(file, codeOf(ir, seed, version));
    const generated = runnableDecider((await import(pathToFileURL(file).href)) as DeciderModule);
    expect(generated.SEED_HASH).toBe(seed);
    const fills = { tf: ir.tf_seconds, tick: ir.tick, slippage: slip, fee: costs.fee };
    const runWith = (d: Decider) => new Machine(d, seriesOf(ir, bars), fills).run(0, bars.length);
    const fromCode = runWith(generated);
    expect(fromCode.trades.length).toBe(envelope.trades.length);
    expect(fromCode).toEqual(runWith(decider));
  });

  it('cuts walk-forward folds that cover the window once and hold every trade once', () => {
    const folds = envelope.folds!;
    expect(folds).toHaveLength(4);
    expect(folds.reduce((n, f) => n + f.bars, 0)).toBe(envelope.window.bars);
    expect(folds.reduce((n, f) => n + f.stats.n, 0)).toBe(envelope.stats.n);
    folds.slice(1).forEach((f, j) => expect(f.from).toBe(folds[j]!.to));
    expect(folds[0]!.from).toBe(envelope.window.from);
    expect(folds.at(-1)!.to).toBe(envelope.window.to);
  });

  it('weighs the rule against 1,000 matched random-entry runs and calls the result evidence about the past', () => {
    const n = envelope.null;
    expect(n.runs).toBe(1000);
    expect(n.matched).toMatchObject({ trades: envelope.stats.n, long: envelope.stats.long, short: envelope.stats.short });
    expect(n.p).toBe(Math.round(((n.k + 1) / 1001) * 1e4) / 1e4);
    expect(n.total_r!.p05).toBeLessThanOrEqual(n.total_r!.p95);
    expect(envelope.summary).toMatch(/^Over 12,423 1m bars of BTC from 2016-10-07 00:00 UTC to 2018-04-07 00:00 UTC the rule took/);
    expect(envelope.summary).toContain('evidence about how the rule would have fared on these past bars, never a forecast');
  });
});

describe('on real ES 1m bars under the trial\'s default session', () => {
  it('enters inside the cash session and holds no bar outside it', () => {
    const es = sampleFile('ES-1m');
    const script: Script = { ...emaCross, market: 'ES', session: trialSession('ES') };
    const esIr = irOf(script);
    const r = rehearse(esIr, compileDecider(esIr, seed, version), es, { seed, nullRuns: 100 });
    expect(r.trades.length).toBeGreaterThan(20);
    for (const trade of r.trades) {
      expect(inCashSession('ES', trade.entry_t)).toBe(true);
      // Every bar opening from the entry up to the exit is a cash-session bar. (On a holiday's early close the
      // session's end passes while the market is shut: the trade is then out at the next open.)
      const held = Array.from(es.t).filter((t) => t >= trade.entry_t && t < trade.exit_t);
      expect(held.every((t) => inCashSession('ES', t))).toBe(true);
    }
    expect(r.trades.some((x) => x.why === 'session_end')).toBe(true);
  });
});
