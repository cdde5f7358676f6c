import { TIMEFRAMES, type Timeframe } from '../markets.js';
import { is, type Lexeme } from './lexemes.js';
import { decide, mergeSpans, missing } from './parts.js';
import type { Part } from './schema.js';

/**
 * The timeframe: one of the four the tape serves. Two different ones are ambiguous. A timeframe the tape does not
 * serve (15m, 4h, daily) leaves the part missing, citing those words with a note; said beside a served one, it is
 * noted and the served one is read.
 */
export function readTimeframe(lx: readonly Lexeme[], text: string): Part<Timeframe> {
  const served = lx.filter(is('tf')).map((l) => ({ value: l.tf, at: [{ from: l.from, to: l.to }] }));
  const unserved = lx.filter(is('tf_unserved'));
  const note =
    unserved.length > 0
      ? `names ${[...new Set(unserved.map((l) => text.slice(l.from, l.to)))].join(', ')}, a timeframe the tape does not serve (it serves ${TIMEFRAMES.join(', ')})`
      : undefined;
  if (served.length > 0) return decide(text, served, note);
  return unserved.length > 0 ? missing(note, mergeSpans(text, unserved)) : missing();
}
