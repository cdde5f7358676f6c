import { describe, expect, it } from 'vitest';
import { citationProblems } from './citations.js';
import { readRule } from './read.js';
import type { PartName, RuleReading } from './schema.js';
import { tokenize } from './tokens.js';

/** The reader's tricky cases, one rule of the vocabulary each. The corpus test holds it to whole rules. */

const part = <P extends PartName>(text: string, p: P): RuleReading[P] => readRule(text)[p];
const value = <P extends PartName>(text: string, p: P): RuleReading[P]['value'] => {
  const got = part(text, p);
  expect(got.status, `${p} of "${text}"`).toBe('read');
  return got.value;
};
const readings = (text: string, p: PartName): unknown[] => {
  const got = part(text, p);
  expect(got.status, `${p} of "${text}"`).toBe('ambiguous');
  return got.readings!.map((r) => r.value);
};
const ny = (from: string, to: string): unknown => ({ kind: 'windows', zone: 'America/New_York', windows: [{ from, to }] });
const trigger = (text: string): unknown => (value(text, 'entry') as { triggers: { when: unknown }[] }).triggers[0]!.when;

describe('tokens', () => {
  it('split letters from digits and keep clock times whole, each with its offsets', () => {
    const t = tokenize('rsi14 at 9:45am, 1:2 RR, 0.5% and 1,000');
    expect(t.map((x) => x.text)).toEqual(['rsi', '14', 'at', '9:45', 'am', ',', '1', ':', '2', 'RR', ',', '0.5', '%', 'and', '1,000']);
    expect(t.find((x) => x.text === '9:45')).toMatchObject({ kind: 'time', value: 9 * 60 + 45, from: 9, to: 13 });
    expect(t.find((x) => x.text === '1,000')!.value).toBe(1000);
    expect(t.find((x) => x.text === '14')!.spaced).toBe(false);
  });
});

