/** The series of epoch jobs under one mandate: its states and table, its words, its limits and the plan check. */
export { SERIES_LIMITS, isUsdc, usdcTimes } from './limits.js';
export { epochOpened, epochToOpen, follow, nextOf, openEpoch, openSeries, paymentRefOf, revoke, ROWS, seriesMarkdown, STATE_MEANS, type Changed, type Facts, type HandshakeFact, type Opening, type Refusal, type Row } from './machine.js';
export { ERC8183, jobDescription, planProblems, type PlanExpected } from './plan.js';
export * from './types.js';
export { durationWords, listWords, mandateWords } from './words.js';
