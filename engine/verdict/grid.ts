import type { Script } from '../decider/script.js';
import type { Condition, Operand } from '../reader/schema.js';

/**
 * The rule's neighbourhood: the same rule with the numbers in its words moved to nearby values. A number is one
 * value of one kind wherever the rule says it (the 9 of "9 EMA" in the long and the short trigger is one number), and
 * moves by a step of its own kind:
 * - a length (EMA, SMA, RSI, ATR, highest or lowest of N bars) or a time exit's count: by max(1, round(n / 10));
 * - an opening range's minutes: by max(one bar, round(minutes / 10) to whole bars);
 * - a distance (a stop, its offset or breakeven, a target, a trail; points, percent, ATR multiples, dollars, R): by a
 *   quarter, to three significant digits (2R to 1.5R and 2.5R), and ticks by max(1, round(n / 4));
 * - a level an RSI is compared with: by 5, within (0, 100).
 * Clock times, sessions and price levels stay as said: they are where the rule acts, not how it measures.
 * The grid: every number moved alone to each of its two neighbours, and every pair of numbers moved together (2k²+1
 * rules for k numbers, the rule itself first), at most MAX_NEIGHBOURS; a move the rule cannot take (a length of 0, an
 * opening range not made of whole bars) is left out.
 */

export const MAX_NEIGHBOURS = 201;

export interface GridNumber {
  /** What the number is, in words: "EMA length 9", "stop 2 atr", "target 2 r". */
  name: string;
  value: number;
  /** The values it takes in the grid, its own in the middle: [lower, own, upper] (a move the rule cannot take left out). */
  values: number[];
}

interface Slot {
  key: string;
  name: string;
  kind: 'length' | 'amount' | 'ticks' | 'level' | 'minutes';
  holder: Record<string, unknown>;
  field: string;
  value: number;
}

const sig3 = (x: number): number => Number(x.toPrecision(3));

function stepsOf(slot: Slot, tfMinutes: number): number[] {
  const v = slot.value;
  switch (slot.kind) {
    case 'length': {
      const s = Math.max(1, Math.round(v / 10));
      return [v - s, v + s].filter((x) => x >= 1 && x <= 500);
    }
    case 'minutes': {
      const s = tfMinutes * Math.max(1, Math.round(v / 10 / tfMinutes));
      return [v - s, v + s].filter((x) => x >= tfMinutes && x <= 500);
    }
    case 'ticks': {
      const s = Math.max(1, Math.round(v / 4));
      return [v - s, v + s].filter((x) => x > 0);
    }
    case 'amount':
      return [sig3(v * 0.75), sig3(v * 1.25)].filter((x) => x > 0 && x !== v);
    case 'level':
      return [v - 5, v + 5].filter((x) => x > 0 && x < 100);
  }
}

