import { describe, expect, it } from 'vitest';
import { editLine, forged, insertAfter, lineWith, VARIETY } from '../../test/support/forged.js';
import type { DeciderIR, SeriesSpec } from '../decider/index.js';
import { REVIEW_CLASSES, ReviewSchema, review, type ReviewClassName } from './review.js';

const emaCross = forged(VARIETY.emaCross!);
const marks = forged(VARIETY.marks!);
const priorDay = forged(VARIETY.priorDay!);
const range = forged(VARIETY.range!);
const bands = forged(VARIETY.bands!);

/** The findings of one class. */
const findings = (ir: DeciderIR, code: string, name: ReviewClassName) => review(ir, code).classes.find((c) => c.name === name)!;

/** The class is flagged, with a finding on `line` whose message matches. */
function flagged(ir: DeciderIR, code: string, name: ReviewClassName, line: number, message: RegExp): void {
  const c = findings(ir, code, name);
  expect(c.status).toBe('flagged');
  expect(c.findings, JSON.stringify(c.findings)).toContainEqual({ line, message: expect.stringMatching(message) });
}

/** An IR with some fields replaced, as a hand-altered IR would be. */
const alter = (ir: DeciderIR, change: Partial<DeciderIR>): DeciderIR => ({ ...structuredClone(ir), ...change });

describe('the review', () => {
  it('answers the nine classes in order, each passed or flagged, in its schema, the same for the same input', () => {
    const r = review(emaCross.ir, emaCross.code);
    expect(r.classes.map((c) => c.name)).toEqual([...REVIEW_CLASSES]);
    expect(REVIEW_CLASSES).toEqual([
      'look-ahead',
      'repainting',
      'missing stop',
      'unreachable state',
      'indicator warm-up',
      'same-bar stop and target order',
      'session leak',
      'unit mismatch',
      'unbounded state',
    ]);
    expect(ReviewSchema.parse(r)).toEqual(r);
    expect(JSON.stringify(review(emaCross.ir, emaCross.code))).toBe(JSON.stringify(r));
  });

  it('passes every class for well-formed rules of every kind', () => {
    for (const [name, script] of Object.entries(VARIETY)) {
      const { ir, code } = forged(script);
      const r = review(ir, code);
      expect(r.classes.filter((c) => c.status === 'flagged'), name).toEqual([]);
      expect(r.classes.every((c) => c.findings.length === 0)).toBe(true);
    }
  });
});

describe('look-ahead', () => {
  const { ir, code } = emaCross;

  it('flags a read of a later bar, at its line', () => {
    const line = lineWith(code, 's.ema_9[i]! > s.ema_21[i]!');
    flagged(ir, editLine(code, line, 's.ema_21[i]!', 's.ema_21[i + 1]!'), 'look-ahead', line, /ema_21 is read at i \+ 1/);
  });

  it("flags fill reading the fill bar's prices", () => {
    const line = lineWith(code, 'const stop = ');
    flagged(ir, editLine(code, line, 's.atr_14[k]', 's.atr_14[f]'), 'look-ahead', line, /fill bar f/);
  });

  it('flags a helper called at a later bar, and decide entering a position itself', () => {
    const line = lineWith(code, 'const long = enterLong(i, st, s);');
    flagged(ir, editLine(code, line, 'enterLong(i,', 'enterLong(i + 1,'), 'look-ahead', line, /enterLong is called at i \+ 1/);
    const arm = lineWith(code, 'if (long !== short) arm(');
    flagged(ir, editLine(code, arm, 'arm(i, st, long ? 1 : -1)', 'st.phase = IN_LONG'), 'look-ahead', arm, /decide enters a position/);
  });

  it('flags an IR whose entry skips the wait for the next open', () => {
    const skips = alter(ir, { transitions: ir.transitions.map((t) => (t.on === 'long_trigger' ? { ...t, to: 'in_long' } : t)) });
    flagged(skips, code, 'look-ahead', lineWith(code, 'export function arm('), /flat goes to in_long on long_trigger/);
  });
});

