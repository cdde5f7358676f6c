import type { Market } from '../markets.js';
import { FIRST_COMES_WORD, type Lexeme } from './lexemes.js';
import { atrDistance, moneyDistance, plainDistance, rangeDistance, rDistance } from './lex-amounts.js';
import { bandRefs, bollinger, farSide, rangeRefs, swing } from './lex-levels.js';
import { barOperands, extreme, firstBar, indicator, markRefs, marks, openingRange, otherTimeframeIndicator, price, priorDay, thatBar, vwap, wholeBar } from './lex-operands.js';
import { duration, firstOrLast, time, timeframe } from './lex-times.js';
import { readNumber } from './numbers.js';
import { phraseAt } from './phrases.js';
import { flat, fromTable, norm, one, table, wordIn, type Out, type Recognizer } from './recognizer.js';
import type { Token } from './tokens.js';
import {
  ANCHORS,
  CLOSE_EXITS,
  COMPARISONS,
  FIRST_COMES,
  FROM_ENTRY,
  MARKET_NAMES,
  MICRO_MARKET_NAMES,
  NAMED_SESSIONS,
  NEGATED_TRADING,
  NOT_SIDES,
  SIDE_WORDS,
  UNSERVED_MARKETS,
  VICE_VERSA,
  ZONE_WORDS,
} from './vocabulary.js';

/**
 * Tokens to lexemes, left to right: at each token the recognizers are tried in a fixed order and the first that
 * reads something takes its tokens. The order settles overlaps: "stop to breakeven" before "stop", "the 15-minute
 * opening range" before a 15-minute timeframe, "after 30 minutes" stays a duration, "2 ATR" is a distance.
 */

const notSides = fromTable(flat(NOT_SIDES), () => ({ k: 'word', norm: 'when' }));
const viceVersa = fromTable(flat(VICE_VERSA), () => ({ k: 'vice_versa' }));
const fromEntry = fromTable(flat(FROM_ENTRY), () => ({ k: 'word', norm: 'from entry' }));
const firstComes = fromTable(flat(FIRST_COMES), () => ({ k: 'word', norm: FIRST_COMES_WORD }));
const negated = fromTable(flat(NEGATED_TRADING), () => ({ k: 'not' }));
const closeExit = fromTable(flat(CLOSE_EXITS), () => ({ k: 'close_exit' }));
const named = fromTable(table(NAMED_SESSIONS), (v) => ({ k: 'named', session: v.session, name: v.name }));
const zones = fromTable(table(ZONE_WORDS), (zone) => ({ k: 'zone', zone }));
const markets = fromTable(
  table<{ market: Market; micro: boolean }>([
    ...MARKET_NAMES.map(([p, market]) => [p, { market, micro: false }] as const),
    ...MICRO_MARKET_NAMES.map(([p, market]) => [p, { market, micro: true }] as const),
  ]),
  (v) => ({ k: 'market', ...v }),
);
const anchors = fromTable(table(ANCHORS), (anchor) => ({ k: 'anchor', anchor }));
const sides = fromTable(table(SIDE_WORDS), (s) => ({ k: 'side', ...s }));

const unserved = fromTable(flat(UNSERVED_MARKETS), () => ({ k: 'unserved_market' }));

const comparison = fromTable(table(COMPARISONS), (op) => ({ k: 'cmp', op }));

/** "out" is a way out only before by, at, after, when, if, on, before: "out by 15:50", "out after 6 bars". */
const outExit: Recognizer = (tokens, i) =>
  wordIn(tokens, i, ['out']) && wordIn(tokens, i + 1, ['by', 'at', 'after', 'on', 'when', 'if', 'before'])
    ? one({ k: 'anchor', anchor: 'exit' }, i, i + 1)
    : null;

const DISTANCES: readonly Recognizer[] = [rangeDistance, rDistance, atrDistance, moneyDistance, plainDistance];
const TAKE = ['take', 'takes', 'taking', 'bank', 'banks', 'banking', 'book', 'books', 'booking', 'grab'];

