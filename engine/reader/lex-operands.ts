import { UNREAD_INDICATOR, type LexemeBody, type OperandLex } from './lexemes.js';
import { readNumber, type NumberRead } from './numbers.js';
import { PhraseTable, phraseAt } from './phrases.js';
import { fromTable, isLength, lengthAfter, minutesAt, norm, one, pastHyphen, skipWords, table, wordIn, type Out, type Recognizer } from './recognizer.js';
import type { Token } from './tokens.js';
import { DISTANCE_UNITS, TIME_UNITS } from './vocabulary.js';

/** Recognizers of operands: indicators, VWAP, price, N-bar extremes, the prior day, the opening range, marks, bars. */

const operand = (o: OperandLex): LexemeBody => ({ k: 'operand', operand: o });

const HIGH = ['high', 'highs', 'hi', 'top'];
const LOW = ['low', 'lows', 'lo', 'bottom'];
const fieldAt = (tokens: readonly Token[], i: number): 'high' | 'low' | null =>
  wordIn(tokens, i, HIGH) ? 'high' : wordIn(tokens, i, LOW) ? 'low' : null;

/** "N minutes" after "of the first", "for", "is the first", or in parentheses: the opening range's length. */
function rangeMinutesAfter(tokens: readonly Token[], i: number): { minutes: number; end: number } | null {
  let j = phraseAt(tokens, i, 'of|for|over|is|are|= the? first') ?? phraseAt(tokens, i, ': the? first') ?? (norm(tokens, i) === '(' ? i + 1 : null);
  if (j === null) return null;
  const m = minutesAt(tokens, j);
  if (!m) return null;
  j = m.end;
  if (norm(tokens, j) === ')') j += 1;
  return { minutes: m.minutes, end: j };
}

/** Does the text after token i give the opening range a length other than `minutes` ("the 15-minute opening range")? */
function otherRangeLength(tokens: readonly Token[], i: number, minutes: number): boolean {
  for (let x = i; x < tokens.length; x++) {
    const m = minutesAt(tokens, x);
    if (m && m.minutes !== minutes && (phraseAt(tokens, m.end, 'opening range') !== null || wordIn(tokens, m.end, ['orb', 'or']))) return true;
  }
  return false;
}

/**
 * The opening range: "the 15-minute opening range high", "OR low", "ORH", "the high of the opening range",
 * "the opening range of the first 30 minutes", "the high of the first 15 minutes", "the 15 min ORB".
 * A bare "ORB" (opening range breakout) is a break of the range.
 */
export const openingRange: Recognizer = (tokens, i, before) => {
  const short = norm(tokens, i);
  if (short === 'orh' || short === 'orl') return one(operand({ kind: 'opening_range', field: short === 'orh' ? 'high' : 'low', minutes: null }), i, i + 1);
  let field: 'high' | 'low' | 'range' = 'range';
  let j = i;
  const lead = fieldAt(tokens, j);
  if (lead && norm(tokens, j + 1) === 'of') {
    // "the high of the first 15 minutes"
    const first = phraseAt(tokens, j + 1, 'of the? first');
    const m = first !== null ? minutesAt(tokens, first) : null;
    if (m) return one(operand({ kind: 'opening_range', field: lead, minutes: m.minutes }), i, m.end);
    field = lead;
    j = skipWords(tokens, j + 2, ['the']);
  }
  let minutes: number | null = null;
  const m = minutesAt(tokens, j);
  if (m) {
    // "NQ 1-minute opening range breakout: ... the 15-minute opening range high": a length said right after the
    // market, where a timeframe stands, is the chart's when the text gives the range another length
    const afterMarket = j === i && before.length > 0 && before[before.length - 1]!.t1 === i && before[before.length - 1]!.body.k === 'market';
    if (afterMarket && otherRangeLength(tokens, m.end, m.minutes)) return null;
    minutes = m.minutes;
    j = m.end;
  }
  let orb = false;
  const core = phraseAt(tokens, j, 'opening range');
  if (core !== null) j = core;
  else if (norm(tokens, j) === 'or' && (tokens[j]!.text === 'OR' || minutes !== null || norm(tokens, j - 1) === 'the') && fieldAt(tokens, j + 1)) j += 1;
  else if (norm(tokens, j) === 'orb') {
    orb = true;
    j += 1;
  } else return null;
  if (field === 'range') {
    const f = fieldAt(tokens, j);
    if (f) {
      field = f;
      j += 1;
    }
  }
  const after = rangeMinutesAfter(tokens, j);
  if (after && minutes === null) ({ minutes, end: j } = after);
  if (orb && field === 'range') {
    return { end: j, out: [{ body: { k: 'cmp', op: 'breaks' }, t0: i, t1: j }, { body: { k: 'ref', ref: { kind: 'orb', minutes } }, t0: i, t1: j }] };
  }
  // "the 30-minute opening range breakout": a break of it, said after it; all of it, the setup as an ORB names it
  if (!orb && wordIn(tokens, j, ['breakout', 'breakouts'])) {
    if (field === 'range') {
      return { end: j + 1, out: [{ body: { k: 'cmp', op: 'breaks' }, t0: i, t1: j + 1 }, { body: { k: 'ref', ref: { kind: 'orb', minutes } }, t0: i, t1: j + 1 }] };
    }
    return { end: j + 1, out: [{ body: { k: 'cmp', op: 'breaks' }, t0: j, t1: j + 1 }, { body: operand({ kind: 'opening_range', field, minutes }), t0: i, t1: j }] };
  }
  return one(operand({ kind: 'opening_range', field, minutes }), i, j);
};

