import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { barsFromRows, barsToRows, type Bars } from '../bars.js';
import { isOpen } from '../calendar.js';
import { readRule } from '../reader/index.js';
import { resample } from '../resample.js';
import { DEFAULT_COSTS, slippageOf } from '../stepper/costs.js';
import { rehearse } from '../stepper/rehearse.js';
import { seedHash } from './canonical.js';
import { compileDecider } from './compile.js';
import { freshState, PHASE } from './contract.js';
import { irOf } from './ir.js';
import { scriptOfReading } from './script.js';
import { seriesOf } from './series.js';

// Levels held for a day or a session, at the instant they change, on the shipped sample's real bars: the prior day's
// high and close at a new UTC day (BTC) and a new CME day (ES, 17:00 Chicago), the opening range at its end (ES's
// cash open; BTC's UTC day on sparse 15-second bars), and the cash session's open and close. Each expectation is
// computed here from the bars alone, not by the deck's series.

const VERSION = 'boundaries.test.v1';
const DAY = 86_400;
const at = (s: string) => Date.parse(s) / 1000;
const iso = (t: number) => new Date(t * 1000).toISOString().replace(':00.000Z', 'Z');

/** The bars the tape serves of a CME market: none inside a halt (the 2013 file keeps the older schedule's minutes). */
const served = (bars: Bars, market: 'ES'): Bars => barsFromRows(barsToRows(bars).filter((r) => isOpen(market, r.t)));

const BTC_1H = sampleFile('BTC-1h');
const ES_1M = served(sampleFile('ES-1m'), 'ES');
const BTC_15S = resample(sampleFile('BTC-1s'), 1, 15).bars;

function forged(words: string) {
  const got = scriptOfReading(readRule(words));
  if (!got.ok) throw new Error(`${words}: ${got.message}`);
  const ir = irOf(got.script);
  const seed = seedHash(ir, VERSION);
  return { ir, seed, decider: compileDecider(ir, seed, VERSION) };
}

/** The open times of the bars whose close arms an entry from flat. */
function armedAt(words: string, bars: Bars): string[] {
  const { ir, decider } = forged(words);
  const s = seriesOf(ir, bars);
  const out: string[] = [];
  for (let i = 1; i < bars.length; i++) {
    const st = freshState();
    decider.decide(i, st, s);
    if (st.phase === PHASE.ARMED) out.push(iso(bars.t[i]!));
  }
  return out;
}

/** The open times of the bars meeting a definition, i from 1. */
const definedAt = (bars: Bars, test: (i: number) => boolean): string[] =>
  Array.from(bars.t, (t, i) => (i > 0 && test(i) ? iso(t) : null)).filter((x): x is string => x !== null);

/** Per bar, a level held for the bar's trading day: `of(day before)` when the bars hold that day, else NaN. */
function perDay(bars: Bars, dayOf: (t: number) => number, dayBefore: (d: number) => number, field: 'h' | 'c'): (i: number) => number {
  const days = new Map<number, { h: number; c: number }>();
  for (let i = 0; i < bars.length; i++) {
    const d = days.get(dayOf(bars.t[i]!)) ?? { h: -Infinity, c: NaN };
    days.set(dayOf(bars.t[i]!), { h: Math.max(d.h, bars.h[i]!), c: bars.c[i]! });
  }
  return (i) => days.get(dayBefore(dayOf(bars.t[i]!)))?.[field] ?? NaN;
}

