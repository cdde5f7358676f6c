import type { Prng } from '../stepper/prng.js';

/**
 * Against a benchmark, corrected for the search: Hansen's test for superior predictive ability (Hansen 2005, "A Test
 * for Superior Predictive Ability", Journal of Business & Economic Statistics 23(4)) and White's Reality Check
 * (White 2000, "A Reality Check for Data Snooping", Econometrica 68(5)), from one stationary bootstrap.
 *
 * d[k * T + t] is how much strategy k beat the benchmark in period t (its return less the benchmark's). The null is
 * that no strategy beats the benchmark: max_k E[d_k] ≤ 0. With d̄_k the means over T periods:
 * - Reality Check: V = max_k √T d̄_k; each bootstrap mean is recentred on d̄_k; p = share of V* ≥ V.
 * - SPA: T_SPA = max(0, max_k √T d̄_k / ω_k), ω_k² the bootstrap variance of √T d̄_k; each bootstrap mean is recentred
 *   on g(d̄_k): d̄_k itself (upper p, the Reality Check's recentring), max(d̄_k, 0) (lower), and for the consistent p,
 *   d̄_k when √T d̄_k / ω_k ≥ -√(2 ln ln T), else 0 (a strategy far below the benchmark does not weigh on the test).
 * The bootstrap is Politis and Romano's (1994): blocks of geometric length, mean `block`, starting at uniform
 * periods and wrapping around, the same resampled periods for every strategy.
 */

export interface Spa {
  /** The bootstrap's draws and its mean block length, in periods. */
  draws: number;
  block: number;
  statistic: number;
  p_consistent: number;
  p_lower: number;
  p_upper: number;
  reality_check: { statistic: number; p: number };
}

export function spaOf(d: Float64Array, strategies: number, periods: number, draws: number, block: number, rng: Prng): Spa {
  const K = strategies;
  const T = periods;
  if (K < 1 || T < 2 || draws < 1) throw new RangeError('spa: one strategy or more, two periods or more, one draw or more');
  const root = Math.sqrt(T);
  const mean = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let s = 0;
    for (let t = 0; t < T; t++) s += d[k * T + t]!;
    mean[k] = s / T;
  }
  const boot = bootstrapMeans(d, K, T, draws, block, rng);
  const omega = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let v = 0;
    for (let b = 0; b < draws; b++) {
      const x = root * (boot[b * K + k]! - mean[k]!);
      v += x * x;
    }
    omega[k] = Math.sqrt(v / draws);
  }
  let statistic = 0;
  let rc = -Infinity;
  for (let k = 0; k < K; k++) {
    statistic = Math.max(statistic, studentised(root, omega[k]!, mean[k]!));
    rc = Math.max(rc, root * mean[k]!);
  }
  const threshold = -Math.sqrt(2 * Math.log(Math.log(T)));
  const lower = Float64Array.from(mean, (m) => Math.max(m, 0));
  const consistent = Float64Array.from(mean, (m, k) => (studentised(root, omega[k]!, m) >= threshold ? m : 0));
  const over = exceedances(boot, K, draws, root, omega, { consistent, lower, mean }, statistic, rc);
  return {
    draws,
    block,
    statistic,
    p_consistent: over.consistent / draws,
    p_lower: over.lower / draws,
    p_upper: over.upper / draws,
    reality_check: { statistic: rc, p: over.rc / draws },
  };
}

/**
 * The bootstrap means, draw by draw: out[b * K + k]. spaOf's long loops (this, and exceedances) are functions of their
 * own: a long loop in a function called once a rehearsal is optimised only on the fly, and the code after it, compiled
 * with no record of how it ran, was thrown away at its first use in every rehearsal.
 */
function bootstrapMeans(d: Float64Array, K: number, T: number, draws: number, block: number, rng: Prng): Float64Array {
  const boot = new Float64Array(draws * K);
  const at = new Int32Array(T);
  // A new block starts with chance 1 / block: below this of the generator's 32 bits.
  const restart = 4294967296 / block;
  for (let b = 0; b < draws; b++) {
    let i = rng.below(T);
    at[0] = i;
    for (let t = 1; t < T; t++) {
      i = rng.next() < restart ? rng.below(T) : i + 1 === T ? 0 : i + 1;
      at[t] = i;
    }
    for (let k = 0; k < K; k++) {
      const row = k * T;
      let s = 0;
      for (let t = 0; t < T; t++) s += d[row + at[t]!]!;
      boot[b * K + k] = s / T;
    }
  }
  return boot;
}

/** √T x / ω, the signed infinity (or 0) when ω is 0. */
const studentised = (root: number, omega: number, x: number): number => (omega > 0 ? (root * x) / omega : x > 0 ? Infinity : x < 0 ? -Infinity : 0);

/** How many bootstrap draws reach the statistic under each recentring, and the Reality Check's statistic. */
function exceedances(
  boot: Float64Array,
  K: number,
  draws: number,
  root: number,
  omega: Float64Array,
  centres: { consistent: Float64Array; lower: Float64Array; mean: Float64Array },
  statistic: number,
  rc: number,
): { consistent: number; lower: number; upper: number; rc: number } {
  const { consistent, lower, mean } = centres;
  const over = { consistent: 0, lower: 0, upper: 0, rc: 0 };
  for (let b = 0; b < draws; b++) {
    let c = 0;
    let l = 0;
    let u = 0;
    let v = -Infinity;
    for (let k = 0; k < K; k++) {
      const x = boot[b * K + k]!;
      c = Math.max(c, studentised(root, omega[k]!, x - consistent[k]!));
      l = Math.max(l, studentised(root, omega[k]!, x - lower[k]!));
      u = Math.max(u, studentised(root, omega[k]!, x - mean[k]!));
      v = Math.max(v, root * (x - mean[k]!));
    }
    if (c >= statistic) over.consistent++;
    if (l >= statistic) over.lower++;
    if (u >= statistic) over.upper++;
    if (v >= rc) over.rc++;
  }
  return over;
}
