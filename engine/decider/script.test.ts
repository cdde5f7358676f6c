import { describe, expect, it } from 'vitest';
import { PARTS, RuleReadingSchema, type Part, type RuleReading } from '../reader/schema.js';
import { CASH } from '../reader/vocabulary.js';
import { ScriptSchema, scriptOfReading, trialSession, type Script } from './script.js';

const script: Script = {
  version: 'script.v1',
  market: 'NQ',
  timeframe: '1m',
  session: { kind: 'windows', zone: 'America/New_York', windows: [{ from: '09:45', to: '11:30' }] },
  side: 'long',
  entry: { triggers: [{ side: 'long', when: { op: 'crosses_above', left: { kind: 'ema', n: 9 }, right: { kind: 'ema', n: 21 } } }] },
  stop: { kind: 'distance', distance: { unit: 'points', n: 10 } },
  exit: { target: { kind: 'distance', distance: { unit: 'r', n: 2 } } },
};

const read = <V>(value: V): Part<V> => ({ status: 'read', value, spans: [{ from: 0, to: 2, text: 'NQ' }] });
const readingOf = (s: Script): RuleReading =>
  RuleReadingSchema.parse(Object.fromEntries(PARTS.map((p) => [p, read(s[p])])));

describe('the script block', () => {
  it('is strict: every part required, nothing else allowed, the version named', () => {
    expect(ScriptSchema.parse(script)).toEqual(script);
    expect(ScriptSchema.safeParse({ ...script, note: 'x' }).success).toBe(false);
    expect(ScriptSchema.safeParse({ ...script, version: 'script.v2' }).success).toBe(false);
    const { exit: _, ...noExit } = script;
    expect(ScriptSchema.safeParse(noExit).success).toBe(false);
    expect(ScriptSchema.safeParse({ ...script, market: 'CL' }).success).toBe(false);
  });

  it('is what a reading with all seven parts read says, one to one', () => {
    const out = scriptOfReading(readingOf(script));
    expect(out).toEqual({ ok: true, script });
  });

  it('takes a part a documented default completed as it takes a read one', () => {
    const reading = readingOf(script);
    reading.session = { status: 'defaulted', value: CASH, spans: [{ from: 0, to: 2, text: 'NQ' }], defaults: [{ path: '', rule: 'session_futures' }] };
    expect(scriptOfReading(RuleReadingSchema.parse(reading))).toEqual({ ok: true, script: { ...script, session: CASH } });
  });

  it('refuses a reading with a part missing or ambiguous, naming each such part', () => {
    const reading = readingOf(script);
    reading.stop = { status: 'missing', value: null, spans: [] };
    reading.market = {
      status: 'ambiguous',
      value: null,
      spans: [],
      readings: [
        { value: 'NQ', spans: [{ from: 0, to: 2, text: 'NQ' }] },
        { value: 'ES', spans: [{ from: 6, to: 8, text: 'ES' }] },
      ],
    };
    const out = scriptOfReading(RuleReadingSchema.parse(reading));
    expect(out).toEqual({
      ok: false,
      refused: [
        { part: 'market', status: 'ambiguous' },
        { part: 'stop', status: 'missing' },
      ],
      message: 'a script needs all seven parts read: market is ambiguous, stop is missing',
    });
  });
});

describe('the trial session', () => {
  it('is the cash session for NQ, ES and YM and around the clock for crypto when the caller names none', () => {
    for (const m of ['NQ', 'ES', 'YM'] as const) expect(trialSession(m)).toEqual(CASH);
    expect(CASH).toEqual({ kind: 'windows', zone: 'America/New_York', windows: [{ from: '09:30', to: '16:00' }] });
    for (const m of ['BTC', 'ETH', 'SOL'] as const) expect(trialSession(m)).toEqual({ kind: 'always' });
    expect(trialSession('NQ', { kind: 'always' })).toEqual({ kind: 'always' });
  });
});
