import { describe, expect, it } from 'vitest';
import { assertNoDirection, DirectionFieldError } from './guard.js';

const refusal = (answer: unknown): DirectionFieldError => {
  try {
    assertNoDirection(answer);
  } catch (error) {
    if (error instanceof DirectionFieldError) return error;
    throw error;
  }
  throw new Error(`passed: ${JSON.stringify(answer)}`);
};

describe('the direction guard', () => {
  it('refuses each direction key at the top level, whatever its case or separators', () => {
    for (const key of ['side', 'direction', 'median', 'drift', 'bias', 'mean_return', 'Side', 'MEDIAN', 'meanReturn', 'Mean-Return', 'mean return']) {
      const e = refusal({ version: 'envelope.v1', [key]: 1 });
      expect(e.key).toBe(key);
      expect(e.path).toBe(`$.${key}`);
    }
  });

  it('refuses one nested in objects and arrays, and says where it sits', () => {
    expect(refusal({ band: { steps: [{ k: 1 }, { k: 2, Median: 100 }] } }).path).toBe('$.band.steps.1.Median');
    expect(refusal([[{ meta: { drift: 0 } }]]).path).toBe('$.0.0.meta.drift');
    expect(refusal({ touch: [{ odds: 0.5, extra: { bias: null } }] }).key).toBe('bias');
  });

  it('passes answers whose keys only resemble the words, and direction words as values', () => {
    const clean = { sides: 2, mediant: 1, drifted: true, biased: [], note: 'side', band: { median_free: 'median' } };
    expect(() => assertNoDirection(clean)).not.toThrow();
    expect(() => assertNoDirection('median')).not.toThrow();
    expect(() => assertNoDirection(null)).not.toThrow();
  });

  it('terminates on an object that refers to itself', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(() => assertNoDirection(loop)).not.toThrow();
    loop.direction = 'up';
    expect(refusal(loop).path).toBe('$.direction');
  });
});
