import { closedEnd, closedSpans, expectedBars, type ClosedSpan, type Span } from './calendar.js';
import { TIMEFRAME_SECONDS, type Market, type Timeframe } from './markets.js';

/**
 * What a candle answer actually measured, as it is served (JSON-ready):
 *   from, to      the window asked, [from, to) in unix seconds; market and tf as asked
 *   measured      false when the source held no history anywhere in the window: then nothing below is a zero
 *                 count of anything, it is unknown
 *   bars          bars served
 *   expected      bars the calendar expects: opening at or after from and closed by to (a to inside a bar
 *                 stops at its open: see closedEnd), the whole bar in open-market time
 *   closed        the market's halts in the window (weekend, daily break) and their total seconds; closed time
 *                 is never missing
 *   missing       expected bars absent where the source held history for the whole bar, as runs
 *                 [first open, last open + tf)
 *   unmeasured    expected bars where the source held no history, or not for the whole bar (a venue that keeps a
 *                 week cannot say what happened before it; an archive that ends inside a bar cannot say how it
 *                 closed), as runs like missing
 *   unexpected    bars served that the calendar does not expect (inside a halt, off the bar grid or outside
 *                 the window), e.g. an older exchange schedule's extra minutes
 *   built_from    when the bars were built from finer ones: that timeframe, and how many served bars were built
 *                 from fewer finer bars than a whole bar spans (partial bars); otherwise null
 *   complete      measured, and every expected bar was served
 */
export interface Coverage {
  market: Market;
  tf: Timeframe;
  from: number;
  to: number;
  measured: boolean;
  bars: number;
  expected: number;
  closed: { spans: ClosedSpan[]; seconds: number };
  missing: { spans: Span[]; bars: number };
  unmeasured: { spans: Span[]; bars: number };
  unexpected: number;
  built_from: { tf: Timeframe; partial: number } | null;
  complete: boolean;
}

export interface CoverageInput {
  market: Market;
  tf: Timeframe;
  from: number;
  to: number;
  /** Open times of the bars served, ascending (a Bars' t). */
  times: ArrayLike<number>;
  /** The stretches of time the source holds history for, in time order; [] when it holds none for the window. */
  held: readonly Span[];
  /** Set when the bars were built from finer ones (engine/resample.ts's answer and the finer timeframe). */
  built?: { tf: Timeframe; sources: Int32Array; perBar: number };
}

/** Runs of bar open times, one bar length each, merged while they follow one another without a gap. */
class Runs {
  readonly spans: Span[] = [];
  bars = 0;
  constructor(private readonly len: number) {}
  add(t: number): void {
    this.bars++;
    const last = this.spans.at(-1);
    if (last && last.to === t) last.to = t + this.len;
    else this.spans.push({ from: t, to: t + this.len });
  }
}

export function coverage(input: CoverageInput): Coverage {
  const { market, tf, from, to, times, held } = input;
  const len = TIMEFRAME_SECONDS[tf];
  const expected = expectedBars(market, len, from, closedEnd(to, len));
  const closed = closedSpans(market, from, to);
  const missing = new Runs(len);
  const unmeasured = new Runs(len);

  let served = 0;
  let matched = 0;
  let h = 0;
  for (const t of expected) {
    while (served < times.length && times[served]! < t) served++;
    if (served < times.length && times[served] === t) {
      matched++;
      served++;
      continue;
    }
    while (h < held.length && held[h]!.to <= t) h++;
    // Measured only where the source holds history for the whole bar: a stretch ending inside it says nothing of its close.
    const isHeld = h < held.length && held[h]!.from <= t && t + len <= held[h]!.to;
    (isHeld ? missing : unmeasured).add(t);
  }

  const measured = held.some((s) => s.to > from && s.from < to);
  let partial = 0;
  if (input.built) for (const n of input.built.sources) if (n < input.built.perBar) partial++;

  return {
    market,
    tf,
    from,
    to,
    measured,
    bars: times.length,
    expected: expected.length,
    closed: { spans: closed, seconds: closed.reduce((s, c) => s + c.to - c.from, 0) },
    missing: { spans: missing.spans, bars: missing.bars },
    unmeasured: { spans: unmeasured.spans, bars: unmeasured.bars },
    unexpected: times.length - matched,
    built_from: input.built ? { tf: input.built.tf, partial } : null,
    complete: measured && missing.bars === 0 && unmeasured.bars === 0,
  };
}

/**
 * Whether an answer can never change: the source held history for every expected bar of the window (each one is
 * served or known absent) and for some of it. Only such a past window is sealed; one with an unmeasured stretch
 * is answered afresh until its bars arrive.
 */
export const isFinal = (c: Pick<Coverage, 'measured' | 'unmeasured'>): boolean => c.measured && c.unmeasured.bars === 0;

/**
 * Whether a kept seal still answers its window: final, and counting the bars closed by `to` only. A seal of a `to`
 * inside a bar kept before that rule served the bar `to` falls in, whole, and counted it: it no longer holds.
 */
export function sealHolds(c: Coverage): boolean {
  const len = TIMEFRAME_SECONDS[c.tf];
  return isFinal(c) && (c.to % len === 0 || c.expected === expectedBars(c.market, len, c.from, closedEnd(c.to, len)).length);
}
