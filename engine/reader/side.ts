import { is, type Lexeme } from './lexemes.js';
import { decide, mergeSpans, missing, phrase } from './parts.js';
import type { Part, Side } from './schema.js';

/**
 * The side, from the side words of the trigger's clauses (buy, go long, sell short, fade the rally, long only,
 * no shorts, both directions ...). A long and a short trigger of their own make it both, as does a word for both;
 * long and short words without a trigger for each leave it ambiguous.
 */
export function readSide(lx: readonly Lexeme[], text: string, triggered: ReadonlySet<'long' | 'short'>): Part<Side> {
  const words = lx.filter(is('side')).filter((l) => l.ctx === 'entry');
  const turned = lx.filter((l) => l.k === 'vice_versa');
  const of = (side: Side): Lexeme[] => words.filter((l) => l.side === side);
  const cite = (ls: readonly Lexeme[]): { from: number; to: number }[] => ls.flatMap((l) => phrase([l]));
  if ((triggered.has('long') && triggered.has('short')) || of('both').length > 0) {
    return { status: 'read', value: 'both', spans: mergeSpans(text, cite([...words, ...turned])) };
  }
  const candidates = (['long', 'short'] as const).filter((s) => of(s).length > 0).map((s) => ({ value: s, at: cite(of(s)) }));
  candidates.sort((a, b) => a.at[0]!.from - b.at[0]!.from);
  return candidates.length > 0 ? decide(text, candidates) : missing();
}
