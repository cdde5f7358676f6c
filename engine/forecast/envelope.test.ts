import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { resample } from '../resample.js';
import { EnvelopeSchema, type Envelope } from './envelope.js';
import { issueEnvelope } from './issue.js';

const bars = resample(sampleFile('ETH-1m'), 60, 300).bars;
const issued = issueEnvelope(bars, { market: 'ETH', tf: '5m' }, bars.t[900]! + 300);
const copy = (): Envelope => structuredClone(issued);
const refused = (answer: unknown): string[] => {
  const r = EnvelopeSchema.safeParse(answer);
  // Where each refusal sits, or what it says when it sits at the top.
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.') || i.message);
};

describe('the envelope.v1 schema', () => {
  it('takes an issued envelope as it is', () => {
    expect(EnvelopeSchema.parse(issued)).toEqual(issued);
    expect(refused(issued)).toEqual([]);
  });

  it('refuses what is not an envelope at all', () => {
    for (const answer of [null, 'envelope.v1', 42, [], [issued], {}, { ok: true, envelope: issued }]) expect(refused(answer).length).toBeGreaterThan(0);
  });

  it('refuses an unknown key anywhere, a calibration of its own included', () => {
    expect(refused({ ...copy(), calibration: { ece: 0, n: 1000, coverage: 0.8 } })).toEqual([expect.stringContaining('"calibration"')]);
    const step = copy();
    (step.band.steps[3] as Record<string, unknown>).mid = step.close;
    expect(refused(step)).toEqual(['band.steps.3']);
    const touch = copy();
    (touch.touch[0] as Record<string, unknown>).note = 'up';
    expect(refused(touch)).toEqual(['touch.0']);
  });

  it('refuses a missing field, another version, market or timeframe', () => {
    const { samples: _, ...noSamples } = copy();
    expect(refused(noSamples)).toEqual(['samples']);
    expect(refused({ ...copy(), version: 'envelope.v2' })).toEqual(['version']);
    expect(refused({ ...copy(), market: 'DOGE' })).toEqual(['market']);
    expect(refused({ ...copy(), tf: '1m' })).toEqual(['tf']);
  });

  it('refuses a band that is off-centre, of the wrong length or out of step order', () => {
    const skew = copy();
    skew.band.steps[5]!.upper += 1;
    expect(refused(skew)).toContain('band.steps.5');
    const skewAtr = copy();
    skewAtr.band.steps[0]!.lower_atr -= 0.1;
    expect(refused(skewAtr)).toContain('band.steps.0');
    const short = copy();
    short.band.steps.pop();
    expect(refused(short)).toContain('band.steps');
    const order = copy();
    [order.band.steps[0], order.band.steps[1]] = [order.band.steps[1]!, order.band.steps[0]!];
    expect(refused(order)).toEqual(expect.arrayContaining(['band.steps.0.k', 'band.steps.1.k']));
    const nominal = copy();
    nominal.band.nominal = 1;
    expect(refused(nominal)).toEqual(['band.nominal']);
  });

  it('refuses touch odds out of [0, 1], out of order or missing', () => {
    const high = copy();
    high.touch[2]!.odds = 1.2;
    expect(refused(high)).toEqual(['touch.2.odds']);
    const swapped = copy();
    [swapped.touch[0], swapped.touch[8]] = [swapped.touch[8]!, swapped.touch[0]!];
    expect(refused(swapped)).toEqual(['touch.0', 'touch.8']);
    const eight = copy();
    eight.touch.pop();
    expect(refused(eight)).toContain('touch');
  });

  it('refuses an envelope whose last bar is not before its issue time', () => {
    expect(refused({ ...copy(), last_bar_t: issued.issued_t })).toEqual(['last_bar_t']);
  });
});