describe('numbers and indicators', () => {
  it('read numbers written as words', () => {
    expect(trigger('long when price closes above the two hundred SMA')).toEqual({ op: 'above', left: { kind: 'price', field: 'close' }, right: { kind: 'sma', n: 200 } });
    expect(value('stop one and a half ATR(14)', 'stop')).toEqual({ kind: 'distance', distance: { unit: 'atr', n: 1.5, period: 14 } });
  });

  it('read a pair of averages and a cross of them', () => {
    expect(trigger('buy the 9/21 EMA cross')).toEqual({ op: 'crosses', left: { kind: 'ema', n: 9 }, right: { kind: 'ema', n: 21 } });
    expect(trigger('buy when the 9 EMA crosses above the 21')).toEqual({ op: 'crosses_above', left: { kind: 'ema', n: 9 }, right: { kind: 'ema', n: 21 } });
  });

  it('read a band of an oscillator, and an elided subject after "and"', () => {
    expect(trigger('long when RSI(14) is between 40 and 60')).toEqual({
      op: 'and',
      args: [
        { op: 'above', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 40 } },
        { op: 'below', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 60 } },
      ],
    });
    expect(trigger('long when RSI(14) is below 70 and above 30')).toEqual({
      op: 'and',
      args: [
        { op: 'below', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 70 } },
        { op: 'above', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 30 } },
      ],
    });
  });

  it('bind and tighter than or', () => {
    expect(trigger('buy when price is above VWAP and RSI(2) is below 10 or price touches my level')).toEqual({
      op: 'or',
      args: [
        {
          op: 'and',
          args: [
            { op: 'above', left: { kind: 'price', field: 'close' }, right: { kind: 'vwap' } },
            { op: 'below', left: { kind: 'rsi', n: 2 }, right: { kind: 'constant', value: 10 } },
          ],
        },
        { op: 'touches', level: { kind: 'mark', shape: 'level' } },
      ],
    });
  });

  it('leave an indicator of another timeframe unread, and the comparison beside it', () => {
    for (const text of ['long when price is above the 20-day SMA', 'buy when the 5-minute RSI is below 30 on the 1m']) {
      const entry = part(text, 'entry');
      expect(entry.status).toBe('missing');
      expect(entry.note).toMatch(/not read/);
    }
    expect(part('long when price is above the 20-day SMA', 'timeframe').status).toBe('missing');
  });

  it('take no word for a number or unit because it names something on every object', () => {
    const reading = readRule('stop 5 constructor, target 3 toString, hasOwnProperty valueOf');
    expect(reading.stop.readings!.map((r) => r.value)).toEqual([
      { kind: 'distance', distance: { unit: 'points', n: 5 } },
      { kind: 'distance', distance: { unit: 'ticks', n: 5 } },
    ]);
    expect(reading.timeframe.status).toBe('missing');
  });

  it('never choose a length the words do not give, and say so', () => {
    const entry = part('short when RSI crosses below 70', 'entry');
    expect(entry.value!.triggers[0]!.when).toEqual({ op: 'crosses_below', left: { kind: 'rsi', n: null }, right: { kind: 'constant', value: 70 } });
    expect(entry.note).toMatch(/RSI/);
    expect(entry.status).toBe('read');
  });

  it("take an ATR's documented length, 14, when the words give none, and name the default", () => {
    const stop = part('stop 2 ATR', 'stop');
    expect(stop).toMatchObject({
      status: 'defaulted',
      value: { kind: 'distance', distance: { unit: 'atr', n: 2, period: 14 } },
      defaults: [{ path: '.distance.period', rule: 'atr_length' }],
      spans: [{ text: 'stop 2 ATR' }],
    });
    expect(stop.note).toMatch(/ATR length/);
    const entry = part('buy when the ATR is above 5 and RSI(2) is below 10', 'entry');
    expect(entry).toMatchObject({ status: 'defaulted', defaults: [{ path: '.triggers[0].when.args[0].left.n', rule: 'atr_length' }] });
    // An ATR whose length the words give is read, not defaulted.
    expect(part('stop 2 ATR(10)', 'stop').status).toBe('read');
  });

  it('leave "MA" ambiguous between simple and exponential, wherever it stands', () => {
    expect(readings('long when price is above the 50 MA', 'entry')).toHaveLength(2);
    expect(readings('long above VWAP, exit when price closes below the 20 moving average', 'exit')).toEqual([
      { when: { op: 'below', left: { kind: 'price', field: 'close' }, right: { kind: 'sma', n: 20 } } },
      { when: { op: 'below', left: { kind: 'price', field: 'close' }, right: { kind: 'ema', n: 20 } } },
    ]);
  });
});

