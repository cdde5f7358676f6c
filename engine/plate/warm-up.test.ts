import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { windowOf, type Bars } from '../bars.js';
import { parseIndicators, warmUpBars } from '../indicators/index.js';
import { resample } from '../resample.js';
import { furtherBack, plateLoadFrom } from './load.js';
import { plateSvg } from './svg.js';
import { viewOf } from './view.js';

// A plate's lines are settled at its left edge: warmed over several look-backs of the bars before the window, so a
// short window draws what the whole history gives; where the bars before the window fall short, the plate says so.
// On the shipped sample, against the full-history values recomputed here.

const at = (s: string) => Date.parse(s) / 1000;
const BTC_1H = sampleFile('BTC-1h');
const BTC_5M = resample(sampleFile('BTC-1m'), 60, 300).bars;

/** EMA of the closes over every bar given: seeded with the mean of the first n, then alpha 2 / (n + 1). */
function emaOver(c: Float64Array, n: number): number {
  let e = c.subarray(0, n).reduce((a, b) => a + b, 0) / n;
  for (let i = n; i < c.length; i++) e += (2 / (n + 1)) * (c[i]! - e);
  return e;
}

/** Wilder's ATR over every bar given: the mean of the first n true ranges (the first bar's is its range), then 1/n. */
function atrOver(b: Bars, n: number): number {
  const tr = (i: number) => (i === 0 ? b.h[0]! - b.l[0]! : Math.max(b.h[i]! - b.l[i]!, Math.abs(b.h[i]! - b.c[i - 1]!), Math.abs(b.l[i]! - b.c[i - 1]!)));
  let a = 0;
  for (let i = 0; i < n; i++) a += tr(i) / n;
  for (let i = n; i < b.length; i++) a += (tr(i) - a) / n;
  return a;
}

const relative = (a: number, b: number) => Math.abs(a / b - 1);
const lastLine = (view: ReturnType<typeof viewOf>, k: number) => view.indicators[k]!.lines[0]!.values.at(-1)!;

describe('a short plate over a long history', () => {
  it('draws a 10-bar hourly EMA(21) and ATR(14) at their full-history values (to 1e-5), warmed 105 and 140 bars', () => {
    for (const day of ['2013-10-14', '2013-10-20', '2013-10-25']) {
      const from = at(`${day}T10:00:00Z`);
      const to = from + 10 * 3600;
      const view = viewOf({ market: 'BTC', tf: '1h', from, to, bars: BTC_1H, indicators: parseIndicators(['ema:21', 'atr:14']) });
      const upTo = windowOf(BTC_1H, 0, Array.from(BTC_1H.t).findIndex((t) => t >= to));
      expect(view.bars.length).toBe(10);
      expect(relative(lastLine(view, 0), emaOver(upTo.c, 21))).toBeLessThan(1e-5);
      expect(relative(lastLine(view, 1), atrOver(upTo, 14))).toBeLessThan(1e-5);
      expect(view.indicators.map((i) => i.warmUp)).toEqual([
        { bars: 105, wanted: 105, settled: true },
        { bars: 140, wanted: 140, settled: true },
      ]);
    }
  });

  it('draws a 12-bar 5m ATR(14) at its full-history value (Coinbase BTC, 5m built from the minutes)', () => {
    const from = at('2017-09-04T12:00:00Z');
    const to = from + 12 * 300;
    const view = viewOf({ market: 'BTC', tf: '5m', from, to, bars: BTC_5M, indicators: parseIndicators(['atr:14']) });
    const start = Array.from(BTC_5M.t).findIndex((t) => t >= at('2017-09-03T00:00:00Z'));
    const upTo = windowOf(BTC_5M, start, Array.from(BTC_5M.t).findIndex((t) => t >= to));
    expect(relative(lastLine(view, 0), atrOver(upTo, 14))).toBeLessThan(1e-5);
  });

  it('asks several look-backs of a recursive line, one of a window over its bars', () => {
    expect(parseIndicators(['ema:21', 'atr:14', 'rsi:2', 'sma:50', 'bb:20:2', 'hi:5', 'lo:5', 'vwap']).map(warmUpBars)).toEqual([105, 140, 20, 50, 20, 5, 5, 0]);
  });
});

describe('a plate whose bars before the window fall short', () => {
  // The sample's hours begin 1 October 2013 at 00:00: a plate of that day's 10:00 has ten bars before it.
  const from = at('2013-10-01T10:00:00Z');
  const view = viewOf({ market: 'BTC', tf: '1h', from, to: from + 10 * 3600, bars: BTC_1H, indicators: parseIndicators(['ema:21', 'sma:5', 'vwap']) });

  it('says so in its chart_state: the bars it had and the bars it wanted', () => {
    expect(view.indicators.map((i) => [i.spec.text, i.warmUp])).toEqual([
      ['ema:21', { bars: 10, wanted: 105, settled: false }],
      ['sma:5', { bars: 5, wanted: 5, settled: true }],
      ['vwap', { bars: 10, wanted: 10, settled: true }],
    ]);
  });

  it('says so on the picture, beside the line, and of a VWAP whose trading day the tape did not hold from its start', () => {
    const svg = plateSvg(view);
    expect(svg).toContain('unsettled: 10/105 bars');
    expect(svg.match(/unsettled/g)).toHaveLength(1);
    const unheld = viewOf({ ...view.input, unmeasured: [{ from: at('2013-10-01T00:00:00Z'), to: at('2013-10-01T02:00:00Z') }] });
    expect(unheld.indicators[2]!.warmUp.settled).toBe(false);
    expect(plateSvg(unheld)).toContain('unsettled: day start not held');
  });
});

describe('reading further back where a market prints fewer bars than its time', () => {
  it('asks the slots still wanted at the share of them the stretch read printed, never past what one read may span', () => {
    const from = at('2013-10-14T10:00:00Z');
    const specs = parseIndicators(['ema:50']);
    const start = plateLoadFrom('BTC', '1h', from, specs);
    expect(start).toBe(from - 250 * 3600);
    // 200 of the 250 hours printed a bar: the 50 still wanted take 63 slots at that share.
    expect(furtherBack('BTC', '1h', from, start, 200, specs, 0)).toBe(start - 63 * 3600);
    expect(furtherBack('BTC', '1h', from, start, 250, specs, 0)).toBeNull();
    expect(furtherBack('BTC', '1h', from, start, 200, specs, start - 10 * 3600)).toBe(start - 10 * 3600);
    expect(furtherBack('BTC', '1h', from, start, 200, specs, start)).toBeNull();
    // A stretch that printed nothing is read back sixteen slots a bar, no more.
    expect(furtherBack('BTC', '1h', from, start, 0, specs, 0)).toBe(start - 16 * 250 * 3600);
  });
});
