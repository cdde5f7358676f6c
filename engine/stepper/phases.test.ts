import { describe, expect, it } from 'vitest';
import { EMA_CROSS } from '../../test/fixtures/scripts.js';
import { sampleFile } from '../../test/support/tape-file.js';
import { compileDecider } from '../decider/compile.js';
import { irOf } from '../decider/ir.js';
import { runRehearsalJob, type RehearsalJob } from './job.js';
import { rehearse, type RehearsalPhase } from './rehearse.js';

// A rehearsal tells each step as it starts, in the order it runs, to a caller that asks; the envelope is the same
// bytes whether it is told or not.
const bars = sampleFile('BTC-1m');
const ir = irOf(EMA_CROSS);
const seed = 'e'.repeat(64);

describe('a rehearsal\'s phases', () => {
  it('tells the rule stepped over the window, the null, then the folds, and answers the same envelope', () => {
    const told: RehearsalPhase[] = [];
    const heard = rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, nullRuns: 50, folds: 3, phase: (p) => told.push(p) });
    expect(told).toEqual([{ phase: 'stepping', bars: heard.window.bars }, { phase: 'null', runs: 50 }, { phase: 'folds', folds: 3 }]);
    expect(JSON.stringify(heard)).toBe(JSON.stringify(rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, nullRuns: 50, folds: 3 })));
  });

  it('tells the verdict before the folds in a job that weighs one, and nothing without folds asked', () => {
    const told: string[] = [];
    const job: RehearsalJob = { ir, seed, version: 'test.v1', bars, options: { nullRuns: 20, verdict: { script: EMA_CROSS, version: 'test.v1', trials: { rules: 0, sharpes: [] } } } };
    const heard = runRehearsalJob(job, (p) => told.push(p.phase));
    expect(told).toEqual(['stepping', 'null', 'verdict']);
    expect(JSON.stringify(heard)).toBe(JSON.stringify(runRehearsalJob(job)));
  });
});
