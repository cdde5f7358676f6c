import { describe, expect, it } from 'vitest';
import { VARIETY } from '../../test/support/forged.js';
import { codeOf, DECIDER_VERSION, irOf, seedHash } from '../decider/index.js';
import { review } from './review.js';
import { runForgeJob } from './job.js';
import { scan } from './scan.js';

describe('a forge as a job', () => {
  it('answers what the forge steps answer one by one, for every kind of rule, the same twice', () => {
    for (const [name, script] of Object.entries(VARIETY)) {
      const ir = irOf(script);
      const steps = { ir, code: codeOf(ir, seedHash(ir, DECIDER_VERSION), DECIDER_VERSION) };
      const outcome = runForgeJob({ script, source: { script } });
      expect(outcome.ok, name).toBe(true);
      if (!outcome.ok) continue;
      expect(outcome.forged.code, name).toBe(steps.code);
      expect(outcome.forged.ir, name).toEqual(steps.ir);
      expect(outcome.forged.review, name).toEqual(review(steps.ir, steps.code));
      expect(outcome.forged.scan, name).toEqual(scan(steps.code, { script }));
      expect(outcome.forged.watermark, name).toEqual({ seed_hash: outcome.forged.seed_hash, version: outcome.forged.version });
      expect(JSON.stringify(runForgeJob({ script, source: { script } })), name).toBe(JSON.stringify(outcome));
    }
  });

  it('answers a part the decider refuses as data (its part, its words, its hint), not as an error', () => {
    // A long-only rule whose trigger takes the short side.
    const script = { ...structuredClone(VARIETY.emaCross!), side: 'long' as const };
    const outcome = runForgeJob({ script, source: { script } });
    expect(outcome).toEqual({ ok: false, refused: { part: 'entry', message: 'entry: a short trigger, but the side is long' } });
    // The answer is plain data: it survives a structured clone (a thread's hand-off) whole.
    expect(structuredClone(outcome)).toEqual(outcome);
  });
});
