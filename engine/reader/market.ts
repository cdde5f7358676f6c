import { MARKETS, type Market } from '../markets.js';
import { is, type Lexeme } from './lexemes.js';
import { decide, mergeSpans, missing } from './parts.js';
import type { Part } from './schema.js';

/** The market: every market named; two different ones are ambiguous. A name the tape does not serve is noted. */
export function readMarket(lx: readonly Lexeme[], text: string): Part<Market> {
  const named = lx.filter(is('market')).map((l) => ({ value: l.market, at: [{ from: l.from, to: l.to }] }));
  const unserved = lx.filter(is('unserved_market'));
  if (named.length > 0) return decide(text, named);
  if (unserved.length === 0) return missing();
  const said = [...new Set(unserved.map((l) => text.slice(l.from, l.to)))].join(', ');
  return missing(`names ${said}, which the tape does not serve (it serves ${MARKETS.join(', ')})`, mergeSpans(text, unserved));
}
