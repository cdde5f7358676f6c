import { MAX_BAND_WIDTH, MAX_SWING_STRENGTH } from './schema.js';
import type { LexemeBody } from './lexemes.js';
import { readNumber } from './numbers.js';
import { phraseAt } from './phrases.js';
import { flat, fromTable, isLength, norm, one, pastHyphen, table, wordIn, type Recognizer } from './recognizer.js';
import type { Token } from './tokens.js';

/**
 * Recognizers of the levels of a chart's structure and bands: swing highs and lows, Bollinger bands, the range and
 * the bands said by reference ("the range low", "the middle band", settled in references.ts), and the far side of
 * a level ("the other side of the range").
 */

const HIGH = ['high', 'highs', 'hi', 'top', 'tops', 'peak'];
const LOW = ['low', 'lows', 'lo', 'bottom', 'bottoms', 'trough'];
const fieldAt = (tokens: readonly Token[], i: number): 'high' | 'low' | null =>
  wordIn(tokens, i, HIGH) ? 'high' : wordIn(tokens, i, LOW) ? 'low' : null;
const BAR_WORDS = ['bar', 'bars', 'candle', 'candles', 'candlestick', 'candlesticks'];

/** "(2 bars either side)", "with 3 candles on each side", "strength 2": bars on each side of a swing. */
function strengthAfter(tokens: readonly Token[], i: number): { n: number; end: number } | null {
  let j = i;
  const paren = norm(tokens, j) === '(';
  if (paren) j += 1;
  if (wordIn(tokens, j, ['with', 'of'])) j += 1;
  let n = readNumber(tokens, j);
  if (wordIn(tokens, j, ['strength'])) {
    n = readNumber(tokens, j + 1);
    if (!isLength(n)) return null;
    j = n.end;
  } else {
    if (!isLength(n) || !wordIn(tokens, pastHyphen(tokens, n.end), BAR_WORDS)) return null;
    const side = phraseAt(tokens, pastHyphen(tokens, n.end) + 1, 'on|to? either|each|both side|sides');
    if (side === null) return null;
    j = side;
  }
  if (paren) {
    if (norm(tokens, j) !== ')') return null;
    j += 1;
  }
  return n.value <= MAX_SWING_STRENGTH ? { n: n.value, end: j } : null;
}

const SWING_LEAD = 'most? recent|last|latest|prior|previous|nearest|closest';

/**
 * A swing high or low: "the swing low", "the most recent swing high", "the last pivot low", "the prior swing
 * point high", "the last higher low" (a swing low), "the most recent lower high", "a 5-bar swing low" (an odd
 * number of bars: the middle one with half the rest on each side), "the swing low (3 bars either side)". Without
 * its bars on each side the strength stays unstated (a documented default gives it). An even number of bars says
 * no middle bar, and is not read.
 */
export const swing: Recognizer = (tokens, i) => {
  let j = phraseAt(tokens, i, SWING_LEAD) ?? i;
  let strength: number | null = null;
  let even = false;
  const bars = readNumber(tokens, j);
  if (isLength(bars) && wordIn(tokens, pastHyphen(tokens, bars.end), ['bar', 'candle'])) {
    const k = pastHyphen(tokens, bars.end) + 1;
    if (!wordIn(tokens, k, ['swing', 'pivot', 'fractal'])) return null;
    if (bars.value % 2 === 1 && bars.value >= 3) strength = (bars.value - 1) / 2;
    else even = true;
    j = k;
  }
  let field: 'high' | 'low' | null = null;
  if (wordIn(tokens, j, ['swing', 'pivot', 'fractal'])) {
    j += 1;
    if (wordIn(tokens, j, ['point'])) j += 1;
    field = fieldAt(tokens, j);
    if (field === null) return null;
    j += 1;
  } else if (strength === null && !even) {
    // structure said as the trend's own swings: a higher low, a lower high
    const structure = phraseAt(tokens, j, 'higher low|lows') ?? phraseAt(tokens, j, 'lower high|highs');
    if (structure === null) return null;
    field = wordIn(tokens, j, ['higher']) ? 'low' : 'high';
    j = structure;
  } else return null;
  if (even || (strength !== null && strength > MAX_SWING_STRENGTH)) return one({ k: 'word', norm: 'swing of an even number of bars' }, i, j);
  const after = strength === null ? strengthAfter(tokens, j) : null;
  if (after) ({ n: strength, end: j } = after);
  return one({ k: 'operand', operand: { kind: 'swing', field, strength } }, i, j);
};

