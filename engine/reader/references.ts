import { TIMEFRAME_SECONDS } from '../markets.js';
import { is, type Lexeme, type LexemeOf } from './lexemes.js';
import type { Operand } from './schema.js';

/**
 * Mentions that lean on another, settled before the parts are read.
 * - "ORB" or "the 30-minute opening range breakout" is a break of the opening range, unless the text compares
 *   the range's high or low itself ("a break above the OR high", "a close below the range low"); then it only
 *   names the setup, though a length said with it ("the 15 min ORB") still counts.
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
 * - "The range", "the range low", "the top of the range" and a multiple of the range ("twice the range") are the
 *   opening range the text names, of its one length, citing it; with no opening range named they are not read
 *   (which range, the words do not say).
 * - "The lower band", "the middle band" are a band of the Bollinger bands the text names, of their length and
 *   width, citing them; a Bollinger band said without its length or width takes the one the text states for the
 *   bands elsewhere. With no bands named, or two of different settings, a bare band is not read.
 */

type Orb = LexemeOf<'ref'> & { ref: { kind: 'orb' } };

const word = (l: Lexeme, norm: string): Lexeme => ({ k: 'word', norm, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: l.also });
const cite = (l: Lexeme): { from: number; to: number } => ({ from: l.from, to: l.to });
const isRange = (l: Lexeme): l is LexemeOf<'operand'> => is('operand')(l) && l.operand.kind === 'opening_range';
const isOrb = (l: Lexeme | undefined): l is Orb => is('ref')(l) && l.ref.kind === 'orb';
const minutesOf = (l: Lexeme): number | null =>
  isRange(l) && l.operand.kind === 'opening_range' ? l.operand.minutes : isOrb(l) ? l.ref.minutes : null;

const isRangeRef = (l: Lexeme | undefined): l is LexemeOf<'ref'> & { ref: { kind: 'range' } } => is('ref')(l) && l.ref.kind === 'range';
const isRangeDistance = (l: Lexeme): l is LexemeOf<'distance'> => is('distance')(l) && l.unit === 'range';

/** The range's high or low compared in a condition: the lexeme before it, past plain words, is a comparison. */
function comparedSides(lexemes: readonly Lexeme[]): boolean {
  return lexemes.some((l, k) => {
    const side = isRange(l) && l.operand.kind === 'opening_range' ? l.operand.field !== 'range' : isRangeRef(l) && l.ref.field !== 'range';
    if (!side) return false;
    let j = k - 1;
    while (j >= 0 && lexemes[j]!.k === 'word') j--;
    return is('cmp')(lexemes[j]);
  });
}

type Setting = { value: number; at: Lexeme } | null;

/** The Bollinger bands' one stated length and width, each with where it was said (null when unstated or two). */
function bandSettings(lexemes: readonly Lexeme[]): { n: Setting; k: Setting; named: boolean } {
  const bands = lexemes.flatMap((l) => (is('operand')(l) && l.operand.kind === 'bollinger' ? [{ l, o: l.operand }] : []));
  const one = (key: 'n' | 'k'): Setting => {
    const said = bands.filter((b) => b.o[key] !== null);
    const values = new Set(said.map((b) => b.o[key]!));
    return values.size === 1 ? { value: [...values][0]!, at: said[0]!.l } : null;
  };
  return { n: one('n'), k: one('k'), named: bands.length > 0 };
}

export function resolveReferences(lexemes: readonly Lexeme[]): Lexeme[] {
  const ranges = lexemes.filter(isRange);
  const sources = lexemes.filter((l) => minutesOf(l) !== null || (isRangeDistance(l) && l.minutes != null));
  const lengths = new Set(sources.map((l) => (isRangeDistance(l) ? l.minutes! : minutesOf(l))));
  const length = lengths.size === 1 ? { minutes: [...lengths][0]!, at: cite(sources[0]!) } : null;
  /** An opening range is named: as an operand, an ORB, or a multiple of it said with its length. */
  const rangeNamed = ranges.length > 0 || lexemes.some(isOrb) || sources.length > 0;
  const setup = comparedSides(lexemes);
  const bands = bandSettings(lexemes);
  const marks = lexemes.filter(is('operand')).filter((l) => l.operand.kind === 'mark');
  const markets = lexemes.filter(is('market'));
  const micros = markets.filter((l) => l.micro);
  const theRange = (l: Lexeme, field: 'high' | 'low' | 'range'): Lexeme =>
    operandAt(l, { kind: 'opening_range', field, minutes: length?.minutes ?? null }, length ? [length.at] : []);

  return settleBars(lexemes.flatMap((l, k): Lexeme[] => {
    if (isOrb(l)) {
      if (setup) return [word(l, 'orb')];
      const minutes = l.ref.minutes ?? length?.minutes ?? null;
      const also = l.ref.minutes === null && length ? [cite(l), length.at] : [];
      return [{ k: 'operand', operand: { kind: 'opening_range', field: 'range', minutes }, from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also }];
    }
    // the "breaks" read from an ORB goes with it when the ORB only names the setup
    if (is('cmp')(l) && isOrb(lexemes[k + 1]) && setup) return [word(l, 'orb')];
    if (isRangeRef(l)) return [rangeNamed ? theRange(l, l.ref.field) : word(l, 'range')];
    if (isRangeDistance(l) && l.minutes == null) {
      if (!rangeNamed) return [word(l, 'a multiple of which range')];
      return [{ ...l, minutes: length?.minutes ?? null, also: [...l.also, ...(length ? [length.at] : [])] }];
    }
    if (is('ref')(l) && l.ref.kind === 'band') {
      if (!bands.named) return [word(l, 'band')];
      const also = [bands.n?.at, bands.k?.at].filter((x): x is Lexeme => x !== undefined).map(cite);
      return [operandAt(l, { kind: 'bollinger', band: l.ref.band, n: bands.n?.value ?? null, k: bands.k?.value ?? null }, also)];
    }
    if (is('operand')(l) && l.operand.kind === 'bollinger' && (l.operand.n === null || l.operand.k === null)) {
      const o = l.operand;
      const fill = [o.n === null ? bands.n : null, o.k === null ? bands.k : null];
      const also = fill.filter((x): x is NonNullable<Setting> => x !== null).map((x) => cite(x.at));
      return [{ ...l, operand: { ...o, n: o.n ?? bands.n?.value ?? null, k: o.k ?? bands.k?.value ?? null }, also: [...l.also, ...also] }];
    }
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
