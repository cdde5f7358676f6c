import { isDisturbed } from './machine.js';
import { spreadOf, type Spread } from './spread.js';

// How the bench writes a figure: the spread of its rounds, and a verdict that every round must earn.

export interface Row {
  measure: string;
  result: string;
  ratio: string;
  goal: string;
  /** 'yes' / 'NO' and the rounds behind it; '' for a row with no goal. */
  met: string;
}

const digits = (n: number) => (Math.abs(n) < 10 ? 2 : Math.abs(n) < 100 ? 1 : 0);
export const num = (n: number, d = digits(n)) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** min / median / max, with a unit after them. */
export const spread = (s: Spread, unit: string, d?: number) => `${num(s.min, d)} / ${num(s.median, d)} / ${num(s.max, d)} ${unit}`;

/** A ratio's rounds as min / median / max. */
export const ratios = (s: Spread) => `${s.median.toFixed(2)}x (${s.min.toFixed(2)} / ${s.median.toFixed(2)} / ${s.max.toFixed(2)})`;

/** One round's figure against its goal, and the machine's load per core during that round. */
export interface Trial {
  value: number;
  load: number;
}

const ranDisturbed = (disturbed: number, of: number) => (disturbed === 0 ? 'none ran disturbed' : `${disturbed} of the ${of} ran disturbed`);

/**
 * A goal is met only when every round meets it, quiet or disturbed: the verdict says how many did, and how many ran on
 * a disturbed machine (load above 1.5 per core).
 */
export function verdict(trials: readonly Trial[], ok: (value: number) => boolean): { met: boolean; text: string } {
  const good = trials.filter((t) => ok(t.value)).length;
  const disturbed = trials.filter((t) => isDisturbed(t.load)).length;
  const met = good === trials.length;
  const rounds = `${good} of ${trials.length} rounds met it; ${ranDisturbed(disturbed, trials.length)}`;
  return { met, text: `${met ? 'yes' : 'NO'} (${rounds})` };
}

/** A goal on the median of some runs: met when the median meets it; the verdict says how many runs did. */
export function medianVerdict(trials: readonly Trial[], ok: (value: number) => boolean): { met: boolean; text: string } {
  const met = ok(spreadOfTrials(trials).median);
  const good = trials.filter((t) => ok(t.value)).length;
  const disturbed = trials.filter((t) => isDisturbed(t.load)).length;
  return { met, text: `${met ? 'yes' : 'NO'} (on the median; ${good} of ${trials.length} runs met it; ${ranDisturbed(disturbed, trials.length)})` };
}

export const spreadOfTrials = (trials: readonly Trial[]): Spread => spreadOf(trials.map((t) => t.value));

export function table(rows: readonly Row[]): string {
  return [
    '| measure | result (min / median / max of rounds) | ratio (median; min / median / max) | goal | met |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.measure} | ${r.result} | ${r.ratio} | ${r.goal} | ${r.met} |`),
  ].join('\n');
}
