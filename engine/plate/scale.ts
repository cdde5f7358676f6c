/** Axis arithmetic of a plate: tick steps a reader can count in, and numbers and UTC times written the same way on every machine. */

/** The smallest step of 1, 2, 2.5 or 5 times a power of ten that cuts `span` into at most `most` parts. */
export function niceStep(span: number, most: number): number {
  const raw = span / most;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/** The multiples of `step` inside [min, max], computed from integers so 0.1 + 0.2 never shows. */
export function ticksOf(min: number, max: number, step: number): number[] {
  const ticks: number[] = [];
  for (let k = Math.ceil(min / step); k * step <= max; k++) ticks.push(k * step);
  return ticks;
}

/** Decimals that tell apart prices `step` apart (2.5 needs one more than 2). */
export function decimalsOf(step: number): number {
  for (let d = 0; d < 8; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9) return d;
  return 8;
}

/** A number with a fixed count of decimals and a comma between thousands, independent of the machine's locale. */
export function formatNumber(x: number, decimals: number): string {
  const fixed = Math.abs(x).toFixed(decimals);
  const [whole = '0', part] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = x < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${grouped}${part === undefined ? '' : `.${part}`}`;
}

/** A volume in few characters: 1234 -> 1.23K, 2500000 -> 2.50M. */
export function formatVolume(v: number): string {
  if (v >= 1e9) return `${(v / 1e9).toFixed(2)}B`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(2)}K`;
  return v >= 100 ? v.toFixed(0) : v.toFixed(2);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** 2025-03-02 14:05 (UTC), for titles. */
export function utcMinute(t: number): string {
  const d = new Date(t * 1000);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/**
 * A time-axis label: the date at midnight UTC, HH:MM otherwise, with seconds when the step is under a minute.
 * `dated` puts the date before the time: the first label of a day that did not open on a midnight tick (the window's
 * first day, a reopen after a weekend or a gap) would otherwise read as a time of the day before.
 */
export function utcTick(t: number, step: number, dated = false): string {
  const d = new Date(t * 1000);
  const date = `${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())}`;
  if (t % 86_400 === 0) return date;
  const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  const time = step < 60 ? `${hm}:${two(d.getUTCSeconds())}` : hm;
  return dated ? `${date} ${time}` : time;
}

/** Time steps a trader reads a chart in, from 15 seconds to a week. */
export const TIME_STEPS = [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800];

/** The first time step that, on bars `tf` seconds apart drawn `slot` pixels wide, leaves at least `gap` pixels between labels. */
export function timeStep(tf: number, slot: number, gap: number): number {
  for (const s of TIME_STEPS) if (s >= tf && (s / tf) * slot >= gap) return s;
  return TIME_STEPS[TIME_STEPS.length - 1]!;
}