describe('levels', () => {
  it('break a high upward, a low downward, and a range either way', () => {
    expect(trigger('buy a break of the prior day high')).toEqual({ op: 'breaks_above', level: { kind: 'prior_day', field: 'high' } });
    expect(trigger('sell short a break of PDL')).toEqual({ op: 'breaks_below', level: { kind: 'prior_day', field: 'low' } });
    expect(trigger('trade the ORB')).toEqual({ op: 'breaks', level: { kind: 'opening_range', field: 'range', minutes: null } });
    expect(trigger('buy when price makes a new 20 bar high')).toEqual({ op: 'breaks_above', level: { kind: 'highest', n: 20 } });
  });

  it('give a later mention of the opening range the length said earlier, and cite it', () => {
    const text = 'NQ 1m, ORB: buy the break of the 5 minute opening range high, stop at the OR low';
    const stop = part(text, 'stop');
    expect(stop.value).toEqual({ kind: 'level', where: 'at', level: { kind: 'opening_range', field: 'low', minutes: 5 } });
    expect(stop.spans.map((s) => s.text)).toContain('5 minute opening range high');
    // the "ORB" only names the setup once the range's high is stated
    expect(trigger(text)).toEqual({ op: 'breaks_above', level: { kind: 'opening_range', field: 'high', minutes: 5 } });
    expect(value(text, 'timeframe')).toBe('1m');
  });

  it('take the length said with an ORB for the range it names, and read a bare ORB as a break of the range', () => {
    expect(trigger('NQ 15 min ORB: buy the break of the OR high')).toEqual({ op: 'breaks_above', level: { kind: 'opening_range', field: 'high', minutes: 15 } });
    expect(trigger('ES 5m, trade the 30 min ORB')).toEqual({ op: 'breaks', level: { kind: 'opening_range', field: 'range', minutes: 30 } });
  });

  it('read "the zone" as the trader\'s mark only when the text names one', () => {
    expect(value('buy when price dips into my zone, stop below the zone', 'stop')).toEqual({ kind: 'level', where: 'below', level: { kind: 'mark', shape: 'zone' } });
    expect(part('buy at support, stop below the zone', 'stop').status).toBe('missing');
  });

  it('read a stop said before its word, and a tick as one', () => {
    expect(value('long above VWAP, use the OR low as my stop', 'stop')).toEqual({ kind: 'level', where: 'at', level: { kind: 'opening_range', field: 'low', minutes: null } });
    expect(value('short, stop a tick above the signal bar high', 'stop')).toEqual({
      kind: 'level',
      where: 'above',
      level: { kind: 'bar', bar: 'signal', field: 'high' },
      offset: { unit: 'ticks', n: 1 },
    });
  });

  it('read beyond a high as above it, and a long number in words', () => {
    expect(value('short NQ, stop beyond the OR high', 'stop')).toEqual({ kind: 'level', where: 'above', level: { kind: 'opening_range', field: 'high', minutes: null } });
    expect(value('target one hundred and fifty points', 'exit')).toEqual({ target: { kind: 'distance', distance: { unit: 'points', n: 150 } } });
  });

  it('read time stops and holds as time exits, in the order said', () => {
    expect(value('long above VWAP, time stop of 30 minutes, flat by the close', 'exit')).toEqual({ time: [{ kind: 'minutes', n: 30 }, { kind: 'session_close' }] });
    expect(value('hold for 10 bars', 'exit')).toEqual({ time: [{ kind: 'bars', n: 10 }] });
  });

  it('refuse a stop that is only a move to breakeven, saying so', () => {
    const stop = part('long above VWAP, move stop to breakeven at 1R', 'stop');
    expect(stop.status).toBe('missing');
    expect(stop.note).toMatch(/breakeven/);
    expect(stop.spans.map((s) => s.text)).toEqual(['move stop to breakeven at 1R']);
  });
});

describe('sides', () => {
  it('do not hear a side in "as long as" or "short term"', () => {
    expect(part('ES 5m, trade as long as price is above VWAP, short term scalps', 'side').status).toBe('missing');
  });

  it('hear a bare sell after a buy as the way out, and a sell alone as a short', () => {
    expect(value('buy when RSI(2) < 10, sell when RSI(2) > 90', 'side')).toBe('long');
    expect(value('buy when RSI(2) < 10, sell when RSI(2) > 90', 'exit')).toEqual({ when: { op: 'above', left: { kind: 'rsi', n: 2 }, right: { kind: 'constant', value: 90 } } });
    expect(value('sell when RSI(2) > 90', 'side')).toBe('short');
  });

  it('turn a rule over for "vice versa" only when the words give its mirror', () => {
    expect(value('buy when price crosses above the 20 EMA and vice versa', 'side')).toBe('both');
    const refused = readRule('buy when RSI(2) is below 10 and vice versa for shorts');
    expect(refused.entry.value!.triggers).toHaveLength(1);
    expect(refused.entry.note).toMatch(/vice versa/);
    expect(refused.side.value).toBe('long');
  });

  it('call long and short words without a trigger each ambiguous, and a word for both both', () => {
    expect(readings('long when price crosses above VWAP. I also short sometimes.', 'side')).toEqual(['long', 'short']);
    expect(value('either direction, trade the break of the opening range', 'side')).toBe('both');
  });
});

