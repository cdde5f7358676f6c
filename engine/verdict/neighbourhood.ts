import type { Bars } from '../bars.js';
import { canonicalJson, seedHash } from '../decider/canonical.js';
import { compileDecider } from '../decider/compile.js';
import type { Decider, DeciderSeries } from '../decider/contract.js';
import { DeciderRefusal, irOf, type DeciderIR } from '../decider/ir.js';
import type { Script } from '../decider/script.js';
import { seriesOf, type MarkInput } from '../decider/series.js';
import { fillOf, Machine, type TradeRecord } from '../stepper/machine.js';
import { TradeColumns } from '../stepper/trade-columns.js';
import type { Costs } from '../stepper/costs.js';
import { NullSide } from '../stepper/null.js';
import { Prng } from '../stepper/prng.js';
import { gridOf, type GridNumber } from './grid.js';

/**
 * The neighbourhood run: every rule of the grid (grid.ts) stepped over the rule's own bars and window with the same
 * fills and costs. Each series is computed once over the bars whatever number of rules read it (seriesOf's `known`),
 * each rule is compiled once, and a rule the decider refuses (an opening range not of whole bars, say) is left out.
 * Rules that differ only in their series' parameters (an EMA of 8 rather than 9, an ATR of 13) run the same
 * compiled decider, handed each its own series under the first one's ids: the code is the same but for the ids, so
 * V8 warms one function for all of them rather than starting each new one in its interpreter. Pure over typed
 * columns: a rule's run reads only the bars, the series and its decider, so the rules can be stepped in any order or
 * apart.
 */

export interface RuleRun {
  values: number[];
  ir: DeciderIR;
  decider: Decider;
  series: DeciderSeries;
  trades: TradeColumns;
}

export interface Neighbourhood {
  numbers: GridNumber[];
  /** The rule itself first. */
  runs: RuleRun[];
  /** Grid rules left out: refused by the decider, or the same decider as one before. */
  refused: number;
}

export interface NeighbourhoodInput {
  script: Script;
  version: string;
  bars: Bars;
  marks: readonly MarkInput[];
  costs: Costs;
  start: number;
  end: number;
  /** The rule's own run: its decider, series and trades are the grid's first rule. */
  rule: Omit<RuleRun, 'values' | 'trades'> & { trades: readonly TradeRecord[] };
  /** Series already computed over the bars, by id. */
  known: Map<string, Float64Array>;
}

/** A reference to a series, anywhere in an IR but its list of series. */
const SERIES_REFS = new Set(['id', 'series', 'gate', 'end']);

/**
 * The IR with each series reference replaced by its position of first appearance and its kind, and the ids in that
 * order: two IRs of the same shape compile to the same code but for the series ids.
 */
export function shapeOf(ir: DeciderIR): { shape: string; ids: string[] } {
  const kinds = new Map(ir.series.map((x) => [x.id, x.kind]));
  const ids: string[] = [];
  const { series: _series, warm_up_bars: _warm, ...rest } = ir;
  const shape = canonicalJson(positional(rest, '', kinds, ids));
  for (const x of ir.series) if (!ids.includes(x.id)) ids.push(x.id);
  return { shape: `${shape}|${ir.series.length}`, ids };
}

/**
 * v with each series reference (a string under one of SERIES_REFS naming a series of `kinds`) replaced by its place
 * in `ids`, where it is added when new, and its kind. A function of the module's rather than a closure of shapeOf's:
 * a closure made at each call is compiled again at each call, 51 times a verdict.
 */
function positional(v: unknown, key: string, kinds: ReadonlyMap<string, string>, ids: string[]): unknown {
  if (typeof v === 'string' && SERIES_REFS.has(key) && kinds.has(v)) {
    let k = ids.indexOf(v);
    if (k < 0) k = ids.push(v) - 1;
    return `#${k}:${kinds.get(v)}`;
  }
  if (Array.isArray(v)) return v.map((x) => positional(x, '', kinds, ids));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, positional(x, k, kinds, ids)]));
  return v;
}

/** A decider compiled once, the ids its code reads its series by, and the series of the first rule it ran. */
interface Compiled {
  decider: Decider;
  ids: string[];
  series: DeciderSeries;
}

