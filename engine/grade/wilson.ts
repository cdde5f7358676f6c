/** z for a two-sided 95% interval, as the Wilson bound is usually quoted. */
export const Z95 = 1.96;

/**
 * The lower end of the Wilson score interval for k successes in n trials:
 *   (p + z²/2n - z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n),  p = k/n
 * Unlike p itself it is cautious with few trials (0/0 has none: null). Rounded to four decimals.
 */
export function wilsonLower(k: number, n: number, z = Z95): number | null {
  if (n === 0) return null;
  if (!(Number.isInteger(k) && Number.isInteger(n) && k >= 0 && k <= n)) throw new RangeError(`k/n must be whole with 0 <= k <= n, got ${k}/${n}`);
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.round(((centre - spread) / (1 + z2 / n)) * 1e4) / 1e4 || 0;
}

/** k/n with its rate and Wilson lower bound, as a calibration answers it. */
export const calibrationOf = (k: number, n: number) => ({ k, n, rate: n ? Math.round((k / n) * 1e4) / 1e4 : null, wilson_lower: wilsonLower(k, n) });
