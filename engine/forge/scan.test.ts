import { describe, expect, it } from 'vitest';
import { editLine, forged, insertAfter, lineWith, VARIETY, wholeRules } from '../../test/support/forged.js';
import { scriptOfReading } from '../decider/index.js';
import { readRule, type Span } from '../reader/index.js';
import { ScanSchema, scan, type Scan, type ScanSource } from './scan.js';

const rules = wholeRules();
/** A corpus rule by its words, forged, with its reading as the scan's source. */
function rule(words: string) {
  const found = rules.find((r) => r.text.includes(words));
  if (!found) throw new Error(`no whole corpus rule says ${words}`);
  const source: ScanSource = { text: found.text, parts: found.reading };
  return { ...found, ...forged(found.script), source };
}

const nq = rule('Go long NQ on the 1 minute chart when the 9 EMA crosses above the 21 EMA');
const es = rule('ES 5m long: close above VWAP. SL 8 ticks. TP 16 ticks. RTH.');

/** The single invented entry, which must sit on `line`. */
function inventedAt(s: Scan, line: number) {
  expect(s.clean).toBe(false);
  expect(s.invented, JSON.stringify(s.invented)).toHaveLength(1);
  expect(s.invented[0]!.line).toBe(line);
  return s.invented[0]!;
}

const spanTexts = (s: Scan, line: number, token: string): string[] => {
  const t = s.traced.find((x) => x.line === line && x.token === token);
  if (!t || !('spans' in t.from)) throw new Error(`${token} on line ${line} is not traced to words`);
  return t.from.spans.map((x: Span) => x.text);
};

describe('a reading that cites real words but carries another number', () => {
  it('is invented: the stop says 12 points while its words say 10 (a model lane could answer so)', () => {
    const stop = nq.reading.stop.value as { kind: 'distance'; distance: { unit: 'points'; n: number } };
    expect(stop.distance).toEqual({ unit: 'points', n: 10 });
    const reading = { ...nq.reading, stop: { ...nq.reading.stop, value: { ...stop, distance: { unit: 'points' as const, n: 12 } } } };
    const changed = forged({ ...nq.script, stop: reading.stop.value });
    const found = inventedAt(scan(changed.code, { text: nq.text, parts: reading }), lineWith(changed.code, 'const stop = '));
    expect(found.message).toMatch(/says 12, which none of the words it cites say/);
  });
});

describe('a value a documented default supplied', () => {
  const dflt = rule('NQ 5m: buy when price crosses above VWAP, stop 1 ATR, target 2R.');
  const defaultOf = (sc: Scan, line: number, token: string) => sc.traced.find((x) => x.line === line && x.token === token)?.from;

  it('is traced to its rule, not to the words: the session of a futures rule, the length of an ATR', () => {
    expect(dflt.reading.stop.status).toBe('defaulted');
    const s = scan(dflt.code, dflt.source);
    expect(s).toMatchObject({ clean: true, invented: [] });
    expect(defaultOf(s, lineWith(dflt.code, 'const stop = '), 'atr_14')).toEqual({ default: 'atr_length' });
    expect(defaultOf(s, lineWith(dflt.code, 's.session_gate[i]'), 'session_gate')).toEqual({ default: 'session_futures' });
    // the multiple is the words' own
    expect(spanTexts(s, lineWith(dflt.code, 'const stop = '), '1')).toEqual(['stop 1 ATR']);
  });

  it('is invented when the reading does not name the default: a read part claiming the length of 14', () => {
    const { defaults: _, ...stop } = dflt.reading.stop;
    const reading = { ...dflt.reading, stop: { ...stop, status: 'read' as const } };
    const s = scan(dflt.code, { text: dflt.text, parts: reading });
    expect(s.clean).toBe(false);
    expect(new Set(s.invented.map((x) => `${x.token}: ${x.message}`))).toEqual(new Set(["atr_14: the reading's stop says 14, which none of the words it cites say"]));
  });

  it('is traced to the words when they say it too', () => {
    // the entry's ATR takes the default and comes first; the stop says 14 itself
    const text = 'ES 5m: buy when the ATR is above 5 and price crosses above VWAP, stop 2 ATR(14), target 2R.';
    const reading = readRule(text);
    expect(reading.entry.status).toBe('defaulted');
    const got = scriptOfReading(reading);
    if (!got.ok) throw new Error(got.message);
    const { code } = forged(got.script);
    const s = scan(code, { text, parts: reading });
    expect(s.clean).toBe(true);
    const traces = s.traced.filter((t) => t.token === 'atr_14').map((t) => t.from);
    expect(traces.length).toBeGreaterThan(0);
    for (const from of traces) expect(from).toEqual({ spans: [{ from: 65, to: 79, text: 'stop 2 ATR(14)' }] });
  });
});

