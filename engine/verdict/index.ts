/** The verdict: how likely a rehearsal's result is to be luck or overfitting, each method in a file of its own. */
export { LONGEST_WARM_UP } from './bias.js';
export { LABELS, VERDICT_VERSION, VerdictSchema, type Label, type Verdict } from './schema.js';
export { neighboursOf, verdictOf, type TrialRecord, type VerdictInput } from './verdict.js';
