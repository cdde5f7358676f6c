/** The stepper: a decider run over bars with documented fills, its R, the random null and walk-forward folds. */
export { DEFAULT_COSTS, feePerSide, slippageOf, type Costs } from './costs.js';
export { REHEARSAL_VERSION, RehearsalSchema, type Rehearsal, type Trade } from './envelope.js';
export { foldsOf, MAX_FOLDS, type Fold } from './folds.js';
export { fillOf, Machine, type Fill, type TradeRecord } from './machine.js';
export { randomNull, type NullReport } from './null.js';
export { Prng } from './prng.js';
export { DEFAULT_NULL_RUNS, rehearse, type RehearsalPhase, type RehearseOptions } from './rehearse.js';
export { nearestRank, round4, statsOf, type RStats } from './stats.js';
export { summaryOf } from './summary.js';
