import type { Prng } from '../stepper/prng.js';
import { bandsOf, type Bands } from './bands.js';

/**
 * Monte Carlo of the rule's own trades, path by path: the same trades in another order (the final R cannot change,
 * the drawdown on the way can), and the same trades in their order with each one skipped by chance (a missed fill,
 * a day away), as a trader following the rule live could. Drawdown is measured as the stepper's is: the deepest fall
 * of cumulative R from its running peak, the peak starting at 0.
 */

export interface MonteCarlo {
  paths: number;
  order: { final_r: number; max_drawdown_r: Bands };
  skipped: { share: number; final_r: Bands; max_drawdown_r: Bands };
}

function drawdownOf(r: Float64Array, keep: Uint8Array | null): { total: number; drawdown: number } {
  let total = 0;
  let peak = 0;
  let drawdown = 0;
  for (let i = 0; i < r.length; i++) {
    if (keep && !keep[i]) continue;
    total += r[i]!;
    if (total > peak) peak = total;
    else if (peak - total > drawdown) drawdown = peak - total;
  }
  return { total, drawdown };
}

export function monteCarloOf(r: Float64Array, paths: number, skipShare: number, rng: Prng): MonteCarlo {
  const shuffled = r.slice();
  const orderDrawdown = new Float64Array(paths);
  const skipFinal = new Float64Array(paths);
  const skipDrawdown = new Float64Array(paths);
  const keep = new Uint8Array(r.length);
  const skipBelow = skipShare * 4294967296;
  let final = 0;
  for (let i = 0; i < r.length; i++) final += r[i]!;
  for (let p = 0; p < paths; p++) {
    // Fisher-Yates over the previous path's order: each path is a uniform permutation all the same.
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const x = shuffled[i]!;
      shuffled[i] = shuffled[j]!;
      shuffled[j] = x;
    }
    orderDrawdown[p] = drawdownOf(shuffled, null).drawdown;
    for (let i = 0; i < r.length; i++) keep[i] = rng.next() < skipBelow ? 0 : 1;
    const skipped = drawdownOf(r, keep);
    skipFinal[p] = skipped.total;
    skipDrawdown[p] = skipped.drawdown;
  }
  return {
    paths,
    order: { final_r: final, max_drawdown_r: bandsOf(orderDrawdown) },
    skipped: { share: skipShare, final_r: bandsOf(skipFinal), max_drawdown_r: bandsOf(skipDrawdown) },
  };
}
