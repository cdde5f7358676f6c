import type { LexemeBody } from './lexemes.js';
import { readNumber, type NumberRead } from './numbers.js';
import { PhraseTable } from './phrases.js';
import type { Token } from './tokens.js';

/** What a recognizer is, and the small helpers recognizers share. */

export interface Out {
  body: LexemeBody;
  /** Token range [t0, t1). */
  t0: number;
  t1: number;
}
export interface Read {
  end: number;
  out: Out[];
}

export type Recognizer = (tokens: readonly Token[], i: number, before: readonly Out[]) => Read | null;

export const table = <T>(entries: readonly (readonly [string, T])[]): PhraseTable<T> => new PhraseTable(entries);
export const flat = (phrases: readonly string[]): PhraseTable<true> => table(phrases.map((p) => [p, true] as const));

export const one = (body: LexemeBody, t0: number, end: number): Read => ({ end, out: [{ body, t0, t1: end }] });

/** A recognizer from a phrase table. */
export const fromTable =
  <T>(t: PhraseTable<T>, body: (v: T) => LexemeBody): Recognizer =>
  (tokens, i) => {
    const m = t.longest(tokens, i);
    return m ? one(body(m.value), i, m.end) : null;
  };

export const norm = (tokens: readonly Token[], i: number): string | undefined => {
  const t = tokens[i];
  return t && t.kind === 'word' ? t.norm : t?.kind === 'punct' ? t.norm : undefined;
};
export const wordIn = (tokens: readonly Token[], i: number, words: readonly string[]): boolean => {
  const n = norm(tokens, i);
  return n !== undefined && tokens[i]!.kind === 'word' && words.includes(n);
};
export const pastHyphen = (tokens: readonly Token[], i: number): number => (norm(tokens, i) === '-' ? i + 1 : i);
export const skipWords = (tokens: readonly Token[], i: number, words: readonly string[]): number => {
  while (wordIn(tokens, i, words)) i += 1;
  return i;
};
export const isLength = (n: NumberRead | null): n is NumberRead => n !== null && Number.isInteger(n.value) && n.value >= 1 && n.value <= 500;

/** A whole number standing in parentheses, "(14)", or written on to the word before it, "ATR14". */
export function lengthAfter(tokens: readonly Token[], i: number): { n: number; end: number } | null {
  if (norm(tokens, i) === '(') {
    const n = readNumber(tokens, i + 1);
    if (isLength(n) && norm(tokens, n.end) === ')') return { n: n.value, end: n.end + 1 };
    return null;
  }
  const t = tokens[i];
  if (t && t.kind === 'num' && !t.spaced && isLength({ value: t.value, end: i + 1, digits: true })) return { n: t.value, end: i + 1 };
  return null;
}

const PER_UNIT: ReadonlyMap<string, number> = new Map([
  ...['minute', 'minutes', 'min', 'mins', 'm'].map((w) => [w, 1] as const),
  ...['hour', 'hours', 'hr', 'hrs', 'h'].map((w) => [w, 60] as const),
]);

/** "15 minutes", "15-min", "1-hour", "2 hours": a length in whole minutes (of an opening range), and the token after it. */
export function minutesAt(tokens: readonly Token[], i: number): { minutes: number; end: number } | null {
  const n = readNumber(tokens, i);
  if (!isLength(n)) return null;
  const u = pastHyphen(tokens, n.end);
  const per = tokens[u]?.kind === 'word' ? PER_UNIT.get(tokens[u]!.norm) : undefined;
  return per !== undefined && n.value * per <= 500 ? { minutes: n.value * per, end: u + 1 } : null;
}
