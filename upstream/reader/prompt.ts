import { z } from 'zod';
import { RuleReadingSchema } from '../../engine/reader/index.js';

/**
 * What the model lane is told, fixed: the seven parts, the statuses, how a span cites the words, and the reading's
 * JSON Schema made from RuleReadingSchema itself (repeated shapes as $defs), so the prompt cannot drift from the
 * schema the answer is held to. The rule's text is the user message and nothing else, so the offsets a span gives
 * count into exactly the text the citation check reads.
 */
const SHAPE = JSON.stringify(z.toJSONSchema(RuleReadingSchema, { io: 'output', reused: 'ref', unrepresentable: 'any' }));

export const READER_PROMPT = [
  "You read one trader's rule into seven parts. The user message is the rule's text, exactly, and nothing else.",
  '',
  'The seven parts:',
  '- market: the market the rule trades: NQ, ES, YM, BTC, ETH or SOL.',
  '- timeframe: the bars it reads: 15s, 1m, 5m or 1h.',
  '- session: when the rule may act: always, or windows of wall-clock time in a zone.',
  '- side: long, short or both.',
  '- entry: the trigger: at most one trigger per side, each a condition over prices, indicators, levels and marks.',
  '- stop: where the rule is wrong: a distance, or a level (with an optional move to breakeven).',
  '- exit: every way out the words give (a target, a trail, a time, a condition); whichever comes first closes the trade.',
  '',
  'Each part is { "status", "value", "spans" }, with "readings", "note" and "hint" (on a missing or ambiguous part: words that would read) only where they apply:',
  '- "read": value is set and spans cite the words it came from (at least one span).',
  '- "missing": value is null and spans is empty, or cites the words that named something not served, with a note saying so.',
  '- "defaulted": not yours to answer. The deck itself completes a reading by its documented defaults (an unstated session, an ATR\'s unstated length, a swing\'s unstated bars on each side, Bollinger bands\' unstated length or width) after you answer.',
  '- "ambiguous": value is null and readings lists two competing { "value", "spans" } or more, each citing its words.',
  'Never fill in what the words do not state: a part the words do not give is missing, and a length they do not give is null.',
  '',
  'A span is { "from", "to", "text" }: the characters [from, to) of the user message, counted from 0 in UTF-16 code units,',
  'and text is exactly those characters (so its length is to - from). Cite only words present in the message: a reading',
  'with any span that does not quote the message exactly is refused whole.',
  '',
  'Answer with one JSON object and nothing else: the seven parts as its keys, in exactly this JSON Schema:',
  SHAPE,
].join('\n');

/** The messages of one reading: the fixed prompt, then the rule's text as it is. */
export const messagesOf = (text: string) => [
  { role: 'system' as const, content: READER_PROMPT },
  { role: 'user' as const, content: text },
];
