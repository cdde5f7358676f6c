import pngjs from 'pngjs';
import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { allocBars, type Bars } from '../bars.js';
import { ema, parseIndicators } from '../indicators/index.js';
import { PlateError, type Undrawable } from './error.js';
import { plateLoadFrom } from './load.js';
import { renderPlate } from './plate.js';
import { formatNumber } from './scale.js';
import { plateSvg } from './svg.js';
import { LAYOUT, THEME } from './theme.js';
import { viewOf, type PlateInput } from './view.js';

// The shipped BTC minutes; the plate is drawn over 500 of them, 2018-04-05 from 12:20 UTC, where every minute traded.
const month = sampleFile('BTC-1m');
const FIRST = month.t.indexOf(Date.UTC(2018, 3, 5, 12, 20) / 1000);
const from = month.t[FIRST]!;
const to = from + 500 * 60;
const traded: PlateInput = {
  market: 'BTC',
  tf: '1m',
  from,
  to,
  bars: month,
  indicators: parseIndicators(['ema:20', 'bb:20:2']),
  marks: [
    { kind: 'level', price: 6_901 },
    { kind: 'zone', price: 6_688, price2: 6_713 },
  ],
};

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** Pixels of exactly this colour inside the price pane (no oscillator panes asked, so it ends above the volume). */
function pixelsOf(png: Buffer, hex: string): number {
  const image = pngjs.PNG.sync.read(png);
  const [r, g, b] = rgb(hex);
  const bottom = THEME.height - LAYOUT.footer - LAYOUT.volume - LAYOUT.gap;
  let count = 0;
  for (let y = LAYOUT.header; y < bottom; y++) {
    for (let x = LAYOUT.left; x < THEME.width - LAYOUT.axis; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i] === r && image.data[i + 1] === g && image.data[i + 2] === b) count++;
    }
  }
  return count;
}

/** Hand-made bars one minute apart from 2025-01-01, each rising by one from its open. */
function rising(count: number, at = (i: number) => 100 + i): Bars {
  const bars = allocBars(count);
  for (let i = 0; i < count; i++) {
    bars.t[i] = 1_735_689_600 + 60 * i;
    bars.o[i] = at(i);
    bars.c[i] = at(i) + 1;
    bars.h[i] = at(i) + 1.5;
    bars.l[i] = at(i) - 0.5;
    bars.v[i] = 10 + (i % 7);
  }
  return bars;
}

const refusal = (input: PlateInput): Undrawable => {
  try {
    renderPlate(input);
  } catch (e) {
    if (e instanceof PlateError) return e.reason;
    throw e;
  }
  throw new Error('the plate was drawn');
};