type Band = 'upper' | 'middle' | 'lower';
const BANDS: ReadonlyMap<string, Band> = new Map([
  ...['upper', 'top', 'high'].map((w) => [w, 'upper'] as const),
  ...['lower', 'bottom', 'low'].map((w) => [w, 'lower'] as const),
  ...['middle', 'mid', 'center', 'centre', 'basis', 'median'].map((w) => [w, 'middle'] as const),
]);
const bandAt = (tokens: readonly Token[], i: number): Band | null => (tokens[i]?.kind === 'word' ? (BANDS.get(tokens[i]!.norm) ?? null) : null);
const CORE = table<true>([
  ['bollinger band|bands|bb|bbs', true],
  ['bollinger', true],
  ['bb|bbs|bband|bbands', true],
]);
const DEVIATIONS = flat(['standard|std deviation|deviations|dev|devs', 'sd|sds|std|stdev|stdevs|stddev|sigma|sigmas|deviation|deviations']);

/** "2 standard deviations", "2-sigma", "2.5 SD": a band's width. */
function widthAt(tokens: readonly Token[], i: number): { k: number; end: number } | null {
  const n = readNumber(tokens, i);
  if (!n || !(n.value > 0) || n.value > MAX_BAND_WIDTH) return null;
  const unit = DEVIATIONS.longest(tokens, pastHyphen(tokens, n.end));
  return unit ? { k: n.value, end: unit.end } : null;
}

/** "(20, 2)", "(20/2)", "(20)", "20,2", "20 2" right after the name: the length and width. */
function paramsAt(tokens: readonly Token[], i: number): { n: number; k: number | null; end: number } | null {
  const paren = norm(tokens, i) === '(';
  const j = paren ? i + 1 : i;
  const n = readNumber(tokens, j);
  if (!isLength(n) || n.value < 2 || (!paren && !n.digits)) return null;
  let end = n.end;
  let k: number | null = null;
  if ([',', '/'].includes(norm(tokens, end) ?? '') || (!paren && tokens[end]?.kind === 'num')) {
    const w = readNumber(tokens, [',', '/'].includes(norm(tokens, end) ?? '') ? end + 1 : end);
    if (w && w.value > 0 && w.value <= MAX_BAND_WIDTH) {
      k = w.value;
      end = w.end;
    } else if (!paren) return null;
  } else if (!paren) return null;
  if (paren) {
    if (norm(tokens, end) !== ')') return null;
    end += 1;
  }
  return { n: n.value, k, end };
}

/**
 * A Bollinger band: "the lower Bollinger band", "the upper BB", "BB(20, 2) lower band", "the 20-period Bollinger
 * upper band", "the middle band of the Bollinger Bands (20, 2)", "the 2-sigma lower Bollinger band", "the Bollinger
 * basis". Its length and width stay unstated unless said (documented defaults give them). The bands named without
 * one of them ("the Bollinger bands") are not read: which band, the words do not say.
 */