/** Every number of a script, each where it stands (on a copy: the slots point into `copy`). */
function slotsOf(copy: Script): Slot[] {
  const slots: Slot[] = [];
  const operand = (o: Operand): void => {
    if ((o.kind === 'ema' || o.kind === 'sma' || o.kind === 'rsi' || o.kind === 'atr') && o.n !== null) {
      slots.push({ key: `${o.kind}:${o.n}`, name: `${o.kind.toUpperCase()} length ${o.n}`, kind: 'length', holder: o, field: 'n', value: o.n });
    } else if (o.kind === 'highest' || o.kind === 'lowest') {
      slots.push({ key: `${o.kind}:${o.n}`, name: `${o.kind} of ${o.n} bars`, kind: 'length', holder: o, field: 'n', value: o.n });
    } else if (o.kind === 'opening_range' && o.minutes !== null) {
      slots.push({ key: `opening_range:${o.minutes}`, name: `opening range ${o.minutes} minutes`, kind: 'minutes', holder: o, field: 'minutes', value: o.minutes });
    }
  };
  const condition = (c: Condition): void => {
    if ('args' in c) return c.args.forEach(condition);
    if ('level' in c) return operand(c.level);
    operand(c.left);
    operand(c.right);
    for (const [a, b] of [[c.left, c.right], [c.right, c.left]] as const) {
      if (a.kind === 'constant' && b.kind === 'rsi') slots.push({ key: `rsi_level:${a.value}`, name: `RSI level ${a.value}`, kind: 'level', holder: a, field: 'value', value: a.value });
    }
  };
  const distance = (where: string, d: Record<string, unknown> & { unit: string; n: number; period?: number | null }): void => {
    const ticks = d.unit === 'ticks';
    slots.push({ key: `${where}:${d.unit}:${d.n}`, name: `${where} ${d.n} ${d.unit}`, kind: ticks ? 'ticks' : 'amount', holder: d, field: 'n', value: d.n });
    if (d.unit === 'atr' && typeof d.period === 'number') slots.push({ key: `atr:${d.period}`, name: `ATR length ${d.period}`, kind: 'length', holder: d, field: 'period', value: d.period });
  };
  const level = (where: string, x: { kind: 'distance'; distance: never } | { kind: 'level'; level: Operand }): void => {
    if (x.kind === 'level') operand(x.level);
    else distance(where, x.distance);
  };
  for (const t of copy.entry.triggers) condition(t.when);
  const stop = copy.stop;
  if (stop.kind === 'distance') distance('stop', stop.distance as never);
  else {
    operand(stop.level);
    if (stop.offset) distance('stop offset', stop.offset as never);
  }
  if (stop.breakeven) distance('breakeven', stop.breakeven as never);
  const exit = copy.exit;
  if (exit.target) level('target', exit.target as never);
  if (exit.trail) level('trail', exit.trail as never);
  for (const t of exit.time ?? []) {
    if (t.kind === 'bars' || t.kind === 'minutes' || t.kind === 'hours') {
      slots.push({ key: `time:${t.kind}:${t.n}`, name: `time exit ${t.n} ${t.kind}`, kind: 'length', holder: t, field: 'n', value: t.n });
    }
  }
  if (exit.when) condition(exit.when);
  return slots;
}

/** The numbers of a script as the grid moves them, in the order the rule says them. */
export function numbersOf(script: Script, tfMinutes: number): GridNumber[] {
  const seen = new Map<string, GridNumber>();
  for (const slot of slotsOf(structuredClone(script))) {
    if (seen.has(slot.key)) continue;
    const [lower, upper] = [stepsOf(slot, tfMinutes).filter((x) => x < slot.value), stepsOf(slot, tfMinutes).filter((x) => x > slot.value)];
    seen.set(slot.key, { name: slot.name, value: slot.value, values: [...lower, slot.value, ...upper] });
  }
  return [...seen.values()].filter((n) => n.values.length > 1);
}

/** One rule of the grid: the value each number takes (aligned with the numbers) and the script saying it. */
export interface GridRule {
  values: number[];
  script: Script;
}

/** The script with each number set to its value in `values` (aligned with `numbers`). */
function moved(script: Script, numbers: readonly GridNumber[], values: readonly number[], tfMinutes: number): Script {
  const copy = structuredClone(script);
  const byKey = new Map(numbers.map((n, i) => [n.name, values[i]!]));
  for (const slot of slotsOf(copy)) {
    const to = byKey.get(slot.name);
    if (to !== undefined) slot.holder[slot.field] = to;
  }
  void tfMinutes;
  return copy;
}

/** The grid: the rule itself first, then every number moved alone, then every pair moved together, up to MAX_NEIGHBOURS. */
export function gridOf(script: Script, tfMinutes: number): { numbers: GridNumber[]; rules: GridRule[] } {
  const numbers = numbersOf(script, tfMinutes);
  const own = numbers.map((n) => n.value);
  const choices: number[][] = [own];
  const others = (k: number) => numbers[k]!.values.filter((v) => v !== numbers[k]!.value);
  for (let a = 0; a < numbers.length; a++) for (const x of others(a)) choices.push(own.map((v, i) => (i === a ? x : v)));
  for (let a = 0; a < numbers.length; a++) {
    for (let b = a + 1; b < numbers.length; b++) {
      for (const x of others(a)) for (const y of others(b)) choices.push(own.map((v, i) => (i === a ? x : i === b ? y : v)));
    }
  }
  return { numbers, rules: choices.slice(0, MAX_NEIGHBOURS).map((values) => ({ values, script: moved(script, numbers, values, tfMinutes) })) };
}