const BARS = ['bars', 'bar', 'candles', 'candle', 'periods', 'period'];
const BAR_NOUNS = ['bar', 'bars', 'candle', 'candles', 'candlestick', 'candlesticks'];
/** A first bar's size: minutes in a unit ("5m", "5-minute", "1 hour", and without a number "minute", "hour"). */
const SIZE_UNITS: ReadonlyMap<string, number> = new Map([
  ...['minute', 'minutes', 'min', 'mins', 'm'].map((w) => [w, 1] as const),
  ...['hour', 'hours', 'hr', 'hrs', 'h'].map((w) => [w, 60] as const),
]);
const BARE_SIZES = ['minute', 'hour'];
/** What may follow the session's first bar: "of the day", "of the cash session", "after the open", "of the UTC day". */
const SESSION_TAIL = 'of|after|in the? cash|regular|rth|us|ny|utc|trading? day|session|open|market';

/**
 * The session's first bar: its high, its low, or all of it as a range, which is the opening range of its size:
 * "the first 5m bar's high", "the high of the first 15-minute candle", "the opening 5-minute bar", "the first hourly
 * candle of the day", "the first hour's low". Without a size ("the first bar's high") it is a bar of the chart's
 * timeframe, settled with the timeframe (a ref). A size with neither bar nor high or low ("the first 30 minutes") is
 * a session, and a bar with neither size, high, low nor session ("the first bar after the cross") is not this.
 */
export const firstBar: Recognizer = (tokens, i) => {
  let j = i;
  let field: 'high' | 'low' | null = fieldAt(tokens, j);
  if (field) {
    const of = phraseAt(tokens, j + 1, 'of the?');
    if (of === null) return null;
    j = of;
  }
  if (!wordIn(tokens, j, ['first', 'opening'])) return null;
  j += 1;
  let minutes: number | null = null;
  const n = readNumber(tokens, j);
  if (isLength(n)) {
    const u = pastHyphen(tokens, n.end);
    const per = tokens[u]?.kind === 'word' ? SIZE_UNITS.get(tokens[u]!.norm) : undefined;
    if (per === undefined) return null;
    minutes = n.value * per;
    j = u + 1;
  } else if (wordIn(tokens, j, ['hourly'])) {
    minutes = 60;
    j += 1;
  } else if (wordIn(tokens, j, BARE_SIZES)) {
    minutes = SIZE_UNITS.get(tokens[j]!.norm)!;
    j += 1;
  }
  const noun = wordIn(tokens, j, BAR_NOUNS);
  if (noun) j += 1;
  if (!field) {
    field = fieldAt(tokens, j);
    if (field) j += 1;
  }
  const tail = phraseAt(tokens, j, SESSION_TAIL);
  if (tail !== null) j = tail;
  const said = noun || (minutes !== null && field !== null);
  if (!said || (minutes === null && field === null && tail === null)) return null;
  if (minutes === null) return one({ k: 'ref', ref: { kind: 'first_bar', field: field ?? 'range' } }, i, j);
  if (minutes > 500) return null;
  return one(operand({ kind: 'opening_range', field: field ?? 'range', minutes }), i, j);
};

