import { describe, expect, it } from 'vitest';
import { sampleFile } from '../test/support/tape-file.js';
import { lengthWords, runsOf, typicalSpacing } from './spacing.js';

describe('the typical spacing of a series', () => {
  it('is the bar length of real series, weekends, daily breaks and holes notwithstanding', () => {
    // Bitfinex's hours without a trade, Coinbase's minutes without one and days apart, the CME's halts and weekend.
    expect(typicalSpacing(sampleFile('BTC-1h').t)).toBe(3600);
    expect(typicalSpacing(sampleFile('BTC-1m').t)).toBe(60);
    expect(typicalSpacing(sampleFile('ETH-1m').t)).toBe(60);
    expect(typicalSpacing(sampleFile('ES-1m').t)).toBe(60);
  });

  it('is the most common gap, not the median: a thin series whose holes are many but of different lengths', () => {
    // 15s bars: four gaps of 15 s, three of 30 s (one bar absent) and three of 45 s (two absent). The median is 30.
    const t = [0, 15, 30, 45, 60, 90, 120, 150, 195, 240, 285];
    expect(typicalSpacing(t)).toBe(15);
  });

  it('takes the smaller gap on a tie, and has none for fewer than two bars', () => {
    expect(typicalSpacing([0, 60, 360])).toBe(60);
    expect(typicalSpacing([0])).toBeNull();
    expect(typicalSpacing([])).toBeNull();
  });
});

describe('the runs of a series', () => {
  it('cuts where a gap is longer than the longest allowed, and keeps the rest together', () => {
    expect(runsOf([0, 60, 120, 10_000, 10_060, 99_999], 3600)).toEqual([
      { from: 0, to: 3 },
      { from: 3, to: 5 },
      { from: 5, to: 6 },
    ]);
    expect(runsOf([0, 3600, 7200], 3600)).toEqual([{ from: 0, to: 3 }]);
    expect(runsOf([5], 60)).toEqual([{ from: 0, to: 1 }]);
    expect(runsOf([], 60)).toEqual([]);
  });

  it('finds the days the shipped Coinbase minutes come in: four stretches of BTC, two of ETH, one ES week', () => {
    const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
    const days = (name: string) => {
      const { t } = sampleFile(name);
      return runsOf(t, 86_400).map((r) => [day(t[r.from]!), day(t[r.to - 1]!)]);
    };
    expect(days('BTC-1m')).toEqual([
      ['2016-10-07', '2016-10-09'],
      ['2017-09-03', '2017-09-04'],
      ['2017-12-17', '2017-12-17'],
      ['2018-04-04', '2018-04-06'],
    ]);
    expect(days('ETH-1m')).toEqual([
      ['2017-09-03', '2017-09-04'],
      ['2018-04-04', '2018-04-05'],
    ]);
    expect(days('ES-1m')).toEqual([['2013-10-06', '2013-10-11']]);
  });
});

describe('a length in words', () => {
  it('writes lengths as the timeframes do', () => {
    expect([15, 60, 300, 3600, 7200, 86_400, 90, 5400].map(lengthWords)).toEqual(['15s', '1m', '5m', '1h', '2h', '1d', '90s', '90m']);
  });
});
