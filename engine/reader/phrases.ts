import type { Token } from './tokens.js';

/**
 * Fixed phrases of the vocabulary, written as text: words separated by spaces, alternatives by "|", an optional
 * word marked with a trailing "?" ("take profit|profits", "cash session|hours?"). Words compare with the token's
 * norm; numbers and marks ("500", "&", "/", "%") compare as written. A hyphen between two words is passed over, so "stop loss" also
 * reads "stop-loss".
 */

interface Piece {
  alts: readonly string[];
  optional: boolean;
}

const HYPHENS = new Set(['-', '–', '—']);

function compile(src: string): Piece[] {
  return src.split(' ').map((p) => {
    const optional = p.length > 1 && p.endsWith('?');
    return { alts: (optional ? p.slice(0, -1) : p).split('|'), optional };
  });
}

function matchPieces(tokens: readonly Token[], start: number, pieces: readonly Piece[]): number | null {
  let i = start;
  for (const piece of pieces) {
    let j = i;
    if (j > start && j < tokens.length && HYPHENS.has(tokens[j]!.norm) && j + 1 < tokens.length) j += 1;
    const t = tokens[j];
    if (t && t.kind !== 'time' && piece.alts.includes(t.norm)) i = j + 1;
    else if (!piece.optional) return null;
  }
  return i;
}

const compiled = new Map<string, Piece[]>();

/** Does the phrase stand at token i? Returns the index after it. */
export function phraseAt(tokens: readonly Token[], i: number, src: string): number | null {
  let pieces = compiled.get(src);
  if (!pieces) compiled.set(src, (pieces = compile(src)));
  return matchPieces(tokens, i, pieces);
}

/** A table of phrases, each with what it means; finds the longest phrase standing at a token. */
export class PhraseTable<T> {
  private readonly byFirst = new Map<string, { pieces: Piece[]; value: T }[]>();

  constructor(entries: readonly (readonly [string, T])[]) {
    for (const [src, value] of entries) {
      const pieces = compile(src);
      if (pieces[0]!.optional) throw new Error(`a phrase must start with a word it needs: ${src}`);
      for (const first of pieces[0]!.alts) {
        const list = this.byFirst.get(first) ?? [];
        list.push({ pieces, value });
        this.byFirst.set(first, list);
      }
    }
  }

  longest(tokens: readonly Token[], i: number): { end: number; value: T } | null {
    const t = tokens[i];
    if (!t || t.kind === 'time') return null;
    let best: { end: number; value: T } | null = null;
    for (const { pieces, value } of this.byFirst.get(t.norm) ?? []) {
      const end = matchPieces(tokens, i, pieces);
      if (end !== null && (best === null || end > best.end)) best = { end, value };
    }
    return best;
  }
}
