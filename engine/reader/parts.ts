import type { Lexeme } from './lexemes.js';
import type { Part, Reading, Span } from './schema.js';

/** Spans and parts: how a reading cites the trader's words, and how candidate values become a part's status. */

export const span = (text: string, from: number, to: number): Span => ({ from, to, text: text.slice(from, to) });

/** Sorted, without repeats; a span inside another is dropped, overlapping spans are joined. */
export function mergeSpans(text: string, spans: readonly { from: number; to: number }[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from || b.to - a.to);
  const out: { from: number; to: number }[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.from < last.to) last.to = Math.max(last.to, s.to);
    else out.push({ from: s.from, to: s.to });
  }
  return out.map((s) => span(text, s.from, s.to));
}

/** One phrase: from the first lexeme's first character to the last one's last, plus what each also cites. */
export function phrase(lexemes: readonly Lexeme[]): { from: number; to: number }[] {
  if (lexemes.length === 0) return [];
  const from = Math.min(...lexemes.map((l) => l.from));
  const to = Math.max(...lexemes.map((l) => l.to));
  return [{ from, to }, ...lexemes.flatMap((l) => l.also)];
}

export interface Candidate<V> {
  value: V;
  at: { from: number; to: number }[];
}

export const missing = <V>(note?: string, cited: Span[] = []): Part<V> => ({
  status: 'missing',
  value: null,
  spans: cited,
  ...(note !== undefined ? { note } : {}),
});

/**
 * Candidate values to a part: none is missing, one (however often said) is read, two or more different ones are
 * ambiguous, each reading with its own words, in the order the text first gives them.
 */
export function decide<V>(text: string, candidates: readonly Candidate<V>[], note?: string): Part<V> {
  const byValue = new Map<string, Candidate<V>>();
  for (const c of candidates) {
    const key = JSON.stringify(c.value);
    const seen = byValue.get(key);
    if (seen) seen.at.push(...c.at);
    else byValue.set(key, { value: c.value, at: [...c.at] });
  }
  const readings: Reading<V>[] = [...byValue.values()].map((c) => ({ value: c.value, spans: mergeSpans(text, c.at) }));
  const extra = note !== undefined ? { note } : {};
  if (readings.length === 0) return missing(note);
  if (readings.length === 1) return { status: 'read', value: readings[0]!.value, spans: readings[0]!.spans, ...extra };
  return { status: 'ambiguous', value: null, spans: mergeSpans(text, readings.flatMap((r) => r.spans)), readings, ...extra };
}
