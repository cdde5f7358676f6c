import { is, UNREAD_INDICATOR, type CmpOp, type Lexeme, type OperandLex } from './lexemes.js';
import type { Condition, LevelOp, LineOp } from './schema.js';

/**
 * Conditions from a clause's lexemes: "[subject] comparison operand", joined by and, or and commas (and binds
 * tighter than or). Without a subject the subject is the close ("above VWAP", "closes above VWAP"), or, right
 * after "and"/"or", the subject of the condition before ("RSI below 70 and above 30"). A bare whole number after
 * an EMA or SMA is another average of that kind ("the 9 EMA crosses above the 21"). Breaks and touches compare
 * the bar's range with a level; a break of a high is a break above it, of a low a break below it.
 */

export type LeafLex = { op: LineOp; left: OperandLex; right: OperandLex } | { op: LevelOp; level: OperandLex };
export type JoinLex = { op: 'and' | 'or'; args: CondLex[] };
export type CondLex = LeafLex | JoinLex;

export const isJoin = (c: CondLex): c is JoinLex => c.op === 'and' || c.op === 'or';

export interface Atom {
  leaf: LeafLex;
  /** The lexemes it was read from (an inherited subject is cited by the condition before). */
  lex: Lexeme[];
  /** How it joins the atom before it. */
  join: 'and' | 'or';
}

const CLOSE: OperandLex = { kind: 'price', field: 'close' };
const CROSSES: ReadonlySet<CmpOp> = new Set(['crosses', 'crosses_above', 'crosses_below']);
const LEVEL_OPS: ReadonlySet<CmpOp> = new Set(['breaks_above', 'breaks_below', 'breaks', 'touches']);

/** Which edge of the chart a level is: a high (a highest, an upper band), a low, or neither (a line, a range). */
export function edgeOf(level: OperandLex): 'high' | 'low' | null {
  if (level.kind === 'highest' || (level.kind === 'bollinger' && level.band === 'upper')) return 'high';
  if (level.kind === 'lowest' || (level.kind === 'bollinger' && level.band === 'lower')) return 'low';
  if ('field' in level && (level.field === 'high' || level.field === 'low')) return level.field;
  return null;
}

/** The side of a level a break goes through: above a high, below a low, either way for anything else. */
function breakOf(level: OperandLex): LevelOp {
  const edge = edgeOf(level);
  return edge === 'high' ? 'breaks_above' : edge === 'low' ? 'breaks_below' : 'breaks';
}

/** A break of the whole opening range one way is a break of its edge that way. */
function edgeBroken(op: LevelOp, level: OperandLex): OperandLex {
  if (level.kind !== 'opening_range' || level.field !== 'range') return level;
  return op === 'breaks_above' ? { ...level, field: 'high' } : op === 'breaks_below' ? { ...level, field: 'low' } : level;
}

/**
 * One comparison. `closing`: the subject is said as the close ("the close breaks the 20 EMA"), whose break of a line
 * or level is a cross by the close, in the direction a break of it goes.
 */
function leaf(op: CmpOp, left: OperandLex | null, right: OperandLex, closing = false): LeafLex {
  if (LEVEL_OPS.has(op)) {
    // "the 9 EMA breaks above the 21 EMA" is a cross: a line's subject has no bar range
    if (left !== null && (left.kind !== 'price' || closing) && op !== 'touches') {
      const way = op === 'breaks' && closing ? breakOf(right) : op;
      const line: LineOp = way === 'breaks_above' ? 'crosses_above' : way === 'breaks_below' ? 'crosses_below' : 'crosses';
      return { op: line, left, right };
    }
    const way = op === 'breaks' ? breakOf(right) : (op as LevelOp);
    return { op: way, level: edgeBroken(way, right) };
  }
  return { op: op as LineOp, left: left ?? CLOSE, right };
}

