import { allocBars, type Bars } from '../bars.js';
import { compileDecider } from '../decider/compile.js';
import { irOf } from '../decider/ir.js';
import type { Script } from '../decider/script.js';
import type { Costs } from './costs.js';
import type { Rehearsal } from './envelope.js';
import { rehearse, type RehearseOptions } from './rehearse.js';

/** Hand-made bars for the stepper's tests: [o, h, l, c] rows, one bar length apart from t0, volume 1. */
export function toyBars(rows: readonly (readonly [number, number, number, number])[], t0: number, tf = 60): Bars {
  const b = allocBars(rows.length);
  rows.forEach(([o, h, l, c], i) => {
    b.t[i] = t0 + i * tf;
    b.o[i] = o;
    b.h[i] = h;
    b.l[i] = l;
    b.c[i] = c;
    b.v[i] = 1;
  });
  return b;
}

export const NO_COSTS: Costs = { slippage_ticks: 0, fee: { per_side: 0, unit: 'points' } };

/** A script forged and rehearsed as the deck does it: irOf, compileDecider, rehearse (no null unless asked). */
export function rehearseScript(script: Script, bars: Bars, options: Partial<RehearseOptions> = {}): Rehearsal {
  const ir = irOf(script);
  const seed = 'c'.repeat(64);
  return rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, nullRuns: 0, costs: NO_COSTS, ...options });
}
