import { createHash } from 'node:crypto';
import { windowOf, type Bars } from '../bars.js';
import { expectedBars, type Span } from '../calendar.js';
import { indicatorLines, paneOf, warmUpBars, type IndicatorSpec } from '../indicators/index.js';
import { TIMEFRAME_SECONDS, type Market, type Timeframe } from '../markets.js';
import { PlateError } from './error.js';
import { dayStart, vwapAnchor } from './load.js';

/**
 * A mark as the plate draws it: a level is a line, a zone a band between price and price2. A plate is public and
 * names no one, so it is handed no note and states no mark's price in words: the picture shows where a mark lies.
 */
export interface PlateMark {
  kind: 'level' | 'zone';
  price: number;
  price2?: number;
}

export interface PlateInput {
  market: Market;
  tf: Timeframe;
  /** The window, unix seconds: bars with from <= t < to are drawn. */
  from: number;
  to: number;
  /**
   * Bars sorted by open time. Bars before `from` are not drawn: they warm the indicators up, so pass the bars from
   * plateLoadFrom on, so every line starts warm at the left edge and VWAP at its trading day's start.
   */
  bars: Bars;
  /**
   * The stretches of the bars' span the tape holds no history for (the candle answer's coverage.unmeasured): a
   * VWAP whose trading day starts in one is not settled. None when left out.
   */
  unmeasured?: readonly Span[];
  indicators?: readonly IndicatorSpec[];
  marks?: readonly PlateMark[];
  /** Decimals of a quote (prices in the title and on the price tags). */
  decimals?: number;
}

/** More bars than this would draw each candle thinner than half a pixel. */
export const MAX_PLATE_BARS = 2000;

/** Marks this far (a share of the bars' range) beyond the bars widen the price axis; farther ones get an arrow at the edge. */
const MARK_REACH = 0.3;
const PRICE_PAD = 0.05;

export interface ViewLine {
  name: string;
  /** The line's values over the drawn bars, NaN where it is warming up. */
  values: Float64Array;
}

/**
 * The history an indicator was computed over before the window. `wanted`: the bars its first drawn value needs to be
 * settled (warmUpBars; for VWAP, the bars the calendar expects in its trading day before the window); `bars`: those
 * read; `settled`: they were enough (for VWAP: the tape held its trading day from its start, a quiet minute printing
 * no bar and weighing nothing). An unsettled line is drawn all the same, and the plate says so.
 */
export interface WarmUp {
  bars: number;
  wanted: number;
  settled: boolean;
}

export interface ViewIndicator {
  spec: IndicatorSpec;
  pane: 'price' | 'lower';
  lines: ViewLine[];
  warmUp: WarmUp;
}

export type Placement = 'in_view' | 'above' | 'below';

export interface ViewMark extends PlateMark {
  placed: Placement;
}

/** Everything the picture is drawn from, and nothing else: the renderer reads only this. */
export interface PlateView {
  input: PlateInput;
  /** The drawn bars: a zero-copy window of input.bars. */
  bars: Bars;
  decimals: number;
  low: number;
  high: number;
  /** The price axis, padded around the bars, the overlays and the marks near them. */
  min: number;
  max: number;
  volumeMax: number;
  indicators: ViewIndicator[];
  marks: ViewMark[];
}