/** A number on the right: another average of the subject's kind, or a constant. */
function rightOfNumber(left: OperandLex | null, value: number): OperandLex {
  const average = left !== null && (left.kind === 'ema' || left.kind === 'sma' || left.kind === 'ma');
  if (average && Number.isInteger(value) && value >= 1 && value <= 500) return { kind: left.kind, n: value };
  return { kind: 'constant', value };
}

const ITEM_KINDS = new Set(['operand', 'num', 'cmp', 'conj', 'comma']);

export function readConditions(clause: readonly Lexeme[], taken: ReadonlySet<Lexeme>): Atom[] {
  const items = clause.filter((l) => !taken.has(l) && (ITEM_KINDS.has(l.k) || (l.k === 'word' && (l.norm === 'between' || l.norm === UNREAD_INDICATOR))));
  const atoms: Atom[] = [];
  let pending: 'and' | 'or' | null = null;
  /** Index of the last item of the atom before, and its subject. */
  let lastEnd = -2;
  let lastLeft: OperandLex | null = null;
  const push = (l: LeafLex, lex: Lexeme[], subject: OperandLex | null, end: number): void => {
    atoms.push({ leaf: l, lex, join: atoms.length > 0 ? (pending ?? 'and') : 'and' });
    pending = null;
    lastEnd = end;
    lastLeft = subject;
  };
  /** Only links (and, or, commas) stand between the atom before and item i. */
  const linked = (i: number): boolean => i > lastEnd + 1 && items.slice(lastEnd + 1, i).every((l) => l.k === 'conj' || l.k === 'comma');

  let i = 0;
  while (i < items.length) {
    const it = items[i]!;
    if (it.k === 'conj') {
      if (pending !== 'or') pending = it.conj;
      i += 1;
      continue;
    }
    // a comparison whose subject the reader cannot read ("the 20-day SMA is above ...") is not read at all
    if (it.k === 'word' && it.norm === UNREAD_INDICATOR) {
      i += is('cmp')(items[i + 1]) ? 3 : 1;
      continue;
    }
    let left: Lexeme | null = null;
    let c = i;
    if (is('operand')(it)) {
      const next = items[i + 1];
      const third = items[i + 2];
      // "the 9/21 EMA cross", "9 and 21 EMA crossover"
      if (is('operand')(next) && is('cmp')(third) && CROSSES.has(third.op)) {
        push({ op: third.op as LineOp, left: it.operand, right: next.operand }, [it, next, third], it.operand, i + 2);
        i += 3;
        continue;
      }
      // "RSI(14) between 40 and 60"
      const [lo, and, hi] = [items[i + 2], items[i + 3], items[i + 4]];
      if (next?.k === 'word' && is('num')(lo) && is('conj')(and) && and.conj === 'and' && is('num')(hi)) {
        const lex = [it, next, lo, and, hi];
        push({ op: 'above', left: it.operand, right: { kind: 'constant', value: lo.value } }, lex, it.operand, i + 4);
        push({ op: 'below', left: it.operand, right: { kind: 'constant', value: hi.value } }, [], it.operand, i + 4);
        i += 5;
        continue;
      }
      if (!is('cmp')(next)) {
        i += 1;
        continue;
      }
      left = it;
      c = i + 1;
    } else if (!is('cmp')(it)) {
      i += 1;
      continue;
    }
    const cmp = items[c] as Extract<Lexeme, { k: 'cmp' }>;
    const subject: OperandLex | null = left && is('operand')(left) ? left.operand : linked(c) ? lastLeft : null;
    const rhs = items[c + 1];
    let right: OperandLex;
    if (is('operand')(rhs)) right = rhs.operand;
    else if (is('num')(rhs)) right = rightOfNumber(subject, rhs.value);
    else {
      i = c + 1;
      continue;
    }
    const l = leaf(cmp.op, subject, right, left !== null && is('operand')(left) && left.closing === true);
    push(l, [...(left ? [left] : []), cmp, rhs!], 'left' in l ? l.left : subject, c + 1);
    i = c + 2;
  }
  return atoms;
}

