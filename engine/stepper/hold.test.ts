import { describe, expect, it } from 'vitest';
import { EMA_CROSS, TRAILED_EMA_CROSS } from '../../test/fixtures/scripts.js';
import { sampleFile } from '../../test/support/tape-file.js';
import { compileDecider } from '../decider/compile.js';
import type { Decider } from '../decider/contract.js';
import { irOf } from '../decider/ir.js';
import { trialSession, type Script } from '../decider/script.js';
import { seriesOf } from '../decider/series.js';
import { DEFAULT_COSTS, slippageOf } from './costs.js';
import { Machine } from './machine.js';
import { randomNull } from './null.js';

// A decider whose rule does nothing while a trade is open (a fixed stop and target) says so (MANAGES false), and the
// stepper then steps its trades without calling it. The trades and the random null must be what the full step, which
// calls decide on every bar of a trade, gives: the same bytes.

const CASES: [string, Script, string, boolean][] = [
  ['the EMA cross on BTC 1m (a fixed stop and target)', EMA_CROSS, 'BTC-1m', false],
  ['the EMA cross in the cash session on ES 1m', { ...EMA_CROSS, market: 'ES', session: trialSession('ES') }, 'ES-1m', true],
  ['the EMA cross, long only, round the clock on ES 1m (a fixed stop and target)', { ...EMA_CROSS, market: 'ES', side: 'long', entry: { triggers: [EMA_CROSS.entry.triggers[0]!] } }, 'ES-1m', false],
  ['the EMA cross with a breakeven, a trail and a 90-bar limit on BTC 1m', TRAILED_EMA_CROSS, 'BTC-1m', true],
  // A scheduled exit is met in decide, so a rule with one manages its trades (the held step has no deadline to test).
  ['the EMA cross with a 2-hour limit on BTC 1m', { ...EMA_CROSS, exit: { ...EMA_CROSS.exit, time: [{ kind: 'hours', n: 2 }] } }, 'BTC-1m', true],
];

describe('a decider that leaves open trades alone', () => {
  it.each(CASES)('%s: says whether it manages a trade, and is stepped to the same trades and null', (_, script, tape, manages) => {
    const bars = sampleFile(tape);
    const ir = irOf(script);
    const seed = 'e'.repeat(64);
    const decider = compileDecider(ir, seed, 'test.v1');
    expect(decider.MANAGES).toBe(manages);
    // The same functions, stepped the full way: decide is called on every bar of a trade.
    const full: Decider = { ...decider, MANAGES: true };
    const costs = DEFAULT_COSTS[ir.market];
    const slippage = slippageOf(ir.market, costs);
    const series = seriesOf(ir, bars);
    const fills = { tf: ir.tf_seconds, tick: ir.tick, slippage, fee: costs.fee };
    const start = 30;
    const held = new Machine(decider, series, fills).run(start, bars.length);
    const stepped = new Machine(full, series, fills).run(start, bars.length);
    expect(held.trades.length).toBeGreaterThan(50);
    expect(JSON.stringify(held)).toBe(JSON.stringify(stepped));
    const nullOf = (d: Decider) =>
      JSON.stringify(randomNull({ machine: new Machine(d, series, fills), decider: d, series, ir, trades: held.trades, start, end: bars.length, slippage, runs: 200, seed }));
    expect(nullOf(decider)).toBe(nullOf(full));
  }, 60_000);
});