/** "take 1.2%", "take 40 points", "bank 2R", "take it at 2R": a target said without the word profit. */
const takeAmount: Recognizer = (tokens, i, before) => {
  if (!wordIn(tokens, i, TAKE)) return null;
  const j = phraseAt(tokens, i + 1, 'it|them|profit|profits|gains at|@') ?? i + 1;
  const amount = DISTANCES.some((r) => r(tokens, j, before)?.out.some((o) => o.body.k === 'distance'));
  return amount ? one({ k: 'anchor', anchor: 'target' }, i, j) : null;
};

const HOLD = ['hold', 'holding', 'keep', 'keeping', 'max', 'maximum'];
const HOLD_FILLER = ['it', 'them', 'the', 'a', 'trade', 'trades', 'position', 'positions', 'for', 'up', 'to', 'at', 'most', 'no', 'more', 'than', 'of', 'max', 'maximum', 'hold'];

/** "hold 10 bars", "keep it up to 2 hours", "max 20 bars": how long a trade may live, a way out. */
const holdFor: Recognizer = (tokens, i, before) => {
  if (!wordIn(tokens, i, HOLD)) return null;
  let j = i + 1;
  while (wordIn(tokens, j, HOLD_FILLER)) j++;
  return duration(tokens, j, before) ? one({ k: 'anchor', anchor: 'exit' }, i, j) : null;
};

const conj: Recognizer = (tokens, i) => {
  const w = norm(tokens, i);
  if (w === 'and' || w === '&' || w === 'plus') return one({ k: 'conj', conj: 'and' }, i, i + 1);
  if (w === 'or') return one({ k: 'conj', conj: 'or' }, i, i + 1);
  return null;
};

const SEPARATORS = new Set(['.', ';', '!', '?', '\n']);
const DASHES = new Set(['-', '–', '—']);

const plain: Recognizer = (tokens, i) => {
  const t = tokens[i]!;
  if (t.kind === 'num') return one({ k: 'num', value: t.value, digits: true }, i, i + 1);
  if (t.kind === 'word') {
    const n = readNumber(tokens, i);
    if (n && n.value > 0) return one({ k: 'num', value: n.value, digits: false }, i, n.end);
    return one({ k: 'word', norm: t.norm }, i, i + 1);
  }
  if (SEPARATORS.has(t.norm)) return one({ k: 'sep' }, i, i + 1);
  if (t.norm === ',') return one({ k: 'comma' }, i, i + 1);
  if (DASHES.has(t.norm)) return one({ k: 'dash' }, i, i + 1);
  return { end: i + 1, out: [] };
};

/** The order is the vocabulary's precedence (see the file's opening comment). */
const RECOGNIZERS: readonly Recognizer[] = [
  notSides,
  viceVersa,
  fromEntry,
  firstComes,
  negated,
  closeExit,
  takeAmount,
  holdFor,
  rDistance,
  rangeDistance,
  farSide,
  firstBar,
  firstOrLast,
  named,
  zones,
  time,
  markets,
  unserved,
  openingRange,
  swing,
  bollinger,
  extreme,
  priorDay,
  marks,
  markRefs,
  thatBar,
  barOperands,
  wholeBar,
  rangeRefs,
  bandRefs,
  atrDistance,
  moneyDistance,
  plainDistance,
  otherTimeframeIndicator,
  timeframe,
  duration,
  indicator,
  vwap,
  outExit,
  anchors,
  comparison,
  price,
  sides,
  conj,
  plain,
];

/** Marks that start a phrase of the vocabulary ("<", ">", "&" for and, "$" for dollars); any other mark is read plainly. */
const PHRASE_MARKS = new Set(['<', '>', '&', '$']);

export function lex(tokens: readonly Token[]): Lexeme[] {
  const outs: Out[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    for (const recognize of t.kind === 'punct' && !PHRASE_MARKS.has(t.norm) ? [plain] : RECOGNIZERS) {
      const read = recognize(tokens, i, outs);
      if (read) {
        outs.push(...read.out);
        i = read.end;
        break;
      }
    }
  }
  // Each body is a fresh object: it becomes the lexeme.
  return outs.map(({ body, t0, t1 }) => Object.assign(body, { from: tokens[t0]!.from, to: tokens[t1 - 1]!.to, ctx: 'entry' as const, seg: 0, also: [] }));
}
