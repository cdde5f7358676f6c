import { firstAtOrAfter, windowOf, type Bars } from '../bars.js';
import { TIMEFRAME_SECONDS } from '../markets.js';
import type { Rehearsal } from '../stepper/envelope.js';
import { NULL_BINS } from '../stepper/null-bins.js';
import { neighboursOf } from '../verdict/index.js';
import { round4 } from '../stepper/stats.js';
import { PlateError } from './error.js';
import { rasterize } from './raster.js';
import { decimalsOf, formatNumber, niceStep, ticksOf, timeStep, utcMinute, utcTick } from './scale.js';
import { bodyWidth, candles, note, px, text, textWidth, yOf, type Pane } from './svg.js';
import { REHEARSAL_COLOURS as C, THEME } from './theme.js';
import { digestOf, iso, type PictureHead } from './view.js';

/** Names the way rehearsal plates are drawn; it changes whenever the same rehearsal would be drawn differently. */
export const REHEARSAL_PLATE_STYLE = 'rehearsal-plate/3 dark 1200x700 resvg-js 2.6 DejaVu Sans Mono 2.37';

/** The narrowest column a candle is drawn in: more bars than columns are drawn a column per few bars. */
const MIN_SLOT = 2;
const PAD = 0.05;

/** Where the panes go, in pixels: the price over the window, the equity in R under it, the random null at the bottom. */
const LAYOUT = { left: 10, axis: 88, header: 58, price: 300, gap: 26, equity: 118, footer: 26 } as const;

export interface RehearsalPlateInput {
  rehearsal: Pick<Rehearsal, 'market' | 'timeframe' | 'window' | 'trades' | 'stats' | 'null' | 'verdict'>;
  /** The bars the rehearsal ran over; those before its window warmed the rule up and are not drawn. */
  bars: Bars;
}

/** The numbers a rehearsal's plate was drawn from, as its JSON: what its id hashes along with the picture. */
export interface RehearsalPlateState extends PictureHead {
  /** The drawn bars; a column draws per_column of them as one candle when they outnumber the columns. */
  bars: { count: number; columns: number; per_column: number; digest: string };
  price: { low: number; high: number };
  trades: { count: number; long: number; short: number; wins: number; losses: number };
  equity: { final_r: number; max_drawdown_r: number; low_r: number; high_r: number };
  /** The null's run totals binned as drawn (bin i spans from + i * width), and where the rule's total falls; null without runs. */
  null: { runs: number; rule_total_r: number; k: number; percentile: number | null; p: number | null; bins: { from: number; width: number; counts: number[] } } | null;
  /** The verdict as drawn: its label and line, and the neighbours' total R ticked under the null (null without a verdict). */
  verdict: { label: string; line: string; neighbours: number[] } | null;
}

export interface RehearsalPlate {
  png: Buffer;
  state: RehearsalPlateState;
}

/**
 * Marks, centred on (x, y): an entry's triangle with its tip at the fill, pointing the way of the side; an exit's
 * ring. The ring is hollow so an exit in the entry's column leaves the triangle's shape (and so its side) readable.
 */
const tipUp = (x: number, y: number): string => `M${px(x)} ${px(y)}l-5 9h10Z`;
const tipDown = (x: number, y: number): string => `M${px(x)} ${px(y)}l-5 -9h10Z`;
const ring = (x: number, y: number): string => `M${px(x - 4)} ${px(y)}a4 4 0 1 0 8 0a4 4 0 1 0 -8 0Z`;
const ringStyle = 'fill="none" stroke-width="1.6"';

/** A count with its noun, singular for one. */
export const counted = (n: number, noun: string): string => `${formatNumber(n, 0)} ${noun}${n === 1 ? '' : 's'}`;

/** A number of R as the plate writes it: signed, two decimals. */
const inR = (r: number): string => `${r > 0 ? '+' : ''}${formatNumber(r, 2)}R`;

