/** The bounds a series is held to (the quote body's limits; GET /v1/series/quote states them). */
export const SERIES_LIMITS = {
  epochs: { min: 1, max: 90 },
  /** An epoch's length in seconds: an hour to thirty days, a day unless told. */
  epoch_s: { min: 3_600, max: 30 * 86_400, default: 86_400 },
  /** The whole series (epochs x epoch_s) at most a year and a day. */
  span_s: { max: 366 * 86_400 },
  /** How far `from` may lie before the deck's clock (a caller's clock a little behind) and after it. */
  from: { behind_s: 300, ahead_s: 366 * 86_400 },
  /** USDC amounts carry at most six decimals, as the token does. */
  usdc_decimals: 6,
  /** A revoke's reason, in characters. */
  why_chars: 280,
} as const;

const MICRO = 10 ** SERIES_LIMITS.usdc_decimals;

/** True when a USDC amount has no more decimals than the token carries. */
export const isUsdc = (amount: number): boolean => Number.isFinite(amount) && Number(amount.toFixed(SERIES_LIMITS.usdc_decimals)) === amount;

/** `n` times a USDC amount, counted in the token's smallest unit so the sum carries no float dust. */
export const usdcTimes = (amount: number, n: number): number => (Math.round(amount * MICRO) * n) / MICRO;
