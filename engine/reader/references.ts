import { is, type Lexeme, type LexemeOf } from './lexemes.js';

/**
 * Mentions that lean on another, settled before the parts are read.
 * - "ORB" (opening range breakout) is a break of the opening range, unless the text states the range's high or
 *   low itself; then "ORB" only names the setup, though a length said with it ("the 15 min ORB") still counts.
 * - The opening range named once with its length and again without it ("stop at the opening range low") is the
 *   same range: the later mention takes the length and cites where it was said. With two different lengths
 *   named, a mention without one stays without.
 * - "The zone", "that level" is the trader's mark only if the text names one of that shape ("my zone").
 */

type Orb = LexemeOf<'ref'> & { ref: { kind: 'orb' } };

const word = (l: Lexeme, norm: string): Lexeme => ({ k: 'word', norm, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: l.also });
const cite = (l: Lexeme): { from: number; to: number } => ({ from: l.from, to: l.to });
const isRange = (l: Lexeme): l is LexemeOf<'operand'> => is('operand')(l) && l.operand.kind === 'opening_range';
const isOrb = (l: Lexeme | undefined): l is Orb => is('ref')(l) && l.ref.kind === 'orb';
const minutesOf = (l: Lexeme): number | null =>
  isRange(l) && l.operand.kind === 'opening_range' ? l.operand.minutes : isOrb(l) ? l.ref.minutes : null;

export function resolveReferences(lexemes: readonly Lexeme[]): Lexeme[] {
  const ranges = lexemes.filter(isRange);
  const sources = lexemes.filter((l) => minutesOf(l) !== null);
  const lengths = new Set(sources.map(minutesOf));
  const length = lengths.size === 1 ? { minutes: [...lengths][0]!, at: cite(sources[0]!) } : null;
  const marks = lexemes.filter(is('operand')).filter((l) => l.operand.kind === 'mark');

  return lexemes.flatMap((l, k): Lexeme[] => {
    if (isOrb(l)) {
      if (ranges.length > 0) return [word(l, 'orb')];
      const minutes = l.ref.minutes ?? length?.minutes ?? null;
      const also = l.ref.minutes === null && length ? [cite(l), length.at] : [];
      return [{ k: 'operand', operand: { kind: 'opening_range', field: 'range', minutes }, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also }];
    }
    // the "breaks" read from an ORB goes with it when the ORB only names the setup
    if (is('cmp')(l) && isOrb(lexemes[k + 1]) && ranges.length > 0) return [word(l, 'orb')];
    if (isRange(l) && l.operand.kind === 'opening_range' && l.operand.minutes === null && length) {
      return [{ ...l, operand: { ...l.operand, minutes: length.minutes }, also: [...l.also, length.at] }];
    }
    if (is('ref')(l) && l.ref.kind === 'mark') {
      const shape = l.ref.shape;
      const named = marks.find((m) => m.operand.kind === 'mark' && (m.operand.shape === shape || m.operand.shape === 'any'));
      if (!named) return [word(l, 'the')];
      return [{ k: 'operand', operand: { kind: 'mark', shape }, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: [cite(named)] }];
    }
    return [l];
  });
}
