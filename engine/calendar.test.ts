import { describe, expect, it } from 'vitest';
import { skipBecause } from '../test/support/skip.js';
import { sampleFile } from '../test/support/tape-file.js';
import type { Bars } from './bars.js';
import { CHICAGO, NEW_YORK, closedSpans, expectedBars, inCashSession, isOpen, openSeconds, utcOffset, type UsZone } from './calendar.js';
import { MARKETS, MARKET_SPECS } from './markets.js';

const H = 3600;
/** Unix seconds of a UTC time written like 2024-03-10T08:00 (seconds optional). */
const utc = (s: string): number => Date.parse(`${s}Z`) / 1000;
const iso = (t: number): string => new Date(t * 1000).toISOString().slice(0, 16);

describe('daylight saving (US rule since 2007) without a time-zone library', () => {
  const oracle = (zone: string) => {
    const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    return (t: number): number => {
      const m = /GMT([+-])(\d\d):(\d\d)/.exec(f.formatToParts(t * 1000).find((p) => p.type === 'timeZoneName')!.value)!;
      return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * H + Number(m[3]) * 60);
    };
  };

  it.each<[string, UsZone]>([
    ['America/Chicago', CHICAGO],
    ['America/New_York', NEW_YORK],
  ])('agrees with the system time-zone database for %s at every hour 2007–2040', (name, zone) => {
    const want = oracle(name);
    const wrong: string[] = [];
    // Changes happen on the hour in UTC, so hourly samples land on every change instant and the hour before.
    for (let t = utc('2007-01-01T00:00'); t < utc('2041-01-01T00:00'); t += H) {
      if (utcOffset(zone, t) !== want(t)) wrong.push(iso(t));
    }
    expect(wrong).toEqual([]);
  });

  it('changes Chicago to CDT at 2024-03-10 08:00Z and back to CST at 2024-11-03 07:00Z, to the second', () => {
    expect(utcOffset(CHICAGO, utc('2024-03-10T07:59:59'))).toBe(-6 * H);
    expect(utcOffset(CHICAGO, utc('2024-03-10T08:00'))).toBe(-5 * H);
    expect(utcOffset(CHICAGO, utc('2024-11-03T06:59:59'))).toBe(-5 * H);
    expect(utcOffset(CHICAGO, utc('2024-11-03T07:00'))).toBe(-6 * H);
  });

  it('changes New York an hour earlier in UTC, at 02:00 local', () => {
    expect(utcOffset(NEW_YORK, utc('2024-03-10T06:59:59'))).toBe(-5 * H);
    expect(utcOffset(NEW_YORK, utc('2024-03-10T07:00'))).toBe(-4 * H);
    expect(utcOffset(NEW_YORK, utc('2024-11-03T05:59:59'))).toBe(-4 * H);
    expect(utcOffset(NEW_YORK, utc('2024-11-03T06:00'))).toBe(-5 * H);
  });
});

