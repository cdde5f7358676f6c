import { firstAtOrAfter, windowOf, type Bars } from '../bars.js';
import type { DeciderIR } from '../decider/ir.js';
import { TIMEFRAME_SECONDS } from '../markets.js';
import type { Rehearsal } from '../stepper/envelope.js';
import { NULL_BINS } from '../stepper/null-bins.js';
import { IDLE, idleOf, rehearsedSeries, sessionWords } from '../stepper/readiness.js';
import { readinessWords } from '../stepper/summary.js';
import { neighboursOf } from '../verdict/index.js';
import { round4 } from '../stepper/stats.js';
import { PlateError } from './error.js';
import { rasterize } from './raster.js';
import { decimalsOf, formatNumber, niceStep, ticksOf, timeStep, utcMinute, utcTick } from './scale.js';
import { exitWords, ruleLinesOf, thresholdsOf, type RuleLine, type Threshold } from './rule-lines.js';
import { bodyWidth, candles, note, polyline, px, text, textWidth, yOf, type Pane } from './svg.js';
import { REHEARSAL_COLOURS as C, THEME } from './theme.js';
import { digestOf, iso, type PictureHead } from './view.js';

/** Names the way rehearsal plates are drawn; it changes whenever the same rehearsal would be drawn differently. */
export const REHEARSAL_PLATE_STYLE = 'rehearsal-plate/4 dark 1200x700 resvg-js 2.6 DejaVu Sans Mono 2.37';

/** The narrowest column a candle is drawn in: more bars than columns are drawn a column per few bars. */
const MIN_SLOT = 2;
const PAD = 0.05;

/** Where the panes go, in pixels (the price pane starts under the legend's rows): the price over the window, the rule's oscillators under it, the equity in R, the random null at the bottom. */
const LAYOUT = { left: 10, axis: 88, gap: 26, lower: 64, lowerGap: 8, footer: 26 } as const;

export interface RehearsalPlateInput {
  rehearsal: Pick<Rehearsal, 'market' | 'timeframe' | 'window' | 'trades' | 'stats' | 'null' | 'verdict'>;
  /** The rule the rehearsal ran: its series are drawn as the stepper computed them. */
  ir: DeciderIR;
  /** The bars the rehearsal ran over; those before its window warmed the rule up and are not drawn. */
  bars: Bars;
}

