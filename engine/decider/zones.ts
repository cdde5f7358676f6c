import { CHICAGO, NEW_YORK, utcOffset } from '../calendar.js';
import type { Zone } from '../reader/schema.js';

/**
 * Wall clocks of the zones a rule may name. New York and Chicago follow the US rule (engine/calendar.ts); London
 * keeps the EU rule: summer time (UTC+1) from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last
 * Sunday of October, and Frankfurt, Paris and Zurich the same rule an hour ahead (UTC+1, summer UTC+2). Tokyo
 * (UTC+9), Hong Kong and Singapore (UTC+8) keep no summer time; Sydney (UTC+10) keeps the New South Wales rule:
 * summer time (UTC+11) from 02:00 standard time on the first Sunday of October to 03:00 summer time on the first
 * Sunday of April, both 16:00 UTC on the Saturday before.
 */

const DAY = 86_400;
const HOUR = 3600;

/** 01:00 UTC on the last Sunday of a month (0-based month), as unix seconds. */
function lastSunday(year: number, month: number): number {
  const last = Date.UTC(year, month + 1, 0) / 1000;
  const weekday = new Date(last * 1000).getUTCDay();
  return last - weekday * DAY + HOUR;
}

/** 16:00 UTC on the Saturday before the first Sunday of a month (0-based), as unix seconds. */
function beforeFirstSunday(year: number, month: number): number {
  const first = Date.UTC(year, month, 1) / 1000;
  const weekday = new Date(first * 1000).getUTCDay();
  return first + ((7 - weekday) % 7) * DAY - 8 * HOUR;
}

/** The EU's summer hour: UTC+1 more from 01:00 UTC on the last Sunday of March to the last Sunday of October. */
function euSummer(t: number): number {
  const year = new Date(t * 1000).getUTCFullYear();
  return t >= lastSunday(year, 2) && t < lastSunday(year, 9) ? HOUR : 0;
}

/** Sydney's summer hour: from the first Sunday of October to the first Sunday of April (the southern summer). */
function sydneySummer(t: number): number {
  const year = new Date(t * 1000).getUTCFullYear();
  return t < beforeFirstSunday(year, 3) || t >= beforeFirstSunday(year, 9) ? HOUR : 0;
}

/** The zone's offset from UTC at instant t, in seconds. */
export function zoneOffset(zone: Zone, t: number): number {
  switch (zone) {
    case 'UTC':
      return 0;
    case 'America/New_York':
      return utcOffset(NEW_YORK, t);
    case 'America/Chicago':
      return utcOffset(CHICAGO, t);
    case 'Europe/London':
      return euSummer(t);
    case 'Europe/Berlin':
    case 'Europe/Paris':
    case 'Europe/Zurich':
      return HOUR + euSummer(t);
    case 'Asia/Tokyo':
      return 9 * HOUR;
    case 'Asia/Hong_Kong':
    case 'Asia/Singapore':
      return 8 * HOUR;
    case 'Australia/Sydney':
      return 10 * HOUR + sydneySummer(t);
  }
}

/**
 * A zone's offset read hour by hour: the offsets of these zones only change on the hour, so a sweep over bars
 * asks the calendar once an hour instead of once a bar.
 */
export function offsetReader(zone: Zone): (t: number) => number {
  let hour = NaN;
  let offset = 0;
  return (t) => {
    const h = Math.floor(t / HOUR);
    if (h !== hour) {
      hour = h;
      offset = zoneOffset(zone, h * HOUR);
    }
    return offset;
  };
}

/** The local day number (days since 1970-01-01 on the wall clock) of instant t, given the offset at t. */
export const localDay = (t: number, offset: number): number => Math.floor((t + offset) / DAY);

/** The instant the zone's wall clock reads minute m of local day `day` (found in two steps, right across a change). */
export function instantAt(zone: Zone, day: number, minute: number): number {
  const wall = day * DAY + minute * 60;
  const first = wall - zoneOffset(zone, wall);
  return wall - zoneOffset(zone, first);
}

export { DAY, HOUR };
