import { clauses } from './clauses.js';
import { hasMa, mirror, readConditions, resolve, tree, type Atom, type CondLex } from './conditions.js';
import { is, UNREAD_INDICATOR, type Lexeme } from './lexemes.js';
import { mergeSpans, missing, phrase } from './parts.js';
import type { Entry, Part, Span, Trigger } from './schema.js';
import { unstatedNote } from './unstated.js';

/**
 * The entry: the conditions in the trigger's clauses, each given the side its clause names (the nearest side
 * word in its clause, else in its sentence). Conditions of one side are all required; conditions that name no
 * side join every side's trigger when some side has one, or make the one unsided trigger. "Vice versa" turns a
 * one-sided trigger over for the other side. "MA" without simple or exponential leaves the part ambiguous.
 */

type OneSide = 'long' | 'short';

interface Placed {
  atom: Atom;
  side: OneSide | null;
  sideWord: Lexeme | null;
  /** Position among all atoms, and the clause it came from: joins hold only between neighbours of one clause. */
  n: number;
  seg: number;
}

export interface EntryRead {
  part: Part<Entry>;
  /** Sides that have a trigger of their own. */
  sides: ReadonlySet<OneSide>;
}

const ends = (l: Lexeme, clauseToo: boolean): boolean => l.k === 'sep' || (clauseToo && l.k === 'comma');

/** The side word nearest an atom: before it in its clause, after it in its clause, then the same in its sentence. */
function sideWordFor(lx: readonly Lexeme[], at: number): Lexeme | null {
  const isSide = (l: Lexeme): boolean => is('side')(l) && l.ctx === 'entry' && l.side !== 'both';
  for (const clauseToo of [true, false]) {
    for (let k = at - 1; k >= 0 && !ends(lx[k]!, clauseToo); k--) if (isSide(lx[k]!)) return lx[k]!;
    for (let k = at + 1; k < lx.length && !ends(lx[k]!, clauseToo); k++) if (isSide(lx[k]!)) return lx[k]!;
  }
  return null;
}

function build(placed: readonly Placed[]): CondLex {
  const atoms = placed.map((p, k) => {
    const prev = placed[k - 1];
    const neighbour = prev !== undefined && prev.n === p.n - 1 && prev.seg === p.seg;
    return { ...p.atom, join: neighbour ? p.atom.join : ('and' as const) };
  });
  return tree(atoms);
}

const atSpans = (placed: readonly Placed[]): { from: number; to: number }[] =>
  placed.flatMap((p) => [...phrase(p.atom.lex), ...(p.sideWord ? phrase([p.sideWord]) : [])]);

export function readEntry(lx: readonly Lexeme[], text: string, taken: ReadonlySet<Lexeme>): EntryRead {
  const index = new Map(lx.map((l, i) => [l, i]));
  const placed: Placed[] = [];
  for (const clause of clauses(lx, 'entry')) {
    for (const atom of readConditions(clause, taken)) {
      // The second half of "between 40 and 60" cites nothing of its own: it stands where the first did.
      const at = atom.lex.length > 0 ? index.get(atom.lex[0]!)! : index.get(placed[placed.length - 1]!.atom.lex[0]!)!;
      const sideWord = sideWordFor(lx, at);
      const side = sideWord && is('side')(sideWord) && sideWord.side !== 'both' ? sideWord.side : null;
      placed.push({ atom, side, sideWord, n: placed.length, seg: clause[0]!.seg });
    }
  }
  const notes: string[] = [];
  const unsided = placed.filter((p) => p.side === null);
  const sided = (['long', 'short'] as const).filter((s) => placed.some((p) => p.side === s));
  const groups = new Map<OneSide | null, Placed[]>();
  if (sided.length === 0 && unsided.length > 0) groups.set(null, unsided);
  for (const s of sided) groups.set(s, placed.filter((p) => p.side === s || p.side === null).sort((a, b) => a.n - b.n));
  const triggers: { side: OneSide | null; when: CondLex; at: { from: number; to: number }[] }[] = [...groups].map(([side, ps]) => ({
    side,
    when: build(ps),
    at: atSpans(ps),
  }));
  triggers.sort((a, b) => Math.min(...a.at.map((s) => s.from)) - Math.min(...b.at.map((s) => s.from)));

  const turn = lx.find((l) => l.k === 'vice_versa');
  if (turn) {
    const one = triggers.length === 1 ? triggers[0]! : null;
    const turned = one && one.side !== null ? mirror(one.when) : null;
    if (one && one.side !== null && turned) {
      triggers.push({ side: one.side === 'long' ? 'short' : 'long', when: turned, at: [...one.at, { from: turn.from, to: turn.to }] });
    } else notes.push('"vice versa" is not read: it needs one trigger with its side, comparing lines rather than an oscillator with a number');
  }

  const unstated = unstatedNote(triggers.map((t) => t.when));
  if (unstated !== undefined) notes.push(unstated);
  const used = new Set(placed.flatMap((p) => p.atom.lex));
  const loose = lx.filter((l) => l.ctx === 'entry' && !taken.has(l) && !used.has(l) && (l.k === 'cmp' || l.k === 'operand' || (l.k === 'word' && l.norm === UNREAD_INDICATOR)));
  if (triggers.length > 0 && loose.length > 0) {
    notes.push(`words that look like conditions are not read: ${loose.map((l) => `"${text.slice(l.from, l.to)}"`).join(', ')}`);
  }
  const note = notes.length > 0 ? notes.join('; ') : undefined;

  const sides = new Set(triggers.flatMap((t) => (t.side ? [t.side] : [])));
  if (triggers.length === 0) {
    return {
      part: missing(loose.length > 0 ? 'words that look like a trigger are not read as one' : note, mergeSpans(text, loose)),
      sides,
    };
  }
  const spans: Span[] = mergeSpans(text, [...triggers.flatMap((t) => t.at)]);
  /** The entry with every "MA" read as the given average (no choice is made where no MA is said). */
  const value = (ma: 'sma' | 'ema'): Entry => ({ triggers: triggers.map((t): Trigger => ({ side: t.side, when: resolve(t.when, ma) })) });
  const extra = note !== undefined ? { note } : {};
  if (triggers.some((t) => hasMa(t.when))) {
    return {
      part: { status: 'ambiguous', value: null, spans, readings: [{ value: value('sma'), spans }, { value: value('ema'), spans }], ...extra },
      sides,
    };
  }
  return { part: { status: 'read', value: value('sma'), spans, ...extra }, sides };
}
