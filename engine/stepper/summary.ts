import type { NullReport } from './null.js';
import type { RStats } from './stats.js';

/** What a rehearsal found, in words: plain figures, the null comparison, and what the figures are not. */

const when = (t: number): string => `${new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const count = (n: number): string => n.toLocaleString('en-US');
const signed = (r: number): string => `${r > 0 ? '+' : ''}${r.toFixed(2)}R`;
const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

export interface SummaryInput {
  market: string;
  timeframe: string;
  bars: number;
  from: number;
  to: number;
  stats: RStats;
  null: NullReport;
  /** The verdict's sentence, when one was weighed. */
  verdict?: string | undefined;
}

export function summaryOf(x: SummaryInput): string {
  const s = x.stats;
  const over = `Over ${count(x.bars)} ${x.timeframe} bars of ${x.market} from ${when(x.from)} to ${when(x.to)}`;
  const past = 'This is evidence about how the rule would have fared on these past bars, never a forecast of what it will do.';
  if (s.n === 0) return `${over} the rule took no trades, so there is nothing to weigh against a random null. ${past}`;
  const trades = `the rule took ${count(s.n)} trade${s.n === 1 ? '' : 's'} (${count(s.long)} long, ${count(s.short)} short)`;
  const figures = [
    `win rate ${(100 * s.win_rate!).toFixed(1)}%`,
    `expectancy ${signed(s.expectancy!)} a trade`,
    `total ${signed(s.total_r)}`,
    `max drawdown ${s.max_drawdown_r.toFixed(2)}R`,
    s.profit_factor === null ? 'no losing trade' : `profit factor ${s.profit_factor.toFixed(2)}`,
  ].join(', ');
  const n = x.null;
  const versus =
    n.runs > 0
      ? `Against ${count(n.runs)} random-entry runs matched on trade count, side mix and holding time under the same stop and exit rules, its total R ranks at the ${ordinal(Math.floor(n.percentile!))} percentile (${count(n.k)} runs did as well or better; p = ${n.p!.toFixed(3)}).`
      : 'No random null was run.';
  return `${over} ${trades}: ${figures}. ${versus}${x.verdict ? ` ${x.verdict}` : ''} ${past}`;
}
