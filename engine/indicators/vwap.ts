/** Names the session a bar's open time (unix seconds) falls in; VWAP starts again when the name changes. */
export type Anchor = (t: number) => number;

/** The UTC day: crypto trades around the clock, so its VWAP resets at 00:00 UTC. */
export const utcDay: Anchor = (t) => Math.floor(t / 86_400);

/**
 * Session-anchored volume-weighted average price of the typical price (h + l + c) / 3.
 * Sums restart at the first bar of each session as `anchor` names it. NaN while the session has traded no
 * volume yet (there is no average of nothing); otherwise there is no warm-up.
 */
export function vwap(
  t: Float64Array,
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  volume: Float64Array,
  anchor: Anchor = utcDay,
): Float64Array {
  const out = new Float64Array(close.length);
  let session = NaN;
  let pv = 0;
  let vol = 0;
  for (let i = 0; i < close.length; i++) {
    const key = anchor(t[i]!);
    if (key !== session) {
      session = key;
      pv = 0;
      vol = 0;
    }
    const v = volume[i]!;
    pv += ((high[i]! + low[i]! + close[i]!) / 3) * v;
    vol += v;
    out[i] = vol > 0 ? pv / vol : NaN;
  }
  return out;
}
