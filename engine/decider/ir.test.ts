import { describe, expect, it } from 'vitest';
import { CORPUS, rulesIn } from '../../test/support/reader-score.js';
import { sampleFile } from '../../test/support/tape-file.js';
import type { Market } from '../markets.js';
import { isSettled, PARTS, type Condition, type Status } from '../reader/schema.js';
import { rehearse } from '../stepper/rehearse.js';
import { RehearsalSchema } from '../stepper/envelope.js';
import { canonicalJson, seedHash } from './canonical.js';
import { compileDecider } from './compile.js';
import { DeciderRefusal, irOf } from './ir.js';
import { ScriptSchema, type Script } from './script.js';

const prior: Script = {
  version: 'script.v1',
  market: 'ES',
  timeframe: '1m',
  session: { kind: 'always' },
  side: 'short',
  entry: {
    triggers: [
      {
        side: 'short',
        when: {
          op: 'and',
          args: [
            { op: 'touches', level: { kind: 'prior_day', field: 'high' } },
            { op: 'above', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 70 } },
          ],
        },
      },
    ],
  },
  stop: { kind: 'level', where: 'above', level: { kind: 'prior_day', field: 'high' }, offset: { unit: 'ticks', n: 8 } },
  exit: {
    target: { kind: 'level', level: { kind: 'prior_day', field: 'close' } },
    time: [
      { kind: 'clock', at: '15:50', zone: 'America/New_York' },
      { kind: 'minutes', n: 90 },
    ],
    trail: { kind: 'distance', distance: { unit: 'atr', n: 3, period: 14 } },
  },
};

/** The same script with every object's keys written in reverse order. */
const reversed = (x: unknown): unknown =>
  Array.isArray(x) ? x.map(reversed) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).reverse().map(([k, v]) => [k, reversed(v)])) : x;

const refusal = (script: Script): { part: string; message: string } => {
  try {
    irOf(script);
  } catch (error) {
    if (error instanceof DeciderRefusal) return { part: error.part, message: error.message };
    throw error;
  }
  throw new Error('irOf did not refuse');
};

