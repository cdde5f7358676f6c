/**
 * The probability of backtest overfitting by combinatorially symmetric cross-validation (Bailey, Borwein, López de
 * Prado and Zhu 2017, "The Probability of Backtest Overfitting", Journal of Computational Finance 20(4)).
 *
 * M holds T periods (rows) of N strategies' returns. Its rows are cut into S consecutive blocks of equal size, S even.
 * For each of the C(S, S/2) ways to take half the blocks as the in-sample set J (the rest, J̄, out of sample): the
 * strategy with the best in-sample performance n* is found, its out-of-sample performance is ranked among the N
 * (ω = rank / (N + 1), ties taking their mean rank), and λ = ln(ω / (1 - ω)). PBO is the share of splits with λ ≤ 0:
 * how often the in-sample best is at or below the median out of sample. Performance is the Sharpe ratio of the
 * rows (mean over population standard deviation; 0 for rows all equal to zero).
 */

export interface Pbo {
  pbo: number;
  /** S: the blocks the rows were cut into. */
  splits: number;
  combinations: number;
  /** The share of splits in which the in-sample best lost out of sample (its out-of-sample Sharpe below 0). */
  oos_loss: number;
  /** The median λ over the splits. */
  median_logit: number;
}

/** C(n, k). */
export function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

const sharpe = (sum: number, sq: number, n: number): number => {
  const mean = sum / n;
  const variance = sq / n - mean * mean;
  if (variance > 1e-24) return mean / Math.sqrt(variance);
  return mean === 0 ? 0 : mean > 0 ? Infinity : -Infinity;
};

/**
 * PBO of `returns`, strategy by strategy: returns[n * rows + t] is strategy n's return in period t. `rows` must be a
 * multiple of `splits` (an even number from 2).
 */
export function pboOf(returns: Float64Array, strategies: number, rows: number, splits: number): Pbo {
  if (!(splits >= 2 && splits % 2 === 0 && rows % splits === 0 && rows >= splits)) throw new RangeError('pbo: rows must be a multiple of an even number of splits');
  if (strategies < 2) throw new RangeError('pbo: two strategies or more');
  const per = rows / splits;
  // Each block's sum and sum of squares, strategy by strategy: a split is then sums over its blocks.
  const sums = new Float64Array(strategies * splits);
  const squares = new Float64Array(strategies * splits);
  for (let n = 0; n < strategies; n++) {
    for (let s = 0; s < splits; s++) {
      let sum = 0;
      let sq = 0;
      for (let t = s * per; t < (s + 1) * per; t++) {
        const x = returns[n * rows + t]!;
        sum += x;
        sq += x * x;
      }
      sums[n * splits + s] = sum;
      squares[n * splits + s] = sq;
    }
  }
  const half = splits / 2;
  const inSample = new Uint8Array(splits);
  const oos = new Float64Array(strategies);
  const logits: number[] = [];
  let overfit = 0;
  let lost = 0;
  // Every half of the blocks in turn, as the bits of a mask with half of them set.
  for (let mask = 0; mask < 1 << splits; mask++) {
    let bits = 0;
    for (let s = 0; s < splits; s++) bits += inSample[s] = (mask >> s) & 1;
    if (bits !== half) continue;
    let best = -1;
    let bestIs = -Infinity;
    for (let n = 0; n < strategies; n++) {
      let is = 0;
      let isSq = 0;
      let os = 0;
      let osSq = 0;
      for (let s = 0; s < splits; s++) {
        const k = n * splits + s;
        if (inSample[s]) {
          is += sums[k]!;
          isSq += squares[k]!;
        } else {
          os += sums[k]!;
          osSq += squares[k]!;
        }
      }
      const isSharpe = sharpe(is, isSq, half * per);
      oos[n] = sharpe(os, osSq, half * per);
      if (isSharpe > bestIs) {
        bestIs = isSharpe;
        best = n;
      }
    }
    const mine = oos[best]!;
    let below = 0;
    let equal = 0;
    for (let n = 0; n < strategies; n++) {
      if (oos[n]! < mine) below++;
      else if (oos[n] === mine) equal++;
    }
    const rank = below + (equal + 1) / 2;
    const omega = rank / (strategies + 1);
    const logit = Math.log(omega / (1 - omega));
    logits.push(logit);
    if (logit <= 0) overfit++;
    if (mine < 0) lost++;
  }
  logits.sort((a, b) => a - b);
  const c = logits.length;
  const median = c % 2 ? logits[(c - 1) / 2]! : (logits[c / 2 - 1]! + logits[c / 2]!) / 2;
  return { pbo: overfit / c, splits, combinations: c, oos_loss: lost / c, median_logit: median };
}
