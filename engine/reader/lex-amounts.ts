import { readNumber, type NumberRead } from './numbers.js';
import { phraseAt } from './phrases.js';
import { flat, isLength, lengthAfter, minutesAt, norm, one, pastHyphen, skipWords, wordIn, type Read, type Recognizer } from './recognizer.js';
import type { Token } from './tokens.js';
import { DISTANCE_UNITS, MONEY_SIZING, MONEY_WORDS } from './vocabulary.js';

/** Recognizers of amounts: distances in points, ticks, percent, ATR and dollars, multiples of the risk (R) and of the range. */

/** A multiplier: a number, or "a"/"an" before the unit ("a tick below", "an ATR"). */
function amount(tokens: readonly Token[], i: number): NumberRead | null {
  if (wordIn(tokens, i, ['a', 'an'])) return { value: 1, end: i + 1, digits: false };
  const n = readNumber(tokens, i);
  return n && n.value > 0 ? n : null;
}

/** "2 ATR", "2x ATR(14)", "1.5 times the 14-period ATR", "half an ATR", "2 ATRs". */
export const atrDistance: Recognizer = (tokens, i) => {
  const n = amount(tokens, i);
  if (!n) return null;
  let j = n.end;
  if (wordIn(tokens, j, ['x', 'times'])) j += 1;
  j = skipWords(tokens, j, ['the']);
  let period: number | null = null;
  const p = readNumber(tokens, j);
  if (isLength(p)) {
    const k = pastHyphen(tokens, p.end);
    if (!wordIn(tokens, k, ['period', 'length', 'bar'])) return null;
    period = p.value;
    j = pastHyphen(tokens, k + 1);
  } else if (wordIn(tokens, j, ['period', 'length', 'bar'])) return null;
  if (!wordIn(tokens, j, ['atr', 'atrs'])) return null;
  j += 1;
  const after = lengthAfter(tokens, j);
  if (after && period === null) ({ n: period, end: j } = after);
  return one({ k: 'distance', unit: 'atr', n: n.value, period }, i, j);
};

/**
 * "10 points", "8 ticks", "0.5%", "half a percent", "a tick", "10-point", "12 pts", "5 handles".
 * A percent of the account ("risk 1% of my account") is position sizing, which the reader does not read.
 */
export const plainDistance: Recognizer = (tokens, i) => {
  const n = amount(tokens, i);
  if (!n) return null;
  const j = pastHyphen(tokens, n.end);
  const perCent = phraseAt(tokens, j, 'per cent');
  const unit = perCent !== null ? 'percent' : DISTANCE_UNITS.get(norm(tokens, j) ?? '');
  if (!unit) return null;
  const end = perCent ?? j + 1;
  const sizing = unit === 'percent' ? phraseAt(tokens, end, 'of my|the|your|our? account|capital|equity|balance|portfolio|bankroll') : null;
  if (sizing !== null) return one({ k: 'word', norm: 'position size' }, i, sizing);
  return one({ k: 'distance', unit, n: n.value, period: null }, i, end);
};

/**
 * Dollars: "$200", "$ 1,000", "200 dollars", "a 100 dollar stop", "10 USD". Said of a trade or a day ("risk $500
 * per trade", "$300 a day") it is the size of the risk, which the reader does not read, not a stop.
 */
export const moneyDistance: Recognizer = (tokens, i) => {
  const dollarSign = norm(tokens, i) === '$';
  const n = readNumber(tokens, dollarSign ? i + 1 : i);
  if (!n || n.value <= 0) return null;
  let end = n.end;
  if (!dollarSign) {
    const j = pastHyphen(tokens, n.end);
    if (!wordIn(tokens, j, MONEY_WORDS)) return null;
    end = j + 1;
  }
  const sizing = phraseAt(tokens, end, MONEY_SIZING);
  if (sizing !== null) return one({ k: 'word', norm: 'position size' }, i, sizing);
  return one({ k: 'distance', unit: 'usd', n: n.value, period: null }, i, end);
};

const rrWords = flat(['rr', 'r : r', 'r / r', 'risk reward|rewards ratio?', 'risk to reward ratio?', 'risk / reward ratio?', 'reward to risk ratio?', 'reward : risk', 'reward / risk']);

/** "a:b" where one side is 1: the other side, in R. */
function ratio(tokens: readonly Token[], i: number): { r: number; end: number } | null {
  const a = readNumber(tokens, i);
  if (!a || !a.digits || norm(tokens, a.end) !== ':') return null;
  const b = readNumber(tokens, a.end + 1);
  if (!b || !b.digits) return null;
  if (a.value !== 1 && b.value !== 1) return null;
  const r = a.value === 1 ? b.value : a.value;
  return r > 0 ? { r, end: b.end } : null;
}

/** Multiples of the risk: "2R", "1.5 R", "2x risk", "twice the risk", "1:2 risk reward", "risk reward of 1:3". */
export const rDistance: Recognizer = (tokens, i) => {
  const r = (n: number, end: number): Read => one({ k: 'distance', unit: 'r', n, period: null }, i, end);
  const lead = rrWords.longest(tokens, i);
  if (lead) {
    const j = skipWords(tokens, lead.end, ['of', 'ratio', 'is']);
    const q = ratio(tokens, j);
    return q ? r(q.r, q.end) : null;
  }
  const q = ratio(tokens, i);
  if (q) return r(q.r, rrWords.longest(tokens, q.end)?.end ?? q.end);
  if (wordIn(tokens, i, ['twice', 'double'])) {
    const end = phraseAt(tokens, i + 1, 'my|the|your? risk');
    return end !== null ? r(2, end) : null;
  }
  const n = readNumber(tokens, i);
  if (!n || n.value <= 0) return null;
  if (wordIn(tokens, n.end, ['r', 'rs', 'rr'])) return r(n.value, n.end + 1);
  const times = phraseAt(tokens, n.end, 'x|times my|the|your|initial? risk');
  return times !== null ? r(n.value, times) : null;
};

/**
 * A multiple of the opening range's height: "1.5 times the range", "one and a half times the range", "2x the
 * opening range", "twice the range", "double the 30-minute opening range", "150% of the range", "half the range".
 * Its length is the one said with it, else the one the text gives the opening range (references.ts).
 */
export const rangeDistance: Recognizer = (tokens, i) => {
  let n: number;
  let j: number;
  if (wordIn(tokens, i, ['twice', 'double'])) {
    n = 2;
    j = i + 1;
  } else {
    const a = readNumber(tokens, i);
    if (!a || !(a.value > 0)) return null;
    j = a.end;
    n = a.value;
    const pct = norm(tokens, j) === '%' ? j + 1 : phraseAt(tokens, j, 'percent|pct');
    if (pct !== null) {
      const of = phraseAt(tokens, pct, 'of');
      if (of === null) return null;
      n = a.value / 100;
      j = of;
    } else if (wordIn(tokens, j, ['x', 'times'])) j += 1;
  }
  j = skipWords(tokens, j, ['the', 'a', 'full', 'whole']);
  const said = minutesAt(tokens, j);
  if (said) j = said.end;
  const range = phraseAt(tokens, j, 'opening? range|ranges');
  if (range === null || wordIn(tokens, range, ['bar', 'bars', 'high', 'low'])) return null;
  let end = phraseAt(tokens, range, 'height|size|width') ?? range;
  const first = phraseAt(tokens, end, 'of the? first');
  const after = said === null && first !== null ? minutesAt(tokens, first) : null;
  if (after) end = after.end;
  return one({ k: 'distance', unit: 'range', n, period: null, minutes: said?.minutes ?? after?.minutes ?? null }, i, end);
};
