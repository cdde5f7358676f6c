import { normalCdf, normalQuantile } from './normal.js';

/**
 * The deflated Sharpe ratio (Bailey and López de Prado 2014, "The Deflated Sharpe Ratio: Correcting for Selection
 * Bias, Backtest Overfitting and Non-Normality", Journal of Portfolio Management 40(5)).
 *
 * The probabilistic Sharpe ratio PSR(SR*) = Φ((SR - SR*) √(T - 1) / √(1 - γ₃ SR + (γ₄ - 1)/4 SR²)) is the chance
 * that the true Sharpe ratio exceeds SR*, given T returns with skewness γ₃ and kurtosis γ₄ (not excess). The DSR is
 * the PSR against SR₀, the Sharpe ratio the best of N independent trials would show by luck alone:
 * SR₀ = √V[SRₙ] ((1 - γ) Φ⁻¹(1 - 1/N) + γ Φ⁻¹(1 - 1/(N e))), γ the Euler-Mascheroni constant, V[SRₙ] the variance
 * of the trials' Sharpe ratios. Sharpe ratios here are per period (per trade), never annualised.
 */

export const EULER_GAMMA = 0.5772156649015329;

/** Mean, standard deviation, skewness and kurtosis (not excess) of returns: population moments (divided by T). */
export interface Moments {
  n: number;
  mean: number;
  sd: number;
  skewness: number;
  kurtosis: number;
}

export function momentsOf(x: ArrayLike<number>): Moments {
  const n = x.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i]!;
  const mean = n ? sum / n : NaN;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i]! - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  m2 /= n;
  m3 /= n;
  m4 /= n;
  const sd = Math.sqrt(m2);
  return { n, mean, sd, skewness: m2 > 0 ? m3 / (m2 * sd) : NaN, kurtosis: m2 > 0 ? m4 / (m2 * m2) : NaN };
}

/** The Sharpe ratio of returns per period: mean over standard deviation; NaN with fewer than two or no spread. */
export const sharpeOf = (m: Moments): number => (m.n >= 2 && m.sd > 0 ? m.mean / m.sd : NaN);

/** SR₀: the Sharpe ratio the best of `trials` independent trials would show by luck, their Sharpe ratios' variance given. */
export function expectedMaxSharpe(trials: number, variance: number): number {
  if (trials <= 1) return 0;
  return Math.sqrt(variance) * ((1 - EULER_GAMMA) * normalQuantile(1 - 1 / trials) + EULER_GAMMA * normalQuantile(1 - 1 / (trials * Math.E)));
}

/** PSR(SR*): the chance the true Sharpe ratio exceeds `benchmark`, from `sr` over `t` returns of that skewness and kurtosis. */
export function probabilisticSharpe(sr: number, benchmark: number, t: number, skewness: number, kurtosis: number): number {
  const spread = 1 - skewness * sr + ((kurtosis - 1) / 4) * sr * sr;
  if (!(spread > 0) || t < 2) return NaN;
  return normalCdf(((sr - benchmark) * Math.sqrt(t - 1)) / Math.sqrt(spread));
}

/** The DSR and the SR₀ it deflates against. */
export function deflatedSharpe(input: { sr: number; t: number; skewness: number; kurtosis: number; trials: number; variance: number }): {
  expected_max: number;
  dsr: number;
} {
  const expected_max = expectedMaxSharpe(input.trials, input.variance);
  return { expected_max, dsr: probabilisticSharpe(input.sr, expected_max, input.t, input.skewness, input.kurtosis) };
}
