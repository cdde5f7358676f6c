import { MARKET_SPECS, type Market } from './markets.js';

/**
 * When each market trades. All times are unix seconds (UTC); every window is half-open [from, to).
 *
 * NQ, ES and YM keep the current CME Globex schedule for equity-index futures, in Chicago wall-clock time:
 *   open Sunday 17:00 to Friday 16:00 America/Chicago, with a daily break 16:00–17:00 Monday to Thursday.
 * Chicago keeps US daylight saving, so in UTC the break is 21:00–22:00 while Chicago is on CDT (UTC-5, from the
 * second Sunday of March to the first Sunday of November) and 22:00–23:00 on CST (UTC-6); the weekend runs from
 * Friday 21:00 (CDT) or 22:00 (CST) to Sunday 22:00 (CDT) or 23:00 (CST).
 * Their cash session is 09:30–16:00 America/New_York, Monday to Friday: 13:30–20:00 UTC on EDT, 14:30–21:00 on EST.
 * BTC, ETH and SOL trade 24/7: always open, always in session.
 *
 * Not modelled: exchange holidays and their early closes (a holiday's hole in real bars reads as missing, which
 * is what it is as far as the deck knows), and older schedules (in 2013, for one, the equity futures closed at
 * 16:15 Chicago time and also halted 15:15–15:30, as the 2013 ES test bars show).
 * Daylight saving follows the US rule in force since 2007; times before 2007 get that rule too.
 */

const HOUR = 3600;
const DAY = 86_400;

/** A stretch of time, [from, to) in unix seconds. */
export interface Span {
  from: number;
  to: number;
}

/** A time the market is closed: the weekend halt or the daily break (CME markets only). */
export interface ClosedSpan extends Span {
  why: 'weekend' | 'daily_break';
}

/** A US time zone, by its standard offset from UTC in seconds. */
export interface UsZone {
  std: number;
}
export const CHICAGO: UsZone = { std: -6 * HOUR };
export const NEW_YORK: UsZone = { std: -5 * HOUR };

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil), month 1–12. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function yearOfDay(days: number): number {
  let y = Math.floor(days / 365.2425) + 1970;
  while (daysFromCivil(y, 1, 1) > days) y--;
  while (daysFromCivil(y + 1, 1, 1) <= days) y++;
  return y;
}

/** Day of the week of a day number: 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
const weekday = (days: number): number => (((days + 4) % 7) + 7) % 7;

/** The day number of the n-th Sunday of a month. */
function nthSunday(year: number, month: number, n: number): number {
  const first = daysFromCivil(year, month, 1);
  return first + ((7 - weekday(first)) % 7) + 7 * (n - 1);
}

/**
 * Daylight saving, in local wall-clock seconds since the epoch: from the second Sunday of March 02:00
 * (standard time) to the first Sunday of November 02:00 (daylight time).
 */
const dstStartWall = (year: number): number => nthSunday(year, 3, 2) * DAY + 2 * HOUR;
const dstEndWall = (year: number): number => nthSunday(year, 11, 1) * DAY + 2 * HOUR;

/** The zone's offset from UTC at instant t (seconds; negative west of Greenwich). */
export function utcOffset(zone: UsZone, t: number): number {
  const year = yearOfDay(Math.floor((t + zone.std) / DAY));
  const start = dstStartWall(year) - zone.std;
  const end = dstEndWall(year) - zone.std - HOUR;
  return t >= start && t < end ? zone.std + HOUR : zone.std;
}

/**
 * The instant a local wall-clock time happens. Only for times that exist once: every time this file asks for
 * (09:30, 16:00, 17:00) is far from the 02:00 change, where an hour is skipped in March and repeated in November.
 */
function wallToUtc(zone: UsZone, wall: number): number {
  const year = yearOfDay(Math.floor(wall / DAY));
  const dst = wall >= dstStartWall(year) && wall < dstEndWall(year);
  return wall - (dst ? zone.std + HOUR : zone.std);
}

/** The local wall clock at instant t: its day number, weekday and seconds since local midnight. */
function wallClock(zone: UsZone, t: number): { weekday: number; second: number } {
  const wall = t + utcOffset(zone, t);
  const days = Math.floor(wall / DAY);
  return { weekday: weekday(days), second: wall - days * DAY };
}