/** The verdict in one line of the plate: its label and the figures, each named. */
function verdictLine(v: NonNullable<Rehearsal['verdict']>): string {
  const d = v.deflated_sharpe;
  const h = v.neighbourhood;
  const parts = [`VERDICT  ${v.label.replace('_', ' ')}`];
  if (d.dsr !== null) parts.push(`DSR ${formatNumber(d.dsr, 2)} (${d.trials.n} trial${d.trials.n === 1 ? '' : 's'})`);
  if (h.pbo) parts.push(`PBO ${formatNumber(h.pbo.pbo, 2)}`);
  if (v.search) parts.push(`SPA p ${formatNumber(v.search.p, 2)}`);
  parts.push(`${h.positive}/${h.rules} neighbours > 0`);
  const be = v.costs.break_even;
  parts.push(be ? `break-even ${formatNumber(be.r, 2)}R a trade` : 'no edge before costs');
  const la = v.bias.look_ahead;
  parts.push(la.changed + la.series_changed > 0 ? 'LOOK-AHEAD' : 'no look-ahead');
  return parts.join('  ·  ');
}

/** One candle per column: the first open, the highest high, the lowest low and the last close of its bars. */
function columnsOf(b: Bars, per: number): Bars {
  const n = Math.ceil(b.length / per);
  const out: Bars = { length: n, t: new Float64Array(n), o: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n), c: new Float64Array(n), v: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const first = k * per;
    const last = Math.min(b.length, first + per) - 1;
    let h = -Infinity;
    let l = Infinity;
    let v = 0;
    for (let i = first; i <= last; i++) {
      h = Math.max(h, b.h[i]!);
      l = Math.min(l, b.l[i]!);
      v += b.v[i]!;
    }
    out.t[k] = b.t[first]!;
    out.o[k] = b.o[first]!;
    out.h[k] = h;
    out.l[k] = l;
    out.c[k] = b.c[last]!;
    out.v[k] = v;
  }
  return out;
}

/** Ticks of a pane's value axis, written on the right of it. */
function axisTicks(pane: Pane, x: number, most: number, unit = ''): string[] {
  const step = niceStep(pane.max - pane.min, most);
  return ticksOf(pane.min, pane.max, step)
    .filter((v) => yOf(pane, v) > pane.y + 8 && yOf(pane, v) < pane.y + pane.h - 4)
    .map((v) => text(x, yOf(pane, v) + 4, `${formatNumber(v, decimalsOf(step))}${unit}`));
}

/**
 * Draws a rehearsal: the price over its window with every trade's entry (by side) and exit (by outcome) joined by
 * a segment, the equity curve in R trade by trade, and the random null's run totals as a histogram with the rule's
 * total R marked where it falls. Pure: the same rehearsal and bars give the same bytes.
 */
