/**
 * The engine's one bar shape: struct-of-arrays, one Float64Array per field, sorted by open time.
 * Why: the stepper, indicators and renderer sweep one field at a time over thousands of bars; contiguous typed
 * arrays keep those sweeps allocation-free and cache-friendly, a window is a zero-copy subarray, and a
 * Float64Array holds unix seconds and prices exactly as the JSON numbers they came from.
 */
export interface Bars {
  readonly length: number;
  /** Bar open time, unix seconds (UTC). */
  readonly t: Float64Array;
  readonly o: Float64Array;
  readonly h: Float64Array;
  readonly l: Float64Array;
  readonly c: Float64Array;
  /** Volume in base units (contracts or coins). */
  readonly v: Float64Array;
}

/** One bar as a row: how bars arrive from a file or the wire and leave in a JSON answer. */
export interface BarRow {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** Bars [start, end) as zero-copy views: a window of the bars that cannot read past its end. */
export const windowOf = (b: Bars, start: number, end: number): Bars => ({
  length: end - start,
  t: b.t.subarray(start, end),
  o: b.o.subarray(start, end),
  h: b.h.subarray(start, end),
  l: b.l.subarray(start, end),
  c: b.c.subarray(start, end),
  v: b.v.subarray(start, end),
});

/**
 * Zeroed bars of `length`. `shared`: each column on a SharedArrayBuffer, so handing the bars to another thread (a
 * structured clone) shares them instead of copying them; only the thread that made them writes them.
 */
export function allocBars(length: number, shared = false): Bars {
  const f = () => (shared ? new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT)) : new Float64Array(length));
  return { length, t: f(), o: f(), h: f(), l: f(), c: f(), v: f() };
}

/** One bar as a tuple [t, o, h, l, c, v]: how the venue's wire and the archive's files carry it. */
export type BarTuple = [t: number, o: number, h: number, l: number, c: number, v: number];

/** Writes one bar into slot i. */
function put(b: Bars, i: number, t: number, o: number, h: number, l: number, c: number, v: number): void {
  b.t[i] = t;
  b.o[i] = o;
  b.h[i] = h;
  b.l[i] = l;
  b.c[i] = c;
  b.v[i] = v;
}

export function barsFromRows(rows: readonly BarRow[]): Bars {
  const b = allocBars(rows.length);
  rows.forEach((r, i) => put(b, i, r.t, r.o, r.h, r.l, r.c, r.v));
  return b;
}

export function barsToRows(b: Bars): BarRow[] {
  const rows: BarRow[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) rows[i] = { t: b.t[i]!, o: b.o[i]!, h: b.h[i]!, l: b.l[i]!, c: b.c[i]!, v: b.v[i]! };
  return rows;
}

export function barsFromTuples(rows: readonly BarTuple[]): Bars {
  const b = allocBars(rows.length);
  rows.forEach((r, i) => put(b, i, ...r));
  return b;
}

export function tuplesFromBars(b: Bars): BarTuple[] {
  const rows: BarTuple[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) rows[i] = [b.t[i]!, b.o[i]!, b.h[i]!, b.l[i]!, b.c[i]!, b.v[i]!];
  return rows;
}

/** A CSV row that was refused, by its 1-based line number in the file. */
export interface RowRefusal {
  line: number;
  reason: string;
}

export const BARS_CSV_HEADER = 't,o,h,l,c,v';

/**
 * Reads bars from CSV text with the header t,o,h,l,c,v (t = open time in unix seconds). Every row is checked:
 * six numbers, integer t strictly increasing (and a multiple of the bar length when one is given), prices above
 * zero, l <= min(o, c) <= max(o, c) <= h, volume not negative. Any refused row refuses the whole file, so the
 * answer is either all the bars or every refusal with its line number.
 */
export function readBarsCsv(
  text: string,
  tfSeconds?: number,
): { ok: true; bars: Bars } | { ok: false; refused: RowRefusal[] } {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines[0]?.trim() !== BARS_CSV_HEADER) return { ok: false, refused: [{ line: 1, reason: `the header must be ${BARS_CSV_HEADER}` }] };
  const bars = allocBars(lines.length - 1);
  const refused: RowRefusal[] = [];
  let prev = -Infinity;
  for (let i = 1; i < lines.length; i++) {
    const reason = rowProblem(lines[i]!, bars, i - 1, prev, tfSeconds);
    if (reason) refused.push({ line: i + 1, reason });
    else prev = bars.t[i - 1]!;
  }
  return refused.length ? { ok: false, refused } : { ok: true, bars };
}

/** Parses one row into slot i of bars; returns what is wrong with it, or undefined. */
function rowProblem(line: string, bars: Bars, i: number, prev: number, tfSeconds: number | undefined): string | undefined {
  const cells = line.split(',');
  if (cells.length !== 6) return `expected 6 fields, found ${cells.length}`;
  const [t, o, h, l, c, v] = cells.map((s) => (s.trim() === '' ? NaN : Number(s))) as [number, number, number, number, number, number];
  if (![t, o, h, l, c, v].every(Number.isFinite)) return 'every field must be a number';
  if (!Number.isInteger(t)) return 't must be whole unix seconds';
  if (t <= prev) return `t must increase (${t} follows ${prev})`;
  if (tfSeconds && t % tfSeconds !== 0) return `t must be a multiple of ${tfSeconds}`;
  if (!(o > 0 && h > 0 && l > 0 && c > 0)) return 'prices must be above zero';
  if (!(l <= Math.min(o, c) && Math.max(o, c) <= h)) return 'needs l <= min(o, c) <= max(o, c) <= h';
  if (v < 0) return 'volume must not be negative';
  put(bars, i, t, o, h, l, c, v);
  return undefined;
}

/** The first index whose open time is at or after `at` (bars.t is sorted): length when there is none. */
export function firstAtOrAfter(t: Float64Array, at: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the bar opening exactly at `at`, or -1. */
export function barAt(t: Float64Array, at: number): number {
  const i = firstAtOrAfter(t, at);
  return i < t.length && t[i] === at ? i : -1;
}

/** Bars of consecutive windows as one, each column copied once into its place (on shared memory when `shared`). */
export function concatBars(parts: readonly Bars[], shared = false): Bars {
  const b = allocBars(parts.reduce((n, p) => n + p.length, 0), shared);
  let at = 0;
  for (const p of parts) {
    for (const k of ['t', 'o', 'h', 'l', 'c', 'v'] as const) b[k].set(p[k], at);
    at += p.length;
  }
  return b;
}

/** The bars whose open time passes `keep`, as new columns (all of them, copied, when every one passes). */
export function barsWhere(b: Bars, keep: (t: number) => boolean): Bars {
  const at: number[] = [];
  for (let i = 0; i < b.length; i++) if (keep(b.t[i]!)) at.push(i);
  const out = allocBars(at.length);
  for (const k of ['t', 'o', 'h', 'l', 'c', 'v'] as const) {
    const from = b[k];
    const to = out[k];
    for (let j = 0; j < at.length; j++) to[j] = from[at[j]!]!;
  }
  return out;
}