describe('plates', () => {
  const plate = renderPlate(traded);

  it('is a 1200 x 700 PNG with green and red candle bodies drawn in the price pane', () => {
    const image = pngjs.PNG.sync.read(plate.png);
    expect([image.width, image.height]).toEqual([1200, 700]);
    const bars = month.c.subarray(FIRST, FIRST + 500);
    const ups = bars.filter((c, i) => c >= month.o[FIRST + i]!).length;
    // Every candle covers at least its one-pixel wick in its own colour.
    expect(pixelsOf(plate.png, THEME.up)).toBeGreaterThanOrEqual(ups);
    expect(pixelsOf(plate.png, THEME.down)).toBeGreaterThanOrEqual(500 - ups);
  });

  it('draws no red where every candle rose', () => {
    const bars = rising(120);
    const png = renderPlate({ market: 'BTC', tf: '1m', from: bars.t[0]!, to: bars.t[119]! + 60, bars }).png;
    expect(pixelsOf(png, THEME.up)).toBeGreaterThan(120 * 20);
    expect(pixelsOf(png, THEME.down)).toBe(0);
  });

  it('gives the same bytes and the same chart state for the same input', () => {
    const again = renderPlate({ ...traded, bars: sampleFile('BTC-1m') });
    expect(Buffer.compare(again.png, plate.png)).toBe(0);
    expect(JSON.stringify(again.chart_state)).toBe(JSON.stringify(plate.chart_state));
    const other = renderPlate({ ...traded, from: from + 60, to: to + 60 });
    expect(Buffer.compare(other.png, plate.png)).not.toBe(0);
    expect(other.chart_state.bars.digest).not.toBe(plate.chart_state.bars.digest);
  });

  it('states the numbers it was drawn from', () => {
    const s = plate.chart_state;
    expect(s).toMatchObject({ market: 'BTC', tf: '1m', from: '2018-04-05T12:20:00Z', to: '2018-04-05T20:40:00Z', size: { width: 1200, height: 700 } });
    expect(s.bars).toMatchObject({ count: 500, first_t: from, last_t: to - 60 });
    expect(s.bars.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(s.price.low).toBe(Math.min(...month.l.subarray(FIRST, FIRST + 500)));
    expect(s.price.high).toBe(Math.max(...month.h.subarray(FIRST, FIRST + 500)));
    // Bars before the window warm each indicator up by its own warm-up: the EMA(20) starts five look-backs, 100 bars, before `from`.
    expect(s.indicators[0]).toEqual({
      spec: 'ema:20',
      pane: 'price',
      lines: [{ name: 'ema:20', last: ema(month.c.subarray(FIRST - 100), 20)[599] }],
      warm_up: { bars: 100, wanted: 100, settled: true },
    });
    expect(s.indicators[1]!.lines.map((l) => l.name)).toEqual(['bb:20:2.upper', 'bb:20:2.middle', 'bb:20:2.lower']);
    expect(s.marks.map((m) => m.placed)).toEqual(['in_view', 'in_view']);
  });

  it('draws the marks but states none of their prices, in its words or its chart state', () => {
    const s = plate.chart_state;
    expect(s.marks).toEqual([
      { kind: 'level', placed: 'in_view' },
      { kind: 'zone', placed: 'in_view' },
    ]);
    const json = JSON.stringify(s);
    for (const p of [6_901, 6_688, 6_713]) expect(json).not.toContain(String(p));
    // The axis a near mark widens is not stated either: it would state the mark.
    expect(Object.keys(s.price)).toEqual(['low', 'high', 'decimals']);
    const svg = plateSvg(viewOf(traded));
    for (const p of [6_901, 6_688, 6_713]) expect(svg).not.toContain(formatNumber(p, 2));
    expect(pixelsOf(plate.png, THEME.level)).toBeGreaterThan(300);
    expect(pixelsOf(renderPlate({ ...traded, marks: [] }).png, THEME.level)).toBe(0);
  });

  it('points at marks far beyond the bars instead of squeezing the candles', () => {
    const far = { ...traded, marks: [{ kind: 'level', price: 150_000 }, { kind: 'zone', price: 10, price2: 20 }] } satisfies PlateInput;
    expect(renderPlate(far).chart_state.marks.map((m) => m.placed)).toEqual(['above', 'below']);
    const [near, wide] = [viewOf(traded), viewOf(far)];
    expect(wide.max).toBe(viewOf({ ...traded, marks: [] }).max);
    expect(wide.min).toBe(viewOf({ ...traded, marks: [] }).min);
    expect(near.min).toBeLessThan(near.low);
  });

  it('starts VWAP at the UTC day and draws every line the same whatever else is on the plate', () => {
    // A window from 12:00 UTC, its bars read from where plateLoadFrom says for each set of indicators.
    const noon = Math.floor(month.t[FIRST]! / 86_400) * 86_400 + 86_400 + 12 * 3600;
    const window = { market: 'BTC', tf: '1m', from: noon, to: noon + 500 * 60 } as const;
    const linesOf = (texts: string[]) => {
      const indicators = parseIndicators(texts);
      const first = month.t.indexOf(plateLoadFrom('BTC', '1m', noon, indicators));
      const bars = { length: month.length - first, t: month.t.subarray(first), o: month.o.subarray(first), h: month.h.subarray(first), l: month.l.subarray(first), c: month.c.subarray(first), v: month.v.subarray(first) };
      return new Map(viewOf({ ...window, bars, indicators }).indicators.map((i) => [i.spec.text, Array.from(i.lines[0]!.values)]));
    };
    const alone = linesOf(['vwap']);
    const crowded = linesOf(['vwap', 'ema:20', 'sma:500']);
    expect(crowded.get('vwap')).toEqual(alone.get('vwap'));
    expect(crowded.get('ema:20')).toEqual(linesOf(['ema:20']).get('ema:20'));
    // By hand: the volume-weighted typical price from the day's first bar to the window's last.
    let pv = 0;
    let v = 0;
    for (let i = month.t.indexOf(noon - 12 * 3600); month.t[i]! < noon + 500 * 60; i++) {
      pv += ((month.h[i]! + month.l[i]! + month.c[i]!) / 3) * month.v[i]!;
      v += month.v[i]!;
    }
    expect(alone.get('vwap')![499]).toBeCloseTo(pv / v, 8);
  });

  it('draws oscillators in panes of their own and an indicator still warming up as no line', () => {
    const s = renderPlate({ ...traded, from: month.t[0]!, to: month.t[0]! + 300 * 60, indicators: parseIndicators(['rsi:14', 'atr:14', 'sma:500']) }).chart_state;
    expect(s.indicators.map((i) => [i.spec, i.pane, i.lines[0]!.last === null])).toEqual([
      ['rsi:14', 'lower', false],
      ['atr:14', 'lower', false],
      ['sma:500', 'price', true],
    ]);
  });

  it('refuses a picture it cannot draw, saying why', () => {
    expect(refusal({ ...traded, from: to + 86_400 * 60, to: to + 86_400 * 61 })).toBe('no_bars');
    const flat = rising(50, () => 100);
    flat.h.fill(100);
    flat.l.fill(100);
    flat.o.fill(100);
    flat.c.fill(100);
    expect(refusal({ market: 'BTC', tf: '1m', from: flat.t[0]!, to: flat.t[49]! + 60, bars: flat })).toBe('flat');
    const broken = rising(50);
    broken.c[10] = NaN;
    expect(refusal({ market: 'BTC', tf: '1m', from: broken.t[0]!, to: broken.t[49]! + 60, bars: broken })).toBe('not_finite');
    const day = Date.UTC(2018, 3, 5) / 1000; // 5 and 6 April 2018 traded in every minute
    expect(refusal({ ...traded, from: day, to: day + 2001 * 60 })).toBe('too_many_bars');
    expect(refusal({ ...traded, marks: [{ kind: 'zone', price: 6_800 }] })).toBe('not_finite');
  });
});
