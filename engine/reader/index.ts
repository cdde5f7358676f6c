/** The embedded rule reader: readRule, the reading's schemas (for any lane's output), the documented defaults and the citation check. */
export { readRule } from './read.js';
export { citationProblems } from './citations.js';
export { DEFAULT_WORDS, withDefaults } from './defaults.js';
export { withHints } from './hints.js';
export { accountClauses, ClauseAccountSchema, type ClauseAccount } from './account.js';
export * from './schema.js';