/** Atoms to a tree: runs joined by "and" are grouped, the groups joined by "or". */
export function tree(atoms: readonly Atom[]): CondLex {
  const groups: CondLex[][] = [];
  for (const a of atoms) {
    if (groups.length === 0 || a.join === 'or') groups.push([a.leaf]);
    else groups[groups.length - 1]!.push(a.leaf);
  }
  const ands = groups.map((g): CondLex => (g.length === 1 ? g[0]! : { op: 'and', args: g }));
  return ands.length === 1 ? ands[0]! : { op: 'or', args: ands };
}

const mapOperands = (c: CondLex, f: (o: OperandLex) => OperandLex): CondLex =>
  isJoin(c)
    ? { op: c.op, args: c.args.map((a) => mapOperands(a, f)) }
    : 'level' in c
      ? { op: c.op, level: f(c.level) }
      : { op: c.op, left: f(c.left), right: f(c.right) };

const operandsOf = (c: CondLex): OperandLex[] =>
  isJoin(c) ? c.args.flatMap(operandsOf) : 'level' in c ? [c.level] : [c.left, c.right];

/** The words said "MA" (moving average) without simple or exponential. */
export const hasMa = (c: CondLex): boolean => operandsOf(c).some((o) => o.kind === 'ma');

/** The condition with every MA read as the given average. */
export function resolve(c: CondLex, ma: 'sma' | 'ema'): Condition {
  return mapOperands(c, (o) => (o.kind === 'ma' ? { kind: ma, n: o.n } : o)) as Condition;
}

const MIRROR_OP: Readonly<Record<CmpOp, CmpOp>> = {
  above: 'below',
  below: 'above',
  crosses_above: 'crosses_below',
  crosses_below: 'crosses_above',
  crosses: 'crosses',
  breaks_above: 'breaks_below',
  breaks_below: 'breaks_above',
  breaks: 'breaks',
  touches: 'touches',
};

function mirrorOperand(o: OperandLex): OperandLex {
  switch (o.kind) {
    case 'highest':
      return { kind: 'lowest', n: o.n };
    case 'lowest':
      return { kind: 'highest', n: o.n };
    case 'price':
      return { kind: 'price', field: o.field === 'high' ? 'low' : o.field === 'low' ? 'high' : o.field };
    case 'prior_day':
      return { kind: 'prior_day', field: o.field === 'high' ? 'low' : o.field === 'low' ? 'high' : o.field };
    case 'opening_range':
      return { ...o, field: o.field === 'high' ? 'low' : o.field === 'low' ? 'high' : o.field };
    case 'bar':
    case 'swing':
      return { ...o, field: o.field === 'high' ? 'low' : 'high' };
    case 'bollinger':
      return { ...o, band: o.band === 'upper' ? 'lower' : o.band === 'lower' ? 'upper' : 'middle' };
    default:
      return o;
  }
}

/**
 * "Vice versa": the same rule turned over, above for below, highs for lows. An oscillator compared with a number
 * ("RSI below 30") has no mirror the words give (30 or 70?), so such a rule is not turned over.
 */
export function mirror(c: CondLex): CondLex | null {
  if (isJoin(c)) {
    const args = c.args.map(mirror);
    return args.every((a): a is CondLex => a !== null) ? { op: c.op, args } : null;
  }
  if ('level' in c) return { op: MIRROR_OP[c.op] as LevelOp, level: mirrorOperand(c.level) };
  const oscillator = (o: OperandLex): boolean => o.kind === 'rsi' || o.kind === 'atr';
  if ((oscillator(c.left) && c.right.kind === 'constant') || (oscillator(c.right) && c.left.kind === 'constant')) return null;
  return { op: MIRROR_OP[c.op] as LineOp, left: mirrorOperand(c.left), right: mirrorOperand(c.right) };
}

