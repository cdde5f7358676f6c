import { compileDecider, DECIDER_VERSION, type DeciderIR, type Script } from '../../engine/decider/index.js';
import type { Rehearsal, RehearsalPhase } from '../../engine/stepper/index.js';
import type { PoolStep } from '../../core/pool/pool.js';
import { workAsk, type SessionCtx } from '../context.js';
import { DeckError } from '../../core/errors.js';
import { recordSpend } from '../meter/spend.js';
import { engineStep } from './cast.js';
import type { WindowBars } from './window.js';

const count = (n: number) => n.toLocaleString('en-US');

/** A rehearsal's step in words, as its caller is told it. */
const wordsOf = (step: PoolStep | RehearsalPhase): string => {
  switch (step.phase) {
    case 'queued':
      return `waiting for a turn in the work pool (${count(step.ahead)} job${step.ahead === 1 ? '' : 's'} ahead)`;
    case 'running':
      return 'running in the work pool';
    case 'stepping':
      return `stepping the rule over ${count(step.bars)} bars`;
    case 'null':
      return `running the random null: ${count(step.runs)} runs`;
    case 'verdict':
      return 'weighing the verdict: the neighbours, PBO, SPA, Monte Carlo';
    case 'folds':
      return `cutting ${step.folds} walk-forward folds`;
  }
};

/**
 * Compiles a rule as the stepper will, so a rule the compiler refuses is refused before anything is read, paid for or
 * run (the pool's thread compiles it again).
 */
export const compiled = (ir: DeciderIR, seed: string): void => void engineStep('the decider compiler', () => compileDecider(ir, seed, DECIDER_VERSION));

/**
 * Runs a decider over a window's bars with the stepper: documented fills, R, the seeded random null (seeded by the
 * seed hash, so the same seed and window give the same envelope), folds when asked, the principal's marks on that
 * market for rules that read them, and the verdict, deflated for the principal's other rules on the market and
 * timeframe (the rule is then noted among them). A stepper failure is 500, carried. The rule is compiled() first.
 */
export async function stepOver(
  ctx: SessionCtx,
  script: Script,
  ir: DeciderIR,
  seed: string,
  w: WindowBars,
  folds?: number,
): Promise<Rehearsal> {
  const marks = ctx.store.marks
    .list(ctx.principal.id)
    .filter((m) => m.market === ir.market)
    .map((m) => ({ kind: m.kind, price: m.price, ...(m.price2 !== undefined ? { price2: m.price2 } : {}) }));
  const trials = ctx.store.trials.others(ctx.principal.id, ir.market, ir.timeframe, seed);
  let rehearsal: Rehearsal;
  try {
    const options = { from: w.from, marks, ...(folds !== undefined ? { folds } : {}), verdict: { script, version: DECIDER_VERSION, trials } };
    const progress = ctx.progress;
    const hear = progress ? { hear: (step: PoolStep | RehearsalPhase) => progress(wordsOf(step)) } : {};
    rehearsal = await ctx.pool.run('rehearsal', { ir, seed, version: DECIDER_VERSION, bars: w.bars, options }, { ...workAsk(ctx), ...hear });
  } catch (error) {
    if (error instanceof DeckError) throw error;
    throw new DeckError(500, 'stepper_failed', `the stepper failed: ${(error as Error).message}`);
  }
  await ctx.store.trials.note(ctx.principal.id, ir.market, ir.timeframe, seed, rehearsal.verdict?.deflated_sharpe.sharpe ?? null);
  return rehearsal;
}

/** Records the spend of a trial or rehearsal on the meter: the bars stepped over, warm-up included. */
export async function meterSteps(ctx: SessionCtx, action: 'trial' | 'rehearse', r: Rehearsal): Promise<void> {
  const bars = r.window.bars + r.window.warm_up_bars;
  await recordSpend(ctx, action, bars);
}