describe('repainting', () => {
  const { ir, code } = emaCross;

  it('flags a series kind with no causal definition, at its first read', () => {
    const series = ir.series.map((s) => (s.id === 'ema_9' ? ({ ...s, kind: 'zigzag' } as unknown as SeriesSpec) : s));
    flagged(alter(ir, { series }), code, 'repainting', lineWith(code, 's.ema_9['), /ema_9 is a zigzag, which has no causal definition/);
  });

  it('flags code that writes into a series', () => {
    const put = insertAfter(code, 'export function decide(', '  s.ema_9[i - 1] = s.c[i]!;');
    flagged(ir, put.code, 'repainting', put.line, /writes into the series ema_9/);
  });

  it('flags an opening range that is not whole bars, and a prior day counted on another clock', () => {
    const or = forged(VARIETY.openingRange!);
    const series = or.ir.series.map((s) => (s.kind === 'opening_range' ? ({ ...s, params: { ...s.params, minutes: 7 } } as SeriesSpec) : s));
    flagged(alter(or.ir, { series, timeframe: '5m', tf_seconds: 300 }), or.code, 'repainting', lineWith(or.code, 's.opening_range_30_high['), /7 minutes are not whole 5m bars/);
    const utc = priorDay.ir.series.map((s) => (s.kind === 'prior_day' ? ({ ...s, params: { ...s.params, day: 'utc' } } as SeriesSpec) : s));
    flagged(alter(priorDay.ir, { series: utc }), priorDay.code, 'repainting', lineWith(priorDay.code, 's.prior_day_close['), /prior_day_close counts days on the utc clock/);
  });
});

describe('missing stop', () => {
  const { ir, code } = emaCross;

  it('flags fill that never sets the stop', () => {
    const line = lineWith(code, '  st.stop = stop;');
    const cut = editLine(code, line, 'st.stop = stop;', '');
    flagged(ir, cut, 'missing stop', lineWith(cut, 'return true;'), /answers true before it sets the stop/);
  });

  it('flags a stop test that NaN passes', () => {
    const line = lineWith(code, 'if (!(d * (price - stop) > 0)) {');
    flagged(ir, editLine(code, line, '!(d * (price - stop) > 0)', 'd * (price - stop) <= 0'), 'missing stop', lineWith(code, 'const stop = '), /does not refuse/);
  });

  it('flags a stop move that may loosen it', () => {
    const { ir: md, code: mc } = marks;
    const test = lineWith(mc, 'if (d * (trail - st.stop) > 0) {');
    flagged(md, editLine(mc, test, 'd * (trail - st.stop) > 0', 'trail === trail'), 'missing stop', test + 1, /moved to trail without a test that it only tightens/);
  });

  it('flags an IR with no stop exit from a position', () => {
    const noStop = alter(ir, { transitions: ir.transitions.filter((t) => !(t.from === 'in_short' && t.on === 'stop')) });
    flagged(noStop, code, 'missing stop', lineWith(code, 'export function fill('), /in_short has no stop exit/);
  });
});

describe('unreachable state', () => {
  const { ir, code } = emaCross;

  it('flags a state no move reaches, and a state the code never enters', () => {
    const extra = alter(ir, { states: [...ir.states, 'exiting'] });
    flagged(extra, code, 'unreachable state', lineWith(code, 'export function decide('), /exiting cannot be reached from flat/);
    flagged(extra, code, 'unreachable state', lineWith(code, 'export function decide('), /the code never enters exiting/);
  });

  it('flags the states cut off when a trigger loses its move', () => {
    const cut = alter(ir, { transitions: ir.transitions.filter((t) => t.from !== 'flat') });
    flagged(cut, code, 'unreachable state', lineWith(code, 'const ARMED = 1;'), /armed cannot be reached from flat/);
    flagged(cut, code, 'unreachable state', lineWith(code, 'function enterShort('), /the short trigger has no move out of flat/);
  });
});

