/** R statistics of a list of trades. Ratios are null where they have no value (no trades, no losses). */
export interface RStats {
  n: number;
  long: number;
  short: number;
  wins: number;
  losses: number;
  /** wins / n; a win is R > 0, a loss R < 0. */
  win_rate: number | null;
  /** Mean R per trade. */
  expectancy: number | null;
  total_r: number;
  /** The deepest fall of cumulative R from its running peak (the peak starts at 0), trade by trade. */
  max_drawdown_r: number;
  /** Sum of winning R over the sum of losing R (as a positive number); null without losses. */
  profit_factor: number | null;
  avg_win_r: number | null;
  avg_loss_r: number | null;
}

/** Four decimals: R figures read to a ten-thousandth, and the same numbers always print the same. */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4 || 0;

/** The q-quantile of sorted values by nearest rank: the value at round(q (n - 1)). */
export const nearestRank = (sorted: Float64Array, q: number): number => sorted[Math.round(q * (sorted.length - 1))]!;

export function statsOf(trades: readonly { dir: number; r: number }[]): RStats {
  let wins = 0;
  let losses = 0;
  let long = 0;
  let won = 0;
  let lost = 0;
  let total = 0;
  let peak = 0;
  let drawdown = 0;
  for (const { dir, r } of trades) {
    if (dir > 0) long++;
    if (r > 0) {
      wins++;
      won += r;
    } else if (r < 0) {
      losses++;
      lost -= r;
    }
    total += r;
    if (total > peak) peak = total;
    if (peak - total > drawdown) drawdown = peak - total;
  }
  const n = trades.length;
  return {
    n,
    long,
    short: n - long,
    wins,
    losses,
    win_rate: n ? round4(wins / n) : null,
    expectancy: n ? round4(total / n) : null,
    total_r: round4(total),
    max_drawdown_r: round4(drawdown),
    profit_factor: losses ? round4(won / lost) : null,
    avg_win_r: wins ? round4(won / wins) : null,
    avg_loss_r: losses ? round4(-lost / losses) : null,
  };
}
