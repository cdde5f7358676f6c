import { barAt, type Bars } from '../bars.js';
import type { Market, Timeframe } from '../markets.js';
import type { Costs } from '../stepper/costs.js';
import type { Rehearsal, Trade } from '../stepper/envelope.js';

/**
 * A rehearsed trade as the rehearsal answered it (its target optional: records kept before trades stated one have
 * none), with the open of the bar it left in: the witness of a stop filled at a gapped open.
 */
export interface KeptTrade extends Omit<Trade, 'target'> {
  target?: Trade['target'];
  /** The open of the bar opening at exit_t, or null when the window holds no such bar. */
  exit_open: number | null;
}

/** What grading reads of a principal's rehearsal of a seed: which one it is, where it ran, its costs and trades. */
export interface KeptRehearsal {
  /** The seed hash. */
  id: string;
  /** sha256 of the rehearsal's JSON answer: the bytes POST /studio/rehearse answered, which name it. */
  digest: string;
  market: Market;
  timeframe: Timeframe;
  window: Pick<Rehearsal['window'], 'from' | 'to' | 'bars' | 'warm_up_bars'>;
  costs: Costs & { slippage: number };
  trades: KeptTrade[];
}

/** The rehearsal as grading keeps it, each trade with the open of its exit bar read from the bars it ran over. */
export function keptOf(seed: string, digest: string, r: Rehearsal, bars: Bars): KeptRehearsal {
  return {
    id: seed,
    digest,
    market: r.market,
    timeframe: r.timeframe,
    // Kept as grading has always kept them: what it reads, so records kept before and after read alike.
    window: { from: r.window.from, to: r.window.to, bars: r.window.bars, warm_up_bars: r.window.warm_up_bars },
    costs: r.costs,
    trades: r.trades.map((trade) => {
      const i = barAt(bars.t, trade.exit_t);
      return { ...trade, exit_open: i >= 0 ? bars.o[i]! : null };
    }),
  };
}

/**
 * How a grade or score came to the rehearsal it judges: named by its digest (the studio names the one its record
 * holds), or, with none named, the latest rehearsal of the seed on the rule's own market (the market its words
 * name; a rehearsal moved to another market is judged only when named).
 */
export type Chosen = 'named' | 'latest_on_rule_market';

/** Why none is judged when a seed has no kept rehearsal. */
export const NONE_KEPT = 'no rehearsal of this seed is kept: rehearse it first (POST /studio/rehearse)';

export type ToJudge<R = KeptRehearsal> = { kept: R; chosen: Chosen } | { kept: null; why: string };

/**
 * The rehearsal to judge among a seed's kept rehearsals (oldest first): the one `digest` names (null when it is not
 * kept), else the latest on `market`, else none and why. It reads only which rehearsal each is and where it ran, so
 * the store's records pick before their trades are read.
 */
export function pickRehearsal<R extends Pick<KeptRehearsal, 'digest' | 'market'>>(kept: readonly R[], market: Market, digest: string | null): ToJudge<R> | null {
  if (digest !== null) {
    const named = kept.find((r) => r.digest === digest);
    return named ? { kept: named, chosen: 'named' } : null;
  }
  const own = kept.filter((r) => r.market === market).at(-1);
  if (own) return { kept: own, chosen: 'latest_on_rule_market' };
  if (kept.length === 0) return { kept: null, why: NONE_KEPT };
  const elsewhere = [...new Set(kept.map((r) => r.market))].join(', ');
  return {
    kept: null,
    why: `no rehearsal of this seed on ${market}, the rule's market, is kept (only on ${elsewhere}): rehearse it on ${market}, or name the rehearsal to judge by its rehearsal_digest`,
  };
}
