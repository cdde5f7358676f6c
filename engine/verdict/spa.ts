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
  // The bootstrap means, draw by draw: boot[b * K + k].
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
  const omega = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let v = 0;
    for (let b = 0; b < draws; b++) {
      const x = root * (boot[b * K + k]! - mean[k]!);
      v += x * x;
    }
    omega[k] = Math.sqrt(v / draws);
  }
  const studentised = (k: number, x: number): number => (omega[k]! > 0 ? (root * x) / omega[k]! : x > 0 ? Infinity : x < 0 ? -Infinity : 0);
  let statistic = 0;
  let rc = -Infinity;
  for (let k = 0; k < K; k++) {
    statistic = Math.max(statistic, studentised(k, mean[k]!));
    rc = Math.max(rc, root * mean[k]!);
  }
  const threshold = -Math.sqrt(2 * Math.log(Math.log(T)));
  const lower = Float64Array.from(mean, (m) => Math.max(m, 0));
  const consistent = Float64Array.from(mean, (m, k) => (studentised(k, m) >= threshold ? m : 0));
  let overC = 0;
  let overL = 0;
  let overU = 0;
  let overRc = 0;
  for (let b = 0; b < draws; b++) {
    let c = 0;
    let l = 0;
    let u = 0;
    let v = -Infinity;
    for (let k = 0; k < K; k++) {
      const x = boot[b * K + k]!;
      c = Math.max(c, studentised(k, x - consistent[k]!));
      l = Math.max(l, studentised(k, x - lower[k]!));
      u = Math.max(u, studentised(k, x - mean[k]!));
      v = Math.max(v, root * (x - mean[k]!));
    }
    if (c >= statistic) overC++;
    if (l >= statistic) overL++;
    if (u >= statistic) overU++;
    if (v >= rc) overRc++;
  }
  return {
    draws,
    block,
    statistic,
    p_consistent: overC / draws,
    p_lower: overL / draws,
    p_upper: overU / draws,
    reality_check: { statistic: rc, p: overRc / draws },
  };
}
