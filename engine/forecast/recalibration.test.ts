import { describe, expect, it } from 'vitest';
import { brier } from '../../test/support/forecast-scores.js';
import { sampleFile } from '../../test/support/tape-file.js';
import { allocBars, type Bars } from '../bars.js';
import { resample } from '../resample.js';
import { ATR_WINDOW, windowAtr } from './atr-window.js';
import { HORIZON, TOUCH_WITHIN, type Envelope, type Pair } from './envelope.js';
import { issueEnvelope } from './issue.js';
import { DEFAULT_OPTIONS, FIRST_STAGE_REV, lastClosedBar, MODEL_REV } from './issuer.js';
import { issueAll } from './walk.js';

/** The real shipped pairs the forecaster issues on: Coinbase BTC and ETH 1m and CME ES 1m built into 5m, Bitfinex BTC 1h. */
const SHIPPED: { pair: Pair; bars: Bars }[] = [
  { pair: { market: 'BTC', tf: '5m' }, bars: resample(sampleFile('BTC-1m'), 60, 300).bars },
  { pair: { market: 'ETH', tf: '5m' }, bars: resample(sampleFile('ETH-1m'), 60, 300).bars },
  { pair: { market: 'ES', tf: '5m' }, bars: resample(sampleFile('ES-1m'), 60, 300).bars },
  { pair: { market: 'BTC', tf: '1h' }, bars: sampleFile('BTC-1h') },
];
const [btc5m] = SHIPPED;
const FIRST_STAGE = { ...DEFAULT_OPTIONS, recalibration: 0 };

/** A copy of bars whose every bar after index i is moved somewhere else entirely (and wilder). */
function changedAfter(src: Bars, i: number): Bars {
  const b = allocBars(src.length);
  for (const f of ['t', 'o', 'h', 'l', 'c', 'v'] as const) b[f].set(src[f]);
  for (let j = i + 1; j < src.length; j++) {
    b.o[j] = src.o[j]! * 1.4;
    b.c[j] = src.c[j]! * 1.45;
    b.h[j] = Math.max(b.o[j]!, b.c[j]!) * 1.05;
    b.l[j] = Math.min(b.o[j]!, b.c[j]!) * 0.93;
  }
  return b;
}

