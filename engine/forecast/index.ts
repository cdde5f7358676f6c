/**
 * The forecast envelope: issue (one at t, or walk-forward), guard, score and calibrate. One import for the deck.
 *
 * Method (model excursion-quantile, revision 2, on the cpu). At time t the forecaster reads the bars of the
 * market and timeframe (5m or 1h) closed by t, and nothing after them. Let i be the last of them, c0 its close and
 * A its ATR: Wilder's ATR(14) over the 150 bars ending at i.
 *   1. The trailing sample: the last N = 2,000 bars j whose 24 following bars had all closed by t (j <= i − 24),
 *      each measured in its own ATR A_j: for k = 1..24, d_k(j) = |close(j + k) − close(j)| / A_j, and for each
 *      horizon h in {6, 12, 24} bars its reach r_h(j), the farthest a high or low went from close(j) within h bars,
 *      over A_j (either way: the envelope states magnitude, never direction).
 *   2. The recalibration, learned from those outcomes alone (all known by t). Across the sample, moves measured in
 *      an ATR low for its time ran farther in it: per horizon, b_h = the least-squares slope of ln r_h(j) on
 *      ln(A_j / close(j)). Today's ATR sits z = ln(A / c0) − (the sample's mean of ln(A_j / close(j))) from the
 *      sample's level, and the moves ahead are read as the sample's times e^(−β_h·z), β_h = −b_h / 4 held to
 *      [0, 1]; at a band step k, β is the touch horizons' own at 6, 12 and 24 bars, straight lines between.
 *   3. The band: at step k its half-width is w_k = the 0.8-quantile of d_k over the sample (linear between order
 *      statistics) times e^(−β_k·z), so the band c0 ± w_k·A holds the close k bars on with a nominal 80% coverage.
 *      It is symmetric about c0 by construction: no side, no median, no drift is estimated or stated.
 *   4. The odds: for each size x in {0.5, 1, 2} ATR and horizon h, the share of the sample whose reach r_h came to
 *      x·e^(β_h·z) or more, with half an event added to one extra sample ((reached + 0.5) / (N + 1)) so no odds read
 *      exactly 0 or 1; a longer horizon's odds never read under a shorter one's.
 *   5. Samples: the sample's size. Nothing is issued with fewer than 200 (too little history: warming_up) or
 *      when A is zero (flat). Issued at every bar close, each envelope reads a fixed stretch of bars (the sample's
 *      bars, their ATR windows and the 24 bars after each), so it is the same whatever history the caller holds.
 * Revision 1 is steps 1, 3 and 4 with z = 0 (the odds then the share of the sample's touches): recalibration 0.
 * Why this method: it assumes no distribution, only that price moves measured in the ATR of the moment look
 * alike over the last few days (5m) or months (1h); the trailing sample follows slow changes of regime and the
 * ATR follows fast ones, and the recalibration corrects the ATR where the sample shows it over- or under-states
 * the moves that follow (an ATR low against its level understates them). N and the quarter were picked on the
 * earlier 40% of the real tape (see bench/forecast.ts), and 80% is the nominal the band promises, not a tuned number.
 *
 * Calibration (calibration.ts): each envelope is scored once its 24 bars have closed, on its nine touches and on
 * the closes at k = 1..24 against its band. Each touch cell has its own ece in ten equal-width bins and the band
 * its |coverage − nominal|; each is drawn solid under 0.05, dashed under 0.10, else none, and unmeasured below 30
 * effective outcomes (overlapping horizons counted once per horizon of issues). The pair reads as its worst cell.
 */
export { ATR_N, ATR_WINDOW } from './atr-window.js';
export {
  calibrate,
  drawCell,
  drawOf,
  DASHED_BELOW,
  ECE_BINS,
  MIN_SCORED,
  SOLID_BELOW,
  type BandCell,
  type CalibrateOptions,
  type Calibration,
  type Draw,
  type Label,
  type TouchCell,
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
export { issuedOf, runIssueJob, type IssueJob, type IssueOutcome } from './job.js';
export {
  DEFAULT_OPTIONS,
  DEVICE,
  FIRST_STAGE_REV,
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
