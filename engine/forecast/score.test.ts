import { describe, expect, it } from 'vitest';
import { sampleStretches } from '../../test/support/tape-file.js';
import { barsFromRows, type BarRow } from '../bars.js';
import { resample } from '../resample.js';
import { issueEnvelope } from './issue.js';
import { scoreAt, scoreEnvelope } from './score.js';

describe('scoring an envelope against the bars that followed', () => {
  // From a close of 100 with an ATR of 2: touches at 101 / 99 (0.5 ATR), 102 / 98 (1 ATR), 104 / 96 (2 ATR).
  const t0 = 1_700_000_000 - (1_700_000_000 % 3600);
  const rows: BarRow[] = Array.from({ length: 26 }, (_, m) => ({ t: t0 + m * 3600, o: 100, h: 100.2, l: 99.8, c: 100, v: 1 }));
  rows[3] = { ...rows[3]!, h: 101 }; // 0.5 ATR up, within 6
  rows[10] = { ...rows[10]!, l: 98 }; // 1 ATR down, within 12 (exactly the level: a touch)
  rows[24] = { ...rows[24]!, h: 104 }; // 2 ATR up at the 24th bar
  rows[25] = { ...rows[25]!, l: 50 }; // the 25th bar is beyond the horizon
  rows[7] = { ...rows[7]!, h: 101, c: 101 }; // on the band's upper end: inside
  rows[8] = { ...rows[8]!, h: 101.5, c: 101.5 }; // beyond it
  rows[20] = { ...rows[20]!, l: 98.9, c: 98.9 }; // below the lower end
  const bars = barsFromRows(rows);
  const band = Array(24).fill(0);
  const scorable = { issued_t: t0 + 3600, close: 100, atr: 2, lower: band.map(() => 99), upper: band.map(() => 101), odds: [0.9, 0.9, 0.9, 0.5, 0.5, 0.5, 0.1, 0.1, 0.1] };

  it('marks each touch that happened, either way, within its horizon, and counts the closes inside the band', () => {
    const s = scoreAt(scorable, bars, 0, 3600)!;
    // 0.5 ATR within 6, 12, 24 (bits 0-2); 1 ATR within 12 and 24 (bits 4, 5); 2 ATR within 24 only (bit 8).
    expect(s.touched).toBe(0b1_0011_0111);
    expect(s.inside).toBe(22);
    expect(s.scored_t).toBe(t0 + 25 * 3600);
    expect(s.odds).toEqual(scorable.odds);
    expect(s.issued_t).toBe(t0 + 3600);
  });

  it('waits for all 24 bars', () => {
    expect(scoreAt(scorable, bars, 1, 3600)).not.toBeNull();
    expect(scoreAt(scorable, bars, 2, 3600)).toBeNull();
  });

  it('scores an issued envelope once its bars are there, and not before or without its last bar', () => {
    // The shipped ETH minutes of 4 and 5 April 2018, in 5m bars.
    const five = resample(sampleStretches('ETH-1m').at(-1)!, 60, 300).bars;
    const last = five.length - 1;
    const e = issueEnvelope(five, { market: 'ETH', tf: '5m' }, five.t[last - 24]! + 300);
    expect(scoreEnvelope(e, five)).toMatchObject({ issued_t: e.issued_t, scored_t: five.t[last]! + 300 });
    expect(scoreEnvelope({ ...e, last_bar_t: five.t[last - 23]! }, five)).toBeNull();
    expect(scoreEnvelope({ ...e, last_bar_t: e.last_bar_t + 1 }, five)).toBeNull();
  });
});
