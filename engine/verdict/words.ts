import type { Label, Verdict } from './schema.js';

/**
 * The verdict in one sentence a trader can act on: what the figures say about these past bars, the figures named.
 * Never a forecast and never advice: it weighs the evidence, it does not say what the rule will do or what to do.
 *
 * The label, in this order:
 * - no_trades: nothing to weigh.
 * - look_ahead: the decider read bars it could not yet have seen; no figure here means anything.
 * - no_edge: the rule's total R is not above zero after costs: there is no result to be luck.
 * - likely_luck: the rule does not stand out from luck: a deflated Sharpe below 0.5, or the search test's p above 0.10.
 * - likely_overfit: it does, but its neighbours do not: PBO of 0.5 or more, or fewer than half the neighbours with a positive total R.
 * - holds_up: deflated Sharpe 0.95 or more, search p 0.05 or less, PBO below 0.25 (or not computed) and at least
 *   two thirds of the neighbours positive, no warm-up change.
 * - mixed: anything between.
 */

const fixed2 = (x: number): string => x.toFixed(2);

export function labelOf(v: Omit<Verdict, 'label' | 'words'>): Label {
  if (v.deflated_sharpe.trades === 0) return 'no_trades';
  if (v.bias.look_ahead.changed > 0 || v.bias.look_ahead.series_changed > 0) return 'look_ahead';
  if (v.costs.expectancy_r && v.costs.expectancy_r.after_costs <= 0) return 'no_edge';
  const dsr = v.deflated_sharpe.dsr;
  const p = v.search?.p ?? null;
  const pbo = v.neighbourhood.pbo?.pbo ?? null;
  const share = v.neighbourhood.rules > 1 ? v.neighbourhood.share_positive : null;
  if ((dsr !== null && dsr < 0.5) || (p !== null && p > 0.1)) return 'likely_luck';
  if ((pbo !== null && pbo >= 0.5) || (share !== null && share < 0.5)) return 'likely_overfit';
  const warm = v.bias.warm_up.every((w) => w.trades_changed === 0);
  if (dsr !== null && dsr >= 0.95 && p !== null && p <= 0.05 && (pbo === null || pbo < 0.25) && (share === null || share >= 2 / 3) && warm) return 'holds_up';
  return 'mixed';
}

const OPENING: Record<Label, string> = {
  no_trades: 'No verdict',
  look_ahead: 'Look-ahead found',
  no_edge: 'No edge',
  likely_luck: 'Likely luck',
  likely_overfit: 'Likely overfit',
  mixed: 'Mixed evidence',
  holds_up: 'Holds up on these bars',
};

export function wordsOf(v: Omit<Verdict, 'label' | 'words'>): { label: Label; words: string } {
  const label = labelOf(v);
  if (label === 'no_trades') return { label, words: 'No verdict: the rule took no trades on these bars, so there is nothing to weigh against luck.' };
  const la = v.bias.look_ahead;
  if (label === 'look_ahead') {
    return { label, words: `Look-ahead found: cutting the future off changed ${la.changed + la.series_changed} decision(s) or series, so none of these figures can be trusted.` };
  }
  const d = v.deflated_sharpe;
  const h = v.neighbourhood;
  const parts: string[] = [];
  if (h.rules > 1) parts.push(`${h.positive} of ${h.rules} neighbours keep a positive total R`);
  if (label === 'no_edge') parts.push(`the rule's ${v.deflated_sharpe.trades} trades lost ${fixed2(-(v.monte_carlo?.order.final_r ?? 0))}R in all after costs`);
  if (d.dsr !== null) parts.push(`deflated Sharpe ${fixed2(d.dsr)} after your ${d.trials.n} trial${d.trials.n === 1 ? '' : 's'} on ${d.trials.market} ${d.trials.timeframe}`);
  if (h.pbo) parts.push(`PBO ${fixed2(h.pbo.pbo)}`);
  if (v.search) parts.push(`SPA p ${fixed2(v.search.p)} against random entries`);
  const be = v.costs.break_even;
  parts.push(be ? `the edge is gone at ${fixed2(be.r)}R of cost a trade (${fixed2(be.times_current ?? 0)} times today's costs)` : 'the trades lose before any cost');
  const warm = v.bias.warm_up.filter((w) => w.trades_changed > 0);
  if (warm.length) parts.push(`a longer warm-up changes ${Math.max(...warm.map((w) => w.trades_changed))} trade(s)`);
  return { label, words: `${OPENING[label]}: ${parts.join(', ')}.` };
}
