import type { Bars } from '../bars.js';
import { TIMEFRAME_SECONDS } from '../markets.js';
import { decimalsOf, formatNumber, formatVolume, niceStep, ticksOf, timeStep, utcMinute, utcTick } from './scale.js';
import { LAYOUT, THEME } from './theme.js';
import { lastOf, type PlateView, type ViewIndicator } from './view.js';

/** A pane's rectangle and the value range its height spans. */
export interface Pane {
  x: number;
  y: number;
  w: number;
  h: number;
  min: number;
  max: number;
}

export const yOf = (p: Pane, v: number): number => p.y + ((p.max - v) / (p.max - p.min)) * p.h;
export const px = (x: number): string => (Math.round(x * 10) / 10).toString();

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Width of a text in the monospaced font, so label boxes fit their words. */
export const textWidth = (s: string, size: number): number => [...s].length * THEME.advance * size;

export function text(x: number, y: number, s: string, o: { size?: number; fill?: string; anchor?: 'start' | 'middle' | 'end'; weight?: 'bold' } = {}): string {
  const anchor = o.anchor && o.anchor !== 'start' ? ` text-anchor="${o.anchor}"` : '';
  const weight = o.weight ? ` font-weight="${o.weight}"` : '';
  return `<text x="${px(x)}" y="${px(y)}" font-size="${o.size ?? 11}" fill="${o.fill ?? THEME.muted}"${anchor}${weight}>${esc(s)}</text>`;
}

/** A mark's label on a dark backing, so it reads over candles and lines. */
export function note(x: number, y: number, s: string, fill: string): string {
  return `<rect x="${px(x - 3)}" y="${px(y - 11)}" width="${px(textWidth(s, 11) + 6)}" height="15" rx="2" fill="${THEME.background}" fill-opacity="0.8"/>${text(x, y, s, { fill })}`;
}

/** A price tag on the axis: a filled box with the price in it, centred on its line. */
function tag(x: number, y: number, label: string, fill: string, ink: string): string {
  const w = textWidth(label, 11) + 10;
  return `<rect x="${px(x)}" y="${px(y - 9)}" width="${px(w)}" height="18" rx="2" fill="${fill}"/>${text(x + 5, y + 4, label, { fill: ink })}`;
}

