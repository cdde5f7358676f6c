import { z } from 'zod';
import { MARKETS, TIMEFRAMES } from '../markets.js';

/**
 * The verdict (verdict.v1): how likely the rehearsal's result is to be luck or overfitting, each figure with the
 * inputs it was computed from. docs/studio.md states each method; figures are to four decimals.
 */
export const VERDICT_VERSION = 'verdict.v1';

export const LABELS = ['no_trades', 'look_ahead', 'no_edge', 'likely_luck', 'likely_overfit', 'mixed', 'holds_up'] as const;
export type Label = (typeof LABELS)[number];

const P = z.number().min(0).max(1);
const Figure = z.number().finite().nullable();
const Bands = z.strictObject({ p05: z.number(), p50: z.number(), p95: z.number() });

export const VerdictSchema = z.strictObject({
  version: z.literal(VERDICT_VERSION),
  label: z.enum(LABELS).describe('what the figures below say together'),
  words: z.string().describe('the verdict in one sentence: about these past bars, never a forecast, never advice'),
  deflated_sharpe: z
    .strictObject({
      sharpe: Figure.describe("the rule's Sharpe ratio per trade, in R (mean over population standard deviation)"),
      trades: z.number().int().nonnegative(),
      skewness: Figure,
      kurtosis: Figure.describe('not excess: 3 for normal returns'),
      trials: z
        .strictObject({
          n: z.number().int().min(1).describe("this rule and the other rules you forged or rehearsed on this market and timeframe"),
          market: z.enum(MARKETS),
          timeframe: z.enum(TIMEFRAMES),
          others_rehearsed: z.number().int().nonnegative().describe('the other rules whose Sharpe ratio the record holds'),
          variance: Figure.describe("the variance of the trials' Sharpe ratios"),
          variance_from: z.enum(['record', 'neighbourhood']).nullable().describe("record: the rehearsed rules' Sharpe ratios; neighbourhood: the neighbours' (fewer than two rehearsed)"),
        })
        .describe('the trials the Sharpe ratio is deflated for, from your own record'),
      probabilistic_sharpe: Figure.describe('the chance the true Sharpe ratio is above 0'),
      expected_max_sharpe: Figure.describe('SR0: the Sharpe ratio the best of n trials would show by luck'),
      dsr: Figure.describe('the chance the true Sharpe ratio is above SR0'),
    })
    .describe('Bailey and López de Prado (2014)'),
  neighbourhood: z
    .strictObject({
      numbers: z.array(z.strictObject({ name: z.string(), value: z.number(), values: z.array(z.number()) })).describe("the rule's numbers and the values the grid gives each"),
      rules: z.number().int().min(1).describe('rules stepped: the rule itself first'),
      left_out: z.number().int().nonnegative().describe('grid rules the decider refused or that were the same rule as one before'),
      positive: z.number().int().nonnegative(),
      share_positive: P,
      total_r: Bands,
      results: z.array(z.strictObject({ values: z.array(z.number()), trades: z.number().int().nonnegative(), total_r: z.number() })),
      pbo: z
        .strictObject({
          splits: z.number().int(),
          combinations: z.number().int(),
          periods: z.number().int(),
          pbo: P,
          oos_loss: P.describe('the share of splits whose in-sample best lost out of sample'),
          median_logit: z.number(),
        })
        .nullable()
        .describe('the probability of backtest overfitting by CSCV (Bailey, Borwein, López de Prado and Zhu); null for too short a window or no trades'),
    })
    .describe('the same rule with each of its numbers moved to nearby values'),
  search: z
    .strictObject({
      rules: z.number().int(),
      periods: z.number().int(),
      block: z.number().int().describe('the mean block length of the stationary bootstrap, in periods'),
      draws: z.number().int(),
      null_draws: z.number().int().describe("random entries drawn for each neighbour's random-entry mean"),
      rule_null_mean_r: Figure.describe("the rule's random-entry mean per trade (its null's)"),
      statistic: z.number(),
      p: P.describe("Hansen's SPA, consistent p-value"),
      p_lower: P,
      p_upper: P,
      reality_check: z.strictObject({ statistic: z.number(), p: P }).describe("White's Reality Check"),
    })
    .nullable()
    .describe('the neighbourhood against random entries, corrected for the search (Hansen 2005; White 2000)'),
  monte_carlo: z
    .strictObject({
      paths: z.number().int(),
      order: z.strictObject({ final_r: z.number(), max_drawdown_r: Bands }),
      skipped: z.strictObject({ share: P, final_r: Bands, max_drawdown_r: Bands }),
    })
    .nullable()
    .describe("the rule's trades reordered, and skipped by chance"),
  costs: z
    .strictObject({
      market: z.enum(MARKETS),
      fee: z.strictObject({ per_side: z.number().nonnegative(), unit: z.enum(['points', 'bps']) }),
      slippage_ticks: z.number().nonnegative(),
      per_trade: z.strictObject({ price: z.number(), dollars: z.number(), r: z.number() }).nullable(),
      expectancy_r: z.strictObject({ before_costs: z.number(), after_costs: z.number() }).nullable(),
      break_even: z
        .strictObject({ price: z.number(), dollars: z.number(), ticks: z.number(), r: z.number(), times_current: z.number().nullable() })
        .nullable()
        .describe('the cost per round trip at which the total R is zero; null when the trades lose before costs'),
    })
    .describe("the market's fees and slippage per trade, and the break-even cost"),
  bias: z.strictObject({
    look_ahead: z.strictObject({
      cuts: z.number().int(),
      decisions: z.number().int(),
      changed: z.number().int(),
      series_values: z.number().int(),
      series_changed: z.number().int(),
      first: z.strictObject({ t: z.number().int(), what: z.string() }).nullable(),
    }),
    warm_up: z.array(
      z.strictObject({ factor: z.number().int(), warm_up_bars: z.number().int(), trades_changed: z.number().int(), total_r_delta: z.number() }),
    ),
  }),
});

export type Verdict = z.infer<typeof VerdictSchema>;
