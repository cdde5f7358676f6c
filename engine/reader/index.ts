/** The embedded rule reader: readRule, the reading's schemas (for any lane's output) and the citation check. */
export { readRule } from './read.js';
export { citationProblems } from './citations.js';
export * from './schema.js';
