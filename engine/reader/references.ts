import { TIMEFRAME_SECONDS } from '../markets.js';
import { is, type Lexeme, type LexemeOf } from './lexemes.js';
import type { Operand } from './schema.js';

/**
 * Mentions that lean on another, settled before the parts are read.
 * - "ORB" (opening range breakout) is a break of the opening range, unless the text states the range's high or
 *   low itself; then "ORB" only names the setup, though a length said with it ("the 15 min ORB") still counts.
 * - The opening range named once with its length and again without it ("stop at the opening range low") is the
 *   same range: the later mention takes the length and cites where it was said. With two different lengths
 *   named, a mention without one stays without.
 * - "The zone", "that level" is the trader's mark only if the text names one of that shape ("my zone").
 * - The session's first bar said without its size ("the first bar's high") is a bar of the one timeframe the text
 *   reads, citing it: the opening range of that many minutes (a 15s chart's first bar is no whole minute: unstated).
 * - The signal or previous bar said without its high or low ("stop below the trigger candle") takes the side the
 *   comparison before it names: below a bar is below its low, above it above its high; with no such comparison
 *   ("stop past the entry candle", whose side is the trade's) it is not read.
 * - "its high", "that bar's low" is the same bar or level as the last one named with a high and low (the session's
 *   first bar, an opening range, the prior day, the signal or previous bar), citing it; "that candle" with no bar
 *   named before is the candle that fired the trigger (the signal bar), and "its" with nothing named is not read.
 * - A dollar amount is on a micro contract when the text names the market only as its micro (MNQ, MES, MYM), and
 *   cites that name; named both ways, the amount is not read (which contract it is on, the words do not say).
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
  const markets = lexemes.filter(is('market'));
  const micros = markets.filter((l) => l.micro);

  return settleBars(lexemes.flatMap((l, k): Lexeme[] => {
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
    if (is('distance')(l) && l.unit === 'usd' && micros.length > 0) {
      if (micros.length < markets.length) return [word(l, 'dollars on which contract')];
      return [{ ...l, micro: true, also: [...l.also, ...micros.map(cite)] }];
    }
    if (is('ref')(l) && l.ref.kind === 'mark') {
      const shape = l.ref.shape;
      const named = marks.find((m) => m.operand.kind === 'mark' && (m.operand.shape === shape || m.operand.shape === 'any'));
      if (!named) return [word(l, 'the')];
      return [{ k: 'operand', operand: { kind: 'mark', shape }, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: [cite(named)] }];
    }
    return [l];
  }));
}


const BEFORE_A_BAR = ['just', 'right', 'slightly', 'the', 'a'];
const HIGH_SIDE = new Set(['above', 'crosses_above', 'breaks_above']);
const LOW_SIDE = new Set(['below', 'crosses_below', 'breaks_below']);

const operandAt = (l: Lexeme, operand: Operand, also: { from: number; to: number }[]): Lexeme => ({
  k: 'operand',
  operand,
  from: l.from,
  to: l.to,
  ctx: l.ctx,
  seg: l.seg,
  also: [...l.also, ...also],
});

/** The bars and levels said by reference: first bars without their size, bars without a side, "its", "that bar". */
function settleBars(lexemes: readonly Lexeme[]): Lexeme[] {
  const tfs = [...new Set(lexemes.filter(is('tf')).map((l) => l.tf))];
  const tf = tfs.length === 1 ? lexemes.find(is('tf'))! : null;
  const tfMinutes = tf && TIMEFRAME_SECONDS[tf.tf] % 60 === 0 ? TIMEFRAME_SECONDS[tf.tf] / 60 : null;
  const out: Lexeme[] = [];
  /** The last bar, and the last bar or level, named with a high and a low. */
  let bar: LexemeOf<'operand'> | null = null;
  let level: LexemeOf<'operand'> | null = null;
  for (const l of lexemes) {
    let got: Lexeme = l;
    if (is('ref')(l) && l.ref.kind === 'first_bar') {
      got = operandAt(l, { kind: 'opening_range', field: l.ref.field, minutes: tfMinutes }, tfMinutes !== null ? [cite(tf!)] : []);
    } else if (is('ref')(l) && l.ref.kind === 'bar') {
      let k = out.length - 1;
      while (k >= 0 && out[k]!.k === 'word' && BEFORE_A_BAR.includes((out[k] as LexemeOf<'word'>).norm)) k--;
      const before = out[k];
      const field = is('cmp')(before) ? (HIGH_SIDE.has(before.op) ? 'high' : LOW_SIDE.has(before.op) ? 'low' : null) : null;
      got = field ? operandAt(l, { kind: 'bar', bar: l.ref.bar, field }, []) : word(l, 'bar');
    } else if (is('ref')(l) && l.ref.kind === 'that') {
      const { field } = l.ref;
      const named = l.ref.bar ? bar : level;
      const o = named?.operand;
      if (o && (o.kind === 'opening_range' || o.kind === 'bar' || o.kind === 'prior_day')) got = operandAt(l, { ...o, field }, [cite(named!)]);
      else got = l.ref.bar ? operandAt(l, { kind: 'bar', bar: 'signal', field }, []) : word(l, 'its');
    }
    out.push(got);
    if (is('operand')(got)) {
      const o = got.operand;
      if (o.kind === 'bar' || o.kind === 'opening_range') bar = got;
      if (o.kind === 'bar' || o.kind === 'opening_range' || o.kind === 'prior_day') level = got;
    }
  }
  return out;
}
