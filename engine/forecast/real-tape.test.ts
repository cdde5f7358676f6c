import { describe, expect, it } from 'vitest';
import { sampleStretches, stitched } from '../../test/support/tape-file.js';
import { resample } from '../resample.js';
import { drawOf } from './calibration.js';
import { DEFAULT_OPTIONS } from './issuer.js';
import { issueAll } from './walk.js';

describe('on the real BTC 5m bars shipped (Coinbase, nine days of 2016 to 2018), stitched end to end', () => {
  it('the band holds about its nominal share of closes and the touch odds are calibrated', () => {
    // The days are months apart: stitched (each stretch opening at the close before it), so no envelope is scored
    // across a year's move read as one bar's, and the longest stretch (three days) is not all the history there is.
    const bars = resample(stitched(sampleStretches('BTC-1m')), 60, 300).bars;
    const walk = issueAll(bars, { market: 'BTC', tf: '5m' }, 0, Number.MAX_SAFE_INTEGER);
    const { n, ece, coverage } = walk.calibration;
    expect(n).toBeGreaterThan(2000);
    expect(Math.abs(coverage! - DEFAULT_OPTIONS.nominal)).toBeLessThan(0.03);
    expect(ece).toBeLessThan(0.05);
    expect(drawOf(walk.calibration)).toEqual({ draw: 'solid', label: 'calibrated' });
  });
});