/** A line through the values, broken wherever they are NaN (warm-up draws nothing, never a made-up value). */
export function polyline(values: Float64Array, xOf: (i: number) => number, pane: Pane): string {
  let d = '';
  let pen = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${px(xOf(i))} ${px(yOf(pane, v))}`;
    pen = true;
  }
  return d;
}

/** The band between two lines, one closed shape per stretch where both are numbers. */
function band(upper: Float64Array, lower: Float64Array, xOf: (i: number) => number, pane: Pane): string {
  let d = '';
  let i = 0;
  while (i < upper.length) {
    while (i < upper.length && (Number.isNaN(upper[i]!) || Number.isNaN(lower[i]!))) i++;
    const from = i;
    while (i < upper.length && !Number.isNaN(upper[i]!) && !Number.isNaN(lower[i]!)) i++;
    if (i - from < 2) continue;
    for (let j = from; j < i; j++) d += `${j === from ? 'M' : 'L'}${px(xOf(j))} ${px(yOf(pane, upper[j]!))}`;
    for (let j = i - 1; j >= from; j--) d += `L${px(xOf(j))} ${px(yOf(pane, lower[j]!))}`;
    d += 'Z';
  }
  return d;
}

/** A candle body's width in a slot of that many pixels: odd, centred on the wick; at two to three pixels a bar, a 2-pixel body still shows its colour. */
export const bodyWidth = (slot: number): number => (slot >= 3 ? Math.max(1, 2 * Math.floor((slot * 0.8 - 1) / 2) + 1) : slot >= 2 ? 2 : 1);

/** Candles: wicks and bodies, one path per side, on whole pixels so their colour is exact. */
export function candles(bars: Bars, price: Pane, centre: (i: number) => number, body: number): string {
  let up = '';
  let down = '';
  for (let i = 0; i < bars.length; i++) {
    const o = bars.o[i]!;
    const c = bars.c[i]!;
    const cx = centre(i);
    const hi = Math.round(yOf(price, bars.h[i]!));
    const lo = Math.round(yOf(price, bars.l[i]!));
    const top = Math.round(yOf(price, Math.max(o, c)));
    const bot = Math.round(yOf(price, Math.min(o, c)));
    const d = `M${cx} ${hi}h1v${Math.max(1, lo - hi)}h-1ZM${cx - Math.floor((body - 1) / 2)} ${top}h${body}v${Math.max(1, bot - top)}h${-body}Z`;
    if (c >= o) up += d;
    else down += d;
  }
  return `<path d="${up}" fill="${THEME.up}" shape-rendering="crispEdges"/><path d="${down}" fill="${THEME.down}" shape-rendering="crispEdges"/>`;
}

const label = (ind: ViewIndicator): string => ind.spec.text.replace(/:/g, ' ').toUpperCase();

/** What the legend says of a line whose warm-up the tape could not supply (none when it is settled). */
const unsettled = ({ spec, warmUp }: ViewIndicator): string =>
  warmUp.settled ? '' : spec.kind === 'vwap' ? 'unsettled: day start not held' : `unsettled: ${warmUp.bars}/${warmUp.wanted} bars`;

/** A legend entry: the line's label and last value in its colour, then, when unsettled, a warning after it. */
function legend(x: number, y: number, ind: ViewIndicator, words: string, fill: string): { svg: string; width: number } {
  const warning = unsettled(ind);
  const svg = text(x, y, words, { fill }) + (warning ? text(x + textWidth(`${words}  `, 11), y, warning, { fill: THEME.level }) : '');
  return { svg, width: textWidth(warning ? `${words}  ${warning}` : words, 11) };
}

/** The SVG of a plate. Pure: the same view gives the same string. */
export function plateSvg(view: PlateView): string {
  const { bars, input } = view;
  const W = THEME.width;
  const H = THEME.height;
  const n = bars.length;
  const quote = (p: number): string => formatNumber(p, view.decimals);
  const lowers = view.indicators.filter((i) => i.pane === 'lower');
  const overlays = view.indicators.filter((i) => i.pane === 'price');
  const colour = new Map(view.indicators.map((ind, k) => [ind, THEME.lines[k % THEME.lines.length]!]));

  // Panes from the top: price, then one pane per oscillator, then volume; the time axis under them all.
  const x = LAYOUT.left;
  const w = W - LAYOUT.left - LAYOUT.axis;
  const bottom = H - LAYOUT.footer;
  // Headroom over the tallest volume bar keeps the pane's label clear of it.
  const volume: Pane = { x, y: bottom - LAYOUT.volume, w, h: LAYOUT.volume, min: 0, max: 1.2 * view.volumeMax || 1 };
  const lowerPanes = lowers.map((ind, k): Pane => {
    const y = volume.y - (lowers.length - k) * (LAYOUT.lower + LAYOUT.gap);
    const range = lowerRange(ind);
    return { x, y, w, h: LAYOUT.lower, ...range };
  });
  const priceBottom = (lowerPanes[0]?.y ?? volume.y) - LAYOUT.gap;
  const price: Pane = { x, y: LAYOUT.header, w, h: priceBottom - LAYOUT.header, min: view.min, max: view.max };

  const slot = w / n;
  const centre = (i: number): number => Math.floor(x + (i + 0.5) * slot);
  const xOf = (i: number): number => x + (i + 0.5) * slot;
  const body = bodyWidth(slot);
  const bodyLeft = (cx: number): number => cx - Math.floor((body - 1) / 2);

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${THEME.font}">`,
    `<rect width="${W}" height="${H}" fill="${THEME.background}"/>`,
  );

  // Grid: price steps across the price pane, time steps down every pane.
  const priceStep = niceStep(price.max - price.min, Math.max(4, Math.floor(price.h / 40)));
  const priceTicks = ticksOf(price.min, price.max, priceStep);
  const tf = TIMEFRAME_SECONDS[input.tf];
  const step = timeStep(tf, slot, 96);
  const timeTicks: number[] = [];
  for (let i = 1; i < n; i++) if (Math.floor(bars.t[i]! / step) !== Math.floor(bars.t[i - 1]! / step)) timeTicks.push(i);
  let grid = '';
  for (const p of priceTicks) grid += `M${x} ${Math.round(yOf(price, p)) + 0.5}h${w}`;
  for (const i of timeTicks) grid += `M${centre(i) + 0.5} ${price.y}V${bottom}`;
  out.push(`<path d="${grid}" stroke="${THEME.grid}" stroke-width="1" fill="none"/>`);
  const panes = [price, ...lowerPanes, volume];
  out.push(`<path d="${panes.map((p) => `M${x} ${p.y + p.h + 0.5}h${w}`).join('')}M${x + w + 0.5} ${price.y}V${bottom}" stroke="${THEME.separator}" stroke-width="1" fill="none"/>`);

  // Zones under everything else drawn on the price. The axis spans every drawn value, so nothing needs a clip
  // (a clip costs the rasterizer a layer the size of the picture); only a zone reaching past the axis is cut.
  const inPrice = (y: number): number => Math.min(price.y + price.h, Math.max(price.y, y));
  for (const z of view.marks) {
    if (z.kind !== 'zone' || z.placed !== 'in_view') continue;
    const top = yOf(price, Math.max(z.price, z.price2!));
    const low = yOf(price, Math.min(z.price, z.price2!));
    const edges = [top, low].filter((y) => y >= price.y && y <= price.y + price.h).map((y) => `M${x} ${px(y)}h${w}`);
    out.push(`<rect x="${x}" y="${px(inPrice(top))}" width="${w}" height="${px(inPrice(low) - inPrice(top))}" fill="${THEME.zone}" fill-opacity="0.14"/>`);
    if (edges.length) out.push(`<path d="${edges.join('')}" stroke="${THEME.zone}" stroke-opacity="0.7" stroke-dasharray="6 4" fill="none"/>`);
  }

  // Volume: one path per side.
  let volUp = '';
  let volDown = '';
  for (let i = 0; i < n; i++) {
    const top = Math.round(yOf(volume, bars.v[i]!));
    const h = Math.max(0, volume.y + volume.h - top);
    if (h === 0) continue;
    const d = `M${bodyLeft(centre(i))} ${top}h${body}v${h}h${-body}Z`;
    if (bars.c[i]! >= bars.o[i]!) volUp += d;
    else volDown += d;
  }
  out.push(`<path d="${volUp}" fill="${THEME.volumeUp}" shape-rendering="crispEdges"/><path d="${volDown}" fill="${THEME.volumeDown}" shape-rendering="crispEdges"/>`);

  // Bollinger fills first, so candles and lines sit on top.
  for (const ind of overlays) {
    if (ind.spec.kind !== 'bb') continue;
    const [upper, , lower] = ind.lines;
    out.push(`<path d="${band(upper!.values, lower!.values, xOf, price)}" fill="${colour.get(ind)}" fill-opacity="0.07"/>`);
  }

  out.push(candles(bars, price, centre, body));

  // Overlay lines.
  for (const ind of overlays) {
    const stroke = colour.get(ind)!;
    for (const line of ind.lines) {
      const middle = line.name.endsWith('.middle');
      const dash = middle || ind.spec.kind === 'hi' || ind.spec.kind === 'lo' ? ' stroke-dasharray="5 3"' : '';
      out.push(`<path d="${polyline(line.values, xOf, price)}" stroke="${stroke}" stroke-width="${middle ? 1 : 1.5}" stroke-opacity="${middle ? 0.7 : 1}"${dash} fill="none" stroke-linejoin="round"/>`);
    }
  }

  // Levels, and the labels of levels and zones: the kind only. A plate is public: it shows where the trader's marks
  // lie, never their notes, and tags no mark's price on the axis.
  const axisX = x + w + 1;
  for (const m of view.marks) {
    if (m.placed !== 'in_view') continue;
    if (m.kind === 'level') {
      const y = Math.round(yOf(price, m.price)) + 0.5;
      out.push(`<path d="M${x} ${y}h${w}" stroke="${THEME.level}" stroke-width="1.2" stroke-dasharray="8 4" fill="none"/>`);
      out.push(note(x + 6, y - 5, 'level', THEME.level));
    } else {
      const y = Math.max(price.y + 12, yOf(price, Math.max(m.price, m.price2!)) + 13);
      out.push(note(x + 6, y, 'zone', '#8fb0ff'));
    }
  }

  // Price axis, then the last close tagged in its candle's colour.
  const lastClose = bars.c[n - 1]!;
  const lastCloseY = yOf(price, lastClose);
  for (const p of priceTicks) {
    const y = yOf(price, p);
    if (y < price.y + 8 || y > price.y + price.h - 4 || Math.abs(lastCloseY - y) < 16) continue;
    out.push(text(axisX + 6, y + 4, formatNumber(p, decimalsOf(priceStep))));
  }
  const lastUp = lastClose >= bars.o[n - 1]!;
  const lastY = Math.round(yOf(price, lastClose)) + 0.5;
  out.push(`<path d="M${x} ${lastY}h${w}" stroke="${lastUp ? THEME.up : THEME.down}" stroke-opacity="0.6" stroke-dasharray="2 3" fill="none"/>`);
  out.push(tag(axisX, lastY, quote(lastClose), lastUp ? THEME.up : THEME.down, '#ffffff'));

  // Oscillator panes.
  lowers.forEach((ind, k) => {
    const pane = lowerPanes[k]!;
    const stroke = colour.get(ind)!;
    const line = ind.lines[0]!;
    if (ind.spec.kind === 'rsi') {
      const y70 = Math.round(yOf(pane, 70)) + 0.5;
      const y30 = Math.round(yOf(pane, 30)) + 0.5;
      out.push(`<rect x="${x}" y="${y70}" width="${w}" height="${y30 - y70}" fill="${stroke}" fill-opacity="0.05"/>`);
      out.push(`<path d="M${x} ${y70}h${w}M${x} ${y30}h${w}" stroke="${THEME.muted}" stroke-opacity="0.5" stroke-dasharray="4 4" fill="none"/>`);
      out.push(text(axisX + 6, y70 + 4, '70'), text(axisX + 6, y30 + 4, '30'));
    } else {
      const s = niceStep(pane.max - pane.min, 3);
      for (const v of ticksOf(pane.min, pane.max, s)) {
        const y = yOf(pane, v);
        if (y > pane.y + 10 && y < pane.y + pane.h - 4) out.push(text(axisX + 6, y + 4, formatNumber(v, decimalsOf(s))));
      }
    }
    out.push(`<path d="${polyline(line.values, xOf, pane)}" stroke="${stroke}" stroke-width="1.3" fill="none" stroke-linejoin="round"/>`);
    const last = lastOf(line.values);
    out.push(legend(x + 6, pane.y + 14, ind, `${label(ind)}  ${last === null ? 'warming up' : formatNumber(last, 2)}`, stroke).svg);
  });

  // Volume label.
  out.push(text(x + 6, volume.y + 14, `VOL  ${formatVolume(bars.v[n - 1]!)}`, { fill: THEME.muted }));
  out.push(text(axisX + 6, yOf(volume, view.volumeMax) + 4, formatVolume(view.volumeMax)));

  // Time axis in UTC, labels no closer than their own width.
  let lastRight = -Infinity;
  let datedDay = -1;
  for (const i of timeTicks) {
    const day = Math.floor(bars.t[i]! / 86_400);
    const s = utcTick(bars.t[i]!, step, day !== datedDay);
    const half = textWidth(s, 11) / 2;
    const cx = centre(i);
    if (cx - half < lastRight + 12 || cx - half < x || cx + half > x + w) continue;
    out.push(text(cx, bottom + 17, s, { anchor: 'middle', fill: day !== datedDay ? THEME.text : THEME.muted }));
    lastRight = cx + half;
    datedDay = day;
  }
  out.push(text(W - 8, bottom + 17, 'UTC', { anchor: 'end' }));

  // Title: market, timeframe, window; the last bar's OHLC; then the overlays' legend.
  const title = `${input.market} · ${input.tf}`;
  out.push(text(x + 2, 22, title, { size: 16, fill: THEME.text, weight: 'bold' }));
  const span = `${utcMinute(input.from)} → ${utcMinute(input.to)} UTC · ${n} bars`;
  out.push(text(x + 2 + textWidth(title, 16) + 14, 22, span, { size: 12 }));
  const last = n - 1;
  const ohlc = `O ${quote(bars.o[last]!)}  H ${quote(bars.h[last]!)}  L ${quote(bars.l[last]!)}  C ${quote(bars.c[last]!)}`;
  out.push(text(W - 10, 22, ohlc, { size: 12, fill: lastUp ? THEME.up : THEME.down, anchor: 'end' }));
  let lx = x + 2;
  for (const ind of overlays) {
    const stroke = colour.get(ind)!;
    const value = lastOf(ind.lines[ind.spec.kind === 'bb' ? 1 : 0]!.values);
    const entry = legend(lx + 20, 46, ind, `${label(ind)}  ${value === null ? 'warming up' : quote(value)}`, stroke);
    out.push(`<path d="M${lx} 42.5h14" stroke="${stroke}" stroke-width="2"/>`, entry.svg);
    lx += 20 + entry.width + 22;
  }

  // Marks beyond the axis, listed on the legend's line with an arrow to the side they lie on, so none goes unseen.
  const away = view.marks.filter((m) => m.placed !== 'in_view').map((m) => `${m.placed === 'above' ? '▲' : '▼'} ${m.kind}`);
  if (away.length) out.push(text(W - 10, 46, away.join('   '), { fill: THEME.level, anchor: 'end' }));

  out.push('</svg>');
  return out.join('\n');
}

/** An oscillator's scale: RSI is 0 to 100; ATR spans what it shows, from zero when it is near. */
function lowerRange(ind: ViewIndicator): { min: number; max: number } {
  if (ind.spec.kind === 'rsi') return { min: 0, max: 100 };
  let min = Infinity;
  let max = -Infinity;
  for (const v of ind.lines[0]!.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max > min)) return Number.isFinite(max) ? { min: max * 0.9, max: max * 1.1 || 1 } : { min: 0, max: 1 };
  const pad = 0.1 * (max - min);
  return { min: min - pad, max: max + pad };
}