describe('indicator warm-up', () => {
  const { ir, code } = emaCross;

  it('flags warm_up_bars short of the longest look-back, at the read', () => {
    flagged(alter(ir, { warm_up_bars: 40 }), code, 'indicator warm-up', lineWith(code, 's.ema_9[i - 1]!'), /ema_21 needs 64 bars of history \(read 1 back\); warm_up_bars is 40/);
  });

  it('flags a read further back than the warm-up covers', () => {
    const line = lineWith(code, 's.ema_9[i - 1]!');
    flagged(ir, editLine(code, line, 's.ema_21[i - 1]!', 's.ema_21[i - 1 - 1]!'), 'indicator warm-up', line, /ema_21 needs 65 bars/);
  });

  it("flags the bar before a previous bar, read by a cross, when the warm-up is one bar", () => {
    const prev = forged({
      ...VARIETY.emaCross!,
      side: 'long',
      entry: { triggers: [{ side: 'long', when: { op: 'crosses_above', left: { kind: 'price', field: 'close' }, right: { kind: 'bar', bar: 'previous', field: 'high' } } }] },
      stop: { kind: 'distance', distance: { unit: 'points', n: 50 } },
    });
    const line = lineWith(prev.code, 's.h[i - 1 - 1]');
    flagged(alter(prev.ir, { warm_up_bars: 1 }), prev.code, 'indicator warm-up', line, /^h is read 2 bars back; warm_up_bars is 1$/);
    expect(findings(alter(prev.ir, { warm_up_bars: 2 }), prev.code, 'indicator warm-up').status).toBe('passed');
    // The IR itself gives a rule that reads the previous bar the two bars its crosses need.
    expect(prev.ir.warm_up_bars).toBeGreaterThanOrEqual(2);
    expect(findings(prev.ir, prev.code, 'indicator warm-up').status).toBe('passed');
  });

  it('flags a trigger that holds while a series reads NaN', () => {
    const line = lineWith(priorDay.code, 's.rsi_14[i]! > 70');
    flagged(priorDay.ir, editLine(priorDay.code, line, 's.rsi_14[i]! > 70', '!(s.rsi_14[i]! <= 70)'), 'indicator warm-up', line, /negation or an equality/);
  });
});

describe('same-bar stop and target order', () => {
  const { ir, code } = emaCross;

  it('flags a target on the stop side of the fill', () => {
    const line = lineWith(code, 'st.target = ');
    flagged(ir, editLine(code, line, 'price + d *', 'price - d *'), 'same-bar stop and target order', line, /target is not placed beyond the fill/);
  });

  it('flags code that takes the target itself', () => {
    const put = insertAfter(code, '  if (st.phase !== IN_LONG && st.phase !== IN_SHORT) return;', '  if (st.dir * (s.c[i]! - st.target) >= 0) { st.phase = CLOSING; st.why = WHY_TARGET; return; }');
    flagged(ir, put.code, 'same-bar stop and target order', put.line, /ends a trade at its target itself/);
    flagged(ir, put.code, 'same-bar stop and target order', put.line, /decide acts on the target/);
  });

  it('flags a target behind the entry in the IR', () => {
    const behind = alter(ir, { target: { kind: 'distance', distance: { unit: 'r', value: -1 } } });
    flagged(behind, code, 'same-bar stop and target order', lineWith(code, 'st.target = '), /target distance is not positive/);
  });
});

describe('session leak', () => {
  const { ir, code } = marks;

  it('flags entries not gated by the session', () => {
    const gate = lineWith(code, 's.session_gate[i]! !== 1');
    const ungated = editLine(code, gate, 'if (s.session_gate[i]! !== 1) return;', '');
    flagged(ir, ungated, 'session leak', lineWith(ungated, 'arm(i, st, 1)'), /not gated by the session/);
  });

  it('flags a windowed rule that may hold past the window with no exit the rule names', () => {
    flagged(alter(ir, { flat_at_session_end: false }), code, 'session leak', lineWith(code, 'st.deadline = Infinity;'), /may stay open past its end/);
  });

  it('notes, without flagging, a window the rule gives no time exit for: flat at its end, at the line that schedules it', () => {
    const r = review(ir, code);
    expect(r.classes.find((c) => c.name === 'session leak')!.status).toBe('passed');
    expect(r.notes).toEqual([
      {
        line: lineWith(code, 'deadline(st, s.session_end[k]!, WHY_SESSION_END);'),
        message: 'a trade still open when its session window ends is closed at the close of the bar that ends the window (flat at window end): the rule names no clock or close exit of its own',
      },
    ]);
    expect(review(emaCross.ir, emaCross.code).notes).toEqual([]);
    // a clock exit inside the window closes its entries: said, at the gate
    expect(review(priorDay.ir, priorDay.code).notes).toEqual([
      {
        line: lineWith(priorDay.code, 'if (s.session_gate[i]! !== 1) return;'),
        message:
          "a clock exit closes the entry window too: no trade opens in a window once 14:50 America/Chicago has come round in it: the rule's words name the exit time, not the end of its entries",
      },
    ]);
  });

  it('flags code that never meets the window end it scheduled', () => {
    const line = lineWith(code, 'if (s.t[i]! + TF >= st.deadline) {');
    flagged(ir, editLine(code, line, 's.t[i]! + TF >= st.deadline', 'false'), 'session leak', lineWith(code, 'export function decide('), /never closes a trade whose deadline/);
  });
});

