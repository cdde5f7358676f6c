import { z } from 'zod';
import { place } from './clauses.js';
import { FIRST_COMES_WORD, UNREAD_INDICATOR, type Lexeme } from './lexemes.js';
import { lex } from './lexer.js';
import { span } from './parts.js';
import { resolveReferences } from './references.js';
import { PARTS, SpanSchema, type Part, type PartName, type RuleReading, type Span } from './schema.js';
import { tokenize } from './tokens.js';

/**
 * The account of a reading's words, clause by clause: no clause is dropped in silence. The text is cut into
 * clauses (at sentence ends, commas, and each stop, target, trail, exit or entry word, as the reader places them),
 * and each clause lands in the parts whose spans cite its words, or says why it was not used. Within a clause,
 * every word that carries a meaning (a number, an amount, a time, an indicator or level, a comparison, a side, a
 * stop or exit word, a market, a clock) that no part cites is listed with why it was not used and, where there is
 * one, the words that would read. Works on any lane's reading: the clauses and meanings are the embedded lexer's,
 * the landing is the reading's own spans.
 */

export interface Unused {
  span: Span;
  why: string;
  hint?: string;
}

export interface ClauseAccount {
  span: Span;
  /** The parts that cite words of the clause, in the order of the seven parts. */
  parts: PartName[];
  /** Its words that carry a meaning no part took, each with why; a clause that lands nowhere has at least one. */
  unused: Unused[];
}

export const ClauseAccountSchema = z
  .strictObject({
    span: SpanSchema,
    parts: z.array(z.enum(PARTS)).describe('the parts that cite words of this clause'),
    unused: z
      .array(z.strictObject({ span: SpanSchema, why: z.string().min(1), hint: z.string().min(1).optional() }))
      .describe('words of this clause that carry a meaning no part took: why each was not used, and words that would read'),
  })
  .refine((c) => c.parts.length > 0 || c.unused.length > 0, { message: 'a clause lands in a part or says why it was not used' });

/**
 * Plain words the reader makes of meanings it could not settle, or that take nothing by design: what each means for
 * the trader.
 */
const UNREAD_WORDS: Readonly<Record<string, { why: string; hint?: string }>> = {
  [FIRST_COMES_WORD]: { why: 'every way out is read as whichever comes first already' },
  'position size': { why: 'position sizing: the rule trades one contract or coin, and the reader does not read sizing' },
  [UNREAD_INDICATOR]: { why: "an indicator of another timeframe, which the reader does not read", hint: "use the chart's own: 'the 20 SMA', 'RSI(14)'" },
  range: { why: 'names a range, but the rule names no opening range it could be', hint: "say which range: 'the 15-minute opening range'" },
  'a multiple of which range': { why: 'a multiple of a range, but the rule names no opening range it could be', hint: "say which range: 'twice the 15-minute opening range'" },
  band: { why: 'names a band, but the rule names no Bollinger bands', hint: "say which band: 'the lower Bollinger band'" },
  'bollinger bands without a band': { why: 'names the Bollinger bands without saying which band', hint: "say 'the upper Bollinger band', 'the middle band' or 'the lower band'" },
  'swing of an even number of bars': { why: 'an even number of bars has no middle bar to swing', hint: "'the 5-bar swing low' or 'the swing low (2 bars either side)'" },
  'dollars on which contract': { why: 'dollars, with the market named both as the E-mini and as the micro', hint: "name one contract: 'NQ' or 'MNQ'" },
  bar: { why: 'a bar without its high or low, whose side the words do not give', hint: "say 'below the signal bar's low'" },
  its: { why: '"its" with no bar or level named before it', hint: "name it: 'the opening range low', 'the signal bar's high'" },
};

/** Lexeme kinds that carry a meaning of their own. */
const MEANINGFUL = new Set<Lexeme['k']>(['market', 'unserved_market', 'tf', 'tf_unserved', 'num', 'time', 'zone', 'operand', 'ref', 'distance', 'duration', 'cmp', 'side', 'anchor', 'named', 'close_exit', 'vice_versa', 'not']);

const ANCHOR_HINTS: Readonly<Record<string, string>> = {
  stop: "say where: 'stop 10 points', 'stop below the swing low'",
  target: "say how far: 'target 2R', 'take 40 points', 'target the prior day's close'",
  trail: "say by how much: 'trail by 2 ATR(14)', 'trailing stop 1%'",
  exit: "say when: 'exit after 12 bars', 'exit at 11:30 ET', 'exit when price tags the upper Bollinger band'",
  breakeven: "say when: 'move the stop to breakeven at 1R'",
};