describe('a distance in dollars, or of "an" ATR', () => {
  it('is traced to the words that say the dollars, placed as points of the contract', () => {
    const usd = rule('NQ 1m: buy when price crosses above the 9 EMA, $250 stop, $500 target.');
    const s = scan(usd.code, usd.source);
    expect(s.clean).toBe(true);
    expect(usd.code).toContain('12.5');
    expect(spanTexts(s, lineWith(usd.code, 'const stop = '), '12.5')).toEqual(['$250 stop']);
    expect(spanTexts(s, lineWith(usd.code, 'st.target = '), '25')).toEqual(['$500 target']);
  });

  it('reads "an ATR" as one ATR', () => {
    const an = rule('SOL 1m short when the 5 EMA crosses below the 13 EMA, stop 0.4%, trail by an ATR.');
    const s = scan(an.code, an.source);
    expect(s.clean).toBe(true);
    expect(spanTexts(s, lineWith(an.code, 'const trail = '), '1')).toEqual(['trail by an ATR']);
  });
});

describe('the scan of a clean forge', () => {
  it('traces every number, indicator, market, time and side to the words that say it', () => {
    const s = scan(nq.code, nq.source);
    expect(ScanSchema.parse(s)).toEqual(s);
    expect(s).toMatchObject({ clean: true, invented: [] });
    const cond = lineWith(nq.code, 'function enterLong(') + 1;
    expect(spanTexts(s, cond, 'ema_21')).toEqual(['9 EMA crosses above the 21 EMA']);
    expect(spanTexts(s, cond, '70')).toEqual(['RSI(14) is below 70']);
    expect(spanTexts(s, cond, 'rsi_14')).toEqual(['RSI(14) is below 70']);
    expect(spanTexts(s, lineWith(nq.code, 'const stop = '), '10')).toEqual(['Stop 10 points']);
    expect(spanTexts(s, lineWith(nq.code, 'st.target = '), '2')).toEqual(['target 2R']);
    expect(spanTexts(s, lineWith(nq.code, 'const TF = '), '60')).toEqual(['1 minute chart']);
    expect(spanTexts(s, lineWith(nq.code, 'arm(i, st, 1)'), '1')).toEqual(['Go long']);
    expect(spanTexts(s, 2, 'NQ')).toEqual(['NQ']);
    expect(spanTexts(s, lineWith(nq.code, 's.session_gate[i]'), 'session_gate')).toEqual(['between 9:45 and 11:30 ET']);
    expect(s.traced.map((t) => t.kind)).toEqual(expect.arrayContaining(['number', 'indicator', 'market', 'time', 'side']));
  });

  it('traces ticks through the market\'s tick: 8 ES ticks are the 2 in the code', () => {
    const s = scan(es.code, es.source);
    expect(s.clean).toBe(true);
    expect(spanTexts(s, lineWith(es.code, 'const stop = q(price - d * 2)'), '2')).toEqual(['SL 8 ticks']);
    expect(spanTexts(s, lineWith(es.code, 'st.target = q(price + d * 4)'), '4')).toEqual(['TP 16 ticks']);
  });

  it("traces a caller's script block to its JSON paths", () => {
    const { code } = forged(VARIETY.emaCross!);
    const s = scan(code, { script: VARIETY.emaCross! });
    expect(s.clean).toBe(true);
    const from = (line: number, token: string) => s.traced.find((t) => t.line === line && t.token === token)?.from;
    const long = lineWith(code, 'function enterLong(') + 1;
    expect(from(long, 'ema_9')).toEqual({ script: '$.entry.triggers[0].when.left.n' });
    expect(from(long, 'ema_21')).toEqual({ script: '$.entry.triggers[0].when.right.n' });
    const stop = lineWith(code, 'const stop = ');
    expect(from(stop, '2')).toEqual({ script: '$.stop.distance.n' });
    expect(from(stop, 'atr_14')).toEqual({ script: '$.stop.distance.period' });
    expect(from(lineWith(code, 'st.target = '), '2')).toEqual({ script: '$.exit.target.distance.n' });
    expect(from(lineWith(code, 'arm(i, st, long ? 1 : -1)'), '-1')).toEqual({ script: '$.side' });
  });

  it('is clean for script blocks of every kind, and leaves the one tick beyond a level stop to the market table', () => {
    for (const [name, script] of Object.entries(VARIETY)) {
      const { code } = forged(script);
      expect(scan(code, { script }).invented, name).toEqual([]);
    }
    const { code } = forged(VARIETY.marks!);
    const offset = lineWith(code, 'const stop = q(base - 0.25)');
    expect(scan(code, { script: VARIETY.marks! }).traced.filter((t) => t.line === offset)).toEqual([]);
  });
});

