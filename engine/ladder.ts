/**
 * The ladder: trading models ranked by the R they realized, read from paired closes (each closed trade paired from
 * its fills by the book), with the drawdown and the count of trades each figure rests on. A model with fewer than
 * MIN_TRADES closed trades reads unranked: its figures are shown as measured, it holds no rank, and a model with no
 * close at all has no figures (null, never zero). Synthetic book actors are never listed. Pure: the same closes give
 * the same ladder.
 */

/** One closed trade, paired from its fills: when it closed (unix ms) and what it made, in R after costs. */
export interface PairedClose {
  closed_at: number;
  r: number;
}

/** A model's paired closes, as the book keeps them: the ladder's whole input. */
export interface ModelCloses {
  model: string;
  /** A synthetic book actor (the book's own liquidity or a demo): never listed. */
  synthetic: boolean;
  closes: readonly PairedClose[];
}

/** Fewer closed trades than this and a model reads unranked. */
export const MIN_TRADES = 30;

export interface LadderRow {
  model: string;
  standing: 'ranked' | 'unranked';
  /** 1 for the most realized R; null while unranked. */
  rank: number | null;
  trades: number;
  /** The sum of R over the closed trades; null with no close. */
  realized_r: number | null;
  /** The deepest fall of cumulative R from its running peak (the peak starts at 0), in R; null with no close. */
  max_drawdown_r: number | null;
  /** The share of closed trades with R above 0; null with no close. */
  win_rate: number | null;
  last_close_at: number | null;
}

export interface Ladder {
  min_trades: number;
  /** By realized R, most first; ties by the smaller drawdown, then more trades, then the model's name. */
  ranked: LadderRow[];
  /** By trades, most first, then the model's name. */
  unranked: LadderRow[];
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** A model's figures from its closes, taken in the order they closed. */
function rowOf(m: ModelCloses, minTrades: number): LadderRow {
  const closes = [...m.closes].sort((a, b) => a.closed_at - b.closed_at);
  let total = 0;
  let peak = 0;
  let drawdown = 0;
  let wins = 0;
  for (const c of closes) {
    total += c.r;
    if (c.r > 0) wins++;
    peak = Math.max(peak, total);
    drawdown = Math.max(drawdown, peak - total);
  }
  const n = closes.length;
  return {
    model: m.model,
    standing: n >= minTrades ? 'ranked' : 'unranked',
    rank: null,
    trades: n,
    realized_r: n ? round4(total) : null,
    max_drawdown_r: n ? round4(drawdown) : null,
    win_rate: n ? round4(wins / n) : null,
    last_close_at: n ? closes[n - 1]!.closed_at : null,
  };
}

export function ladderOf(models: readonly ModelCloses[], minTrades = MIN_TRADES): Ladder {
  const seen = new Set<string>();
  for (const m of models) {
    if (seen.has(m.model)) throw new Error(`model ${m.model} is given twice`);
    seen.add(m.model);
    for (const c of m.closes) if (!Number.isFinite(c.r) || !Number.isFinite(c.closed_at)) throw new Error(`model ${m.model} has a close that is not a number`);
  }
  const rows = models.filter((m) => !m.synthetic).map((m) => rowOf(m, minTrades));
  const byName = (a: LadderRow, b: LadderRow) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0);
  const ranked = rows
    .filter((r) => r.standing === 'ranked')
    .sort((a, b) => b.realized_r! - a.realized_r! || a.max_drawdown_r! - b.max_drawdown_r! || b.trades - a.trades || byName(a, b))
    .map((r, i) => ({ ...r, rank: i + 1 }));
  const unranked = rows.filter((r) => r.standing === 'unranked').sort((a, b) => b.trades - a.trades || byName(a, b));
  return { min_trades: minTrades, ranked, unranked };
}
