import type { Bars } from '../bars.js';
import { TIMEFRAME_SECONDS } from '../markets.js';
import { calibrate, type Calibration } from './calibration.js';
import { compact, HORIZON, type CompactIssue, type Envelope, type Pair } from './envelope.js';
import { DEFAULT_OPTIONS, ForecastError, Issuer, lastClosedBar, type ForecastOptions, type Issued } from './issuer.js';
import { scoreAt, type Score } from './score.js';

export interface Walk {
  /** One per issued envelope, oldest first. */
  issues: CompactIssue[];
  /** One per issued envelope whose 24 following bars are in the bars given, oldest first. */
  scores: Score[];
  calibration: Calibration;
  /** Bars closed in [from, to) where nothing could be issued (too little history before them, or no range). */
  unissued: number;
}

/**
 * Walk-forward issuance, as a backfill does it: an envelope at the close of every bar that closes in [from, to)
 * (unix seconds), each from the bars closed by then, exactly as issueEnvelope would issue it at that moment.
 * Each envelope is then scored against the bars after it, where `bars` holds them. The trailing sample moves on
 * by one bar per issue (one arrival, one departure) instead of being rebuilt, and the numbers stay in typed
 * arrays: a full envelope object is dressed only for `onEnvelope` (a ledger), when one is given.
 */
export function issueAll(
  bars: Bars,
  pair: Pair,
  from: number,
  to: number,
  options: ForecastOptions = DEFAULT_OPTIONS,
  onEnvelope?: (e: Envelope) => void,
): Walk {
  const tfSeconds = TIMEFRAME_SECONDS[pair.tf];
  const first = lastClosedBar(bars, tfSeconds, from - 1) + 1;
  const last = lastClosedBar(bars, tfSeconds, to - 1);
  const issuer = new Issuer(bars, pair, options);
  const issues: CompactIssue[] = [];
  const scores: Score[] = [];
  const k = HORIZON - 1;
  let unissued = 0;
  for (let i = first; i <= last; i++) {
    if (i === first) issuer.fill(i);
    else issuer.step(i);
    const issuedT = bars.t[i]! + tfSeconds;
    let n: Issued;
    try {
      n = issuer.numbersAt(i, issuedT);
    } catch (error) {
      if (!(error instanceof ForecastError)) throw error;
      unissued++;
      continue;
    }
    if (onEnvelope) onEnvelope(issuer.envelopeAt(i, issuedT));
    issues.push(compact(issuedT, n.half[k]!, n.lower[k]!, n.upper[k]!));
    const s = scoreAt(n, bars, i, tfSeconds);
    if (s) scores.push(s);
  }
  return { issues, scores, calibration: calibrate(scores, { bar: tfSeconds }), unissued };
}
