/**
 * The standard normal distribution: Φ and its inverse, to double precision over the range the verdict reads.
 *
 * Φ by Marsaglia's series (Marsaglia 2004, "Evaluating the Normal Distribution", J. Stat. Software 11(4)):
 * Φ(x) = 1/2 + φ(x) (x + x³/3 + x⁵/(3·5) + ...), every term positive, absolute error under 1e-15 for |x| < 8 (past
 * that Φ is 0 or 1 to double precision). Φ⁻¹ by Acklam's rational approximation (relative error 1.15e-9) refined by
 * one step of Halley's method on Φ, as Acklam advises, which brings it to the precision of Φ itself.
 */

const LOG_ROOT_TWO_PI = 0.918938533204672741780329736406; // ln √(2π)
const ROOT_TWO_PI = 2.506628274631000502415765284811;

export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < -8) return 0;
  if (x > 8) return 1;
  const q = x * x;
  let s = x;
  let t = 0;
  let b = x;
  for (let i = 1; s !== t; ) {
    t = s;
    i += 2;
    b *= q / i;
    s = t + b;
  }
  return 0.5 + s * Math.exp(-0.5 * q - LOG_ROOT_TWO_PI);
}

const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
const P_LOW = 0.02425;

/** Φ⁻¹(p) for p in (0, 1); -Infinity at 0 and Infinity at 1. */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  let x: number;
  if (p < P_LOW || p > 1 - P_LOW) {
    const q = Math.sqrt(-2 * Math.log(p < P_LOW ? p : 1 - p));
    const v = (((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) / ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
    x = p < P_LOW ? v : -v;
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!) * q) / (((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1);
  }
  // Halley's step: the error of Φ(x) against p, over the density at x.
  const u = (normalCdf(x) - p) * ROOT_TWO_PI * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}