/** Why a meaningful lexeme no part cites was not used, and what would read. */
function unusedOf(l: Lexeme): { why: string; hint?: string } {
  const where = l.ctx === 'entry' ? "in a trigger's clause" : `in a ${l.ctx} clause`;
  switch (l.k) {
    case 'word':
      return UNREAD_WORDS[l.norm] ?? { why: 'not read' };
    case 'anchor':
      return { why: `names a ${l.anchor === 'exit' ? 'way out' : l.anchor}, but nothing after it reads as one`, hint: ANCHOR_HINTS[l.anchor]! };
    case 'distance':
      return l.ctx === 'entry'
        ? { why: 'an amount with no stop, target or trail word before it', hint: "say what it is: 'stop 10 points', 'target 10 points'" }
        : { why: `an amount ${where} that its part did not take` };
    case 'duration':
      return { why: `a length of time ${where}, which is no way out there`, hint: `say it as a way out: 'exit after ${l.n} ${l.unit}'` };
    case 'time':
      return { why: `a time of day ${where} that is neither a window's nor a way out's`, hint: "'between 09:45 and 11:30 ET', or 'exit at 11:30 ET'" };
    case 'zone':
      return { why: 'names a clock, but no time read is on it', hint: "say the time with it: 'between 09:45 and 15:30 Chicago'" };
    case 'operand':
    case 'cmp':
    case 'num':
      return { why: `${l.k === 'num' ? 'a number' : l.k === 'cmp' ? 'a comparison' : 'a level or indicator'} ${where} that no part took`, hint: "say it as a condition ('when price closes above VWAP') or with its unit ('10 points')" };
    case 'side':
      return { why: `a side ${where}, which the side part does not read there` };
    case 'not':
      return { why: 'no time follows the words that stop trading', hint: "'no new trades after 15:00 ET'" };
    default:
      return { why: `${where}, not taken by any part` };
  }
}

const SPLITS = new Set<Lexeme['k']>(['sep', 'comma']);
const LINKS = new Set<Lexeme['k']>(['word', 'conj', 'dash']);

/** The clauses of the text: runs of lexemes between sentence ends and commas, cut again where the reader's clause changes. */
function clausesOf(lx: readonly Lexeme[]): Lexeme[][] {
  const out: Lexeme[][] = [];
  let run: Lexeme[] = [];
  const flush = (): void => {
    if (run.length > 0) out.push(run);
    run = [];
  };
  for (const l of lx) {
    if (SPLITS.has(l.k)) {
      flush();
      continue;
    }
    // a run of linking words alone ("or" before "exit after 15 bars") goes with the clause after it
    if (run.length > 0 && l.seg !== run[run.length - 1]!.seg && run.some((x) => !LINKS.has(x.k))) flush();
    run.push(l);
  }
  flush();
  return out;
}

/** Every span a part cites: its own, and each reading's when it is ambiguous. */
function citedBy(part: Part<unknown>): { from: number; to: number }[] {
  return [...part.spans, ...(part.readings ?? []).flatMap((r) => r.spans)];
}

const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }): boolean => a.from < b.to && b.from < a.to;

/**
 * Whether a lexeme carries a meaning a part should take: a plain word only when it stands for one the reader could
 * not settle; an entry word only opens a trigger's clause.
 */
const meaningful = (l: Lexeme): boolean =>
  l.k === 'word' ? Object.hasOwn(UNREAD_WORDS, l.norm) : MEANINGFUL.has(l.k) && !(l.k === 'anchor' && l.anchor === 'entry');

export function accountClauses(text: string, reading: RuleReading): ClauseAccount[] {
  const lx = place(resolveReferences(lex(tokenize(text))));
  const cited = PARTS.map((p) => ({ p, spans: citedBy(reading[p] as Part<unknown>) }));
  return clausesOf(lx).map((clause) => {
    const whole = span(text, clause[0]!.from, Math.max(...clause.map((l) => l.to)));
    const parts = cited.filter((c) => c.spans.some((s) => clause.some((l) => overlaps(s, l)))).map((c) => c.p);
    const unused: Unused[] = clause
      .filter((l) => meaningful(l) && !cited.some((c) => c.spans.some((s) => overlaps(s, l))))
      .map((l) => ({ span: span(text, l.from, l.to), ...unusedOf(l) }));
    if (parts.length === 0 && unused.length === 0) unused.push({ span: whole, why: 'none of these words is one the reader reads' });
    return { span: whole, parts, unused: unused.map((u) => (u.hint === undefined ? { span: u.span, why: u.why } : u)) };
  });
}
