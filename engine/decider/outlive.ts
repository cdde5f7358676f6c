import { allocBars, type Bars } from '../bars.js';
import type { ClockIR, GateParams, TradingDay } from './ir.js';
import { clockAfter, sessionGate, tradingDay } from './series.js';
import { localDay, zoneOffset } from './zones.js';

/**
 * Whether a rule's entries can outlive its own clock exit: an entry it may take whose clock exit comes round only
 * on a later trading day than the one it was taken on (held past the close, over the night or the weekend). A
 * clock exit closes a session window's entries once it has come round in that window (the IR's gate), so this is
 * left to a rule with no window (any time) or whose clock falls before its window opens. Found by stepping the
 * rule's own gate over two reference weeks, one in January and one in July (both sides of every zone's summer
 * time), a bar at a time: the first entry that outlives, as its fill and exit instants, or null.
 */

/** Mondays of the reference weeks: 2024-01-08 and 2024-07-08, 00:00 UTC. */
const WEEKS = [Date.UTC(2024, 0, 8) / 1000, Date.UTC(2024, 6, 8) / 1000];
const WEEK = 7 * 86_400;

export interface Outliving {
  /** The fill instant of an entry the rule may take, and the clock exit it is held to, unix seconds. */
  fill: number;
  exit: number;
  clock: ClockIR;
}

/** Bars of the reference weeks, one every `step` seconds (only their open times are read). */
function referenceBars(step: number): Bars {
  const per = WEEK / step;
  const bars = allocBars(per * WEEKS.length);
  WEEKS.forEach((monday, w) => {
    for (let k = 0; k < per; k++) bars.t[w * per + k] = monday + k * step;
  });
  return bars;
}

/** Whether the gate's clocks close some window's entries: a bar in a window whose entries they have closed. */
export function clockClosesEntries(session: GateParams, tf: number): boolean {
  if (!session.until || session.until.length === 0) return false;
  const step = Math.max(tf, 60);
  const bars = referenceBars(step);
  const open = sessionGate(bars, { zone: session.zone, windows: session.windows }, step);
  const gated = sessionGate(bars, session, step);
  return open.some((g, i) => g === 1 && gated[i] === 0);
}

export function outlivingEntry(session: { kind: 'always' } | GateParams, clocks: readonly ClockIR[], day: TradingDay, tf: number): Outliving | null {
  if (clocks.length === 0) return null;
  const step = Math.max(tf, 60);
  const bars = referenceBars(step);
  const gate = 'windows' in session ? sessionGate(bars, session, step) : null;
  const key = tradingDay(day);
  for (let i = 0; i < bars.length; i++) {
    if (gate !== null && gate[i] !== 1) continue;
    // armed at this bar's close, filled at the next bar's open: the clock exit is the first to come round after it
    const fill = bars.t[i]! + step;
    let exit = Infinity;
    let clock = clocks[0]!;
    for (const c of clocks) {
      const at = clockAfter(c, fill);
      if (at < exit) [exit, clock] = [at, c];
    }
    if (key(exit - 1) !== key(fill)) return { fill, exit, clock };
  }
  return null;
}

const hhmm = (t: number, offset: number): string => {
  const m = Math.floor(((((t + offset) % 86_400) + 86_400) % 86_400) / 60);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** An outliving entry in words, on its clock's wall clock: "entries outlive the clock exit: a trade filled at 17:00 UTC is held to 16:00 UTC the next day". */
export function outlivingWords({ fill, exit, clock }: Outliving): string {
  const [f, x] = [zoneOffset(clock.zone, fill), zoneOffset(clock.zone, exit)];
  const days = localDay(exit, x) - localDay(fill, f);
  const when = days === 1 ? 'the next day' : `${days} days later`;
  return `entries outlive the clock exit: a trade filled at ${hhmm(fill, f)} ${clock.zone} is held to ${hhmm(exit, x)} ${clock.zone} ${when}`;
}

const clockText = (c: ClockIR): string => `${String(Math.floor(c.minute / 60)).padStart(2, '0')}:${String(c.minute % 60).padStart(2, '0')} ${c.zone}`;

/** What the gate's clocks do to a window's entries, in words. */
export const clockClosingWords = (clocks: readonly ClockIR[]): string =>
  `a clock exit closes the entry window too: no trade opens in a window once ${clocks.map(clockText).join(' or ')} has come round in it`;