/** "the highest high of the last 20 bars", "the 20-bar low", "the high of the past 10 candles"; "a new 20 bar high" breaks it. */
export const extreme: Recognizer = (tokens, i) => {
  let j = i;
  const fresh = phraseAt(tokens, j, 'make|makes|making|print|prints a? new|fresh');
  const lead = fresh ?? phraseAt(tokens, j, 'new|fresh');
  if (lead !== null) j = skipWords(tokens, lead, ['the']);
  let which: 'highest' | 'lowest' | null = null;
  let n: NumberRead | null = null;
  let end = j;
  if (wordIn(tokens, j, ['highest', 'lowest'])) {
    which = norm(tokens, j) === 'highest' ? 'highest' : 'lowest';
    let k = j + 1;
    if (wordIn(tokens, k, ['high', 'low'])) k += 1;
    const over = phraseAt(tokens, k, 'of|in|over|for the? last|past|previous|prior|preceding?');
    if (over === null) return null;
    n = readNumber(tokens, over);
    if (!isLength(n) || !wordIn(tokens, n.end, BARS)) return null;
    end = n.end + 1;
  } else if (fieldAt(tokens, j) && norm(tokens, j + 1) === 'of') {
    const over = phraseAt(tokens, j + 2, 'the? last|past|previous|prior|preceding');
    if (over === null) return null;
    n = readNumber(tokens, over);
    if (!isLength(n) || !wordIn(tokens, n.end, BARS)) return null;
    which = fieldAt(tokens, j) === 'high' ? 'highest' : 'lowest';
    end = n.end + 1;
  } else {
    n = readNumber(tokens, j);
    if (!isLength(n)) return null;
    const k = pastHyphen(tokens, n.end);
    if (!wordIn(tokens, k, ['bar', 'candle', 'period'])) return null;
    const f = fieldAt(tokens, k + 1);
    if (!f) return null;
    which = f === 'high' ? 'highest' : 'lowest';
    end = k + 2;
  }
  const read: Out = { body: operand({ kind: which, n: n.value }), t0: lead !== null ? j : i, t1: end };
  if (lead === null) return { end, out: [read] };
  return { end, out: [{ body: { k: 'cmp', op: 'breaks' }, t0: i, t1: lead }, read] };
};

type DayField = 'high' | 'low' | 'close';
const priorDayEntries = (['high', 'low', 'close'] as const).flatMap((field): [string, DayField][] => {
  const w = field === 'high' ? 'high|hi' : field === 'low' ? 'low|lo' : 'close|settle|settlement';
  return [
    [`prior|previous|prev day|days|session|sessions ${w}`, field],
    [`yesterday day|session? ${w}`, field],
    [`${w} of the? prior|previous|prev day|session`, field],
    [`${w} of yesterday`, field],
  ];
});
export const priorDay = fromTable(table<DayField>([...priorDayEntries, ['prior|previous|prev day|days|session|sessions closing price', 'close'], ['pdh', 'high'], ['pdl', 'low'], ['pdc', 'close']]), (field) =>
  operand({ kind: 'prior_day', field }),
);

export const marks = fromTable(
  table([
    ['my|our key|support|resistance|drawn|marked? level|levels|line|lines', 'level'],
    ['my|our support|resistance', 'level'],
    ['my|our key|drawn|marked? zone|zones|box|boxes|area|areas', 'zone'],
    ['my|our mark|marks', 'any'],
    ['marked level|levels|line|lines', 'level'],
    ['marked zone|zones|area|areas', 'zone'],
  ] as const),
  (shape) => operand({ kind: 'mark', shape }),
);

type BarRef = { bar: 'signal' | 'previous'; field: 'high' | 'low' };
/** "the zone", "that level": the trader's mark, if the text names one of that shape ("my zone"). */
export const markRefs = fromTable(
  table<'level' | 'zone'>([
    ['the|that|this level|levels|line', 'level'],
    ['the|that|this zone|zones|box|area', 'zone'],
  ]),
  (shape) => ({ k: 'ref', ref: { kind: 'mark', shape } }),
);

/** "its high", "that bar's low", "the high of that candle": the bar or level named before (references.ts). */
export const thatBar = fromTable(
  table<{ field: 'high' | 'low'; bar: boolean }>(
    (['high', 'low'] as const).flatMap((field): [string, { field: 'high' | 'low'; bar: boolean }][] => [
      [`its ${field}`, { field, bar: false }],
      [`that|this|same bar|candle|candlestick ${field}`, { field, bar: true }],
      [`${field} of that|this|same bar|candle|candlestick`, { field, bar: true }],
      [`${field} of the same bar|candle|candlestick`, { field, bar: true }],
    ]),
  ),
  (v) => ({ k: 'ref', ref: { kind: 'that', ...v } }),
);

/**
 * The signal or previous bar without its high or low ("stop below the trigger candle"): settled by the comparison
 * before it (references.ts). Not before its close or open, which the reader does not read.
 */
const wholeBars = table<'signal' | 'previous'>([
  ['signal|entry|trigger|setup bar|candle|candlestick', 'signal'],
  ['prior|previous|preceding bar|candle|candlestick', 'previous'],
]);
export const wholeBar: Recognizer = (tokens, i) => {
  const m = wholeBars.longest(tokens, i);
  if (!m || wordIn(tokens, m.end, ['close', 'closes', 'closing', 'open', 'opens', 'opening'])) return null;
  return one({ k: 'ref', ref: { kind: 'bar', bar: m.value } }, i, m.end);
};