describe('the decider IR', () => {
  it('is canonical: the same script, however its keys are ordered, gives the same bytes and seed hash', () => {
    const a = canonicalJson(irOf(prior));
    expect(canonicalJson(irOf(ScriptSchema.parse(reversed(prior))))).toBe(a);
    const args = (prior.entry.triggers[0]!.when as { args: Condition[] }).args;
    const swapped: Script = { ...prior, entry: { triggers: [{ side: 'short', when: { op: 'and', args: [args[1]!, args[0]!] } }] } };
    expect(canonicalJson(irOf(swapped))).toBe(a);
    const hash = seedHash(irOf(prior), 'v1');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(seedHash(irOf(prior), 'v1')).toBe(hash);
    expect(seedHash(irOf(prior), 'v2')).not.toBe(hash);
    expect(seedHash(irOf({ ...prior, market: 'NQ' }), 'v1')).not.toBe(hash);
  });

  it('lists each series once, by a stable id, sorted, with its kind, parameters and source', () => {
    const ir = irOf(prior);
    expect(ir.series.map((s) => s.id)).toEqual(['atr_14', 'clock_15_50_america_new_york', 'prior_day_close', 'prior_day_high', 'rsi_14']);
    expect(ir.series.find((s) => s.id === 'prior_day_high')).toEqual({
      id: 'prior_day_high',
      kind: 'prior_day',
      params: { field: 'high', day: 'cme' },
      source: 'high',
    });
    expect(ir.entry.short).toEqual({
      op: 'and',
      args: [
        { op: 'above', left: { kind: 'point', at: { src: 'series', id: 'rsi_14' } }, right: { kind: 'point', at: { src: 'constant', value: 70 } } },
        { op: 'touches', level: { kind: 'point', at: { src: 'series', id: 'prior_day_high' } } },
      ],
    });
  });

  it('resolves stops, targets, trails and time into the units the stepper uses', () => {
    const ir = irOf(prior);
    // 8 ticks of ES (0.25) are 2 points; minutes become seconds; ATR names its series.
    expect(ir.stop).toEqual({
      kind: 'level',
      where: 'above',
      level: { kind: 'point', at: { src: 'series', id: 'prior_day_high' } },
      offset: { unit: 'price', value: 2 },
    });
    expect(ir.trail).toEqual({ kind: 'distance', distance: { unit: 'atr', mult: 3, series: 'atr_14' } });
    expect(ir.time).toEqual([
      { kind: 'clock', series: 'clock_15_50_america_new_york' },
      { kind: 'seconds', n: 5400 },
    ]);
    const pct = irOf({ ...prior, stop: { kind: 'distance', distance: { unit: 'percent', n: 0.3 } } });
    expect(pct.stop).toEqual({ kind: 'distance', distance: { unit: 'fraction', value: 0.003 } });
    const below = irOf({ ...prior, side: 'long', entry: { triggers: [{ side: 'long', when: args0() }] }, stop: { kind: 'level', where: 'below', level: { kind: 'bar', bar: 'signal', field: 'low' } } });
    // "below" with no offset in the words: one tick beyond the level.
    expect(below.stop).toEqual({ kind: 'level', where: 'below', level: { kind: 'point', at: { src: 'signal_bar', field: 'l' } }, offset: { unit: 'price', value: 0.25 } });
    // Dollars are points of one contract: $250 on ES ($50 a point) is 5 points, on the micro ($5) 50; a coin's dollar is a point.
    const usd = (n: number, micro?: true) => ({ kind: 'distance' as const, distance: { unit: 'usd' as const, n, ...(micro ? { micro } : {}) } });
    expect(irOf({ ...prior, stop: usd(250) }).stop).toEqual({ kind: 'distance', distance: { unit: 'price', value: 5 } });
    expect(irOf({ ...prior, stop: usd(250, true) }).stop).toEqual({ kind: 'distance', distance: { unit: 'price', value: 50 } });
    expect(irOf({ ...prior, market: 'YM', stop: usd(75, true) }).stop).toEqual({ kind: 'distance', distance: { unit: 'price', value: 150 } });
    expect(irOf({ ...prior, market: 'BTC', stop: usd(300) }).stop).toEqual({ kind: 'distance', distance: { unit: 'price', value: 300 } });
    expect(irOf({ ...prior, exit: { target: { kind: 'distance', distance: { unit: 'usd', n: 100 } } } }).target).toEqual({ kind: 'distance', distance: { unit: 'price', value: 2 } });
  });

  it('resolves the session window, and flattens at its end unless a clock exit governs', () => {
    const windowed: Script = { ...prior, session: { kind: 'windows', zone: 'America/Chicago', windows: [{ from: '08:30', to: '10:00' }] } };
    const ir = irOf({ ...windowed, exit: { time: [{ kind: 'bars', n: 12 }] } });
    expect(ir.session).toEqual({ kind: 'windows', zone: 'America/Chicago', windows: [{ from: 510, to: 600 }], gate: 'session_gate', end: 'session_end' });
    expect(ir.flat_at_session_end).toBe(true);
    expect(irOf(windowed).flat_at_session_end).toBe(false);
    expect(irOf(prior).flat_at_session_end).toBe(false);
  });

  it("closes a window's entries at the rule's clock exits (its gate's until), and only a window's, only with a clock", () => {
    const windowed: Script = { ...prior, session: { kind: 'windows', zone: 'America/Chicago', windows: [{ from: '08:30', to: '15:00' }] } };
    const clocked = irOf({ ...windowed, exit: { time: [{ kind: 'clock', at: '10:30', zone: 'America/Chicago' }, { kind: 'clock', at: '10:30', zone: 'America/Chicago' }, { kind: 'bars', n: 9 }] } });
    const until = [{ zone: 'America/Chicago', minute: 630 }];
    expect(clocked.session).toEqual({ kind: 'windows', zone: 'America/Chicago', windows: [{ from: 510, to: 900 }], until, gate: 'session_gate', end: 'session_end' });
    expect(clocked.series.find((x) => x.id === 'session_gate')!.params).toEqual({ zone: 'America/Chicago', windows: [{ from: 510, to: 900 }], until });
    expect(clocked.series.find((x) => x.id === 'session_end')!.params).toEqual({ zone: 'America/Chicago', windows: [{ from: 510, to: 900 }] });
    // no clock exit, or no window: the IR is as it was, key for key (a rule's seed hash does not move)
    const timed = irOf({ ...windowed, exit: { time: [{ kind: 'bars', n: 9 }] } });
    expect(canonicalJson(timed)).not.toContain('until');
    expect(canonicalJson(irOf(prior))).not.toContain('until');
  });

  it('states only the states and moves the rule can reach', () => {
    const ir = irOf({ ...prior, exit: { target: { kind: 'distance', distance: { unit: 'r', n: 2 } } } });
    expect(ir.states).toEqual(['flat', 'armed', 'in_short']);
    expect(ir.transitions).toContainEqual({ from: 'in_short', to: 'flat', on: 'target' });
    expect(ir.transitions.some((t) => t.to === 'in_long' || t.to === 'exiting' || t.to === 'closing')).toBe(false);
    const full = irOf({ ...prior, exit: { ...prior.exit, when: args0() } });
    expect(full.states).toEqual(['flat', 'armed', 'in_short', 'exiting', 'closing']);
  });

  it('turns crosses and breaks to the trigger\'s side, and a sideless breakout to both sides', () => {
    const orb: Script = {
      ...prior,
      side: 'both',
      entry: { triggers: [{ side: null, when: { op: 'breaks', level: { kind: 'opening_range', field: 'range', minutes: 30 } } }] },
      stop: { kind: 'distance', distance: { unit: 'atr', n: 1, period: 14 } },
    };
    const ir = irOf(orb);
    const zone = {
      kind: 'zone',
      lo: { src: 'series', id: 'opening_range_30_low' },
      hi: { src: 'series', id: 'opening_range_30_high' },
    };
    expect(ir.entry).toEqual({ long: { op: 'breaks_above', level: zone }, short: { op: 'breaks_below', level: zone } });
  });

  it('refuses what it cannot decide, naming the part', () => {
    const emaOf = (n: number | null): Condition => ({ op: 'crosses_above', left: { kind: 'price', field: 'close' }, right: { kind: 'ema', n } });
    expect(refusal({ ...prior, side: 'long', entry: { triggers: [{ side: 'long', when: emaOf(null) }] } })).toEqual({
      part: 'entry',
      message: "entry: the EMA's length is not stated",
    });
    expect(refusal({ ...prior, stop: { kind: 'distance', distance: { unit: 'atr', n: 2, period: null } } }).part).toBe('stop');
    expect(refusal({ ...prior, side: 'long', entry: { triggers: [{ side: 'long', when: emaOf(9) }] } })).toEqual({
      part: 'stop',
      message: 'stop: a stop above a level does not protect a long',
    });
    expect(refusal({ ...prior, side: 'long' }).message).toBe('entry: a short trigger, but the side is long');
    const sideless: Script = { ...prior, side: 'both', entry: { triggers: [{ side: null, when: args0() }] }, stop: { kind: 'distance', distance: { unit: 'points', n: 4 } } };
    expect(refusal(sideless).part).toBe('entry');
    const twice: Script = { ...prior, side: 'long', stop: sideless.stop, entry: { triggers: [{ side: 'long', when: args0() }, { side: null, when: args0() }] } };
    expect(refusal(twice).message).toBe('entry: two triggers take the long side; join them with and / or');
    const hourly: Script = { ...prior, timeframe: '1h', entry: { triggers: [{ side: 'short', when: { op: 'breaks_below', level: { kind: 'opening_range', field: 'low', minutes: 15 } } }] } };
    expect(refusal(hourly).message).toBe('entry: an opening range of 15 minutes cannot be built from 1h bars');
    expect(refusal({ ...prior, market: 'ETH', stop: { kind: 'distance', distance: { unit: 'usd', n: 20, micro: true } } })).toEqual({
      part: 'stop',
      message: 'stop: a micro contract is a futures contract; ETH has none',
    });
  });

  it('asks for enough history to warm every series', () => {
    expect(irOf(prior).warm_up_bars).toBe(2880);
    expect(irOf({ ...prior, stop: { kind: 'distance', distance: { unit: 'points', n: 4 } }, exit: { target: { kind: 'distance', distance: { unit: 'r', n: 1 } } }, entry: { triggers: [{ side: 'short', when: { op: 'below', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 30 } } }] } }).warm_up_bars).toBe(43);
  });
});

