import { clauses } from './clauses.js';
import { edgeOf } from './conditions.js';
import { level, stopDistance, targetDistance, unitless } from './distances.js';
import { is, type Lexeme, type OperandLex } from './lexemes.js';
import { decide, mergeSpans, missing, phrase, type Candidate } from './parts.js';
import type { Part, Stop, TargetDistance, Trail } from './schema.js';
import { unstatedNote } from './unstated.js';

/**
 * The stop: in each stop clause, a distance from the entry ("stop 10 points", "2 ATR stop", "stop 0.5%"), or a
 * level ("below the opening range low", "at the prior day low", "2 ticks below my level", "under the swing low",
 * "beyond the other side of the range"). Two different stops are ambiguous; a number without a unit reads as
 * points or ticks. "Move the stop to breakeven at 1R" adds when the stop moves to the entry. A trailing stop with
 * no stop of its own is where the stop starts.
 */

type Where = Extract<Stop, { kind: 'level' }>['where'];
const BEYOND = ['beyond', 'past', 'behind', 'outside', 'through'];

function whereOf(l: Lexeme | undefined, level: OperandLex | undefined): Where | null {
  if (is('cmp')(l)) {
    if (l.op === 'above' || l.op === 'crosses_above' || l.op === 'breaks_above') return 'above';
    if (l.op === 'below' || l.op === 'crosses_below' || l.op === 'breaks_below') return 'below';
    return 'at';
  }
  if (l?.k === 'word' && BEYOND.includes(l.norm) && level) {
    // beyond a high is above it, beyond a low below it; beyond a line or a range, on the side the trade leaves by
    const edge = edgeOf(level);
    return edge === 'high' ? 'above' : edge === 'low' ? 'below' : 'beyond';
  }
  return null;
}

function readClause(clause: readonly Lexeme[]): Candidate<Stop>[] {
  const anchor = clause.filter((l) => l.k === 'anchor');
  const items = clause.filter((l) => l.k !== 'word' || BEYOND.includes(l.norm) || l.norm === 'from entry');
  const out: Candidate<Stop>[] = [];
  const cite = (ls: readonly (Lexeme | undefined)[]): { from: number; to: number }[] =>
    phrase([...anchor, ...ls.filter((l): l is Lexeme => l !== undefined)]);
  for (let i = 0; i < items.length; i++) {
    const l = items[i]!;
    const next = items[i + 1];
    const after = items[i + 2];
    if (is('distance')(l)) {
      const distance = stopDistance(l);
      if (!distance) continue;
      const where = is('operand')(after) ? whereOf(next, after.operand) : null;
      const lvl = is('operand')(after) ? level(after.operand) : null;
      if (where && lvl) {
        out.push({ value: { kind: 'level', where, level: lvl, offset: distance }, at: cite([l, next, after]) });
        i += 2;
      } else out.push({ value: { kind: 'distance', distance }, at: cite([l]) });
    } else if (is('operand')(next) && whereOf(l, next.operand)) {
      const lvl = level(next.operand);
      if (lvl) out.push({ value: { kind: 'level', where: whereOf(l, next.operand)!, level: lvl }, at: cite([l, next]) });
      i += 1;
    } else if (is('operand')(l)) {
      const lvl = level(l.operand);
      if (lvl) out.push({ value: { kind: 'level', where: 'at', level: lvl }, at: cite([l]) });
    } else if (is('num')(l)) {
      for (const distance of unitless(l.value)) out.push({ value: { kind: 'distance', distance }, at: cite([l]) });
    }
  }
  return out;
}

/**
 * A trailing stop is a stop that trails: with no stop of its own, the rule's stop starts where the trail does (its
 * distance from the entry, or at its level) and the exit's trail moves it.
 */
function fromTrail(trail: Part<Trail>): Candidate<Stop>[] {
  if (trail.status !== 'read' || trail.value === null) return [];
  const t = trail.value;
  const value: Stop = t.kind === 'distance' ? { kind: 'distance', distance: t.distance } : { kind: 'level', where: 'at', level: t.level };
  return [{ value, at: trail.spans }];
}

export function readStop(lx: readonly Lexeme[], text: string, trail: Part<Trail>): Part<Stop> {
  const said = clauses(lx, 'stop').flatMap((c) => phrase(c));
  const stated = clauses(lx, 'stop').flatMap(readClause);
  const trailing = stated.length === 0 && said.length === 0 ? fromTrail(trail) : [];
  const candidates = [...stated, ...trailing];
  const moves: Candidate<TargetDistance>[] = clauses(lx, 'breakeven').flatMap((clause) => {
    const d = clause.find(is('distance'));
    return d ? [{ value: targetDistance(d), at: phrase(clause.filter((l) => l === d || l.k === 'anchor')) }] : [];
  });
  const breakeven = decide(text, moves);
  if (candidates.length === 0) {
    if (breakeven.status !== 'missing') return missing('only a move to breakeven is stated, not where the rule is wrong', breakeven.spans);
    return said.length > 0 ? missing('a stop is named, but its words are not ones the reader knows', mergeSpans(text, said)) : missing();
  }
  const withMove = breakeven.status === 'read' ? candidates.map((c) => ({ value: { ...c.value, breakeven: breakeven.value! }, at: [...c.at, ...breakeven.spans] })) : candidates;
  const notes = [
    ...(trailing.length > 0 ? ['a trailing stop and no other: the stop starts where the trail does, and the exit\'s trail moves it'] : []),
    ...[unstatedNote(withMove.map((c) => c.value))].filter((n): n is string => n !== undefined),
  ];
  return decide(text, withMove, notes.length > 0 ? notes.join('; ') : undefined);
}