export const barOperands = fromTable(
  table<BarRef>(
    (['high', 'low'] as const).flatMap((field): [string, BarRef][] => [
      [`signal|entry|trigger|setup bar|candle|candlestick ${field}`, { bar: 'signal', field }],
      [`prior|previous|last|preceding bar|candle|candlestick ${field}`, { bar: 'previous', field }],
      [`${field} of the signal|entry|trigger|setup bar|candle|candlestick`, { bar: 'signal', field }],
      [`${field} of the prior|previous|last|preceding bar|candle|candlestick`, { bar: 'previous', field }],
    ]),
  ),
  ({ bar, field }) => operand({ kind: 'bar', bar, field }),
);

const IND: PhraseTable<'ema' | 'sma' | 'rsi' | 'atr' | 'ma'> = table([
  ['ema|emas', 'ema'],
  ['exponential moving average|averages', 'ema'],
  ['exponential ma', 'ema'],
  ['sma|smas', 'sma'],
  ['simple moving average|averages', 'sma'],
  ['simple ma', 'sma'],
  ['rsi', 'rsi'],
  ['atr', 'atr'],
  ['ma|mas', 'ma'],
  ['moving average|averages', 'ma'],
]);

/**
 * An indicator with its length: "9 EMA", "the nine EMA", "9-period EMA", "EMA(9)", "EMA 9", "ema9", "RSI(14)";
 * two at once: "the 9/21 EMA", "the 9 and 21 EMAs". Without a length the length stays unstated (null).
 * "N ATR" is a distance (the lexer reads distances first); "14-period ATR" and "ATR(14)" are the indicator.
 */
export const indicator: Recognizer = (tokens, i) => {
  const n = readNumber(tokens, i);
  if (isLength(n)) {
    // "9/21 EMA", "9 and 21 EMAs"
    const sep = norm(tokens, n.end);
    if (sep === '/' || sep === 'and') {
      const m = readNumber(tokens, n.end + 1);
      const kind = isLength(m) ? IND.longest(tokens, m.end) : null;
      if (isLength(m) && kind && kind.value !== 'atr' && kind.value !== 'rsi') {
        return {
          end: kind.end,
          out: [
            { body: operand({ kind: kind.value, n: n.value }), t0: i, t1: n.end },
            { body: operand({ kind: kind.value, n: m.value }), t0: n.end + 1, t1: kind.end },
          ],
        };
      }
    }
    let j = pastHyphen(tokens, n.end);
    const period = wordIn(tokens, j, ['period', 'length', 'bar']);
    if (period) j = pastHyphen(tokens, j + 1);
    const kind = IND.longest(tokens, j);
    if (!kind || (kind.value === 'atr' && !period)) return null;
    return one(operand({ kind: kind.value, n: n.value }), i, kind.end);
  }
  const kind = IND.longest(tokens, i);
  if (!kind) return null;
  const after = lengthAfter(tokens, kind.end) ?? (() => {
    // "EMA 200", "RSI 14", "ema-9": a whole number right after the name
    const j = pastHyphen(tokens, kind.end);
    const m = readNumber(tokens, j);
    return isLength(m) && m.digits && norm(tokens, m.end) !== '%' && !DISTANCE_UNITS.has(norm(tokens, m.end) ?? '') ? { n: m.value, end: m.end } : null;
  })();
  return one(operand({ kind: kind.value, n: after?.n ?? null }), i, after?.end ?? kind.end);
};

export const vwap: Recognizer = (tokens, i) => (wordIn(tokens, i, ['vwap', 'vwaps']) ? one(operand({ kind: 'vwap' }), i, i + 1) : null);

const priceTable = table<boolean>([
  ['price', false],
  ['last price', false],
  ['closing price', true],
  ['close|closes|closing', true],
]);
/** The price at the bar's close; said as the close, it is marked so (a close that breaks a line crosses it). */
export const price: Recognizer = (tokens, i) => {
  const m = priceTable.longest(tokens, i);
  return m ? one({ k: 'operand', operand: { kind: 'price', field: 'close' }, closing: m.value }, i, m.end) : null;
};

/**
 * "The 20-day SMA", "the 5-minute RSI": an indicator of another timeframe. The reader does not read it (it is
 * neither the chart's timeframe nor a number), so a condition on it stays unread.
 */
export const otherTimeframeIndicator: Recognizer = (tokens, i) => {
  const n = readNumber(tokens, i);
  if (!n) return null;
  const j = pastHyphen(tokens, n.end);
  if (tokens[j]?.kind !== 'word' || !TIME_UNITS.has(tokens[j]!.norm)) return null;
  const end = IND.longest(tokens, j + 1)?.end ?? (wordIn(tokens, j + 1, ['vwap']) ? j + 2 : null);
  return end !== null ? one({ k: 'word', norm: UNREAD_INDICATOR }, i, end) : null;
};