describe('unit mismatch', () => {
  it('flags an oscillator compared with a price, and an RSI level beyond 0..100', () => {
    const rsiVsEma = forged({
      ...VARIETY.emaCross!,
      side: 'long',
      entry: { triggers: [{ side: 'long', when: { op: 'crosses_above', left: { kind: 'rsi', n: 14 }, right: { kind: 'ema', n: 21 } } }] },
    });
    flagged(rsiVsEma.ir, rsiVsEma.code, 'unit mismatch', lineWith(rsiVsEma.code, 's.rsi_14[i]! > s.ema_21[i]!'), /compares rsi_14 \(oscillator\) with ema_21 \(price\)/);
    const high = forged({ ...VARIETY.priorDay!, entry: { triggers: [{ side: 'short', when: { op: 'above', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 170 } } }] } });
    flagged(high.ir, high.code, 'unit mismatch', lineWith(high.code, 's.rsi_14[i]! > 170'), /runs from 0 to 100, and is compared with 170/);
  });

  it('flags a break of an oscillator and a stop at a range', () => {
    const broken = forged({ ...VARIETY.emaCross!, side: 'long', entry: { triggers: [{ side: 'long', when: { op: 'breaks_above', level: { kind: 'rsi', n: 14 } } }] } });
    flagged(broken.ir, broken.code, 'unit mismatch', lineWith(broken.code, 's.h[i]! > s.rsi_14[i]!'), /breaks_above compares the bar's prices with rsi_14, an oscillator/);
    const atrStop = forged({ ...VARIETY.emaCross!, side: 'long', entry: { triggers: [VARIETY.emaCross!.entry.triggers[0]!] }, stop: { kind: 'level', where: 'at', level: { kind: 'atr', n: 14 } } });
    flagged(atrStop.ir, atrStop.code, 'unit mismatch', lineWith(atrStop.code, 'const stop = '), /the stop sits at atr_14, a range/);
  });

  it("flags a tick that is not the market's, an ATR distance with no ATR series, and a percent left undivided", () => {
    const { ir, code } = emaCross;
    flagged(alter(ir, { tick: 0.5 }), code, 'unit mismatch', lineWith(code, 'const INV_TICK = '), /the tick is 0.5, not BTC's/);
    flagged(alter(ir, { stop: { kind: 'distance', distance: { unit: 'atr', mult: 2, series: 'ema_9' } } }), code, 'unit mismatch', lineWith(code, 'const stop = '), /ATRs of ema_9, which is not an ATR series/);
    flagged(alter(ir, { stop: { kind: 'distance', distance: { unit: 'fraction', value: 1.5 } } }), code, 'unit mismatch', lineWith(code, 'const stop = '), /the stop is 1.5 of the price/);
    flagged(alter(ir, { stop: { kind: 'distance', distance: { unit: 'r', value: 1 } } as unknown as DeciderIR['stop'] }), code, 'unit mismatch', lineWith(code, 'const stop = '), /the stop is in R/);
  });

  it("flags code whose time exit is not the IR's", () => {
    const { ir, code } = priorDay;
    const line = lineWith(code, 's.t[f]! + 5400');
    flagged(ir, editLine(code, line, '+ 5400', '+ 3600'), 'unit mismatch', line, /closes 3600 seconds after the fill; the IR's time exits say 5400/);
  });
});

describe('unbounded state', () => {
  const { ir, code } = emaCross;

  it('flags a growing array kept across calls', () => {
    const kept = insertAfter(code, 'const q = ', 'let seen: number[] = [];');
    const pushed = insertAfter(kept.code, 'export function decide(', '  seen.push(i);');
    const c = findings(ir, pushed.code, 'unbounded state');
    expect(c.status).toBe('flagged');
    expect(c.findings).toEqual(
      expect.arrayContaining([
        { line: kept.line, message: expect.stringMatching(/module-level seen/) },
        { line: kept.line, message: 'the code makes an array' },
        { line: pushed.line, message: 'the code grows a collection (.push)' },
      ]),
    );
  });

  it('flags a counter on the state, an unbounded loop, and a per-trade field fill no longer resets', () => {
    const counted = insertAfter(code, 'export function decide(', '  st.seal++;');
    flagged(ir, counted.code, 'unbounded state', counted.line, /st.seal is counted \(\+\+\)/);
    const looped = insertAfter(code, 'export function decide(', '  while (st.phase === FLAT) st.dir = 0;');
    flagged(ir, looped.code, 'unbounded state', looped.line, /a while loop has no bound/);
    const line = lineWith(code, '  st.lastBar = ');
    const kept = editLine(code, line, 'st.lastBar = Infinity;', '');
    flagged(ir, kept, 'unbounded state', lineWith(kept, 'export function fill('), /fill does not reset lastBar/);
  });
});

describe('a clock exit and the entries it closes', () => {
  it("flags a session gate that leaves entries open after the rule's own clock exit", () => {
    const { ir, code } = range;
    if (ir.session.kind !== 'windows') throw new Error('a window');
    const gate = ir.series.map((x) => (x.kind === 'session_gate' ? ({ ...x, params: { zone: x.params.zone, windows: x.params.windows } } as SeriesSpec) : x));
    const { until: _until, ...open } = ir.session;
    flagged(alter(ir, { session: open, series: gate }), code, 'session leak', lineWith(code, 'if (s.session_gate[i]! !== 1) return;'), /entries close at no clock, not at the rule's clock exits \(11:30 America\/New_York\)/);
  });

  it('notes entries that outlive their clock exit: any time, with a clock exit, holds a late entry to the next day', () => {
    const script = { ...VARIETY.bands!, exit: { ...VARIETY.bands!.exit, time: [{ kind: 'clock' as const, at: '16:00', zone: 'UTC' as const }] } };
    const { ir, code } = forged(script);
    const r = review(ir, code);
    expect(r.classes.filter((c) => c.status === 'flagged')).toEqual([]);
    expect(r.notes).toEqual([
      {
        line: lineWith(code, 'deadline(st, s.clock_16_00_utc[f]!, WHY_CLOCK);'),
        message:
          "entries outlive the clock exit: a trade filled at 16:00 UTC is held to 16:00 UTC the next day: a clock exit closes a session window's entries, and this rule's entries fall outside any window it closes",
      },
    ]);
    // a window the clock falls in is closed by it, and says so rather than outliving
    expect(review(range.ir, range.code).notes.map((n) => n.message)).toEqual([
      "a clock exit closes the entry window too: no trade opens in a window once 11:30 America/New_York has come round in it: the rule's words name the exit time, not the end of its entries",
    ]);
  });
});

describe('structure, bands and ranges', () => {
  it('flags a stop beyond the range placed towards the trade', () => {
    const line = lineWith(range.code, 'const stop = q(base - d * 0.25);');
    flagged(range.ir, editLine(range.code, line, 'q(base - d * 0.25)', 'q(base + d * 0.25)'), 'same-bar stop and target order', line, /not placed beyond its level/);
  });

  it('flags a swing or a band series warmed up less than it needs, or read from the wrong input', () => {
    flagged(alter(bands.ir, { warm_up_bars: 3 }), bands.code, 'indicator warm-up', lineWith(bands.code, 's.swing_low_2['), /swing_low_2 needs 4 bars of history/);
    const wrong = bands.ir.series.map((x) => (x.kind === 'swing' ? ({ ...x, source: 'high' } as SeriesSpec) : x));
    flagged(alter(bands.ir, { series: wrong }), bands.code, 'repainting', lineWith(bands.code, 's.swing_low_2['), /swing_low_2 reads high, not what a swing is made of \(low\)/);
  });
});
