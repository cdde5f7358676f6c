import { is, type Ctx, type Lexeme, type LexemeKind } from './lexemes.js';

/**
 * Where each lexeme stands. A sentence starts as the trigger's clause (entry); a stop, target, trail, exit or
 * breakeven word opens a clause of that kind, which runs to the end of the sentence, to the next such word, or
 * (for a stop, target, trail or breakeven that has read its amount) to the next comma or side word. A distance
 * said just before its word belongs to it: "a 10 point stop", "2R target", "use the OR low as my stop".
 * A bare "sell" after a buy is the way out of that buy ("buy when RSI(2) < 10, sell when it is above 90").
 */

const CONTENT: ReadonlySet<LexemeKind> = new Set(['distance', 'operand', 'num', 'time', 'duration', 'close_exit', 'cmp']);
const SHORT_CLAUSES: ReadonlySet<Ctx> = new Set(['stop', 'target', 'trail', 'breakeven']);
/** Words that may stand between an amount and the word it belongs to. */
const BETWEEN_AMOUNT_AND_ANCHOR = new Set(['a', 'an', 'the', 'my', 'your', 'with', 'use', 'using', 'as', 'hard', 'fixed', 'initial', 'protective', 'tight', 'wide', 'i', 'set', 'put', 'profit', 'for', 'and']);

const isBoundary = (l: Lexeme): boolean => l.k === 'sep' || l.k === 'anchor' || l.k === 'comma' || l.k === 'side';

/** A bare sell after a buy is read as a way out, not as a short. */
function sellsAfterBuys(lx: readonly Lexeme[]): Lexeme[] {
  let bought = false;
  return lx.map((l) => {
    if (l.k !== 'side') return l;
    if (l.side === 'long') bought = true;
    return l.sell && bought ? { k: 'anchor', anchor: 'exit', from: l.from, to: l.to, ctx: l.ctx, seg: l.seg, also: l.also } : l;
  });
}

/** The amount (or "X as my stop") said just before anchor a, if the anchor's own clause says none. */
function amountBefore(lx: readonly Lexeme[], a: number): Lexeme | null {
  const anchor = lx[a]!;
  if (!is('anchor')(anchor) || !['stop', 'target', 'trail'].includes(anchor.anchor)) return null;
  // the anchor's own clause, up to a boundary or an "and"/"or" ("a $100 stop and a 2:1 target")
  for (let j = a + 1; j < lx.length && !isBoundary(lx[j]!) && lx[j]!.k !== 'conj'; j++) if (CONTENT.has(lx[j]!.k)) return null;
  let sawAs = false;
  let j = a - 1;
  for (; j >= 0; j--) {
    const l = lx[j]!;
    if (l.k !== 'word' || !BETWEEN_AMOUNT_AND_ANCHOR.has(l.norm)) break;
    if (l.norm === 'as') sawAs = true;
  }
  const l = lx[j];
  if (is('distance')(l) && (anchor.anchor === 'target' || l.unit !== 'r')) return l;
  if (is('operand')(l) && sawAs) return l;
  return null;
}

export function place(lexemes: readonly Lexeme[]): Lexeme[] {
  const lx = sellsAfterBuys(lexemes);
  let ctx: Ctx = 'entry';
  let seg = 0;
  let content = false;
  const open = (c: Ctx): void => {
    ctx = c;
    seg += 1;
    content = false;
  };
  lx.forEach((l, a) => {
    if (l.k === 'sep') open('entry');
    else if (l.k === 'anchor') {
      if (l.anchor !== 'entry') open(l.anchor);
      else if (ctx !== 'entry') open('entry');
      const before = amountBefore(lx, a);
      if (before) {
        before.ctx = ctx;
        before.seg = seg;
        content = true;
      }
    } else if (SHORT_CLAUSES.has(ctx) && (l.k === 'side' || (l.k === 'comma' && content))) open('entry');
    l.ctx = ctx;
    l.seg = seg;
    if (ctx !== 'entry' && CONTENT.has(l.k)) content = true;
  });
  return lx;
}

/** The lexemes of each clause of one kind, clause by clause, in the order of the text. */
export function clauses(lx: readonly Lexeme[], ctx: Ctx): Lexeme[][] {
  const bySeg = new Map<number, Lexeme[]>();
  for (const l of lx) {
    if (l.ctx !== ctx) continue;
    const list = bySeg.get(l.seg) ?? [];
    list.push(l);
    bySeg.set(l.seg, list);
  }
  return [...bySeg.entries()].sort(([a], [b]) => a - b).map(([, list]) => list);
}