describe('the prior day at a new day: the level in force for the bar, the bar before held to it too', () => {
  // Bitfinex BTC 1h, October 2013: the prior UTC day's high.
  const pdh = perDay(BTC_1H, (t) => Math.floor(t / DAY), (d) => d - 1, 'h');
  const words = 'BTC hourly chart, around the clock: go long when price breaks above the prior day high. Stop 2 ATR(14). Exit after 3 bars.';

  it('arms on the first bar of a UTC day whose high clears the day just ended, though the bar before cleared the day before', () => {
    const armed = armedAt(words, BTC_1H);
    expect(armed).toEqual(definedAt(BTC_1H, (i) => BTC_1H.h[i]! > pdh(i) && BTC_1H.h[i - 1]! <= pdh(i)));
    // 13 October 00:00: high 127.97 over the 12th's 127.96, where the 12th's last bar (127.60) was already over the
    // 11th's 127.44; likewise the 14th (139.99 over 133.40) and the 22nd (184.02 over 183.66).
    const i = Array.from(BTC_1H.t).indexOf(at('2013-10-13T00:00:00Z'));
    expect([BTC_1H.h[i], pdh(i), BTC_1H.h[i - 1], pdh(i - 1)]).toEqual([127.97, 127.96, 127.6, 127.44]);
    expect(armed).toEqual(expect.arrayContaining(['2013-10-13T00:00Z', '2013-10-14T00:00Z', '2013-10-22T00:00Z', '2013-10-04T00:00Z']));
  });

  it('fills those breaks at the next bar\'s open, slippage against, in a rehearsal', () => {
    const { ir, seed, decider } = forged(words);
    const { trades } = rehearse(ir, decider, BTC_1H, { seed, nullRuns: 10 });
    const slip = slippageOf('BTC', DEFAULT_COSTS.BTC);
    for (const signal of ['2013-10-14T00:00:00Z', '2013-10-22T00:00:00Z']) {
      const f = Array.from(BTC_1H.t).indexOf(at(signal)) + 1;
      const entry = Math.round((BTC_1H.o[f]! + slip) * 100) / 100;
      expect(trades.find((x) => x.entry_t === BTC_1H.t[f])).toMatchObject({ side: 'long', entry });
    }
  });

  it('a close through the prior day high on a new day\'s first bar is a cross', () => {
    const c = (i: number) => BTC_1H.c[i]!;
    const armed = armedAt(words.replace('price breaks above', 'the close crosses above'), BTC_1H);
    expect(armed).toEqual(definedAt(BTC_1H, (i) => c(i) > pdh(i) && c(i - 1) <= pdh(i)));
    expect(armed).toEqual(expect.arrayContaining(['2013-10-14T00:00Z', '2013-10-22T00:00Z']));
  });

  it('the settle at a new CME day (17:00 Chicago, 22:00 UTC in October): the close of the day just ended', () => {
    // The CME day opening at 22:00 UTC (CDT) carries the next date; Monday's day before is Friday's.
    const cmeDay = (t: number) => Math.floor((t + 2 * 3600) / DAY);
    const settle = perDay(ES_1M, cmeDay, (d) => d - (new Date(d * DAY * 1000).getUTCDay() === 1 ? 3 : 1), 'c');
    const c = (i: number) => ES_1M.c[i]!;
    const rule = (side: string) => `ES 1 minute chart, around the clock: go ${side} when the close crosses ${side === 'long' ? 'above' : 'below'} the prior day settle. Stop 2 points. Exit after 5 bars.`;
    const long = armedAt(rule('long'), ES_1M);
    const short = armedAt(rule('short'), ES_1M);
    expect(long).toEqual(definedAt(ES_1M, (i) => c(i) > settle(i) && c(i - 1) <= settle(i)));
    expect(short).toEqual(definedAt(ES_1M, (i) => c(i) < settle(i) && c(i - 1) >= settle(i)));
    // 10 October settled at 1682.50 (its 20:59 UTC bar, over the 9th's 1648.75); the new day's first bar closed at
    // 1683.50. 7 October, the sample's first whole day, settled at 1668.00; the new day opened under it at 1667.25.
    const i = Array.from(ES_1M.t).indexOf(at('2013-10-10T22:00:00Z'));
    expect([iso(ES_1M.t[i - 1]!), c(i - 1), settle(i), settle(i - 1), c(i)]).toEqual(['2013-10-10T20:59Z', 1682.5, 1682.5, 1648.75, 1683.5]);
    expect(long).toContain('2013-10-10T22:00Z');
    expect(short).toContain('2013-10-07T22:00Z');
  });

  it('is not known after a day the tape does not hold: BTC 1m jumps from 9 October 2016 to 3 September 2017', () => {
    const btc = sampleFile('BTC-1m');
    const armed = armedAt('BTC 1 minute chart, around the clock: go long when price breaks above the prior day high. Stop 0.5%. Target 2R.', btc);
    const pdhBtc = perDay(btc, (t) => Math.floor(t / DAY), (d) => d - 1, 'h');
    expect(armed).toEqual(definedAt(btc, (i) => btc.h[i]! > pdhBtc(i) && btc.h[i - 1]! <= pdhBtc(i)));
    expect(armed.filter((t) => t.startsWith('2017-09-03') || t.startsWith('2017-12-17') || t.startsWith('2018-04-04'))).toEqual([]);
  });
});

