import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { barsFromRows, barsToRows } from '../bars.js';
import { resample } from '../resample.js';
import type { Pair } from './envelope.js';
import { issueEnvelope } from './issue.js';
import { supersedes } from './supersede.js';

const pair: Pair = { market: 'BTC', tf: '5m' };
const minutes = barsToRows(sampleFile('BTC-1m'));
/** 2018-04-06T12:30Z: a 5m bar of the shipped minutes' last day, with all the sample's earlier days behind it. */
const BAR = Date.UTC(2018, 3, 6, 12, 30) / 1000;
const fiveMinutes = (until: number) => resample(barsFromRows(minutes.filter((r) => r.t < until)), 60, 300).bars;

describe('which recorded envelope a backfill replaces', () => {
  const closed = issueEnvelope(fiveMinutes(Infinity), pair, BAR + 300);
  /** What an archive ending two minutes into the 12:30 bar made of it when that bar was taken as closed. */
  const partial = issueEnvelope(fiveMinutes(BAR + 120), pair, BAR + 300);

  it('replaces one issued from a last bar that had not closed (12:30 from 2 of 5 minutes)', () => {
    expect(partial.last_bar_t).toBe(BAR);
    expect(partial.close).toBe(minutes.find((r) => r.t === BAR + 60)!.c);
    expect(partial.close).not.toBe(closed.close);
    expect(supersedes(closed, partial)).toBe(true);
  });

  it('keeps one the closed bars agree with, and one that only read less history deeper in its sample', () => {
    expect(supersedes(closed, closed)).toBe(false);
    const shorter = issueEnvelope(barsFromRows(barsToRows(fiveMinutes(Infinity)).filter((r) => r.t >= BAR - 1200 * 300)), pair, BAR + 300);
    expect(shorter.samples).toBeLessThan(closed.samples);
    expect(shorter).toMatchObject({ close: closed.close, atr: closed.atr });
    expect(supersedes(closed, shorter)).toBe(false);
  });

  it("keeps another forecaster's envelope as issued", () => {
    expect(supersedes(closed, { ...partial, model: 'another-model' })).toBe(false);
    expect(supersedes(closed, { ...partial, model_rev: '0' })).toBe(false);
  });
});
