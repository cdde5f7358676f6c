import { z } from 'zod';
import { EXIT_WHY, type ExitWhy } from '../decider/contract.js';
import { MARKETS, TIMEFRAMES, type Market, type Timeframe } from '../markets.js';
import type { Costs } from './costs.js';
import type { Fold } from './folds.js';
import type { NullReport } from './null.js';
import type { NullBins } from './null-bins.js';
import type { RStats } from './stats.js';
import { VerdictSchema, type Verdict } from '../verdict/schema.js';

/** Where the rule could first decide and how many of the window's bars could not trade, by reason. */
export interface Readiness {
  /** The open of the first bar of the window the rule could decide on (at its close); null when none. */
  ready_at: number | null;
  idle: { warm_up: number; session: number; gaps: number };
}

/**
 * The rehearsal envelope (rehearsal.v1): the trades, their R statistics, the random null they were weighed
 * against, walk-forward folds when asked, and a summary in words. Times are unix seconds; prices are fills after
 * slippage, on the tick grid; R is after fees.
 */
export const REHEARSAL_VERSION = 'rehearsal.v1';

export interface Trade {
  side: 'long' | 'short';
  /** The open of the bar the entry filled at. */
  entry_t: number;
  entry: number;
  /** The initial stop: entry to stop is 1R. */
  stop: number;
  /** The target the fill placed (a level target is read again at each close: this is where it stood at the fill); null when none. */
  target: number | null;
  /** The open of the bar the exit filled in, or its close for an exit at the close. */
  exit_t: number;
  exit: number;
  r: number;
  why: ExitWhy;
}

export interface Rehearsal {
  version: typeof REHEARSAL_VERSION;
  market: Market;
  timeframe: Timeframe;
  /**
   * The bars the rule traded over: from the first one's open to the last one's close; warm_up_bars before it. ready_at
   * and idle say where the rule could first decide and why bars of the window could not trade (readiness.ts).
   */
  window: { from: number; to: number; bars: number; warm_up_bars: number } & Readiness;
  costs: Costs & { slippage: number };
  trades: Trade[];
  /** Entries not taken because the stop would not have been beyond the fill. */
  skipped: number;
  stats: RStats;
  /** The null's report, and its run totals as the histogram the plate draws (null without runs). */
  null: NullReport & { histogram: NullBins | null };
  folds: Fold[] | null;
  /** How likely the result is to be luck or overfitting (engine/verdict), when it was weighed: every rehearsal the deck answers is. */
  verdict?: Verdict;
  summary: string;
}

const Ratio = z.number().finite().nullable();
const RStatsSchema = z.strictObject({
  n: z.number().int().nonnegative(),
  long: z.number().int().nonnegative(),
  short: z.number().int().nonnegative(),
  wins: z.number().int().nonnegative(),
  losses: z.number().int().nonnegative(),
  win_rate: Ratio,
  expectancy: Ratio,
  total_r: z.number().finite(),
  max_drawdown_r: z.number().finite().nonnegative(),
  profit_factor: Ratio,
  avg_win_r: Ratio,
  avg_loss_r: Ratio,
});

/** The envelope's schema as an object, so an answer that carries the envelope among its own fields can extend it. */
export const RehearsalSchema = z.strictObject({
  version: z.literal(REHEARSAL_VERSION),
  market: z.enum(MARKETS),
  timeframe: z.enum(TIMEFRAMES),
  window: z.strictObject({
    from: z.number().int(),
    to: z.number().int(),
    bars: z.number().int(),
    warm_up_bars: z.number().int(),
    ready_at: z.number().int().nullable().describe('the open of the first bar of the window the rule could decide on (at its close); null when none'),
    idle: z
      .strictObject({ warm_up: z.number().int().nonnegative(), session: z.number().int().nonnegative(), gaps: z.number().int().nonnegative() })
      .describe("bars of the window that could not trade: warm_up, a series an entry reads had no value yet; session, the bar's close fell outside the rule's session; gaps, bar slots of open market the tape holds no bar for"),
  }),
  costs: z.strictObject({
    slippage_ticks: z.number().nonnegative(),
    slippage: z.number().nonnegative(),
    fee: z.strictObject({ per_side: z.number().nonnegative(), unit: z.enum(['points', 'bps']) }),
  }),
  trades: z.array(
    z.strictObject({
      side: z.enum(['long', 'short']),
      entry_t: z.number().int(),
      entry: z.number().positive(),
      stop: z.number().finite(),
      target: z.number().finite().nullable(),
      exit_t: z.number().int(),
      exit: z.number().finite(),
      r: z.number().finite(),
      why: z.enum(EXIT_WHY),
    }),
  ),
  skipped: z.number().int().nonnegative(),
  stats: RStatsSchema,
  null: z.strictObject({
    runs: z.number().int().nonnegative(),
    seed: z.string(),
    matched: z.strictObject({
      trades: z.number().int(),
      long: z.number().int(),
      short: z.number().int(),
      holding_bars: z.strictObject({ min: z.number().int(), median: z.number().int(), max: z.number().int() }).nullable(),
    }),
    eligible: z.strictObject({ long: z.number().int(), short: z.number().int() }),
    rule_total_r: z.number().finite(),
    total_r: z.strictObject({ mean: z.number(), p05: z.number(), p50: z.number(), p95: z.number() }).nullable(),
    k: z.number().int().nonnegative(),
    percentile: z.number().min(0).max(100).nullable(),
    p: z.number().gt(0).max(1).nullable(),
    histogram: z
      .strictObject({ from: z.number(), width: z.number().positive(), counts: z.array(z.number().int().nonnegative()) })
      .nullable()
      .describe("the runs' total R in equal bins of width R from from, over a range holding the rule's total and its neighbours'; null without runs"),
  }),
  folds: z
    .array(z.strictObject({ fold: z.number().int(), from: z.number().int(), to: z.number().int(), bars: z.number().int(), stats: RStatsSchema }))
    .nullable(),
  verdict: VerdictSchema.optional(),
  summary: z.string(),
}) satisfies z.ZodType<Rehearsal>;
