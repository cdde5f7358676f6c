import { describe, expect, it } from 'vitest';
import { sampleFile } from '../test/support/tape-file.js';
import type { Bars } from './bars.js';
import { coverage, isFinal, sealHolds } from './coverage.js';
import { resample } from './resample.js';

const utc = (s: string): number => Date.parse(`${s}Z`) / 1000;
/** Every multiple of step in [from, to). */
const grid = (from: number, to: number, step: number): number[] => Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);

describe('coverage by hand', () => {
  it('calls a crypto window with every bar served complete', () => {
    const from = utc('2025-03-01T00:00');
    const to = utc('2025-03-01T06:00');
    expect(coverage({ market: 'BTC', tf: '1h', from, to, times: grid(from, to, 3600), held: [{ from, to }] })).toEqual({
      market: 'BTC',
      tf: '1h',
      from,
      to,
      measured: true,
      bars: 6,
      expected: 6,
      closed: { spans: [], seconds: 0 },
      missing: { spans: [], bars: 0 },
      unmeasured: { spans: [], bars: 0 },
      unexpected: 0,
      built_from: null,
      complete: true,
    });
  });

  it('says not measured, never zero, when the source held no history for the window', () => {
    const from = utc('2025-03-01T00:00');
    const to = utc('2025-03-01T06:00');
    const c = coverage({ market: 'ETH', tf: '1h', from, to, times: [], held: [] });
    expect(c.measured).toBe(false);
    expect(c.complete).toBe(false);
    expect(c.missing).toEqual({ spans: [], bars: 0 });
    expect(c.unmeasured).toEqual({ spans: [{ from, to }], bars: 6 });
  });

  it('splits a window at the edge of the source history: unmeasured before it, missing after it', () => {
    const from = utc('2025-03-01T00:00');
    const heldFrom = utc('2025-03-01T03:00');
    const to = utc('2025-03-01T08:00');
    // Served: 03:00, 04:00, 06:00. Absent: 00–02 (before the source's history) and 05, 07 (within it).
    const times = [utc('2025-03-01T03:00'), utc('2025-03-01T04:00'), utc('2025-03-01T06:00')];
    const c = coverage({ market: 'SOL', tf: '1h', from, to, times, held: [{ from: heldFrom, to }] });
    expect(c.measured).toBe(true);
    expect(c.unmeasured).toEqual({ spans: [{ from, to: heldFrom }], bars: 3 });
    expect(c.missing).toEqual({
      spans: [
        { from: utc('2025-03-01T05:00'), to: utc('2025-03-01T06:00') },
        { from: utc('2025-03-01T07:00'), to: utc('2025-03-01T08:00') },
      ],
      bars: 2,
    });
    expect(c.complete).toBe(false);
  });

  it('never counts the daily break as missing, and splits a missing run at it', () => {
    // Winter ES: the break is 22:00–23:00Z. Nothing served around it, though the source held the window.
    const from = utc('2024-01-09T21:55');
    const to = utc('2024-01-09T23:05');
    const c = coverage({ market: 'ES', tf: '1m', from, to, times: [], held: [{ from, to }] });
    expect(c.expected).toBe(10);
    expect(c.closed).toEqual({ spans: [{ from: utc('2024-01-09T22:00'), to: utc('2024-01-09T23:00'), why: 'daily_break' }], seconds: 3600 });
    expect(c.missing).toEqual({
      spans: [
        { from, to: utc('2024-01-09T22:00') },
        { from: utc('2024-01-09T23:00'), to },
      ],
      bars: 10,
    });
  });

  it('calls a weekend window with no bars complete when the source held it, and unknown when it did not', () => {
    const from = utc('2024-01-13T00:00');
    const to = utc('2024-01-14T00:00');
    const held = coverage({ market: 'NQ', tf: '5m', from, to, times: [], held: [{ from, to }] });
    expect(held).toMatchObject({ expected: 0, measured: true, complete: true, closed: { seconds: 86_400 } });
    expect(held.closed.spans).toEqual([{ from, to, why: 'weekend' }]);
    expect(coverage({ market: 'NQ', tf: '5m', from, to, times: [], held: [] })).toMatchObject({ measured: false, complete: false });
  });

  it('counts bars served inside a halt as unexpected, not as coverage', () => {
    const from = utc('2024-06-11T20:58');
    const to = utc('2024-06-11T22:02');
    // CDT: the break is 21:00–22:00Z; a bar at 21:05Z should not exist.
    const times = [utc('2024-06-11T20:58'), utc('2024-06-11T20:59'), utc('2024-06-11T21:05'), utc('2024-06-11T22:00'), utc('2024-06-11T22:01')];
    const c = coverage({ market: 'NQ', tf: '1m', from, to, times, held: [{ from, to }] });
    expect(c).toMatchObject({ bars: 5, expected: 4, unexpected: 1, complete: true });
  });

  it('says the bars were built from finer ones and how many are partial', () => {
    const from = utc('2025-03-01T03:00');
    const to = utc('2025-03-01T03:15');
    const oneMinute: Bars = {
      length: 3,
      t: new Float64Array([from, from + 60, from + 600]),
      o: new Float64Array([1, 2, 3]),
      h: new Float64Array([1, 2, 3]),
      l: new Float64Array([1, 2, 3]),
      c: new Float64Array([1, 2, 3]),
      v: new Float64Array([1, 1, 1]),
    };
    const built = resample(oneMinute, 60, 300);
    const c = coverage({ market: 'BTC', tf: '5m', from, to, times: built.bars.t, held: [{ from, to }], built: { tf: '1m', ...built } });
    expect(c.built_from).toEqual({ tf: '1m', partial: 2 });
    expect(c.missing).toEqual({ spans: [{ from: from + 300, to: from + 600 }], bars: 1 });
  });
});