const BREAK_FROM = 16 * HOUR;
const BREAK_TO = 17 * HOUR;

export function isOpen(market: Market, t: number): boolean {
  if (MARKET_SPECS[market].kind === 'crypto') return true;
  const { weekday: d, second: s } = wallClock(CHICAGO, t);
  if (d === 6) return false;
  if (d === 0) return s >= BREAK_TO;
  if (d === 5) return s < BREAK_FROM;
  return s < BREAK_FROM || s >= BREAK_TO;
}

/** The halts inside [from, to), in time order, each cut to the window. */
export function closedSpans(market: Market, from: number, to: number): ClosedSpan[] {
  if (MARKET_SPECS[market].kind === 'crypto' || from >= to) return [];
  const spans: ClosedSpan[] = [];
  // Start three local days early so a weekend that began before `from` is found.
  const first = Math.floor((from + CHICAGO.std) / DAY) - 3;
  const last = Math.floor((to + CHICAGO.std + HOUR) / DAY);
  for (let day = first; day <= last; day++) {
    const d = weekday(day);
    let span: ClosedSpan | undefined;
    if (d >= 1 && d <= 4) {
      span = { from: wallToUtc(CHICAGO, day * DAY + BREAK_FROM), to: wallToUtc(CHICAGO, day * DAY + BREAK_TO), why: 'daily_break' };
    } else if (d === 5) {
      span = { from: wallToUtc(CHICAGO, day * DAY + BREAK_FROM), to: wallToUtc(CHICAGO, (day + 2) * DAY + BREAK_TO), why: 'weekend' };
    }
    if (span && span.to > from && span.from < to) {
      spans.push({ from: Math.max(span.from, from), to: Math.min(span.to, to), why: span.why });
    }
  }
  return spans;
}

export function openSeconds(market: Market, from: number, to: number): number {
  if (from >= to) return 0;
  let closed = 0;
  for (const s of closedSpans(market, from, to)) closed += s.to - s.from;
  return to - from - closed;
}

/**
 * Where a warm-up of `seconds` of open market before `from` starts, on the grid of `len`-second bars: far enough
 * back that it holds that much trading (a CME halt holds no bars).
 */
export function warmStart(market: Market, from: number, seconds: number, len: number): number {
  let start = from - seconds;
  for (let open = openSeconds(market, start, from); open < seconds; open = openSeconds(market, start, from)) start -= seconds - open;
  return Math.floor(start / len) * len;
}

/**
 * Where the bars of a window [from, to) end, on the grid of `len`-second bars: a bar is in the window when it opens
 * at or after `from` and has closed by `to`, so a `to` inside a bar stops at that bar's open. A window read "as of
 * to" never shows a price printed after it.
 */
export const closedEnd = (to: number, len: number): number => Math.floor(to / len) * len;

/**
 * The open times of the bars a venue would print in [from, to): multiples of the bar length whose whole bar,
 * [t, t + bar length), lies in open-market time (a bar may end after `to`; it is counted by where it opens: a
 * window of the tape counts to closedEnd(to) instead).
 */
export function expectedBars(market: Market, tfSeconds: number, from: number, to: number): Float64Array {
  if (!Number.isInteger(tfSeconds) || tfSeconds <= 0) throw new RangeError(`bar length must be a positive integer, got ${tfSeconds}`);
  const start = Math.ceil(from / tfSeconds) * tfSeconds;
  if (start >= to) return new Float64Array(0);
  const out = new Float64Array(Math.ceil((to - start) / tfSeconds));
  const halts = closedSpans(market, start, to + tfSeconds);
  let n = 0;
  let h = 0;
  for (let t = start; t < to; t += tfSeconds) {
    while (h < halts.length && halts[h]!.to <= t) h++;
    const halt = halts[h];
    if (halt && halt.from < t + tfSeconds) continue;
    out[n++] = t;
  }
  return out.slice(0, n);
}

/** Inside the cash (regular) session: 09:30–16:00 New York time, Monday to Friday. Crypto is always in session. */
export function inCashSession(market: Market, t: number): boolean {
  if (MARKET_SPECS[market].kind === 'crypto') return true;
  const { weekday: d, second: s } = wallClock(NEW_YORK, t);
  return d >= 1 && d <= 5 && s >= 9.5 * HOUR && s < 16 * HOUR;
}
