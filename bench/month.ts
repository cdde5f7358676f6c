import { allocBars, type Bars } from '../engine/bars.js';
import { sampleFile } from '../test/support/tape-file.js';

/**
 * A month of 1m BTC bars (44,640) built from the shipped sample, since a month of the real tape cannot ship: the
 * sample's bars (9 days of Coinbase 2016-2018) laid end to end one minute apart, again and again until the month is
 * full, each stretch of consecutive minutes scaled to open where the one before closed (so a gap in the sample is no
 * jump in the month), the whole starting at 60,000 (a price of today's order, so slippage and fees weigh as they do
 * now). Deterministic: the same bars every time.
 */
export const MONTH_BARS = 44_640;
export const MONTH_LABEL = 'a month of BTC 1m bars built from the shipped sample (its bars laid end to end, repeated, rescaled)';

/** The month, and `before` bars more ahead of it (a rule's warm-up). */
export function btcMonth(before = 0): Bars {
  const sample = sampleFile('BTC-1m');
  const n = MONTH_BARS + before;
  const out = allocBars(n);
  const t0 = 1_740_873_600;
  let scale = 60_000 / sample.o[0]!;
  for (let i = 0; i < n; i++) {
    const j = i % sample.length;
    if (i > 0 && (j === 0 || sample.t[j]! - sample.t[j - 1]! !== 60)) scale = out.c[i - 1]! / sample.o[j]!;
    out.t[i] = t0 + 60 * i;
    out.o[i] = Math.round(sample.o[j]! * scale * 100) / 100;
    out.h[i] = Math.round(sample.h[j]! * scale * 100) / 100;
    out.l[i] = Math.round(sample.l[j]! * scale * 100) / 100;
    out.c[i] = Math.round(sample.c[j]! * scale * 100) / 100;
    out.v[i] = sample.v[j]!;
  }
  return out;
}