describe('sessions and clocks', () => {
  it('narrow overlapping windows, keep windows apart, and cut windows with halves', () => {
    expect(value('cash session only, and only between 9:45 and 11:30 ET', 'session')).toEqual(ny('09:45', '11:30'));
    expect(value('trade 9:30-10:00 and 15:00-16:00 ET', 'session')).toEqual({
      kind: 'windows',
      zone: 'America/New_York',
      windows: [{ from: '09:30', to: '10:00' }, { from: '15:00', to: '16:00' }],
    });
    expect(value('RTH, no new trades after 15:00 ET', 'session')).toEqual(ny('09:30', '15:00'));
    expect(value('only after 10:00 ET and before 2pm ET', 'session')).toEqual(ny('10:00', '14:00'));
    expect(value('stop trading at 11:30 ET', 'session')).toEqual(ny('00:00', '11:30'));
  });

  it('read exchange time by the market: New York for futures, UTC for crypto, either without a market', () => {
    expect(value('ES, 9:30 to 10:00 exchange time', 'session')).toEqual(ny('09:30', '10:00'));
    expect(value('BTC, 9:30 to 10:00 exchange time', 'session')).toEqual({ kind: 'windows', zone: 'UTC', windows: [{ from: '09:30', to: '10:00' }] });
    expect(readings('9:30 to 10:00 exchange time', 'session')).toHaveLength(2);
  });

  it('give a time without a clock the one clock the text names, and no clock when it names two', () => {
    expect(value('trade 9:30 to 11:00 ET, flat at 11:15', 'exit')).toEqual({ time: [{ kind: 'clock', at: '11:15', zone: 'America/New_York' }] });
    expect(readings('trade 14:00 to 16:00 UTC and 9:30 to 10:00 ET, flat at 11:15', 'exit')).toHaveLength(2);
    expect(readings('trade 14:00 to 16:00 UTC and 9:30 to 10:00 ET', 'session')).toHaveLength(2);
  });

  it('name a session it does not know the hours of, without guessing them', () => {
    const session = part('BTC, Asian session only', 'session');
    expect(session.status).toBe('missing');
    expect(session.note).toMatch(/Asian session/);
    expect(session.spans.map((s) => s.text)).toEqual(['Asian session']);
  });
});

describe('markets and timeframes', () => {
  it('read a micro contract as its index future, and name a market the tape does not serve', () => {
    expect(value('MES 1m', 'market')).toBe('ES');
    const crude = part('crude oil on the 5m', 'market');
    expect(crude.status).toBe('missing');
    expect(crude.note).toMatch(/crude oil/);
  });

  it('tell a timeframe from a duration and from an opening range', () => {
    expect(value('ES on the 5 minute chart, exit after 30 minutes', 'timeframe')).toBe('5m');
    expect(value('ES on the 5 minute chart, exit after 30 minutes', 'exit')).toEqual({ time: [{ kind: 'minutes', n: 30 }] });
    expect(value('NQ 15s, buy the break of the 15-minute opening range high', 'timeframe')).toBe('15s');
  });

  it('cite a timeframe the tape does not serve, and read a served one said beside it', () => {
    const alone = part('BTC 4h chart', 'timeframe');
    expect(alone).toMatchObject({ status: 'missing', spans: [{ text: '4h chart' }] });
    expect(alone.note).toMatch(/15s, 1m, 5m, 1h/);
    const beside = part('trend from the daily chart, enter on the 5m', 'timeframe');
    expect(beside).toMatchObject({ status: 'read', value: '5m' });
    expect(beside.note).toMatch(/daily/);
  });
});

