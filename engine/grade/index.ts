/** Grading and scoring: the facts, RUBRIC_v1's closed questions, and the code that composes their answers. */
export { answered, decide, decisionDigest, DECISIONS, FAILS_AT, HOLDS_AT, RUBRIC_VERSION, scoreOf, sha256, verdictOf, type Answered, type Decision, type Measured, type Score, type Verdict } from './compose.js';
export { brokeStop, exitsOf, gradeFacts, partFacts, rehearsedFacts, tradeFacts, type Fact, type ForgeFacts } from './facts.js';
export { keptOf, NONE_KEPT, pickRehearsal, type Chosen, type KeptRehearsal, type KeptTrade, type ToJudge } from './kept.js';
export { gradeContext, INSTRUCTION, partMessages, questionMessages, rehearsedContext, TRADES_SHOWN, type ChatMessage } from './prompt.js';
export { GRADE_QUESTIONS, partQuestion, REHEARSED_QUESTIONS, type ClosedQuestion } from './questions.js';
export { ANSWERS, answerOf, distributionOf, type Answer, type Distribution } from './scale.js';
export { calibrationOf, wilsonLower, Z95 } from './wilson.js';
