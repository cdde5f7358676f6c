import { describe, expect, it } from 'vitest';
import { EMA_CROSS } from '../../test/fixtures/scripts.js';
import { compileDecider, KEPT_DECIDERS } from './compile.js';
import { irOf } from './ir.js';

describe('the compiled decider', () => {
  const ir = irOf(EMA_CROSS);
  const seed = (k: number) => k.toString(16).padStart(64, '0');

  it('is kept by its text: the same rule, seed and version give the same functions, already warm; another seed, others', () => {
    const first = compileDecider(ir, seed(1), 'kept.v1');
    expect(compileDecider(irOf(EMA_CROSS), seed(1), 'kept.v1')).toBe(first);
    expect(compileDecider(ir, seed(2), 'kept.v1')).not.toBe(first);
    expect(compileDecider(ir, seed(1), 'kept.v2')).not.toBe(first);
  });

  it('is frozen, so no caller can leave state in a decider the next one is handed', () => {
    const decider = compileDecider(ir, seed(3), 'kept.v1');
    expect(Object.isFrozen(decider)).toBe(true);
    expect(() => Object.assign(decider, { MANAGES: true })).toThrow(TypeError);
  });

  it(`keeps the ${KEPT_DECIDERS} asked for last: one not asked for since is compiled afresh`, () => {
    const asked = compileDecider(ir, seed(4), 'kept.v1');
    const idle = compileDecider(ir, seed(5), 'kept.v1');
    for (let k = 0; k < KEPT_DECIDERS - 1; k++) {
      compileDecider(ir, seed(1000 + k), 'kept.v1');
      // Asked for again as the others come: the most recently asked for, so never let go.
      if (k % 16 === 0) expect(compileDecider(ir, seed(4), 'kept.v1')).toBe(asked);
    }
    expect(compileDecider(ir, seed(4), 'kept.v1')).toBe(asked);
    const again = compileDecider(ir, seed(5), 'kept.v1');
    expect(again).not.toBe(idle);
    expect(again.SEED_HASH).toBe(idle.SEED_HASH);
  });
});