describe('the recalibration', () => {
  const { pair, bars } = btc5m!;
  const len = 300;

  it('learns only from outcomes known by the issue: every later bar changed, the same bytes', () => {
    for (const i of [600, 1200, 2000]) {
      const t = bars.t[i]! + len;
      const before = issueEnvelope(bars, pair, t);
      expect(before.model_rev).toBe(MODEL_REV);
      expect(JSON.stringify(issueEnvelope(changedAfter(bars, i), pair, t))).toBe(JSON.stringify(before));
      // The change reaches what is issued once its bars have closed.
      const later = bars.t[i + 30]! + len;
      expect(JSON.stringify(issueEnvelope(changedAfter(bars, i), pair, later))).not.toBe(JSON.stringify(issueEnvelope(bars, pair, later)));
    }
  });

  it('gives the walk (a backfill) and a one-off issue (on demand) the same bytes at every bar', () => {
    const walked: string[] = [];
    const walk = issueAll(bars, pair, bars.t[400]! + len, bars.t[1400]! + len, DEFAULT_OPTIONS, (e) => walked.push(JSON.stringify(e)));
    expect(walk.issues).toHaveLength(1000);
    for (let k = 0; k < walked.length; k += 7) expect(walked[k]).toBe(JSON.stringify(issueEnvelope(bars, pair, walk.issues[k]!.issued_t)));
  });

  it('with none applied issues revision 1, the trailing sample as it stands', () => {
    const t = bars.t[1500]! + len;
    const first = issueEnvelope(bars, pair, t, FIRST_STAGE);
    const now = issueEnvelope(bars, pair, t);
    expect(first.model_rev).toBe(FIRST_STAGE_REV);
    expect(now.model_rev).toBe(MODEL_REV);
    expect(first).toMatchObject({ close: now.close, atr: now.atr, last_bar_t: now.last_bar_t, samples: now.samples });
    expect(first.touch).not.toEqual(now.touch);
  });

  it('widens the band and raises the odds when the ATR sits below the sample\'s level, and the reverse above it', () => {
    const envelopes = (options = DEFAULT_OPTIONS) => {
      const out: Envelope[] = [];
      issueAll(bars, pair, 0, Number.MAX_SAFE_INTEGER, options, (e) => out.push(e));
      return out;
    };
    const first = envelopes(FIRST_STAGE);
    const now = envelopes();
    let wider = 0;
    let narrower = 0;
    now.forEach((e, n) => {
      const f = first[n]!;
      expect(e.issued_t).toBe(f.issued_t);
      const ratio = e.band.steps[23]!.upper_atr / f.band.steps[23]!.upper_atr;
      // The 2 ATR within 24 bars odds move with the band, never against it.
      const odds = e.touch[8]!.odds - f.touch[8]!.odds;
      if (ratio > 1.001) {
        wider++;
        expect(odds).toBeGreaterThanOrEqual(0);
      } else if (ratio < 0.999) {
        narrower++;
        expect(odds).toBeLessThanOrEqual(0);
      }
      // Coherent: a touch within a longer horizon is never less likely than within a shorter one.
      for (let s = 0; s < 3; s++) for (let w = 1; w < TOUCH_WITHIN.length; w++) expect(e.touch[s * 3 + w]!.odds).toBeGreaterThanOrEqual(e.touch[s * 3 + w - 1]!.odds);
    });
    expect(wider).toBeGreaterThan(100);
    expect(narrower).toBeGreaterThan(100);
  });

  it('reads the side from the ATR: wider where today\'s ATR (a share of the close) sits below the sample\'s, narrower above', () => {
    const lnRelative = Float64Array.from({ length: bars.length }, (_, j) => Math.log(windowAtr(bars, j) / bars.c[j]!));
    const first: Envelope[] = [];
    issueAll(bars, pair, 0, Number.MAX_SAFE_INTEGER, FIRST_STAGE, (e) => first.push(e));
    let checked = 0;
    issueAll(bars, pair, 0, Number.MAX_SAFE_INTEGER, DEFAULT_OPTIONS, (e) => {
      const i = lastClosedBar(bars, len, e.issued_t);
      // The sample's bars: the last 2,000 whose 24 bars had closed, each with a whole ATR window behind it.
      const from = Math.max(ATR_WINDOW - 1, i - HORIZON - DEFAULT_OPTIONS.sample + 1);
      let level = 0;
      for (let j = from; j <= i - HORIZON; j++) level += lnRelative[j]!;
      const z = lnRelative[i]! - level / (i - HORIZON - from + 1);
      const ratio = e.band.steps[23]!.upper_atr / first.find((f) => f.issued_t === e.issued_t)!.band.steps[23]!.upper_atr;
      if (Math.abs(z) < 0.02 || Math.abs(ratio - 1) < 0.002) return;
      checked++;
      expect(Math.sign(ratio - 1)).toBe(-Math.sign(z));
    });
    expect(checked).toBeGreaterThan(500);
  });

  it.each(SHIPPED.map((s) => [`${s.pair.market} ${s.pair.tf}`, s] as const))('forecasts %s better than the first stage: a lower Brier score', (_, { pair: p, bars: b }) => {
    const first = issueAll(b, p, 0, Number.MAX_SAFE_INTEGER, FIRST_STAGE);
    const now = issueAll(b, p, 0, Number.MAX_SAFE_INTEGER);
    expect(now.scores.length).toBe(first.scores.length);
    expect(now.scores.length).toBeGreaterThan(300);
    expect(brier(now.scores)).toBeLessThan(brier(first.scores));
  });
});
