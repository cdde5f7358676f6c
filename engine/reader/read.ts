import { place } from './clauses.js';
import { withDefaults } from './defaults.js';
import { readEntry } from './entry.js';
import { readExit, readTrail } from './exit.js';
import { withHints } from './hints.js';
import type { Lexeme } from './lexemes.js';
import { lex } from './lexer.js';
import { readMarket } from './market.js';
import { resolveReferences } from './references.js';
import type { RuleReading } from './schema.js';
import { readSession } from './session.js';
import { readSide } from './side.js';
import { readStop } from './stop.js';
import { readTimeframe } from './timeframe.js';
import { tokenize } from './tokens.js';

/**
 * Reads a trader's rule into its seven parts: pure and deterministic (the same text gives the same reading), and
 * every value comes from the words it cites, or from a documented default the part names (defaults.ts); a part
 * missing or ambiguous carries a hint of the words that would read (hints.ts). The words the reader knows are in
 * VOCABULARY.md.
 */
export function readRule(text: string): RuleReading {
  const lx = place(resolveReferences(lex(tokenize(text))));
  const market = readMarket(lx, text);
  /** Lexemes the session read (a window's "and"), which are no trigger's. */
  const taken = new Set<Lexeme>();
  const session = readSession(lx, text, market, taken);
  const entry = readEntry(lx, text, taken);
  return withHints(withDefaults({
    market,
    timeframe: readTimeframe(lx, text),
    session,
    side: readSide(lx, text, entry.sides),
    entry: entry.part,
    stop: readStop(lx, text, readTrail(lx, text)),
    exit: readExit(lx, text, market, taken),
  }));
}