describe('citations', () => {
  const text = 'NQ 1m, long when price crosses above VWAP, stop 10 points, target 2R';

  it('find none in the reader\'s own readings', () => {
    expect(citationProblems(text, readRule(text))).toEqual([]);
  });

  it('refuse a reading whose span is not the words it quotes, runs past the text, or adds a field', () => {
    const reading = readRule(text);
    const forged = { ...reading, market: { ...reading.market, spans: [{ from: 3, to: 5, text: 'NQ' }] } };
    expect(citationProblems(text, forged)).toEqual(['market.spans.0: span 3-5 is not the words it quotes']);
    const past = { ...reading, market: { ...reading.market, spans: [{ from: 90, to: 92, text: 'NQ' }] } };
    expect(citationProblems(text, past)[0]).toMatch(/runs past the text/);
    expect(citationProblems(text, { ...reading, market: { ...reading.market, confidence: 0.9 } }).length).toBeGreaterThan(0);
    expect(citationProblems(text, { ...reading, side: { status: 'read', value: 'long', spans: [] } }).length).toBeGreaterThan(0);
  });

  it('refuse a default that is not what its rule gives', () => {
    const atr = 'NQ 1m, long when price crosses above VWAP, stop 2 ATR, target 2R';
    const reading = readRule(atr);
    expect(citationProblems(atr, reading)).toEqual([]);
    const ten = { ...reading, stop: { ...reading.stop, value: { kind: 'distance', distance: { unit: 'atr', n: 2, period: 10 } } } };
    expect(citationProblems(atr, ten)).toEqual(['stop.defaults.0: atr_length puts 14 as an ATR\'s length, not at .distance.period']);
    const cash = { ...reading, session: { ...reading.session, value: { kind: 'always' } } };
    expect(citationProblems(atr, cash)).toEqual(['session.defaults.0: session_futures is the whole session of a futures market the reading reads']);
    const crypto = { ...reading, session: { ...reading.session, defaults: [{ path: '', rule: 'session_crypto' }] } };
    expect(citationProblems(atr, crypto)).toHaveLength(1);
    // A default claimed on a read part, or a defaulted part naming none, fails the schema.
    expect(citationProblems(atr, { ...reading, exit: { ...reading.exit, defaults: [{ path: '', rule: 'atr_length' }] } }).length).toBeGreaterThan(0);
    expect(citationProblems(atr, { ...reading, stop: { ...reading.stop, defaults: undefined } }).length).toBeGreaterThan(0);
  });
});

describe('the documented defaults', () => {
  it('give an unstated session the market\'s own, citing the market, and leave it missing with no market', () => {
    expect(part('ES 5m, buy above VWAP, stop 4 points', 'session')).toMatchObject({
      status: 'defaulted',
      value: ny('09:30', '16:00'),
      defaults: [{ path: '', rule: 'session_futures' }],
      spans: [{ text: 'ES' }],
    });
    expect(part('SOL 5m, buy above VWAP, stop 1%', 'session')).toMatchObject({ status: 'defaulted', value: { kind: 'always' }, defaults: [{ rule: 'session_crypto' }] });
    expect(part('5m, buy above VWAP, stop 4 points', 'session').status).toBe('missing');
    expect(part('NQ or ES 5m, buy above VWAP', 'session').status).toBe('missing');
  });

  it('never override what the words say of the session, or a session named that the reader cannot place', () => {
    expect(part('ES 5m, buy above VWAP between 10:00 and 11:00 ET', 'session')).toMatchObject({ status: 'read', value: ny('10:00', '11:00') });
    expect(part('ES 5m, buy above VWAP during the Asian session', 'session')).toMatchObject({ status: 'missing', note: expect.stringMatching(/Asian/) });
  });
});

