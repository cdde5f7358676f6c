import { describe, expect, it } from 'vitest';
import { barsIn, sampleFile } from '../../test/support/tape-file.js';
import { expectedBars } from '../calendar.js';
import { irOf } from '../decider/ir.js';
import { scriptOfReading } from '../decider/script.js';
import { ema } from '../indicators/index.js';
import { readRule } from '../reader/index.js';
import { rehearsedSeries } from './readiness.js';
import { rehearseScript } from './toy-bars.js';

// Which bars of a window the rule could decide on, and why the others could not, held to counts this file makes on
// its own from the bars: its own EMA, its own New York wall clock (Intl), its own count of the minutes the tape lacks.

const ES = sampleFile('ES-1m');
const MON = Date.UTC(2013, 9, 7) / 1000;

function forged(words: string) {
  const got = scriptOfReading(readRule(words));
  if (!got.ok) throw new Error(got.message);
  return got.script;
}

const nyMinute = (t: number): number => {
  const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(t * 1000)).split(':');
  return Number(h) * 60 + Number(m);
};

describe("a rehearsal's readiness", () => {
  const words = 'ES 1m, during the cash session: go long when the 50 EMA crosses above the 200 EMA; stop 4 points; target 8 points.';
  const script = forged(words);
  const ir = irOf(script);
  // A day of bars with no history before it: the averages warm up inside the window.
  const bars = barsIn(ES, MON, MON + 86_400);
  const r = rehearseScript(script, bars);

  it('counts the bars before the averages the entry reads have values as warm-up, and starts deciding after them', () => {
    const slow = ema(bars.c, 200);
    const warm = slow.findIndex((x) => !Number.isNaN(x));
    expect(warm).toBeGreaterThan(100);
    expect(r.window.idle.warm_up).toBe(warm);
    // The first bar after the warm-up whose close falls in 09:30-16:00 New York.
    let first = warm;
    while (!(nyMinute(bars.t[first]! + 60) >= 570 && nyMinute(bars.t[first]! + 60) < 960)) first++;
    expect(r.window.ready_at).toBe(bars.t[first]);
  });

  it('counts the warm bars whose close falls outside the session, on its own clock', () => {
    let outside = 0;
    const slow = ema(bars.c, 200);
    for (let i = 0; i < bars.length; i++) {
      const m = nyMinute(bars.t[i]! + 60);
      if (!Number.isNaN(slow[i]!) && !(m >= 570 && m < 960)) outside++;
    }
    expect(outside).toBeGreaterThan(0);
    expect(r.window.idle.session).toBe(outside);
  });

  it("counts the open market's minutes the tape holds no bar for as gaps", () => {
    const held = new Set(bars.t);
    const expected = expectedBars('ES', 60, r.window.from, r.window.to);
    expect(r.window.idle.gaps).toBe([...expected].filter((t) => !held.has(t)).length);
  });

  it('says it in the summary, with the same numbers', () => {
    const when = new Date(r.window.ready_at! * 1000).toISOString().slice(0, 16).replace('T', ' ');
    expect(r.summary).toContain(`Its indicators warmed up inside the window; it could first decide at the close of the bar opening ${when} UTC`);
    expect(r.summary).toContain(`${r.window.idle.warm_up} while a series an entry reads had no value yet (warm-up)`);
    expect(r.summary).toContain(`${r.window.idle.session.toLocaleString('en-US')} outside its session (09:30-16:00 America/New_York)`);
  });

  it('says the indicators were warm from the first bar when the history before the window warmed them', () => {
    const withHistory = barsIn(ES, MON, MON + 2 * 86_400);
    const warm = rehearseScript(script, withHistory, { from: MON + 86_400 });
    expect(warm.window.idle.warm_up).toBe(0);
    expect(warm.summary).toContain("Its indicators were warm from the window's first bar");
    expect(warm.summary).toContain(`${warm.window.idle.session.toLocaleString('en-US')} of the ${warm.window.bars.toLocaleString('en-US')} bars could not trade, all outside its session`);
  });

  it('rebuilds the very series the stepper ran on from the bars and the window', () => {
    const withHistory = barsIn(ES, MON, MON + 2 * 86_400);
    const warm = rehearseScript(script, withHistory, { from: MON + 86_400 });
    const again = rehearsedSeries(ir, withHistory, warm.window);
    expect(again.bars.t[again.start]).toBe(warm.window.from);
    expect(again.end - again.start).toBe(warm.window.bars);
    expect(Array.from(again.series.ema_200!)).toEqual(Array.from(ema(withHistory.c, 200)));
    // Bars that lack the warm-up the stepper ran on cannot give its series.
    expect(() => rehearsedSeries(ir, barsIn(ES, MON + 3600, MON + 2 * 86_400), warm.window)).toThrow(/not the bars the rehearsal ran over/);
  });
});