describe('the scan of altered code', () => {
  const cond = lineWith(nq.code, 'function enterLong(') + 1;

  it('flags an EMA length changed from 21 to 22 as an invented indicator, at its line', () => {
    const s = scan(editLine(nq.code, cond, 's.ema_21[i]!', 's.ema_22[i]!'), nq.source);
    expect(inventedAt(s, cond)).toEqual({ line: cond, token: 'ema_22', kind: 'indicator', message: 'the series ema_22 is not in the words' });
  });

  it('flags a constant 7, put in a condition or as a line of its own', () => {
    const s = scan(editLine(nq.code, cond, '< 70', '< 70 && s.c[i]! > 7'), nq.source);
    expect(inventedAt(s, cond)).toEqual({ line: cond, token: '7', kind: 'number', message: 'the number 7 is not in the words' });
    const added = insertAfter(nq.code, 'const INV_TICK = ', 'const EXTRA = 7;');
    expect(inventedAt(scan(added.code, nq.source), added.line)).toMatchObject({ token: '7', kind: 'number', message: 'EXTRA = 7 is no constant the forge writes' });
  });

  it('flags a stop moved onto a number the words give the target, since the words give it no stop', () => {
    const line = lineWith(es.code, 'const stop = ');
    const s = scan(editLine(es.code, line, 'd * 2)', 'd * 4)'), es.source);
    expect(inventedAt(s, line)).toMatchObject({ token: '4', kind: 'number', message: expect.stringMatching(/^a stop distance of 4 in price/) });
  });

  it('flags a side, a market, a bar length, a tick and a bar back the words do not give', () => {
    const arm = lineWith(nq.code, 'arm(i, st, 1)');
    expect(inventedAt(scan(editLine(nq.code, arm, 'arm(i, st, 1)', 'arm(i, st, -1)'), nq.source), arm)).toMatchObject({ token: '-1', kind: 'side' });
    expect(inventedAt(scan(editLine(nq.code, 2, ': NQ 1m', ': ES 1m'), nq.source), 2)).toMatchObject({ token: 'ES', kind: 'market' });
    const tf = lineWith(nq.code, 'const TF = 60;');
    expect(inventedAt(scan(editLine(nq.code, tf, '60', '300'), nq.source), tf)).toMatchObject({ token: '300', kind: 'time' });
    const tick = lineWith(nq.code, 'const INV_TICK = 4;');
    expect(inventedAt(scan(editLine(nq.code, tick, '4', '100'), nq.source), tick)).toMatchObject({ token: '100', kind: 'number' });
    expect(inventedAt(scan(editLine(nq.code, cond, 's.ema_9[i - 1]!', 's.ema_9[i - 2]!'), nq.source), cond)).toMatchObject({ token: '2', kind: 'number' });
  });

  it("flags what the rule does not say when the code is scanned against another rule's words", () => {
    const s = scan(es.code, nq.source);
    expect(s.clean).toBe(false);
    expect(s.invented.map((x) => x.token)).toEqual(expect.arrayContaining(['ES', '5m', 'vwap', '2', '4', '300']));
  });

  it('traces nothing to spans that do not quote the text', () => {
    const parts = structuredClone(nq.reading);
    parts.entry.spans = parts.entry.spans.map((x) => ({ ...x, text: x.text.toUpperCase() }));
    const s = scan(nq.code, { text: nq.text, parts });
    expect(s.invented.map((x) => x.token)).toEqual(expect.arrayContaining(['ema_9', 'ema_21', 'rsi_14', '70']));
    expect(s.invented.find((x) => x.token === 'ema_9')!.message).toBe("the reading's entry cites no words of the text for the series ema_9");
  });
});
