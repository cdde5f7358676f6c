import type { DeciderIR } from '../decider/ir.js';
import type { NullReport } from './null.js';
import type { Readiness } from './envelope.js';
import { sessionWords } from './readiness.js';
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
  ir: Pick<DeciderIR, 'market' | 'timeframe' | 'session'>;
  window: { from: number; to: number; bars: number } & Readiness;
  stats: RStats;
  null: NullReport;
  /** The verdict's sentence, when one was weighed. */
  verdict?: string | undefined;
}

/**
 * When the rule could first decide and which bars could not trade, by reason, as the rehearsal counted them: a
 * rehearsal without trades is read from this first.
 */
export function readinessWords(ir: SummaryInput['ir'], w: SummaryInput['window']): string {
  const { warm_up: warm, session, gaps } = w.idle;
  const reasons = [
    ...(warm > 0 ? [`${count(warm)} while a series an entry reads had no value yet (warm-up)`] : []),
    ...(session > 0 ? [`${count(session)} outside its session (${sessionWords(ir)})`] : []),
  ];
  const why = reasons.length === 1 ? `, all ${reasons[0]!.replace(/^[\d,]+ /, '')}` : `: ${reasons.join(', ')}`;
  const first =
    w.ready_at === null
      ? `It could decide on none of the window's ${count(w.bars)} bars${why}.`
      : `${warm === 0 ? "Its indicators were warm from the window's first bar" : 'Its indicators warmed up inside the window'}; it could first decide at the close of the bar opening ${when(w.ready_at)}` +
        (reasons.length > 0 ? `, and ${count(warm + session)} of the ${count(w.bars)} bars could not trade${why}.` : ', and every bar could trade.');
  const gap = gaps > 0 ? ` The tape holds no bar for ${count(gaps)} ${ir.timeframe} slot${gaps === 1 ? '' : 's'} of open market in the window (no trade printed, or none kept).` : '';
  return first + gap;
}

export function summaryOf(x: SummaryInput): string {
  const s = x.stats;
  const w = x.window;
  const over = `Over ${count(w.bars)} ${x.ir.timeframe} bars of ${x.ir.market} from ${when(w.from)} to ${when(w.to)}`;
  const ready = readinessWords(x.ir, w);
  const past = 'This is evidence about how the rule would have fared on these past bars, never a forecast of what it will do.';
  if (s.n === 0) return `${over} the rule took no trades, so there is nothing to weigh against a random null. ${ready} ${past}`;
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
  return `${over} ${trades}: ${figures}. ${ready} ${versus}${x.verdict ? ` ${x.verdict}` : ''} ${past}`;
}