export const bollinger: Recognizer = (tokens, i) => {
  let j = i;
  let band = bandAt(tokens, j);
  let n: number | null = null;
  let k: number | null = null;
  if (band !== null) {
    j += 1;
    // "the upper band of the Bollinger bands"
    const of = phraseAt(tokens, j, 'band|line of the?');
    if (of !== null && CORE.longest(tokens, of)) j = of;
  }
  const width = widthAt(tokens, j);
  if (width) ({ k, end: j } = width);
  const len = readNumber(tokens, j);
  if (isLength(len)) {
    const p = pastHyphen(tokens, len.end);
    const unit = wordIn(tokens, p, ['period', 'bar', 'length']) ? pastHyphen(tokens, p + 1) : p;
    if (!CORE.longest(tokens, unit)) return null;
    n = len.value;
    j = unit;
  }
  if (band === null) {
    const b = bandAt(tokens, j);
    if (b !== null && CORE.longest(tokens, j + 1)) {
      band = b;
      j += 1;
    }
  }
  const core = CORE.longest(tokens, j);
  if (!core) return null;
  j = core.end;
  const params = paramsAt(tokens, j);
  if (params) {
    n ??= params.n;
    k ??= params.k;
    j = params.end;
  }
  if (band === null) {
    band = bandAt(tokens, j);
    if (band !== null) {
      j += 1;
      if (wordIn(tokens, j, ['band', 'line'])) j += 1;
    }
  } else if (wordIn(tokens, j, ['band', 'bands', 'line'])) j += 1;
  // "the Bollinger basis (20, 2)", "the lower Bollinger band (20, 2)": settings after the band
  const late = params === null ? paramsAt(tokens, j) : null;
  if (late) {
    n ??= late.n;
    k ??= late.k;
    j = late.end;
  }
  const w = k === null ? (phraseAt(tokens, j, 'at|of|with') !== null ? widthAt(tokens, phraseAt(tokens, j, 'at|of|with')!) : widthAt(tokens, j)) : null;
  if (w) ({ k, end: j } = w);
  if (band === null) return one({ k: 'word', norm: 'bollinger bands without a band' }, i, j);
  return one({ k: 'operand', operand: { kind: 'bollinger', band, n, k } }, i, j);
};

/** "the lower band", "the middle band", "the upper line of the bands": a band of the Bollinger bands the text names. */
export const bandRefs: Recognizer = (tokens, i) => {
  const band = bandAt(tokens, i);
  if (band === null || !wordIn(tokens, i + 1, ['band'])) return null;
  return one({ k: 'ref', ref: { kind: 'band', band } }, i, i + 2);
};

/** Words a bare "range" follows when it is the range of the rule, not a range of something else ("trading range"). */
const RANGE_BEFORE = ['the', 'that', 'this', 'its', 'below', 'above', 'under', 'over', 'at', 'beyond', 'past', 'of', 'to'];

/**
 * The range said without naming it: "the range high", "the range's low", "the top of the range", "the low of the
 * range", "the range" (all of it), after an article or a preposition of place. It is the opening range the text names
 * (references.ts).
 */
export const rangeRefs: Recognizer = (tokens, i) => {
  const ref = (field: 'high' | 'low' | 'range', end: number) => one({ k: 'ref', ref: { kind: 'range', field } }, i, end);
  const lead = fieldAt(tokens, i);
  if (lead) {
    const of = phraseAt(tokens, i + 1, 'of the|this|that range');
    return of !== null ? ref(lead, of) : null;
  }
  if (!wordIn(tokens, i, ['range']) || !wordIn(tokens, i - 1, RANGE_BEFORE)) return null;
  const field = fieldAt(tokens, i + 1);
  return field ? ref(field, i + 2) : ref('range', i + 1);
};

/** "the other side of", "on the far side of", "beyond the opposite side of": beyond the level after it (stop.ts). */
export const farSide = fromTable(
  flat([
    'other|opposite|far side of',
    'the other|opposite|far side of',
    'on|at|beyond|past|behind|outside|below|above|under|over the? other|opposite|far side of',
  ]),
  (): LexemeBody => ({ k: 'word', norm: 'beyond' }),
);