describe('the CME session for NQ, ES and YM', () => {
  const edge = (t: number) => [isOpen('ES', t - 1), isOpen('ES', t)];

  it('opens on Sunday at 17:00 Chicago: 23:00Z on CST, 22:00Z on CDT', () => {
    expect(edge(utc('2024-01-07T23:00'))).toEqual([false, true]);
    expect(edge(utc('2024-06-09T22:00'))).toEqual([false, true]);
  });

  it('closes on Friday at 16:00 Chicago: 22:00Z on CST, 21:00Z on CDT', () => {
    expect(edge(utc('2024-01-12T22:00'))).toEqual([true, false]);
    expect(edge(utc('2024-06-14T21:00'))).toEqual([true, false]);
  });

  it('breaks 16:00–17:00 Chicago, Monday to Thursday: 22:00–23:00Z on CST, 21:00–22:00Z on CDT', () => {
    for (const day of ['2024-01-08', '2024-01-09', '2024-01-10', '2024-01-11']) {
      expect(edge(utc(`${day}T22:00`))).toEqual([true, false]);
      expect(edge(utc(`${day}T23:00`))).toEqual([false, true]);
    }
    for (const day of ['2024-06-10', '2024-06-11', '2024-06-12', '2024-06-13']) {
      expect(edge(utc(`${day}T21:00`))).toEqual([true, false]);
      expect(edge(utc(`${day}T22:00`))).toEqual([false, true]);
    }
    expect(isOpen('NQ', utc('2024-06-11T22:30'))).toBe(true);
    expect(isOpen('YM', utc('2024-01-09T21:30'))).toBe(true);
  });

  it('is closed all Saturday and on Sunday before the open', () => {
    expect(isOpen('NQ', utc('2024-01-13T12:00'))).toBe(false);
    expect(isOpen('NQ', utc('2024-01-14T18:00'))).toBe(false);
  });

  it('lists a weekend and the daily breaks around it, cut to the window', () => {
    // Thursday noon to Tuesday noon, January (CST).
    expect(closedSpans('ES', utc('2024-01-11T12:00'), utc('2024-01-16T12:00'))).toEqual([
      { from: utc('2024-01-11T22:00'), to: utc('2024-01-11T23:00'), why: 'daily_break' },
      { from: utc('2024-01-12T22:00'), to: utc('2024-01-14T23:00'), why: 'weekend' },
      { from: utc('2024-01-15T22:00'), to: utc('2024-01-15T23:00'), why: 'daily_break' },
    ]);
    // A window that starts inside a weekend and ends inside a break.
    expect(closedSpans('YM', utc('2024-01-13T00:00'), utc('2024-01-15T22:30'))).toEqual([
      { from: utc('2024-01-13T00:00'), to: utc('2024-01-14T23:00'), why: 'weekend' },
      { from: utc('2024-01-15T22:00'), to: utc('2024-01-15T22:30'), why: 'daily_break' },
    ]);
    expect(closedSpans('ES', utc('2024-01-10T00:00'), utc('2024-01-10T00:00'))).toEqual([]);
  });

  it('moves the weekend with daylight saving: 48 hours in March, 50 in November', () => {
    const march = closedSpans('NQ', utc('2024-03-08T12:00'), utc('2024-03-11T23:30'));
    expect(march).toEqual([
      { from: utc('2024-03-08T22:00'), to: utc('2024-03-10T22:00'), why: 'weekend' },
      { from: utc('2024-03-11T21:00'), to: utc('2024-03-11T22:00'), why: 'daily_break' },
    ]);
    const november = closedSpans('NQ', utc('2024-10-31T12:00'), utc('2024-11-04T23:30'));
    expect(november).toEqual([
      { from: utc('2024-10-31T21:00'), to: utc('2024-10-31T22:00'), why: 'daily_break' },
      { from: utc('2024-11-01T21:00'), to: utc('2024-11-03T23:00'), why: 'weekend' },
      { from: utc('2024-11-04T22:00'), to: utc('2024-11-04T23:00'), why: 'daily_break' },
    ]);
    expect(march[0]!.to - march[0]!.from).toBe(48 * H);
    expect(november[1]!.to - november[1]!.from).toBe(50 * H);
  });

  it('agrees with itself: isOpen is false exactly inside closedSpans, every 5 minutes of 2023–2025', () => {
    const from = utc('2023-01-01T00:00');
    const to = utc('2026-01-01T00:00');
    const spans = closedSpans('ES', from, to);
    let s = 0;
    const wrong: string[] = [];
    for (let t = from; t < to; t += 300) {
      while (spans[s] && spans[s]!.to <= t) s++;
      const inside = spans[s] !== undefined && spans[s]!.from <= t;
      if (isOpen('ES', t) === inside) wrong.push(iso(t));
    }
    expect(wrong).toEqual([]);
    expect(spans.filter((x) => x.why === 'weekend')).toHaveLength(157);
  });

  it('is open 115 hours of a week without a clock change (Sunday 17:00 to Friday 16:00 less four breaks)', () => {
    expect(openSeconds('ES', utc('2024-01-07T00:00'), utc('2024-01-14T00:00'))).toBe(115 * H);
    expect(openSeconds('ES', utc('2024-06-09T00:00'), utc('2024-06-16T00:00'))).toBe(115 * H);
    expect(openSeconds('ES', utc('2024-01-13T00:00'), utc('2024-01-14T00:00'))).toBe(0);
    expect(openSeconds('ES', utc('2024-01-10T00:00'), utc('2024-01-09T00:00'))).toBe(0);
  });
});

