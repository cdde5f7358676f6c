/** The series of epoch jobs under one mandate: its states and table, its words, its limits and the plan check. */
export { SERIES_LIMITS, isUsdc, usdcTimes } from './limits.js';
export { epochOpened, epochToOpen, follow, nextOf, openEpoch, openSeries, revoke, seriesMarkdown, type Changed, type Facts, type Opening } from './machine.js';
export { planProblems } from './plan.js';
export * from './types.js';
export { durationWords } from './words.js';