describe('the opening range at its end', () => {
  it('ES: the 15-minute range is known from the close of the 13:44 UTC bar; the first bar after it may break it', () => {
    const words = 'ES 1 minute chart, cash session: go long when price breaks above the 15 minute opening range high. Stop 2 points. Target 2R.';
    // New York weekdays, EDT: the range is the bars opening 13:30 to 13:44 UTC; the cash session, closes 13:30 to 20:00.
    const orh = (i: number) => {
      const t = ES_1M.t[i]!;
      const open = Math.floor(t / DAY) * DAY + 13.5 * 3600;
      if (t < open + 15 * 60) return NaN;
      let h = -Infinity;
      for (let j = i; j >= 0 && ES_1M.t[j]! >= open; j--) if (ES_1M.t[j]! < open + 15 * 60) h = Math.max(h, ES_1M.h[j]!);
      return h;
    };
    const inCash = (i: number) => (ES_1M.t[i]! + 60) % DAY >= 13.5 * 3600 && (ES_1M.t[i]! + 60) % DAY < 20 * 3600;
    const armed = armedAt(words, ES_1M);
    expect(armed).toEqual(definedAt(ES_1M, (i) => inCash(i) && ES_1M.h[i]! > orh(i) && ES_1M.h[i - 1]! <= orh(i)));
    // 7 October: the range high 1671.75 (the 13:44 bar's); the 13:45 bar, the first after the range, trades through it.
    const i = Array.from(ES_1M.t).indexOf(at('2013-10-07T13:45:00Z'));
    expect([orh(i), ES_1M.h[i - 1], ES_1M.h[i]]).toEqual([1671.75, 1671.75, 1672.25]);
    expect(armed).toContain('2013-10-07T13:45Z');
  });

  it('BTC 15s: a range whose last bars printed no trade is known from the first bar after it', () => {
    const words = 'BTC 15 second chart, around the clock: go long when price breaks above the 5 minute opening range high. Stop 0.5%. Exit after 20 bars.';
    // The UTC day's first five minutes; known from the first bar opening at 00:05 or later (or the 00:04:45 bar's close).
    const orh = (i: number) => {
      const open = Math.floor(BTC_15S.t[i]! / DAY) * DAY;
      let h = NaN;
      for (let j = i; j >= 0 && BTC_15S.t[j]! >= open; j--) if (BTC_15S.t[j]! < open + 300) h = Math.max(h === h ? h : -Infinity, BTC_15S.h[j]!);
      return BTC_15S.t[i]! >= open + 285 ? h : NaN;
    };
    const armed = armedAt(words, BTC_15S);
    expect(armed).toEqual(definedAt(BTC_15S, (i) => BTC_15S.h[i]! > orh(i) && BTC_15S.h[i - 1]! <= orh(i)));
    // 7 October 2016: no trade printed in the range's last 15 seconds, yet the range was whole at 00:05.
    expect(Array.from(BTC_15S.t).filter((t) => t >= at('2016-10-07T00:04:45Z') && t < at('2016-10-07T00:05:00Z'))).toEqual([]);
    expect(armed.filter((t) => t.startsWith('2016-10-07')).length).toBeGreaterThan(0);
  });
});

describe('the cash session at its open and its close (ES, 13:30 to 20:00 UTC in October 2013)', () => {
  const words = 'ES 1 minute chart, cash session: go long when the close is above the previous bar high. Stop 2 points. Target 4R.';
  const closeOf = (i: number) => (ES_1M.t[i]! + 60) % DAY;

  it('a bar may arm when its close falls in [09:30, 16:00) New York: the 13:29 UTC bar may, the 19:59 one may not', () => {
    const armed = armedAt(words, ES_1M);
    const broke = (i: number) => ES_1M.c[i]! > ES_1M.h[i - 1]!;
    expect(armed).toEqual(definedAt(ES_1M, (i) => broke(i) && closeOf(i) >= 13.5 * 3600 && closeOf(i) < 20 * 3600));
    const opening = definedAt(ES_1M, (i) => broke(i) && closeOf(i) === 13.5 * 3600);
    const closing = definedAt(ES_1M, (i) => broke(i) && closeOf(i) === 20 * 3600);
    expect(opening.length).toBeGreaterThan(0);
    expect(closing.length).toBeGreaterThan(0);
    expect(armed).toEqual(expect.arrayContaining(opening));
    expect(armed.filter((t) => closing.includes(t))).toEqual([]);
  });

  it('a trade still open at 16:00 New York leaves at the close of the 19:59 UTC bar', () => {
    const { ir, seed, decider } = forged(words);
    const { trades } = rehearse(ir, decider, ES_1M, { seed, nullRuns: 10 });
    const ended = trades.filter((x) => x.why === 'session_end');
    expect(ended.length).toBeGreaterThan(0);
    const slip = slippageOf('ES', DEFAULT_COSTS.ES);
    for (const x of ended) {
      const i = Array.from(ES_1M.t).indexOf(x.exit_t - 60);
      expect(iso(x.exit_t).slice(11)).toBe('20:00Z');
      expect(x.exit).toBe(Math.round((ES_1M.c[i]! - slip) * 4) / 4);
      expect(closeOf(i)).toBe(20 * 3600);
    }
  });
});
