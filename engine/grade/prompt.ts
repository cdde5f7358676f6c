import type { Script } from '../decider/index.js';
import { DEFAULT_WORDS } from '../reader/defaults.js';
import type { PartName, RuleReading } from '../reader/schema.js';
import type { KeptRehearsal } from './kept.js';
import type { ClosedQuestion } from './questions.js';

/**
 * What the grader is shown (RUBRIC_v1.md): the fixed instruction, the trader's words, what the deck made of them,
 * and one closed question. The words leave the deck here and nowhere else.
 */
export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export const INSTRUCTION =
  'You check whether a trading rule, as the deck states it, is faithful to the trader\'s own words. ' +
  'Judge fidelity only: never whether the rule would make money, never its style. ' +
  'Answer the one question asked with exactly one word: yes, partly or no. ' +
  'yes: on this point the rule does exactly what the words say. ' +
  'partly: it does some of it, or the words leave the point open and the rule fills it in. ' +
  'no: it does something else, or it leaves out what the words say.';

/** Trades shown for the rehearsed stage: the first ones, enough to judge, few enough to read. */
export const TRADES_SHOWN = 12;

const words = (text: string) => `The trader's words:\n<<<\n${text}\n>>>`;
const question = (q: ClosedQuestion) => `Question (${q.id}): ${q.text}\nAnswer yes, partly or no.`;
/** One closed question after its context: the fixed instruction, then the context and the question. */
export const questionMessages = (context: string, q: ClosedQuestion): ChatMessage[] => [
  { role: 'system', content: INSTRUCTION },
  { role: 'user', content: `${context}\n\n${question(q)}` },
];
const scriptShown = (script: Script) => `The rule as the deck forged it (script.v1, JSON):\n${JSON.stringify(script, null, 2)}`;
const codeShown = (codeInWords: string) =>
  `What the forged code does, in plain words (rendered from its decider IR, the code's own source):\n${codeInWords.trimEnd()}`;

/**
 * What a grade shows the grader before its question: the words, the script the forge compiled and what the code
 * does in plain words (inWords of its decider IR), so the grader can judge the code's fidelity, not the script's
 * alone. The same for every question of the decision; the receipt keeps its digest.
 */
export const gradeContext = (text: string, script: Script, codeInWords: string): string =>
  `${words(text)}\n\n${scriptShown(script)}\n\n${codeShown(codeInWords)}`;

/**
 * A parts question: the words against the deck's reading of one part and the words it cites, with each documented
 * default that completed it (where in the value, and the rule in words).
 */
export function partMessages(text: string, reading: RuleReading, part: PartName, q: ClosedQuestion): ChatMessage[] {
  const p = reading[part];
  const cited = p.spans.map((s) => `"${s.text}"`).join(', ');
  const filled = (p.defaults ?? []).map((d) => `\n- ${d.path === '' ? 'all of it' : d.path}: ${DEFAULT_WORDS[d.rule]}`).join('');
  const defaults = filled ? `\nThe words leave some of it unstated; the deck filled in, by its documented defaults:${filled}` : '';
  return questionMessages(`${words(text)}\n\nThe deck read the ${part} as (JSON):\n${JSON.stringify(p.value, null, 2)}\nciting the words: ${cited}${defaults}`, q);
}

const iso = (t: number) => new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ');

/** What a rehearsed question shows: the grade's context, then the rehearsal's first trades in plain lines (UTC). */
export function rehearsedContext(text: string, script: Script, codeInWords: string, kept: KeptRehearsal): string {
  const shown = kept.trades.slice(0, TRADES_SHOWN).map(
    (t, i) =>
      `${i + 1}. ${t.side}: entered ${iso(t.entry_t)} UTC at ${t.entry}, stop ${t.stop} (${Math.abs(t.entry - t.stop).toPrecision(6)} away), ` +
      `left ${iso(t.exit_t)} UTC at ${t.exit} by ${t.why}, ${t.r}R`,
  );
  const trades =
    `The rule rehearsed on ${kept.market} ${kept.timeframe} bars from ${iso(kept.window.from)} to ${iso(kept.window.to)} UTC: ` +
    `${kept.trades.length} trades; the first ${shown.length}:\n${shown.join('\n')}`;
  return `${gradeContext(text, script, codeInWords)}\n\n${trades}`;
}
