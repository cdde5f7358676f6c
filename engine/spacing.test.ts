import { describe, expect, it } from 'vitest';
import { tapeFile } from '../test/support/tape-file.js';
import { lengthWords, typicalSpacing } from './spacing.js';

describe('the typical spacing of a series', () => {
  it('is the bar length of real series, weekends, daily breaks and holes notwithstanding', () => {
    expect(typicalSpacing(tapeFile('SOL-1h').t)).toBe(3600);
    expect(typicalSpacing(tapeFile('BTC-1m').t)).toBe(60);
    expect(typicalSpacing(tapeFile('NQ-1m').t)).toBe(60);
    expect(typicalSpacing(tapeFile('ES-1m').t)).toBe(60);
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

describe('a length in words', () => {
  it('writes lengths as the timeframes do', () => {
    expect([15, 60, 300, 3600, 7200, 86_400, 90, 5400].map(lengthWords)).toEqual(['15s', '1m', '5m', '1h', '2h', '1d', '90s', '90m']);
  });
});
