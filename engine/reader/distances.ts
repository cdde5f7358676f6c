import type { LexemeOf, OperandLex } from './lexemes.js';
import type { Operand, StopDistance, TargetDistance } from './schema.js';

/** Distances and levels as the stop and the exit take them. */

export function stopDistance(l: LexemeOf<'distance'>): StopDistance | null {
  if (l.unit === 'r') return null;
  if (l.unit === 'range') return { unit: 'range', n: l.n, of: { kind: 'opening_range', field: 'range', minutes: l.minutes ?? null } };
  if (l.unit === 'usd') return l.micro ? { unit: 'usd', n: l.n, micro: true } : { unit: 'usd', n: l.n };
  return l.unit === 'atr' ? { unit: 'atr', n: l.n, period: l.period } : { unit: l.unit, n: l.n };
}

export function targetDistance(l: LexemeOf<'distance'>): TargetDistance {
  return l.unit === 'r' ? { unit: 'r', n: l.n } : stopDistance(l)!;
}

/** A number said without a unit ("stop 4"): points or ticks, the words do not say. */
export const unitless = (n: number): StopDistance[] => [
  { unit: 'points', n },
  { unit: 'ticks', n },
];

/**
 * A level operand for a stop, target or trail. "MA" there is left unread: only a trigger's reading carries the
 * choice between simple and exponential.
 */
export const level = (o: OperandLex): Operand | null => (o.kind === 'ma' ? null : o);