describe('expected bars', () => {
  it('leaves out the break: 23 hourly and 276 five-minute bars on a winter Tuesday', () => {
    const hours = expectedBars('NQ', 3600, utc('2024-01-09T00:00'), utc('2024-01-10T00:00'));
    expect(hours).toHaveLength(23);
    expect([...hours].map(iso)).not.toContain('2024-01-09T22:00');
    expect([...hours].map(iso)).toContain('2024-01-09T21:00');
    expect([...hours].map(iso)).toContain('2024-01-09T23:00');
    expect(expectedBars('NQ', 300, utc('2024-01-09T00:00'), utc('2024-01-10T00:00'))).toHaveLength(276);
    expect(expectedBars('NQ', 15, utc('2024-06-11T20:59'), utc('2024-06-11T22:01'))).toEqual(
      new Float64Array([utc('2024-06-11T20:59'), utc('2024-06-11T20:59:15'), utc('2024-06-11T20:59:30'), utc('2024-06-11T20:59:45'), utc('2024-06-11T22:00'), utc('2024-06-11T22:00:15'), utc('2024-06-11T22:00:30'), utc('2024-06-11T22:00:45')]),
    );
  });

  it('counts a bar only when all of it is open, aligned to multiples of its length', () => {
    // 90-minute bars open at multiples of 5400 s: 19:30, 21:00, 22:30 and 00:00Z; the 21:00 bar runs into the
    // 22:00–23:00Z break and the 22:30 bar starts inside it.
    expect([...expectedBars('ES', 5400, utc('2024-01-09T19:00'), utc('2024-01-10T01:00'))].map(iso)).toEqual(['2024-01-09T19:30', '2024-01-10T00:00']);
    // The window starts off the grid: the first bar is the next multiple.
    expect([...expectedBars('ES', 3600, utc('2024-01-09T10:30'), utc('2024-01-09T13:00'))].map(iso)).toEqual(['2024-01-09T11:00', '2024-01-09T12:00']);
    // The last bar opens before `to` and ends after it.
    expect([...expectedBars('ES', 3600, utc('2024-01-09T10:00'), utc('2024-01-09T10:01'))].map(iso)).toEqual(['2024-01-09T10:00']);
  });

  it('has none over a weekend, and picks up at the Sunday open', () => {
    expect(expectedBars('YM', 60, utc('2024-01-12T22:00'), utc('2024-01-14T23:00'))).toHaveLength(0);
    expect([...expectedBars('YM', 3600, utc('2024-01-12T20:00'), utc('2024-01-15T01:00'))].map(iso)).toEqual([
      '2024-01-12T20:00',
      '2024-01-12T21:00',
      '2024-01-14T23:00',
      '2024-01-15T00:00',
    ]);
  });

  it('refuses a bar length that is not a positive whole number of seconds', () => {
    expect(() => expectedBars('ES', 0, 0, 100)).toThrow(RangeError);
    expect(() => expectedBars('ES', 1.5, 0, 100)).toThrow(RangeError);
  });
});

describe('crypto markets trade 24/7', () => {
  const crypto = MARKETS.filter((m) => MARKET_SPECS[m].kind === 'crypto');

  it.each(crypto)('%s is always open, with no halts, and every aligned bar expected', (m) => {
    const from = utc('2024-01-12T12:00');
    const to = utc('2024-01-15T12:00');
    expect(closedSpans(m, from, to)).toEqual([]);
    expect(openSeconds(m, from, to)).toBe(to - from);
    expect(isOpen(m, utc('2024-01-13T12:00'))).toBe(true);
    expect(inCashSession(m, utc('2024-01-13T03:00'))).toBe(true);
    expect(expectedBars(m, 3600, from, to)).toHaveLength(72);
    expect(expectedBars(m, 15, from, to)).toHaveLength(72 * 240);
  });
});

