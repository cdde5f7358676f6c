import { describe, expect, it } from 'vitest';
import { EMA_CROSS, TRAILED_EMA_CROSS } from '../../test/fixtures/scripts.js';
import { sampleFile } from '../../test/support/tape-file.js';
import { compileDecider } from '../decider/compile.js';
import { PHASE, type Decider, type DeciderSeries } from '../decider/contract.js';
import { irOf, type DeciderIR } from '../decider/ir.js';
import { trialSession, type Script } from '../decider/script.js';
import { seriesOf } from '../decider/series.js';
import { DEFAULT_COSTS, slippageOf } from './costs.js';
import { Machine, type TradeRecord } from './machine.js';
import { randomNull, type NullReport } from './null.js';
import { Prng } from './prng.js';
import { round4 } from './stats.js';

// The random null as its documentation states it, written the plain way: every run, every one of its trades drawn
// afresh and stepped bar by bar for at most its own holding time, nothing kept between runs. The deck's null shares
// each entry bar's natural trade between the runs that draw it (and never steps it twice); the two must give the same
// report, byte for byte, on real tapes and rules that use the session gate, deadlines, a trail and a breakeven.

const { IN_LONG, IN_SHORT, EXITING } = PHASE;

/** One random trade, stepped from scratch: armed at bar i, its R after at most h bars (closed at the h-th bar's close). */
function plainTrade(m: Machine, decider: Decider, close: Float64Array, i: number, dir: number, h: number, end: number, slip: number): number {
  decider.arm(i, m.st, dir);
  m.enter(i + 1);
  const { entry, risk } = m.st;
  const f = i + 1;
  const last = Math.min(end, f + h);
  if (m.step(f, last) >= 0) return m.exitR;
  const st = m.st;
  if (last === end && (st.phase === IN_LONG || st.phase === IN_SHORT || st.phase === EXITING)) {
    m.endAt(end - 1);
    return m.exitR;
  }
  return m.rOf(dir, entry, risk, close[i + h]! - dir * slip);
}

function plainNull(ir: DeciderIR, decider: Decider, series: DeciderSeries, m: Machine, trades: readonly TradeRecord[], start: number, end: number, slip: number, runs: number, seed: string): NullReport {
  const holds = trades.map((t) => t.exitBar - t.fill + 1);
  const sorted = [...holds].sort((a, b) => a - b);
  const ruleTotal = trades.reduce((sum, t) => sum + t.r, 0);
  const gate = ir.session.kind === 'windows' ? (series[ir.session.gate] as Float64Array) : null;
  const eligibleFor = (dir: number) => {
    const bars: number[] = [];
    for (let i = Math.max(start, 1); i + 1 < end; i++) {
      if (gate && gate[i] !== 1) continue;
      decider.arm(i, m.st, dir);
      if (m.enter(i + 1)) bars.push(i);
    }
    return bars;
  };
  const long = eligibleFor(1);
  const short = eligibleFor(-1);
  const longHolds = holds.filter((_, j) => trades[j]!.dir === 1);
  const shortHolds = holds.filter((_, j) => trades[j]!.dir === -1);
  const rng = new Prng(seed);
  const totals: number[] = [];
  let k = 0;
  for (let run = 0; run < runs; run++) {
    let total = 0;
    for (const [bars, caps, dir] of [[long, longHolds, 1], [short, shortHolds, -1]] as const) {
      let side = 0;
      for (const h of caps) side += plainTrade(m, decider, series.c, bars[rng.below(bars.length)]!, dir, h, end, slip);
      total += side;
    }
    totals.push(total);
    if (total >= ruleTotal) k++;
  }
  const inOrder = Float64Array.from(totals).sort();
  const rank = (q: number) => inOrder[Math.round(q * (inOrder.length - 1))]!;
  return {
    runs,
    seed,
    matched: {
      trades: trades.length,
      long: longHolds.length,
      short: shortHolds.length,
      holding_bars: { min: sorted[0]!, median: sorted[Math.floor((holds.length - 1) / 2)]!, max: sorted.at(-1)! },
    },
    eligible: { long: long.length, short: short.length },
    rule_total_r: round4(ruleTotal),
    total_r: { mean: round4(totals.reduce((a, b) => a + b, 0) / runs), p05: round4(rank(0.05)), p50: round4(rank(0.5)), p95: round4(rank(0.95)) },
    k,
    percentile: Math.round((1000 * (runs - k)) / runs) / 10,
    p: round4((k + 1) / (runs + 1)),
  };
}

const CASES: [string, Script, string][] = [
  ['the EMA cross on BTC 1m', EMA_CROSS, 'BTC-1m'],
  ['the EMA cross with a breakeven, a trail and a 90-bar limit on BTC 1m', TRAILED_EMA_CROSS, 'BTC-1m'],
  ['the EMA cross in the cash session on ES 1m', { ...EMA_CROSS, market: 'ES', session: trialSession('ES') }, 'ES-1m'],
];

describe('the random null, shared work against the plain walk', () => {
  it.each(CASES)('%s: the same report, byte for byte', (_, script, tape) => {
    const bars = sampleFile(tape);
    const ir = irOf(script);
    const seed = 'f'.repeat(64);
    const decider = compileDecider(ir, seed, 'test.v1');
    const costs = DEFAULT_COSTS[ir.market];
    const slip = slippageOf(ir.market, costs);
    const series = seriesOf(ir, bars);
    const fills = { tf: ir.tf_seconds, tick: ir.tick, slippage: slip, fee: costs.fee };
    const start = 30;
    const { trades } = new Machine(decider, series, fills).run(start, bars.length);
    expect(trades.length).toBeGreaterThan(50);
    const runs = 300;
    const shared = randomNull({ machine: new Machine(decider, series, fills), decider, series, ir, trades, start, end: bars.length, slippage: slip, runs, seed });
    const plain = plainNull(ir, decider, series, new Machine(decider, series, fills), trades, start, bars.length, slip, runs, seed);
    expect(JSON.stringify(shared)).toBe(JSON.stringify(plain));
  }, 60_000);
});
