import type { Bars } from '../bars.js';
import { compileDecider } from '../decider/compile.js';
import type { DeciderIR } from '../decider/ir.js';
import type { Rehearsal } from './envelope.js';
import { rehearse, type RehearsalPhase, type RehearseOptions } from './rehearse.js';

/**
 * A rehearsal as data alone, so it can run on another thread: the rule (its IR, seed and compiler version: the decider
 * is compiled where it runs, a function cannot cross), the bars as columns, and the options.
 */
export interface RehearsalJob {
  ir: DeciderIR;
  seed: string;
  version: string;
  bars: Bars;
  options: Omit<RehearseOptions, 'seed' | 'nullTotals' | 'phase'>;
}

/** Runs a rehearsal job: the same envelope, byte for byte, wherever it runs; `phase` hears each step as it starts. */
export function runRehearsalJob(job: RehearsalJob, phase?: (p: RehearsalPhase) => void): Rehearsal {
  return rehearse(job.ir, compileDecider(job.ir, job.seed, job.version), job.bars, { ...job.options, seed: job.seed, ...(phase ? { phase } : {}) });
}
