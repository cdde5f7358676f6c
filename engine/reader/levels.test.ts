import { describe, expect, it } from 'vitest';
import { citationProblems } from './citations.js';
import { readRule } from './read.js';
import type { PartName, RuleReading } from './schema.js';

/** The reader's words for structure, bands and ranges, cities, takes and trailing stops; hints on what does not read. */

const part = <P extends PartName>(text: string, p: P): RuleReading[P] => readRule(text)[p];
const stopOf = (text: string) => part(`NQ 1m: buy when price crosses above VWAP, ${text}, target 2R.`, 'stop');
const swing = (field: 'high' | 'low', strength: number) => ({ kind: 'swing', field, strength });
const bb = (band: string, n = 20, k = 2) => ({ kind: 'bollinger', band, n, k });

describe('stops at structure', () => {
  it('read a swing low or high, its bars on each side said or taken from the documented default', () => {
    expect(stopOf('stop under the swing low')).toMatchObject({
      status: 'defaulted',
      value: { kind: 'level', where: 'below', level: swing('low', 2) },
      defaults: [{ path: '.level.strength', rule: 'swing_strength' }],
    });
    for (const [words, strength] of [
      ['stop below the most recent swing low (3 bars either side)', 3],
      ['stop below the swing low with 1 bar on each side', 1],
      ['stop below the last 5-bar swing low', 2],
      ['stop below the prior 7-bar pivot low', 3],
    ] as const) {
      expect(stopOf(words), words).toMatchObject({ status: 'read', value: { kind: 'level', where: 'below', level: swing('low', strength) } });
    }
    expect(stopOf('stop above the last lower high')).toMatchObject({ status: 'defaulted', value: { where: 'above', level: swing('high', 2) } });
    expect(stopOf('stop under the last higher low')).toMatchObject({ status: 'defaulted', value: { where: 'below', level: swing('low', 2) } });
    expect(stopOf('stop 2 ticks below the swing low')).toMatchObject({ value: { where: 'below', level: swing('low', 2), offset: { unit: 'ticks', n: 2 } } });
  });

  it('leave a swing of an even number of bars unread: it has no middle bar', () => {
    expect(stopOf('stop below the 4-bar swing low')).toMatchObject({ status: 'missing', value: null });
  });

  it('read the other side of the range as beyond it, the range being the opening range the rule names', () => {
    const text = 'ES 1m: buy a break above the 30-minute opening range high, stop beyond the other side of the range, target 2R.';
    expect(part(text, 'stop')).toMatchObject({ status: 'read', value: { kind: 'level', where: 'beyond', level: { kind: 'opening_range', field: 'range', minutes: 30 } } });
    for (const [words, field] of [
      ['stop at the range low', 'low'],
      ['stop at the bottom of the range', 'low'],
      ["stop below the range's low", 'low'],
      ['stop on the far side of the range', 'range'],
    ] as const) {
      const stop = part(`ES 1m: buy a break above the 30-minute opening range high, ${words}, target 2R.`, 'stop');
      expect(stop.value, words).toMatchObject({ level: { kind: 'opening_range', field, minutes: 30 } });
      // the range's length is cited where the rule said it
      expect(stop.spans.map((s) => s.text)).toContain('30-minute opening range high');
    }
    // no opening range named: which range, the words do not say
    expect(stopOf('stop beyond the other side of the range')).toMatchObject({ status: 'missing' });
  });

  it('read a stop beyond a line as on the side the trade leaves by, and beyond a high or low as above or below it', () => {
    expect(stopOf('stop 0.5% beyond VWAP')).toMatchObject({ value: { kind: 'level', where: 'beyond', level: { kind: 'vwap' }, offset: { unit: 'percent', n: 0.5 } } });
    expect(stopOf('stop beyond the prior day low')).toMatchObject({ value: { where: 'below', level: { kind: 'prior_day', field: 'low' } } });
  });
});