export function neighbourhoodOf(input: NeighbourhoodInput): Neighbourhood {
  const { script, bars, marks, costs, start, end, known } = input;
  const grid = gridOf(script, input.rule.ir.tf_seconds / 60);
  const runs: RuleRun[] = [{ values: grid.rules[0]!.values, ...input.rule, trades: TradeColumns.of(input.rule.trades) }];
  const seen = new Set([canonicalJson(input.rule.ir)]);
  const ruleShape = shapeOf(input.rule.ir);
  const compiled = new Map<string, Compiled>([[ruleShape.shape, { decider: input.rule.decider, ids: ruleShape.ids, series: input.rule.series }]]);
  let refused = 0;
  for (const rule of grid.rules.slice(1)) {
    let ir: DeciderIR;
    try {
      ir = irOf({ ...rule.script, market: input.rule.ir.market });
    } catch (error) {
      if (!(error instanceof DeciderRefusal)) throw error;
      refused++;
      continue;
    }
    const canonical = canonicalJson(ir);
    if (seen.has(canonical)) {
      refused++;
      continue;
    }
    seen.add(canonical);
    const { shape, ids } = shapeOf(ir);
    const own = seriesOf(ir, bars, marks, known);
    let shared = compiled.get(shape);
    if (!shared) compiled.set(shape, (shared = { decider: compileDecider(ir, seedHash(ir, input.version), input.version), ids, series: own }));
    // The shared code reads its series by its own ids: each is handed this rule's series in the same place, in an
    // object of the same keys in the same order as the first rule's, so the code's reads stay of one shape.
    const series: Record<string, Float64Array | Uint8Array> = { ...shared.series };
    shared.ids.forEach((id, k) => (series[id] = own[ids[k]!]!));
    const decider = shared.decider;
    const trades = new Machine(decider, series as DeciderSeries, fillOf(ir, costs)).columns(start, end);
    runs.push({ values: rule.values, ir, decider, series: series as DeciderSeries, trades });
  }
  return { numbers: grid.numbers, runs, refused };
}

/** What a random entry's trade depends on: everything of the rule but its triggers. */
const exitKey = (ir: DeciderIR): string =>
  canonicalJson({ stop: ir.stop, breakeven: ir.breakeven, target: ir.target, trail: ir.trail, time: ir.time, exit_when: ir.exit_when, session: ir.session, flat: ir.flat_at_session_end });

/**
 * Each rule's random-entry expectation per trade: the mean R of `draws` random entries drawn as the random null draws
 * them for that rule (a trade of the rule picked at random gives the side and the holding time; the entry bar is
 * drawn from the bars that side could arm at; the trade runs under the rule's own stop and exits). Rules with the
 * same stop and exits share the random trades, each run once (the null's NullSide, capped at the longest hold of
 * any of them). NaN for a rule without trades.
 */
export function nullMeansOf(runs: readonly RuleRun[], costs: Costs, start: number, end: number, draws: number, seed: string): Float64Array {
  const means = new Float64Array(runs.length).fill(NaN);
  const groups = new Map<string, number[]>();
  runs.forEach((run, k) => {
    if (run.trades.length === 0) return;
    const key = exitKey(run.ir);
    const list = groups.get(key);
    if (list) list.push(k);
    else groups.set(key, [k]);
  });
  const rng = new Prng(seed);
  for (const members of groups.values()) {
    const first = runs[members[0]!]!;
    let cap = 0;
    for (const k of members) {
      const trades = runs[k]!.trades;
      for (let j = 0; j < trades.length; j++) cap = Math.max(cap, trades.held(j));
    }
    const fill = fillOf(first.ir, costs);
    const machine = new Machine(first.decider, first.series, fill);
    const gate = first.ir.session.kind === 'windows' ? (first.series[first.ir.session.gate] as Float64Array) : null;
    const sides = new Map<number, NullSide>();
    const sideOf = (dir: number): NullSide => {
      let side = sides.get(dir);
      if (!side) sides.set(dir, (side = new NullSide(dir, machine, first.decider, first.series, gate, start, end, cap, true)));
      return side;
    };
    const close = first.series.c;
    for (const k of members) {
      const trades = runs[k]!.trades;
      let sum = 0;
      for (let d = 0; d < draws; d++) {
        const j = rng.below(trades.length);
        const side = sideOf(trades.dir[j]!);
        const i = side.draw(rng);
        if (i >= 0) sum += side.heldR(i, trades.held(j), close, fill.slippage);
      }
      means[k] = sum / draws;
    }
  }
  return means;
}