function args0(): Condition {
  return { op: 'above', left: { kind: 'price', field: 'close' }, right: { kind: 'constant', value: 1 } };
}

describe('every rule of the reader\'s corpus that reads whole (its parts read, or completed by a documented default)', () => {
  const corpus = rulesIn(CORPUS);
  const tape = new Map<Market, ReturnType<typeof sampleFile>>();
  /** The sample holds ES, BTC and ETH: ES bars stand in for NQ and YM, ETH's for SOL, since only running is asked of them here. */
  const STAND_IN: Record<Market, string> = { NQ: 'ES', ES: 'ES', YM: 'ES', BTC: 'BTC', ETH: 'ETH', SOL: 'ETH' };
  const barsOf = (m: Market) => {
    if (!tape.has(m)) tape.set(m, sampleFile(`${STAND_IN[m]}-1m`));
    return tape.get(m)!;
  };
  const whole = corpus.filter((r) => PARTS.every((p) => isSettled(r.expect[p].status as Status)));

  it('becomes a decider that runs over real bars, or a refusal that names a part', () => {
    expect(whole.length).toBeGreaterThan(80);
    let ran = 0;
    for (const rule of whole) {
      const e = rule.expect;
      const market = e.market!.value as Market;
      const script = ScriptSchema.parse({ version: 'script.v1', ...Object.fromEntries(PARTS.map((p) => [p, e[p]!.value])) });
      let ir;
      try {
        ir = irOf(script);
      } catch (error) {
        expect(error, rule.text).toBeInstanceOf(DeciderRefusal);
        expect(PARTS, rule.text).toContain((error as DeciderRefusal).part);
        continue;
      }
      const seed = seedHash(ir, 'v1');
      const r = rehearse(ir, compileDecider(ir, seed, 'v1'), barsOf(market), { seed, nullRuns: 20, marks: [{ kind: 'zone', price: 100, price2: 101 }] });
      expect(RehearsalSchema.safeParse(r).success, rule.text).toBe(true);
      ran++;
    }
    expect(ran).toBeGreaterThan(70);
  });
});