/** The numbers a rehearsal's plate was drawn from, as its JSON: what its id hashes along with the picture. */
export interface RehearsalPlateState extends PictureHead {
  /** The drawn bars; a column draws per_column of them as one candle when they outnumber the columns. */
  bars: { count: number; columns: number; per_column: number; digest: string };
  price: { low: number; high: number };
  trades: { count: number; long: number; short: number; wins: number; losses: number };
  /** What the rule reads as drawn: its lines by legend label and pane, the constants it compares them with, its stop, target, other ways out and session in words. */
  rule: { lines: RuleLine[]; thresholds: Threshold[]; stop: string; target: string | null; exits: string[]; session: string };
  /** Where the rule could first decide and why bars could not trade (the rehearsal's own counts), and the columns shaded for each reason. */
  readiness: { ready_at: string | null; idle: Rehearsal['window']['idle']; shaded: { warm_up: number; session: number } };
  /** Stop and target segments drawn, one per trade that has each. */
  levels: { stops: number; targets: number };
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

/** Words wrapped into lines of at most `chars` characters. */
function wrapped(words: string, chars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words.split(' ')) {
    if (line && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The lowest and highest number among the values at these indices (NaN skipped); null when there is none. */
function rangeOf(values: Float64Array, indices: Iterable<number>): { low: number; high: number } | null {
  let low = Infinity;
  let high = -Infinity;
  for (const i of indices) {
    const v = values[i]!;
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return high >= low ? { low, high } : null;
}

/** Runs of equal codes along the columns: [first column, past the last, code]. */
function runsOf(codes: Uint8Array): [number, number, number][] {
  const runs: [number, number, number][] = [];
  for (let k = 0; k < codes.length; ) {
    let j = k;
    while (j < codes.length && codes[j] === codes[k]) j++;
    runs.push([k, j, codes[k]!]);
    k = j;
  }
  return runs;
}

/**
 * Draws a rehearsal: the price over its window with the rule's own series over it (oscillators in panes of their
 * own, with the constants the rule compares them with), its session and warm-up shaded behind the candles, every
 * trade's entry (by side) and exit (by outcome) joined by a segment with its stop and target beside it, the equity
 * curve in R trade by trade, and the random null's run totals as a histogram with the rule's total R marked where it
 * falls. The series are those the stepper ran on (rebuilt from the same bars and the same start). Pure: the same
 * rehearsal, rule and bars give the same bytes.
 */
export function renderRehearsalPlate(input: RehearsalPlateInput): RehearsalPlate {
  const { svg, state } = rehearsalSvg(input);
  return { png: rasterize(svg), state };
}

/** The SVG of a rehearsal's plate and the numbers it was drawn from (renderRehearsalPlate rasterizes it). */
export function rehearsalSvg(input: RehearsalPlateInput): { svg: string; state: RehearsalPlateState } {
  const { rehearsal: r, ir } = input;
  const from = firstAtOrAfter(input.bars.t, r.window.from);
  if (r.window.bars === 0 || from + r.window.bars > input.bars.length || input.bars.t[from] !== r.window.from) {
    throw new PlateError('no_bars', "no bars in the rehearsal's window: there is nothing to draw");
  }
  const read = rehearsedSeries(ir, input.bars, r.window);
  const drawn = windowOf(read.bars, read.start, read.end);
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
  // A series as drawn: a column shows the value known at its last bar's close.
  const lastBar = (k: number): number => read.start + Math.min(drawn.length, (k + 1) * per) - 1;
  const columnValues = (values: Float64Array): Float64Array => Float64Array.from({ length: n }, (_, k) => values[lastBar(k)]!);

  // What the rule reads: its lines, the constants it compares them with, and per column whether it could decide.
  const lines = ruleLinesOf(ir);
  const thresholds = thresholdsOf(ir);
  const exits = exitWords(ir);
  const colour = new Map(lines.map((l, k) => [l, C.lines[k % C.lines.length]!]));
  const idle = idleOf(ir, read.series, read.start, read.end);
  const decided = [...idle.keys()].filter((i) => idle[i] === IDLE.DECIDES).map((i) => read.start + i);
  // A column is shaded when none of its bars could decide: warm-up when any of them was warming up, else the session.
  const shade = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    let code: number = IDLE.SESSION;
    for (let i = k * per; i < Math.min(drawn.length, (k + 1) * per); i++) {
      if (idle[i] === IDLE.DECIDES) {
        code = IDLE.DECIDES;
        break;
      }
      if (idle[i] === IDLE.WARM_UP) code = IDLE.WARM_UP;
    }
    shade[k] = code;
  }

  let low = Infinity;
  let high = -Infinity;
  for (let k = 0; k < n; k++) {
    low = Math.min(low, cols.l[k]!);
    high = Math.max(high, cols.h[k]!);
  }
  for (const t of r.trades) {
    low = Math.min(low, t.entry, t.exit, t.stop, t.target ?? t.entry);
    high = Math.max(high, t.entry, t.exit, t.stop, t.target ?? t.entry);
  }
  const drawnValues = new Map<string, Float64Array>();
  for (const line of lines) {
    for (const id of line.ids) {
      const values = columnValues(read.series[id] as Float64Array);
      drawnValues.set(id, values);
      if (line.pane !== 'price') continue;
      const range = rangeOf(values, values.keys());
      if (range) [low, high] = [Math.min(low, range.low), Math.max(high, range.high)];
    }
  }
  if (!(high > low)) throw new PlateError('flat', `every price in the window is ${low}: a flat series has no price axis to draw`);

  // The legend, flowing over as many rows as it needs: the trade marks, the stop and target, the shading, then the rule's lines in its words.
  const swatch = (fill: string, y: number): string => `<rect x="${x + 2}" y="${y - 10}" width="13" height="11" fill="${fill}" stroke="${THEME.separator}"/>`;
  const dash = (stroke: string, y: number): string => `<path d="M${x + 1} ${y - 4}h15" stroke="${stroke}" stroke-width="2" fill="none"/>`;
  const sessionSaid = sessionWords(ir);
  // An entry with no mark (words alone) starts where a mark would.
  const legend: { fill: string; words: string; mark: ((y: number) => string) | null }[] = [
    { fill: C.long, words: 'long entry', mark: (y) => `<path d="${tipUp(x + 8, y - 9)}" fill="${C.long}"/>` },
    { fill: C.short, words: 'short entry', mark: (y) => `<path d="${tipDown(x + 8, y)}" fill="${C.short}"/>` },
    { fill: C.win, words: 'exit, won', mark: (y) => `<path d="${ring(x + 8, y - 4)}" stroke="${C.win}" ${ringStyle}/>` },
    { fill: C.loss, words: 'exit, lost', mark: (y) => `<path d="${ring(x + 8, y - 4)}" stroke="${C.loss}" ${ringStyle}/>` },
    { fill: C.stop, words: exits.stop, mark: (y) => dash(C.stop, y) },
    ...(exits.target ? [{ fill: C.target, words: exits.target, mark: (y: number) => dash(C.target, y) }] : []),
    ...exits.others.map((words) => ({ fill: THEME.muted, words, mark: null })),
    ...(sessionSaid !== 'always' ? [{ fill: THEME.text, words: `outside session ${sessionSaid}`, mark: (y: number) => swatch(C.session, y) }] : []),
    ...(shade.includes(IDLE.WARM_UP) ? [{ fill: THEME.text, words: 'warming up', mark: (y: number) => swatch(C.warmUp, y) }] : []),
    ...lines.map((l) => ({ fill: colour.get(l)!, words: l.pane === 'price' ? l.label : `${l.label} (pane below)`, mark: (y: number) => dash(colour.get(l)!, y) })),
    ...(lines.length === 0 ? [{ fill: THEME.muted, words: 'the rule reads the price alone', mark: null }] : []),
  ];
  const placed: { at: number; ly: number; item: (typeof legend)[number] }[] = [];
  let lx = 0;
  let ly = 46;
  for (const item of legend) {
    const width = (item.mark ? 20 : 2) + textWidth(item.words, 11);
    if (lx > 0 && x + lx + width > W - 10) [lx, ly] = [0, ly + 18];
    placed.push({ at: lx, ly, item });
    lx += width + 20;
  }
  // The price pane starts under the legend's rows and the readiness line under them.
  const header = ly + 18 + 10;

  // Panes from the top: price, the rule's oscillators, equity, null; less room for the price with oscillators.
  const lowerKinds = (['rsi', 'atr'] as const).filter((p) => lines.some((l) => l.pane === p));
  const equityH = lowerKinds.length > 0 ? 96 : 118;
  const nullH = lowerKinds.length > 0 ? 128 : 146;
  const priceH = H - header - LAYOUT.footer - 2 * LAYOUT.gap - equityH - nullH - lowerKinds.length * (LAYOUT.lower + LAYOUT.lowerGap);
  const pricePad = PAD * (high - low);
  const price: Pane = { x, y: header, w, h: priceH, min: low - pricePad, max: high + pricePad };
  const lowers = lowerKinds.map((kind, j) => {
    const ids = lines.filter((l) => l.pane === kind).flatMap((l) => l.ids);
    let range = { low: Infinity, high: -Infinity };
    for (const id of ids) {
      const got = rangeOf(drawnValues.get(id)!, drawnValues.get(id)!.keys());
      if (got) range = { low: Math.min(range.low, got.low), high: Math.max(range.high, got.high) };
    }
    for (const t of thresholds) if (t.pane === kind) range = { low: Math.min(range.low, t.value), high: Math.max(range.high, t.value) };
    const span = range.high > range.low ? range.high - range.low : 1;
    const pane: Pane =
      kind === 'rsi'
        ? { x, y: 0, w, h: LAYOUT.lower, min: 0, max: 100 }
        : { x, y: 0, w, h: LAYOUT.lower, min: (Number.isFinite(range.low) ? range.low : 0) - PAD * span, max: (Number.isFinite(range.high) ? range.high : 1) + PAD * span };
    pane.y = price.y + price.h + LAYOUT.lowerGap + j * (LAYOUT.lower + LAYOUT.lowerGap);
    return { kind, pane, lines: lines.filter((l) => l.pane === kind) };
  });
  const above = lowers.at(-1)?.pane ?? price;

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
  // Without trades the curve is flat at zero: one R either side keeps its axis in whole R.
  const equitySpan = equityHigh - equityLow || 20;
  const equityTop = above.y + above.h + LAYOUT.gap;
  const equity: Pane = { x, y: equityTop, w, h: equityH, min: equityLow - PAD * equitySpan, max: equityHigh + PAD * equitySpan };

  const nullTop = equity.y + equity.h + LAYOUT.gap;
  const nullPane: Pane = { x, y: nullTop, w, h: H - LAYOUT.footer - nullTop, min: 0, max: 1 };
  const timePanes = [price, ...lowers.map((l) => l.pane), equity];

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${THEME.font}">`,
    `<rect width="${W}" height="${H}" fill="${THEME.background}"/>`,
  ];

  // Shading behind everything: the columns where the rule could not decide, over the price and its oscillators.
  const shaded = { warm_up: 0, session: 0 };
  const fills = { [IDLE.WARM_UP]: '', [IDLE.SESSION]: '' } as Record<number, string>;
  for (const [a, b, code] of runsOf(shade)) {
    if (code === IDLE.DECIDES) continue;
    if (code === IDLE.WARM_UP) shaded.warm_up += b - a;
    else shaded.session += b - a;
    const left = Math.round(x + a * slot);
    const right = Math.round(x + b * slot);
    for (const p of [price, ...lowers.map((l) => l.pane)]) fills[code] += `M${left} ${p.y}h${right - left}v${p.h}h${left - right}Z`;
  }
  if (fills[IDLE.SESSION]) out.push(`<path d="${fills[IDLE.SESSION]}" fill="${C.session}" shape-rendering="crispEdges"/>`);
  if (fills[IDLE.WARM_UP]) out.push(`<path d="${fills[IDLE.WARM_UP]}" fill="${C.warmUp}" shape-rendering="crispEdges"/>`);

  // Grid and pane edges: price steps across the price pane, time steps down the panes that share the time axis.
  const priceStep = niceStep(price.max - price.min, Math.max(4, Math.floor(price.h / 40)));
  const timeEvery = timeStep(TIMEFRAME_SECONDS[r.timeframe] * per, slot, 96);
  const timeTicks: number[] = [];
  for (let k = 1; k < n; k++) if (Math.floor(cols.t[k]! / timeEvery) !== Math.floor(cols.t[k - 1]! / timeEvery)) timeTicks.push(k);
  let grid = '';
  for (const p of ticksOf(price.min, price.max, priceStep)) grid += `M${x} ${Math.round(yOf(price, p)) + 0.5}h${w}`;
  for (const k of timeTicks) for (const p of timePanes) grid += `M${centre(k) + 0.5} ${p.y}V${p.y + p.h}`;
  out.push(`<path d="${grid}" stroke="${THEME.grid}" stroke-width="1" fill="none"/>`);
  const edges = [...timePanes, nullPane].map((p) => `M${x} ${p.y + p.h + 0.5}h${w}M${x + w + 0.5} ${p.y}V${p.y + p.h}`).join('');
  out.push(`<path d="${edges}" stroke="${THEME.separator}" stroke-width="1" fill="none"/>`);

  // Candles, one per column.
  out.push(candles(cols, price, centre, bodyWidth(slot)));

  // The rule's lines: over the price, and in their own panes with the constants the rule compares them with.
  const lineSvg = (line: RuleLine, pane: Pane): string =>
    line.ids
      .map((id) => {
        // A band's middle is dashed so its edges read as the band.
        const dash = id.endsWith('_middle') ? ' stroke-dasharray="5 4"' : '';
        return `<path d="${polyline(drawnValues.get(id)!, centre, pane)}" stroke="${colour.get(line)}" stroke-width="1.4" fill="none" stroke-linejoin="round"${dash}/>`;
      })
      .join('');
  for (const line of lines) if (line.pane === 'price') out.push(lineSvg(line, price));
  const thresholdSvg = (t: Threshold, pane: Pane): string => {
    const y = Math.round(yOf(pane, t.value)) + 0.5;
    // Beyond the pane's range: named at its edge, so a threshold the values never came near still shows.
    if (y < pane.y || y > pane.y + pane.h) {
      const said = `${t.value} ${y < pane.y ? 'above' : 'below'}`;
      return note(x + w - 6 - textWidth(said, 11), y < pane.y ? pane.y + 14 : pane.y + pane.h - 4, said, C.threshold);
    }
    return `<path d="M${x} ${y}h${w}" stroke="${C.threshold}" stroke-width="1" stroke-dasharray="2 3" fill="none"/>${note(x + w - 6 - textWidth(String(t.value), 11), y - 3, String(t.value), C.threshold)}`;
  };
  for (const t of thresholds) if (t.pane === 'price') out.push(thresholdSvg(t, price));
  for (const lower of lowers) {
    const { pane } = lower;
    for (const t of thresholds) if (t.pane === lower.kind) out.push(thresholdSvg(t, pane));
    for (const line of lower.lines) out.push(lineSvg(line, pane));
    out.push(...axisTicks(pane, axisX, 3));
    // Its name and what it ranged over on the bars the rule could decide on: a threshold outside that was never reached.
    const said = lower.lines
      .map((line) => {
        const range = rangeOf(read.series[line.ids[0]!] as Float64Array, decided);
        return range ? `${line.label} ${formatNumber(range.low, 1)} to ${formatNumber(range.high, 1)} where the rule could decide` : `${line.label} no value where the rule could decide`;
      })
      .join('  ·  ');
    out.push(note(x + 6, pane.y + 14, said, colour.get(lower.lines[0]!)!));
  }

  // Trades: the stop and the target from entry to exit, a segment from entry to exit coloured by outcome, the entry a
  // triangle pointing the way of the side, the exit a ring.
  const levels = { stop: '', target: '' };
  const counts = { stops: 0, targets: 0 };
  const segments = { win: '', loss: '' };
  const entries = { long: '', short: '' };
  const exitRings = { win: '', loss: '' };
  for (const t of r.trades) {
    const ex = centre(columnAt(t.entry_t)) + 0.5;
    const ey = yOf(price, t.entry);
    const xx = centre(columnAt(t.exit_t)) + 0.5;
    const xy = yOf(price, t.exit);
    // A trade inside one column still shows its levels: at least a few pixels either side of its entry.
    const [l0, l1] = [Math.min(ex, xx - 3) - 3, Math.max(xx, ex + 3) + 3];
    // On whole pixels, two high, so a level's colour is exact on its rows.
    levels.stop += `M${px(l0)} ${Math.round(yOf(price, t.stop))}H${px(l1)}`;
    counts.stops++;
    if (t.target !== null) {
      levels.target += `M${px(l0)} ${Math.round(yOf(price, t.target))}H${px(l1)}`;
      counts.targets++;
    }
    const outcome = t.r > 0 ? 'win' : 'loss';
    segments[outcome] += `M${px(ex)} ${px(ey)}L${px(xx)} ${px(xy)}`;
    entries[t.side] += t.side === 'long' ? tipUp(ex, ey) : tipDown(ex, ey);
    exitRings[outcome] += ring(xx, xy);
  }
  out.push(
    `<path d="${levels.stop}" stroke="${C.stop}" stroke-width="2" fill="none" shape-rendering="crispEdges"/>`,
    `<path d="${levels.target}" stroke="${C.target}" stroke-width="2" fill="none" shape-rendering="crispEdges"/>`,
    `<path d="${segments.win}" stroke="${C.win}" stroke-width="1.3" stroke-opacity="0.85" fill="none"/>`,
    `<path d="${segments.loss}" stroke="${C.loss}" stroke-width="1.3" stroke-opacity="0.85" fill="none"/>`,
    `<path d="${entries.long}" fill="${C.long}"/>`,
    `<path d="${entries.short}" fill="${C.short}"/>`,
    `<path d="${exitRings.win}" stroke="${C.win}" ${ringStyle}/>`,
    `<path d="${exitRings.loss}" stroke="${C.loss}" ${ringStyle}/>`,
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
    // No trades: the pane says why, in the rehearsal's own counts, under the verdict's line.
    out.push(text(x + 6, nullPane.y + 14, 'RANDOM NULL  no trades, so no random entries to weigh them against', { fill: THEME.muted }));
    // And, for each oscillator the rule compares with a constant, where it stayed on the bars the rule could decide on.
    const stayed = lowers.flatMap(({ kind, lines: own }) => {
      const compared = thresholds.filter((t) => t.pane === kind).map((t) => formatNumber(t.value, decimalsOf(t.value % 1 === 0 ? 1 : 0.01)));
      if (compared.length === 0) return [];
      return own.map((l) => {
        const range = rangeOf(read.series[l.ids[0]!] as Float64Array, decided);
        const where = range ? `stayed between ${formatNumber(range.low, 1)} and ${formatNumber(range.high, 1)}` : 'had no value';
        return ` ${l.label} ${where} on the bars the rule could decide on; the rule compares it with ${compared.join(' and ')}.`;
      });
    });
    const why = wrapped(`WHY NO TRADE  ${readinessWords(ir, r.window)}${stayed.join('')}`, Math.floor((w - 12) / (THEME.advance * 11)));
    const top = nullPane.y + (verdictSaid ? 50 : 34);
    why.slice(0, Math.floor((nullPane.y + nullPane.h - top) / 15) + 1).forEach((said, k) => out.push(text(x + 6, top + 15 * k, said, { fill: THEME.text })));
  }

  // Title: market, timeframe, window; the rule's trades in a line; where it could first decide; the legends.
  const title = `${r.market} · ${r.timeframe} · rehearsal`;
  out.push(text(x + 2, 22, title, { size: 16, fill: THEME.text, weight: 'bold' }));
  const span = `${utcMinute(r.window.from)} → ${utcMinute(r.window.to)} UTC · ${counted(drawn.length, 'bar')}${per > 1 ? `, each candle ${per} bars` : ''}`;
  out.push(text(x + 2 + textWidth(title, 16) + 14, 22, span, { size: 12 }));
  const s = r.stats;
  out.push(text(W - 10, 22, `${counted(s.n, 'trade')} · ${s.wins} won · ${s.losses} lost · total ${inR(s.total_r)}`, { size: 12, fill: C.equity, anchor: 'end' }));
  const { warm_up, session, gaps } = r.window.idle;
  const readiness = [
    r.window.ready_at === null ? 'the rule could decide on no bar' : `first decision at ${utcMinute(r.window.ready_at + ir.tf_seconds)} UTC`,
    ...(warm_up + session > 0
      ? [`bars that could not trade: ${[...(warm_up > 0 ? [`${formatNumber(warm_up, 0)} warm-up`] : []), ...(session > 0 ? [`${formatNumber(session, 0)} outside session`] : [])].join(', ')}`]
      : ['every bar could trade']),
    ...(gaps > 0 ? [`${counted(gaps, 'empty slot')} in the tape`] : []),
  ].join('  ·  ');

  for (const { at, ly, item } of placed) {
    out.push(`<g transform="translate(${px(at)} 0)">${item.mark ? item.mark(ly) : ''}${text(x + (item.mark ? 20 : 2), ly, item.words, { fill: item.fill })}</g>`);
  }
  // Under the legend: where the rule could first decide and why bars could not trade.
  out.push(text(x + 2, ly + 18, readiness, { fill: THEME.text }));

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
    rule: { lines, thresholds, stop: exits.stop, target: exits.target, exits: exits.others, session: sessionSaid },
    readiness: { ready_at: r.window.ready_at === null ? null : iso(r.window.ready_at), idle: r.window.idle, shaded },
    levels: counts,
    equity: { final_r: s.total_r, max_drawdown_r: s.max_drawdown_r, low_r: round4(equityLow), high_r: round4(equityHigh) },
    null: nullState,
    verdict: r.verdict && verdictSaid ? { label: r.verdict.label, line: verdictSaid, neighbours } : null,
  };
  return { svg: out.join('\n'), state };
}