describe('what a source that ends inside a bar measured', () => {
  const from = utc('2025-03-20T12:00');
  const to = utc('2025-03-20T12:35');
  /** The 5m bars 12:00 to 12:25 served; the source (1m bars) ends at 12:32, two minutes into the 12:30 bar. */
  const times = grid(from, from + 1800, 300);
  const c = coverage({ market: 'BTC', tf: '5m', from, to, times, held: [{ from, to: utc('2025-03-20T12:32') }] });

  it('reads the bar it ends inside as unmeasured, not missing: nobody knows how it closed', () => {
    expect(c.unmeasured).toEqual({ spans: [{ from: utc('2025-03-20T12:30'), to }], bars: 1 });
    expect(c.missing.bars).toBe(0);
    expect(c).toMatchObject({ measured: true, complete: false });
  });

  it('calls final only a window whose every expected bar was measured', () => {
    expect(isFinal(c)).toBe(false);
    const whole = coverage({ market: 'BTC', tf: '5m', from, to, times: grid(from, to, 300), held: [{ from, to }] });
    expect(isFinal(whole)).toBe(true);
    // A bar known absent (the source held that stretch) is measured: final, though not complete.
    const hole = coverage({ market: 'BTC', tf: '5m', from, to, times: times.filter((t) => t !== from + 600), held: [{ from, to }] });
    expect(hole).toMatchObject({ complete: false, missing: { bars: 2 } });
    expect(isFinal(hole)).toBe(true);
    // Nothing held at all: nothing is final, not even a weekend.
    const weekend = coverage({ market: 'NQ', tf: '1h', from: utc('2024-01-13T00:00'), to: utc('2024-01-14T00:00'), times: [], held: [] });
    expect(isFinal(weekend)).toBe(false);
  });
});

describe('a window whose to falls inside a bar', () => {
  const from = utc('2025-03-20T12:00');
  const to = utc('2025-03-20T14:30');
  const held = [{ from, to: utc('2025-03-20T16:00') }];

  it('expects only the bars closed by to: the 14:00 hour is not in it', () => {
    const c = coverage({ market: 'BTC', tf: '1h', from, to, times: grid(from, utc('2025-03-20T14:00'), 3600), held });
    expect(c).toMatchObject({ from, to, bars: 2, expected: 2, complete: true, unexpected: 0 });
    expect(sealHolds(c)).toBe(true);
  });

  it('holds a seal to it: one that counted the bar to falls in, as the older rule did, no longer holds', () => {
    const older = { ...coverage({ market: 'BTC', tf: '1h', from, to: utc('2025-03-20T15:00'), times: grid(from, utc('2025-03-20T15:00'), 3600), held }), to };
    expect(older).toMatchObject({ expected: 3, complete: true });
    expect(isFinal(older)).toBe(true);
    expect(sealHolds(older)).toBe(false);
  });
});

describe('coverage of the real CME tape', () => {
  it('ES, Oct 2013, with a holiday made of it: an early close reads as missing, the halts as closed', () => {
    // The shipped week with Wednesday cut at 12:00 Chicago (17:00Z), as a holiday's early close leaves it: the
    // calendar does not model holidays, so the hours until the daily break are missing, never closed.
    const es = sampleFile('ES-1m');
    const from = es.t[0]!;
    const to = es.t[es.length - 1]! + 60;
    const cutFrom = utc('2013-10-09T17:00');
    const cutTo = utc('2013-10-09T21:00');
    const times = es.t.filter((t) => t < cutFrom || t >= cutTo);
    const c = coverage({ market: 'ES', tf: '1m', from, to, times, held: [{ from, to }] });
    const whole = coverage({ market: 'ES', tf: '1m', from, to, times: es.t, held: [{ from, to }] });
    expect(c.missing.spans).toContainEqual({ from: cutFrom, to: cutTo });
    // Four hours, less the quarter hour of 2013's 15:15 halt inside them, missing already.
    expect(c.missing.bars).toBe(whole.missing.bars + 240 - 15);
    // Four daily breaks of an hour, and the quarter hour from the Friday close to the file's end, are closed.
    expect(c.closed.seconds).toBe(4 * 3600 + 15 * 60);
    expect(c.closed.seconds).toBe(whole.closed.seconds);
    expect(c.expected).toBe(whole.expected);
    expect(c.complete).toBe(false);
  });

  it('ES, Oct 2013: the old 15:15–15:30 Chicago halt reads as missing, its 16:00–16:14 minutes as unexpected', () => {
    const es = sampleFile('ES-1m');
    const from = es.t[0]!;
    const to = es.t[es.length - 1]! + 60;
    const c = coverage({ market: 'ES', tf: '1m', from, to, times: es.t, held: [{ from, to }] });
    expect(c.unexpected).toBe(75);
    const oldHalts = ['07', '08', '09', '10', '11'].map((d) => ({ from: utc(`2013-10-${d}T20:15`), to: utc(`2013-10-${d}T20:30`) }));
    for (const halt of oldHalts) expect(c.missing.spans).toContainEqual(halt);
    // The rest of the missing minutes are the 65 short overnight runs with no trades (74 minutes in all).
    expect(c.missing.bars).toBe(75 + 74);
    expect(c.missing.spans).toHaveLength(5 + 65);
    expect(c.expected).toBe(c.bars - c.unexpected + c.missing.bars);
  });
});