export function renderRehearsalPlate(input: RehearsalPlateInput): RehearsalPlate {
  const { rehearsal: r } = input;
  const start = firstAtOrAfter(input.bars.t, r.window.from);
  const end = firstAtOrAfter(input.bars.t, r.window.to);
  const drawn = windowOf(input.bars, start, end);
  if (drawn.length === 0) throw new PlateError('no_bars', 'no bars in the rehearsal\'s window: there is nothing to draw');
  const W = THEME.width;
  const H = THEME.height;
  const x = LAYOUT.left;
  const w = W - LAYOUT.left - LAYOUT.axis;
  const axisX = x + w + 7;

  const per = Math.ceil(drawn.length / Math.floor(w / MIN_SLOT));
  const cols = columnsOf(drawn, per);
  const n = cols.length;
  const slot = w / n;
  const centre = (k: number): number => Math.floor(x + (k + 0.5) * slot);
  // The column of the bar opening at t, or of the last one opening before it (an exit at a bar's close).
  const columnAt = (t: number): number => {
    const i = firstAtOrAfter(drawn.t, t);
    const bar = i < drawn.length && drawn.t[i] === t ? i : Math.max(0, i - 1);
    return Math.floor(bar / per);
  };

  let low = Infinity;
  let high = -Infinity;
  for (let k = 0; k < n; k++) {
    low = Math.min(low, cols.l[k]!);
    high = Math.max(high, cols.h[k]!);
  }
  for (const t of r.trades) {
    low = Math.min(low, t.entry, t.exit);
    high = Math.max(high, t.entry, t.exit);
  }
  if (!(high > low)) throw new PlateError('flat', `every price in the window is ${low}: a flat series has no price axis to draw`);
  const pricePad = PAD * (high - low);
  const price: Pane = { x, y: LAYOUT.header, w, h: LAYOUT.price, min: low - pricePad, max: high + pricePad };

  // Equity: cumulative R after each trade, at its exit.
  let equityNow = 0;
  let equityLow = 0;
  let equityHigh = 0;
  const steps = r.trades.map((t) => {
    equityNow += t.r;
    equityLow = Math.min(equityLow, equityNow);
    equityHigh = Math.max(equityHigh, equityNow);
    return { at: centre(columnAt(t.exit_t)), r: equityNow };
  });
  const equitySpan = equityHigh - equityLow || 1;
  const equityTop = price.y + price.h + LAYOUT.gap;
  const equity: Pane = { x, y: equityTop, w, h: LAYOUT.equity, min: equityLow - PAD * equitySpan, max: equityHigh + PAD * equitySpan };

  const nullTop = equity.y + equity.h + LAYOUT.gap;
  const nullPane: Pane = { x, y: nullTop, w, h: H - LAYOUT.footer - nullTop, min: 0, max: 1 };

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${THEME.font}">`,
    `<rect width="${W}" height="${H}" fill="${THEME.background}"/>`,
  ];

  // Grid and pane edges: price steps across the price pane, time steps down the price and equity panes.
  const priceStep = niceStep(price.max - price.min, Math.max(4, Math.floor(price.h / 40)));
  const timeEvery = timeStep(TIMEFRAME_SECONDS[r.timeframe] * per, slot, 96);
  const timeTicks: number[] = [];
  for (let k = 1; k < n; k++) if (Math.floor(cols.t[k]! / timeEvery) !== Math.floor(cols.t[k - 1]! / timeEvery)) timeTicks.push(k);
  let grid = '';
  for (const p of ticksOf(price.min, price.max, priceStep)) grid += `M${x} ${Math.round(yOf(price, p)) + 0.5}h${w}`;
  for (const k of timeTicks) grid += `M${centre(k) + 0.5} ${price.y}V${price.y + price.h}M${centre(k) + 0.5} ${equity.y}V${equity.y + equity.h}`;
  out.push(`<path d="${grid}" stroke="${THEME.grid}" stroke-width="1" fill="none"/>`);
  const edges = [price, equity, nullPane].map((p) => `M${x} ${p.y + p.h + 0.5}h${w}M${x + w + 0.5} ${p.y}V${p.y + p.h}`).join('');
  out.push(`<path d="${edges}" stroke="${THEME.separator}" stroke-width="1" fill="none"/>`);

  // Candles, one per column.
  out.push(candles(cols, price, centre, bodyWidth(slot)));

  // Trades: a segment from entry to exit coloured by outcome, the entry a triangle pointing the way of the side, the exit a dot.
  const segments = { win: '', loss: '' };
  const entries = { long: '', short: '' };
  const exits = { win: '', loss: '' };
  for (const t of r.trades) {
    const ex = centre(columnAt(t.entry_t)) + 0.5;
    const ey = yOf(price, t.entry);
    const xx = centre(columnAt(t.exit_t)) + 0.5;
    const xy = yOf(price, t.exit);
    const outcome = t.r > 0 ? 'win' : 'loss';
    segments[outcome] += `M${px(ex)} ${px(ey)}L${px(xx)} ${px(xy)}`;
    entries[t.side] += t.side === 'long' ? tipUp(ex, ey) : tipDown(ex, ey);
    exits[outcome] += ring(xx, xy);
  }
  out.push(
    `<path d="${segments.win}" stroke="${C.win}" stroke-width="1.3" stroke-opacity="0.85" fill="none"/>`,
    `<path d="${segments.loss}" stroke="${C.loss}" stroke-width="1.3" stroke-opacity="0.85" fill="none"/>`,
    `<path d="${entries.long}" fill="${C.long}"/>`,
    `<path d="${entries.short}" fill="${C.short}"/>`,
    `<path d="${exits.win}" stroke="${C.win}" ${ringStyle}/>`,
    `<path d="${exits.loss}" stroke="${C.loss}" ${ringStyle}/>`,
  );
  out.push(...axisTicks(price, axisX, Math.max(4, Math.floor(price.h / 40))));

  // Equity in R: a step at each exit from zero at the window's start, the area to zero lightly filled.
  const zero = Math.round(yOf(equity, 0)) + 0.5;
  let line = `M${x} ${zero}`;
  for (const s of steps) line += `H${s.at}V${px(yOf(equity, s.r))}`;
  line += `H${x + w}`;
  out.push(`<path d="${line}V${zero}H${x}Z" fill="${C.equity}" fill-opacity="0.08"/>`);
  out.push(`<path d="M${x} ${zero}h${w}" stroke="${THEME.muted}" stroke-opacity="0.6" stroke-dasharray="4 4" fill="none"/>`);
  out.push(`<path d="${line}" stroke="${C.equity}" stroke-width="1.6" fill="none" stroke-linejoin="round"/>`);
  out.push(...axisTicks(equity, axisX, 4, 'R'));
  out.push(text(x + 2, equity.y - 8, `EQUITY IN R  ${inR(r.stats.total_r)}  ·  max drawdown ${formatNumber(r.stats.max_drawdown_r, 2)}R`, { fill: C.equity }));

  // Time axis in UTC under the equity pane: each tick names the step it opens, labels no closer than their own width.
  let lastRight = -Infinity;
  let datedDay = -1;
  for (const k of timeTicks) {
    const at = Math.floor(cols.t[k]! / timeEvery) * timeEvery;
    const day = Math.floor(at / 86_400);
    const s = utcTick(at, timeEvery, day !== datedDay);
    const half = textWidth(s, 11) / 2;
    const cx = centre(k);
    if (cx - half < lastRight + 12 || cx - half < x || cx + half > x + w) continue;
    out.push(text(cx, equity.y + equity.h + 17, s, { anchor: 'middle', fill: day !== datedDay ? THEME.text : THEME.muted }));
    lastRight = cx + half;
    datedDay = day;
  }
  out.push(text(W - 8, equity.y + equity.h + 17, 'UTC', { anchor: 'end' }));

  // The random null: its run totals binned, the runs at or above the rule's total set apart, the rule's total marked.
  let nullState: RehearsalPlateState['null'] = null;
  const rule = r.null.rule_total_r;
  const neighbours = neighboursOf(r.verdict);
  const verdictSaid = r.verdict ? verdictLine(r.verdict) : null;
  if (verdictSaid) out.push(text(x + 6, nullPane.y + 30, verdictSaid, { fill: C.neighbour }));
  const bins = r.null.histogram;
  if (bins) {
    const { from, width, counts } = bins;
    const most = Math.max(...counts);
    const xR = (v: number): number => x + ((v - from) / (width * NULL_BINS)) * w;
    const barTop = nullPane.y + (verdictSaid ? 38 : 22);
    const barH = nullPane.h - (verdictSaid ? 40 : 24);
    let below = '';
    let atLeast = '';
    counts.forEach((count, b) => {
      if (count === 0) return;
      const h = Math.max(1, Math.round((count / most) * barH));
      const left = Math.round(xR(from + b * width)) + 1;
      const right = Math.round(xR(from + (b + 1) * width));
      const d = `M${left} ${nullPane.y + nullPane.h - h}h${Math.max(1, right - left)}v${h}h${-Math.max(1, right - left)}Z`;
      if (from + (b + 0.5) * width >= rule) atLeast += d;
      else below += d;
    });
    out.push(`<path d="${below}" fill="${C.below}" shape-rendering="crispEdges"/><path d="${atLeast}" fill="${C.atLeast}" shape-rendering="crispEdges"/>`);
    // The neighbours: a tick each at its total R, along the foot of the histogram.
    let ticks = '';
    for (const v of neighbours) ticks += `M${Math.round(xR(v)) + 0.5} ${nullPane.y + nullPane.h - 10}v10`;
    if (ticks) out.push(`<path d="${ticks}" stroke="${C.neighbour}" stroke-width="1" stroke-opacity="0.9" fill="none"/>`);
    const ruleX = Math.round(xR(rule)) + 0.5;
    out.push(`<path d="M${ruleX} ${barTop}V${nullPane.y + nullPane.h}" stroke="${C.rule}" stroke-width="2" fill="none"/>`);
    const said = `rule ${inR(rule)}`;
    const onLeft = ruleX + 8 + textWidth(said, 11) > x + w;
    out.push(note(onLeft ? ruleX - 8 - textWidth(said, 11) : ruleX + 8, barTop + 10, said, C.rule));
    const step = niceStep(width * NULL_BINS, 8);
    for (const v of ticksOf(from, from + width * NULL_BINS, step)) {
      const s = `${formatNumber(v, decimalsOf(step))}R`;
      const cx = xR(v);
      if (cx - textWidth(s, 11) / 2 < x || cx + textWidth(s, 11) / 2 > x + w) continue;
      out.push(text(cx, nullPane.y + nullPane.h + 17, s, { anchor: 'middle' }));
    }
    nullState = { runs: r.null.runs, rule_total_r: rule, k: r.null.k, percentile: r.null.percentile, p: r.null.p, bins: { from, width, counts } };
    out.push(text(x + 6, nullPane.y + 14, `RANDOM NULL  total R of ${formatNumber(r.null.runs, 0)} runs of random entries, the rule's stops and exits`, { fill: THEME.text }));
    out.push(text(x + w - 6, nullPane.y + 14, `rule beats ${r.null.percentile}% of them  ·  p ${r.null.p}`, { fill: C.rule, anchor: 'end' }));
  } else {
    out.push(text(x + 6, nullPane.y + 14, 'RANDOM NULL  no trades, so no random entries to weigh them against', { fill: THEME.muted }));
  }

  // Title: market, timeframe, window; the rule's trades in a line; the legend of the marks.
  const title = `${r.market} · ${r.timeframe} · rehearsal`;
  out.push(text(x + 2, 22, title, { size: 16, fill: THEME.text, weight: 'bold' }));
  const span = `${utcMinute(r.window.from)} → ${utcMinute(r.window.to)} UTC · ${counted(drawn.length, 'bar')}${per > 1 ? `, each candle ${per} bars` : ''}`;
  out.push(text(x + 2 + textWidth(title, 16) + 14, 22, span, { size: 12 }));
  const s = r.stats;
  out.push(text(W - 10, 22, `${counted(s.n, 'trade')} · ${s.wins} won · ${s.losses} lost · total ${inR(s.total_r)}`, { size: 12, fill: C.equity, anchor: 'end' }));
  const legend: [string, string, string, string][] = [
    [C.long, 'long entry', tipUp(x + 8, 37), `fill="${C.long}"`],
    [C.short, 'short entry', tipDown(x + 8, 46), `fill="${C.short}"`],
    [C.win, 'exit, won', ring(x + 8, 42), `stroke="${C.win}" ${ringStyle}`],
    [C.loss, 'exit, lost', ring(x + 8, 42), `stroke="${C.loss}" ${ringStyle}`],
  ];
  let lx = 0;
  for (const [fill, words, mark, paint] of legend) {
    out.push(`<g transform="translate(${px(lx)} 0)"><path d="${mark}" ${paint}/>${text(x + 20, 46, words, { fill })}</g>`);
    lx += 20 + textWidth(words, 11) + 24;
  }

  out.push('</svg>');
  const state: RehearsalPlateState = {
    style: REHEARSAL_PLATE_STYLE,
    market: r.market,
    tf: r.timeframe,
    from: iso(r.window.from),
    to: iso(r.window.to),
    size: { width: W, height: H },
    bars: { count: drawn.length, columns: n, per_column: per, digest: digestOf(drawn) },
    price: { low, high },
    trades: { count: s.n, long: s.long, short: s.short, wins: s.wins, losses: s.losses },
    equity: { final_r: s.total_r, max_drawdown_r: s.max_drawdown_r, low_r: round4(equityLow), high_r: round4(equityHigh) },
    null: nullState,
    verdict: r.verdict && verdictSaid ? { label: r.verdict.label, line: verdictSaid, neighbours } : null,
  };
  return { png: rasterize(out.join('\n')), state };
}
