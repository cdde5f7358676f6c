import { describe, expect, it } from 'vitest';
import { tapeFile } from '../../test/support/tape-file.js';
import { resample } from '../resample.js';
import { drawOf } from './calibration.js';
import { DEFAULT_OPTIONS } from './issuer.js';
import { issueAll } from './walk.js';

describe('on a month of real BTC 5m bars', () => {
  it('the band holds about its nominal share of closes and the touch odds are calibrated', () => {
    const bars = resample(tapeFile('BTC-1m'), 60, 300).bars;
    const walk = issueAll(bars, { market: 'BTC', tf: '5m' }, 0, Number.MAX_SAFE_INTEGER);
    const { n, ece, coverage } = walk.calibration;
    expect(n).toBeGreaterThan(8000);
    expect(Math.abs(coverage! - DEFAULT_OPTIONS.nominal)).toBeLessThan(0.03);
    expect(ece).toBeLessThan(0.05);
    expect(drawOf(walk.calibration)).toEqual({ draw: 'solid', label: 'calibrated' });
  });
});
