/**
 * The forecast envelope: issue (one at t, or walk-forward), guard, score and calibrate. One import for the deck.
 *
 * Method (model excursion-quantile, revision 1, on the cpu). At time t the forecaster reads the bars of the
 * market and timeframe (5m or 1h) closed by t, and nothing after them. Let i be the last of them, c0 its close and
 * A its ATR: Wilder's ATR(14) over the 150 bars ending at i.
 *   1. The trailing sample: the last N = 2,000 bars j whose 24 following bars had all closed by t (j <= i − 24),
 *      each measured in its own ATR A_j: for k = 1..24, d_k(j) = |close(j + k) − close(j)| / A_j, and for each
 *      size x in {0.5, 1, 2} ATR and horizon h in {6, 12, 24} bars whether a high reached close(j) + x·A_j or a
 *      low reached close(j) − x·A_j within h bars (either way: the envelope states magnitude, never direction).
 *   2. The band: at step k its half-width is w_k = the 0.8-quantile of d_k over the sample (linear between order
 *      statistics), so the band c0 ± w_k·A holds the close k bars on with a nominal 80% coverage. It is
 *      symmetric about c0 by construction: no side, no median, no drift is estimated or stated.
 *   3. The odds: for each of the nine (size, horizon) touches, the share of the sample where it happened, with
 *      half an event added to one extra sample ((touched + 0.5) / (N + 1)) so no odds read exactly 0 or 1.
 *   4. Samples: the sample's size. Nothing is issued with fewer than 200 (too little history: warming_up) or
 *      when A is zero (flat). Issued at every bar close, each envelope reads a fixed stretch of bars (the sample's
 *      bars, their ATR windows and the 24 bars after each), so it is the same whatever history the caller holds.
 * Why this method: it assumes no distribution, only that price moves measured in the ATR of the moment look
 * alike over the last few days (5m) or months (1h); the trailing sample follows slow changes of regime and the
 * ATR follows fast ones. N was picked from 1,000, 2,000 and 4,000 on the earlier 40% of the real tape (see
 * bench/forecast.ts), and 80% is the nominal the band promises, not a tuned number.
 *
 * Calibration (calibration.ts): each envelope is scored once its 24 bars have closed, on its nine touches and on
 * the closes at k = 1..24 against its band; ece over all (odds, outcome) pairs in ten equal-width bins, coverage
 * over all (envelope, step) pairs, n envelopes; solid under 0.05, dashed under 0.10, else none, and unmeasured
 * below 30 scored envelopes.
 */
export { ATR_N, ATR_WINDOW } from './atr-window.js';
export {
  calibrate,
  drawOf,
  DASHED_BELOW,
  ECE_BINS,
  MIN_SCORED,
  SOLID_BELOW,
  type Calibration,
  type Draw,
  type Label,
} from './calibration.js';
export {
  compactOf,
  ENVELOPE_VERSION,
  EnvelopeSchema,
  FORECAST_TIMEFRAMES,
  HORIZON,
  TOUCH_ATR,
  TOUCH_WITHIN,
  type CompactIssue,
  type Envelope,
  type ForecastTimeframe,
  type Pair,
} from './envelope.js';
export { assertNoDirection, DirectionFieldError } from './guard.js';
export { issueEnvelope } from './issue.js';
export {
  DEFAULT_OPTIONS,
  DEVICE,
  ForecastError,
  lastClosedBar,
  lookbackBars,
  MODEL,
  MODEL_REV,
  type ForecastOptions,
  type Unissuable,
} from './issuer.js';
export { scoreEnvelope, type Score } from './score.js';
export { supersedes, SUPERSEDED_WHY } from './supersede.js';
export { issueAll, type Walk } from './walk.js';