/** The first index whose time is at least t (bars are sorted). */
function firstAtLeast(t: Float64Array, at: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Reads the input into the numbers of the picture, or throws PlateError when there is no picture to draw. */
export function viewOf(input: PlateInput): PlateView {
  const all = input.bars;
  const start = firstAtLeast(all.t, input.from);
  const end = firstAtLeast(all.t, input.to);
  const bars = windowOf(all, start, end);
  if (bars.length === 0) throw new PlateError('no_bars', 'no bars in the window: there is nothing to draw');
  if (bars.length > MAX_PLATE_BARS) {
    throw new PlateError('too_many_bars', `${bars.length} bars in the window: a plate draws at most ${MAX_PLATE_BARS}`);
  }
  let low = Infinity;
  let high = -Infinity;
  let volumeMax = 0;
  for (let i = 0; i < bars.length; i++) {
    const o = bars.o[i]!;
    const h = bars.h[i]!;
    const l = bars.l[i]!;
    const c = bars.c[i]!;
    const v = bars.v[i]!;
    if (![o, h, l, c, v].every(Number.isFinite) || l > Math.min(o, c) || h < Math.max(o, c) || v < 0) {
      throw new PlateError('not_finite', `the bar at ${bars.t[i]} is not a drawable candle (o ${o}, h ${h}, l ${l}, c ${c}, v ${v})`);
    }
    if (l < low) low = l;
    if (h > high) high = h;
    if (v > volumeMax) volumeMax = v;
  }
  if (!(high > low)) throw new PlateError('flat', `every price in the window is ${low}: a flat series has no price axis to draw`);

  const anchor = vwapAnchor(input.market);
  const len = TIMEFRAME_SECONDS[input.tf];
  const day = dayStart(anchor, input.from, len);
  const vwapWarmUp = (): WarmUp => ({
    bars: start - firstAtLeast(all.t, day),
    wanted: expectedBars(input.market, len, day, input.from).length,
    settled: !(input.unmeasured ?? []).some((u) => u.from < input.from && u.to > day),
  });
  const indicators = (input.indicators ?? []).map((spec): ViewIndicator => {
    // Each line is computed over its own warm-up only, so a longer one elsewhere on the plate cannot move it
    // (an EMA or a Wilder average remembers every bar it was given); VWAP restarts at each trading day anyway.
    const wanted = warmUpBars(spec);
    const own = spec.kind === 'vwap' ? 0 : Math.max(0, start - wanted);
    return {
      spec,
      pane: paneOf(spec),
      lines: indicatorLines(spec, windowOf(all, own, end), anchor).map((l) => ({ name: l.name, values: l.values.subarray(start - own) })),
      warmUp: spec.kind === 'vwap' ? vwapWarmUp() : { bars: start - own, wanted, settled: start - own >= wanted },
    };
  });

  let min = low;
  let max = high;
  for (const ind of indicators) {
    if (ind.pane !== 'price') continue;
    for (const line of ind.lines) {
      for (const x of line.values) {
        if (x < min) min = x;
        if (x > max) max = x;
      }
    }
  }
  for (const m of input.marks ?? []) {
    const prices = m.kind === 'zone' ? [m.price, m.price2] : [m.price];
    if (!prices.every((p) => p !== undefined && Number.isFinite(p))) {
      throw new PlateError('not_finite', `a ${m.kind} mark needs finite prices (got ${prices.join(', ')})`);
    }
  }
  const reach = MARK_REACH * (high - low);
  const marks = (input.marks ?? []).map((m): ViewMark => {
    const top = Math.max(m.price, m.price2 ?? m.price);
    const bottom = Math.min(m.price, m.price2 ?? m.price);
    if (bottom > max + reach) return { ...m, placed: 'above' };
    if (top < min - reach) return { ...m, placed: 'below' };
    return { ...m, placed: 'in_view' };
  });
  for (const m of marks) {
    if (m.placed !== 'in_view') continue;
    for (const p of m.kind === 'zone' && m.price2 !== undefined ? [m.price, m.price2] : [m.price]) {
      if (p < min && p >= min - reach) min = p;
      if (p > max && p <= max + reach) max = p;
    }
  }
  const pad = PRICE_PAD * (max - min);
  return {
    input,
    bars,
    decimals: input.decimals ?? 2,
    low,
    high,
    min: min - pad,
    max: max + pad,
    volumeMax,
    indicators,
    marks,
  };
}

/** The last value of a line that is a number, or null while it is still warming up. */
export function lastOf(values: Float64Array): number | null {
  for (let i = values.length - 1; i >= 0; i--) if (!Number.isNaN(values[i]!)) return values[i]!;
  return null;
}

export const iso = (t: number): string => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/** What every picture's JSON opens with: how it was drawn, of what and where, and its size. */
export interface PictureHead {
  style: string;
  market: Market;
  tf: Timeframe;
  from: string;
  to: string;
  size: { width: number; height: number };
}

/**
 * The numbers a plate was drawn from, as its JSON: what the id hashes along with the picture. It is public, so it
 * says of the marks only their kind and where they lie, and not the price axis (a mark near the bars widens it).
 */
export interface ChartState extends PictureHead {
  bars: {
    count: number;
    first_t: number;
    last_t: number;
    /** sha256 of the drawn bars' t, o, h, l, c, v columns as little-endian float64, column after column. */
    digest: string;
    last: { t: number; o: number; h: number; l: number; c: number; v: number };
  };
  price: { low: number; high: number; decimals: number };
  volume: { max: number };
  indicators: { spec: string; pane: 'price' | 'lower'; lines: { name: string; last: number | null }[]; warm_up: WarmUp }[];
  marks: { kind: 'level' | 'zone'; placed: Placement }[];
}

/** sha256 of the bars' t, o, h, l, c, v columns as little-endian float64, column after column. */
export function digestOf(b: Bars): string {
  const hash = createHash('sha256');
  for (const column of [b.t, b.o, b.h, b.l, b.c, b.v]) {
    hash.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
  }
  return `sha256:${hash.digest('hex')}`;
}

export function chartState(view: PlateView, style: string, size: { width: number; height: number }): ChartState {
  const b = view.bars;
  const last = b.length - 1;
  return {
    style,
    market: view.input.market,
    tf: view.input.tf,
    from: iso(view.input.from),
    to: iso(view.input.to),
    size,
    bars: {
      count: b.length,
      first_t: b.t[0]!,
      last_t: b.t[last]!,
      digest: digestOf(b),
      last: { t: b.t[last]!, o: b.o[last]!, h: b.h[last]!, l: b.l[last]!, c: b.c[last]!, v: b.v[last]! },
    },
    price: { low: view.low, high: view.high, decimals: view.decimals },
    volume: { max: view.volumeMax },
    indicators: view.indicators.map((i) => ({
      spec: i.spec.text,
      pane: i.pane,
      lines: i.lines.map((l) => ({ name: l.name, last: lastOf(l.values) })),
      warm_up: i.warmUp,
    })),
    marks: view.marks.map((m) => ({ kind: m.kind, placed: m.placed })),
  };
}