describe('exits at a band or a level', () => {
  const exitOf = (words: string) => part(`BTC 5m: buy when RSI(14) crosses above 30, stop 1%, ${words}.`, 'exit');

  it('read a Bollinger band, its length and width said or taken from the documented defaults', () => {
    expect(exitOf('exit when price tags the lower Bollinger band')).toMatchObject({
      status: 'defaulted',
      value: { when: { op: 'touches', level: bb('lower') } },
      defaults: [
        { path: '.when.level.n', rule: 'bollinger_length' },
        { path: '.when.level.k', rule: 'bollinger_width' },
      ],
    });
    for (const [words, level] of [
      ['target the upper BB(20, 2.5)', bb('upper', 20, 2.5)],
      ['target the 30-period Bollinger upper band at 2 standard deviations', bb('upper', 30, 2)],
      ['target the upper band of the Bollinger Bands (10, 1.5)', bb('upper', 10, 1.5)],
      ['target the 3-sigma upper Bollinger band (50)', bb('upper', 50, 3)],
      ['target the Bollinger basis (20, 2)', bb('middle')],
    ] as const) {
      expect(exitOf(words), words).toMatchObject({ status: 'read', value: { target: { kind: 'level', level } } });
    }
  });

  it('read "the middle band" as a band of the Bollinger bands named elsewhere, citing their settings', () => {
    const text = 'SOL 1m: buy when the close crosses above the lower Bollinger band (20, 2.5), stop 1%, exit at the middle band.';
    const exit = part(text, 'exit');
    expect(exit).toMatchObject({ status: 'read', value: { target: { kind: 'level', level: bb('middle', 20, 2.5) } } });
    expect(exit.spans.map((s) => s.text)).toEqual(['lower Bollinger band (20, 2.5)', 'exit at the middle band']);
    // no bands named, or the bands without which one: not read
    expect(part('NQ 5m: buy when price touches the upper band, stop 10 points, target 20 points.', 'entry')).toMatchObject({ status: 'missing' });
    expect(exitOf('exit at the Bollinger bands')).toMatchObject({ status: 'missing' });
  });

  it('read a multiple of the range, said as a number, twice, or a percentage', () => {
    for (const [words, n] of [
      ['target one and a half times the range', 1.5],
      ['target 2x the range', 2],
      ['target twice the opening range', 2],
      ['target 150% of the range', 1.5],
      ['target half the range', 0.5],
    ] as const) {
      const exit = part(`ES 1m: buy a break above the 15-minute opening range high, stop at the opening range low, ${words}.`, 'exit');
      expect(exit.value, words).toEqual({ target: { kind: 'distance', distance: { unit: 'range', n, of: { kind: 'opening_range', field: 'range', minutes: 15 } } } });
    }
    expect(exitOf('target 2x the range')).toMatchObject({ status: 'missing' });
  });

  it('read a prior day level as a target, and a take without the word profit', () => {
    expect(exitOf("target the prior day's close").value).toEqual({ target: { kind: 'level', level: { kind: 'prior_day', field: 'close' } } });
    for (const [words, distance] of [
      ['take 1.2%', { unit: 'percent', n: 1.2 }],
      ['take 40 points', { unit: 'points', n: 40 }],
      ['take it at 2R', { unit: 'r', n: 2 }],
      ['bank 3 ATR(14)', { unit: 'atr', n: 3, period: 14 }],
      ['take 200 dollars', { unit: 'usd', n: 200 }],
    ] as const) {
      expect(exitOf(words).value, words).toEqual({ target: { kind: 'distance', distance } });
    }
    // a take of a trade is no target: "take the trade" reads no amount
    expect(part('BTC 5m: take the trade when RSI(14) crosses above 30, stop 1%, target 2%.', 'exit').value).toEqual({ target: { kind: 'distance', distance: { unit: 'percent', n: 2 } } });
  });
});

describe('timeframes and clocks in words', () => {
  it('read a timeframe spelled out', () => {
    for (const [words, tf] of [
      ['five-minute chart', '5m'],
      ['fifteen-second bars', '15s'],
      ['hourly', '1h'],
      ['sixty-minute candles', '1h'],
      ['one minute chart', '1m'],
    ] as const) {
      expect(part(`ETH ${words}: buy when price crosses above VWAP, stop 1%, target 2%.`, 'timeframe'), words).toMatchObject({ status: 'read', value: tf });
    }
  });

  it('read a bare city after clock times as their clock, for the session and the exit alike', () => {
    for (const [words, zone] of [
      ['between 09:45 and 15:30 Chicago', 'America/Chicago'],
      ['from 10:00 to 12:00 London', 'Europe/London'],
      ['from 13:30 to 20:00 New York', 'America/New_York'],
      ['from 09:00 to 17:30 Frankfurt', 'Europe/Berlin'],
      ['from 09:00 to 17:30 Paris', 'Europe/Paris'],
      ['from 09:00 to 17:20 Zurich', 'Europe/Zurich'],
      ['from 09:00 to 11:30 Tokyo', 'Asia/Tokyo'],
      ['from 09:30 to 12:00 Hong Kong', 'Asia/Hong_Kong'],
      ['from 09:00 to 12:00 Singapore', 'Asia/Singapore'],
      ['from 10:00 to 16:00 Sydney', 'Australia/Sydney'],
      ['from 08:00 to 12:00 CET', 'Europe/Berlin'],
      ['from 09:00 to 11:30 JST', 'Asia/Tokyo'],
    ] as const) {
      const session = part(`ES 1m ${words}: buy when price crosses above VWAP, stop 4 points, target 8 points.`, 'session');
      expect(session, words).toMatchObject({ status: 'read', value: { kind: 'windows', zone } });
    }
    expect(part('ES 1m: buy when price crosses above VWAP, stop 4 points, exit at 10:30 Chicago.', 'exit').value).toEqual({
      time: [{ kind: 'clock', at: '10:30', zone: 'America/Chicago' }],
    });
  });
});