describe('the phrasings of stops, exits and entries', () => {
  it('read dollars as a stop or target on one contract, the micro when named so, and dollars of a trade as sizing', () => {
    expect(value('NQ 1m, $250 stop', 'stop')).toEqual({ kind: 'distance', distance: { unit: 'usd', n: 250 } });
    expect(value('ES 5m, a 100 dollar stop', 'stop')).toEqual({ kind: 'distance', distance: { unit: 'usd', n: 100 } });
    expect(value('MES 5m, stop $25, take profit 50 USD', 'exit')).toEqual({ target: { kind: 'distance', distance: { unit: 'usd', n: 50, micro: true } } });
    expect(value('NQ 5m, risk $500 per trade, stop 10 points', 'stop')).toEqual({ kind: 'distance', distance: { unit: 'points', n: 10 } });
    // NQ and MNQ both named: which contract the dollars are on, the words do not say.
    expect(part('NQ or MNQ 5m, buy above VWAP, $200 stop', 'stop').status).toBe('missing');
  });

  it('settle a bar without its high or low by the side of the comparison before it, else leave it', () => {
    expect(value('long above VWAP, stop below the trigger candle', 'stop')).toEqual({ kind: 'level', where: 'below', level: { kind: 'bar', bar: 'signal', field: 'low' } });
    expect(value('short below VWAP, stop just above the previous candle', 'stop')).toEqual({ kind: 'level', where: 'above', level: { kind: 'bar', bar: 'previous', field: 'high' } });
    expect(part('short below VWAP, stop past the entry candle', 'stop').status).toBe('missing');
  });

  it('read its high and that bar\'s low as the bar or level named before, and "that candle" alone as the signal bar', () => {
    expect(value("buy the break of the prior day high, stop below its low", 'stop')).toEqual({ kind: 'level', where: 'below', level: { kind: 'prior_day', field: 'low' } });
    expect(value("buy when a candle closes above VWAP, stop below that candle's low", 'stop')).toEqual({ kind: 'level', where: 'below', level: { kind: 'bar', bar: 'signal', field: 'low' } });
    expect(part('buy above VWAP, stop below its low', 'stop').status).toBe('missing');
  });

  it("read the session's first bar as the opening range of its size, and only that", () => {
    expect(trigger("buy the break of the first 5m bar's high")).toEqual({ op: 'breaks_above', level: { kind: 'opening_range', field: 'high', minutes: 5 } });
    expect(trigger('buy above the high of the first hourly candle of the day')).toEqual({ op: 'above', left: { kind: 'price', field: 'close' }, right: { kind: 'opening_range', field: 'high', minutes: 60 } });
    expect(trigger("ES 5m, short below the first bar's low")).toEqual({ op: 'below', left: { kind: 'price', field: 'close' }, right: { kind: 'opening_range', field: 'low', minutes: 5 } });
    // a 15-second chart's first bar is no whole minute: its length stays unstated
    expect(trigger("ES 15s, short below the first bar's low")).toEqual({ op: 'below', left: { kind: 'price', field: 'close' }, right: { kind: 'opening_range', field: 'low', minutes: null } });
    expect(value('ES 1m, buy above VWAP in the first hour', 'session')).toEqual(ny('09:30', '10:30'));
    expect(value('ES 1m, buy above VWAP in the first 30 minutes', 'session')).toEqual(ny('09:30', '10:00'));
    expect(value('ES 1m, buy the first bar after the close crosses above VWAP', 'entry')!.triggers[0]!.when).toEqual({
      op: 'crosses_above',
      left: { kind: 'price', field: 'close' },
      right: { kind: 'vwap' },
    });
  });

  it('read a break by the close as a cross, and a break by the price as a break of the bar\'s range', () => {
    expect(trigger('long when the close breaks above the prior day high')).toEqual({ op: 'crosses_above', left: { kind: 'price', field: 'close' }, right: { kind: 'prior_day', field: 'high' } });
    expect(trigger('long when price breaks above the prior day high')).toEqual({ op: 'breaks_above', level: { kind: 'prior_day', field: 'high' } });
    expect(trigger('trade a close through VWAP either way')).toEqual({ op: 'crosses', left: { kind: 'price', field: 'close' }, right: { kind: 'vwap' } });
    expect(trigger('trade the 15 minute opening range breakout')).toEqual({ op: 'breaks', level: { kind: 'opening_range', field: 'range', minutes: 15 } });
  });

  it('read a return to a line as a touch of it', () => {
    for (const words of ['falls back to', 'reverts to', 'is back at', 'gets back to', 'retraces to', 'comes back down to']) {
      expect(value(`long above VWAP, exit when price ${words} the 20 EMA`, 'exit'), words).toEqual({ when: { op: 'touches', level: { kind: 'ema', n: 20 } } });
    }
  });

  it('read a minute or an hour chart without a number', () => {
    expect(value('ES minute chart, buy above VWAP', 'timeframe')).toBe('1m');
    expect(value('BTC on the hour candles, buy above VWAP', 'timeframe')).toBe('1h');
    expect(part('ES, buy above VWAP, exit after a minute', 'timeframe').status).toBe('missing');
  });
});

describe('the reader', () => {
  it('is pure: a reading does not depend on what was read before', () => {
    const a = 'NQ 1m, long when price crosses above VWAP, stop 10 points';
    const first = JSON.stringify(readRule(a));
    readRule('BTC and ETH 5m, 9:30 to 10:00 exchange time, vice versa');
    expect(JSON.stringify(readRule(a))).toBe(first);
  });

  it('reads nothing from no words', () => {
    const empty = readRule('');
    expect(Object.values(empty).map((p) => p.status)).toEqual(Array(7).fill('missing'));
  });
});
