import { CHICAGO, NEW_YORK, utcOffset } from '../calendar.js';
import type { Zone } from '../reader/schema.js';

/**
 * Wall clocks of the zones a rule may name. New York and Chicago follow the US rule (engine/calendar.ts); London
 * keeps the EU rule: summer time (UTC+1) from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last
 * Sunday of October.
 */

const DAY = 86_400;
const HOUR = 3600;

/** 01:00 UTC on the last Sunday of a month (0-based month), as unix seconds. */
function lastSunday(year: number, month: number): number {
  const last = Date.UTC(year, month + 1, 0) / 1000;
  const weekday = new Date(last * 1000).getUTCDay();
  return last - weekday * DAY + HOUR;
}

function londonOffset(t: number): number {
  const year = new Date(t * 1000).getUTCFullYear();
  return t >= lastSunday(year, 2) && t < lastSunday(year, 9) ? HOUR : 0;
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
      return londonOffset(t);
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