describe('a trailing stop', () => {
  it('with no stop of its own, is where the stop starts: a distance from the entry, or its level', () => {
    const text = 'BTC 1h: long when the 50 SMA crosses above the 200 SMA, trailing stop 1.5 ATR(14).';
    const reading = readRule(text);
    expect(reading.stop).toMatchObject({ status: 'read', value: { kind: 'distance', distance: { unit: 'atr', n: 1.5, period: 14 } }, spans: [{ text: 'trailing stop 1.5 ATR(14)' }] });
    expect(reading.stop.note).toContain('a trailing stop and no other');
    expect(reading.exit).toMatchObject({ status: 'read', value: { trail: { kind: 'distance', distance: { unit: 'atr', n: 1.5, period: 14 } } } });
    expect(part('BTC 1h: long when the 20 EMA crosses above the 50 EMA, trail under the 20 EMA.', 'stop')).toMatchObject({
      status: 'read',
      value: { kind: 'level', where: 'at', level: { kind: 'ema', n: 20 } },
    });
  });

  it('beside a stop of its own, leaves that stop as it is', () => {
    expect(part('YM 5m: short when the 20 EMA crosses below the 50 EMA, trailing stop of 1.5 ATR, stop 30 points.', 'stop').value).toEqual({
      kind: 'distance',
      distance: { unit: 'points', n: 30 },
    });
  });
});

describe('hints', () => {
  it('on every part missing or ambiguous: the words that would read', () => {
    const missing = readRule('I want to make money trading.');
    for (const p of ['market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit'] as const) expect(missing[p].hint, p).toMatch(/\w/);
    expect(part('ES 1m: buy when price crosses above VWAP, stop 4 points, exit at 11:30.', 'exit')).toMatchObject({ status: 'ambiguous', hint: 'write the zone: ET, New York time or UTC' });
    expect(part('ES 1m: buy when price crosses above the 20 MA, stop 4 points, target 8 points.', 'entry')).toMatchObject({
      status: 'ambiguous',
      hint: "say simple or exponential: 'the 20 SMA' or 'the 20 EMA'",
    });
    expect(part('ES 1m: buy when price crosses above VWAP, stop 4, target 8 points.', 'stop')).toMatchObject({ status: 'ambiguous', hint: "give the unit: '4 points' or '4 ticks'" });
    expect(part('ES 1m and BTC 1m: buy when price crosses above VWAP, stop 4 points, target 8 points.', 'market')).toMatchObject({ status: 'ambiguous', hint: 'name one market: a rule trades one' });
  });

  it('on a part read with a length the forge would need and the words do not give', () => {
    expect(part('ES 1m: buy when price crosses above the EMA, stop 4 points, target 8 points.', 'entry')).toMatchObject({
      status: 'read',
      hint: "give its length: 'the 20 EMA', 'RSI(14)', 'the 15-minute opening range'",
    });
    expect(part('ES 1m: buy when price crosses above the 20 EMA, stop 4 points, target 8 points.', 'entry').hint).toBeUndefined();
  });
});

describe('the documented defaults of the new words', () => {
  it("refuse a lane's reading that claims a swing or band default its rule does not give", () => {
    const text = 'NQ 1m: buy when price crosses above VWAP, stop under the swing low, target 2R.';
    const reading = readRule(text);
    expect(citationProblems(text, reading)).toEqual([]);
    const three = { ...reading, stop: { ...reading.stop, value: { kind: 'level', where: 'below', level: swing('low', 3) } } } as RuleReading;
    expect(citationProblems(text, three)).toEqual(["stop.defaults.0: swing_strength puts 2 as a swing's bars on each side, not at .level.strength"]);
    const bands = 'BTC 5m: buy when price tags the lower Bollinger band, stop 1%, target 2%.';
    const wide = readRule(bands);
    const claimed = { ...wide, entry: { ...wide.entry, value: { triggers: [{ side: 'long', when: { op: 'touches', level: bb('lower', 20, 3) } }] } } } as RuleReading;
    expect(citationProblems(bands, claimed)).toEqual(["entry.defaults.1: bollinger_width puts 2 as the Bollinger bands' width, not at .triggers[0].when.level.k"]);
  });
});
