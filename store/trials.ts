import type { Market, Timeframe } from '../engine/markets.js';
import type { Doc } from './doc.js';

/**
 * Each principal's trials: the rules they forged or rehearsed (a trial included), by market and timeframe, each
 * with the Sharpe ratio per trade of its first rehearsal there (null while only forged, or when it had none). A
 * rehearsal's deflated Sharpe ratio is deflated for the rules of this record on its market and timeframe. It outlives
 * the forges (kept two hours): the search a principal made is never forgotten.
 */
export interface TrialsDoc {
  /** principal id -> "market/timeframe" -> seed hash -> Sharpe ratio per trade, or null. */
  by_principal: Record<string, Record<string, Record<string, number | null>>>;
}

const where = (market: Market, timeframe: Timeframe): string => `${market}/${timeframe}`;

export class Trials {
  constructor(private readonly file: Doc<TrialsDoc>) {}

  static empty = (): TrialsDoc => ({ by_principal: {} });

  /** The other rules of the record on this market and timeframe (`seed` left out), and the Sharpe ratios of those rehearsed. */
  others(principalId: string, market: Market, timeframe: Timeframe, seed: string): { rules: number; sharpes: number[] } {
    const rules = Object.entries(this.file.data.by_principal[principalId]?.[where(market, timeframe)] ?? {}).filter(([id]) => id !== seed);
    return { rules: rules.length, sharpes: rules.map(([, sharpe]) => sharpe).filter((s): s is number => s !== null) };
  }

  /** Notes a rule forged (sharpe undefined) or rehearsed; a rule's first Sharpe ratio is the one kept. */
  note(principalId: string, market: Market, timeframe: Timeframe, seed: string, sharpe?: number | null): Promise<void> {
    const kept = this.file.data.by_principal[principalId]?.[where(market, timeframe)]?.[seed];
    if (kept !== undefined && (kept !== null || sharpe === undefined || sharpe === null)) return Promise.resolve();
    return this.file.update((d) => {
      const mine = ((d.by_principal[principalId] ??= {})[where(market, timeframe)] ??= {});
      if (mine[seed] === undefined || mine[seed] === null) mine[seed] = sharpe ?? null;
    });
  }
}