describe('the cash session, 09:30–16:00 New York, Monday to Friday', () => {
  const at = (s: string) => inCashSession('ES', utc(s));

  it('is 14:30–21:00Z on EST and 13:30–20:00Z on EDT', () => {
    expect([at('2024-01-09T14:29:59'), at('2024-01-09T14:30'), at('2024-01-09T20:59:59'), at('2024-01-09T21:00')]).toEqual([false, true, true, false]);
    expect([at('2024-06-11T13:29:59'), at('2024-06-11T13:30'), at('2024-06-11T19:59:59'), at('2024-06-11T20:00')]).toEqual([false, true, true, false]);
  });

  it('follows the clock change across a March weekend', () => {
    expect([at('2024-03-08T13:30'), at('2024-03-08T14:30')]).toEqual([false, true]);
    expect([at('2024-03-11T13:30'), at('2024-03-11T14:30')]).toEqual([true, true]);
    expect(at('2024-03-11T13:29')).toBe(false);
  });

  it('is closed at the weekend', () => {
    expect(at('2024-01-13T15:00')).toBe(false);
    expect(at('2024-01-14T15:00')).toBe(false);
  });
});

describe('the calendar against real CME bars', () => {
  /** Indexes of the bars whose open time falls inside one of the spans. */
  const barsInside = (bars: Bars, spans: readonly { from: number; to: number }[]): number[] => {
    const inside: number[] = [];
    let s = 0;
    for (let i = 0; i < bars.length; i++) {
      const t = bars.t[i]!;
      while (spans[s] && spans[s]!.to <= t) s++;
      if (spans[s] && spans[s]!.from <= t) inside.push(t);
    }
    return inside;
  };
  const has = (bars: Bars, t: number) => bars.t.includes(t);

  it('on CST (November to March): no bar falls in a halt, and every halt is bordered by bars on both sides', (ctx) => {
    // The rule for winter is held to the time-zone database above; held to real bars, it needs a winter week.
    skipBecause(ctx, 'needs CME 1m bars of a week on CST (November to March); the shipped sample holds ES of October 2013, on CDT');
  });

  it('ES, Oct 2013 (CDT): the only bars inside a halt are the 16:00–16:14 Chicago minutes that the 2013 schedule still traded', () => {
    const es = sampleFile('ES-1m');
    const spans = closedSpans('ES', es.t[0]!, es.t[es.length - 1]! + 60);
    // Mon–Thu daily breaks plus the Friday close, all at 21:00Z: Chicago was on CDT.
    expect(spans.map((s) => iso(s.from))).toEqual(['2013-10-07T21:00', '2013-10-08T21:00', '2013-10-09T21:00', '2013-10-10T21:00', '2013-10-11T21:00']);
    const inside = barsInside(es, spans);
    const quarterHours = ['07', '08', '09', '10', '11'].flatMap((d) =>
      Array.from({ length: 15 }, (_, m) => utc(`2013-10-${d}T21:${String(m).padStart(2, '0')}`)),
    );
    expect(inside).toEqual(quarterHours);
    // Every halt is bordered by bars: the minute before it and the reopening (the Friday close reopens past the file).
    for (const span of spans) {
      expect(has(es, span.from - 60), `a bar before the halt at ${iso(span.from)}`).toBe(true);
      if (span.to <= es.t[es.length - 1]!) expect(has(es, span.to), `a bar at the reopening ${iso(span.to)}`).toBe(true);
    }
    // The first bar is the Sunday 17:00 CDT open.
    expect(isOpen('ES', es.t[0]!)).toBe(true);
    expect(isOpen('ES', es.t[0]! - 1)).toBe(false);
  });
});
