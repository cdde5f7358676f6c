import { EXIT_WHY, STATES, type ExitWhy } from './contract.js';
import type { Cond, DeciderIR, Distance, Operand, TargetDistance, Value } from './ir.js';
import { sealWords, VERSION_PATTERN } from './watermark.js';

/**
 * Code generation: a decider IR becomes the TypeScript source of a small pure module (decide, arm, fill: the
 * contract is in contract.ts). One renderer writes two renditions of the same lines: the TypeScript source the
 * forge hands out (codeOf), and the same text with its type syntax left out, which jsOf returns for the stepper to
 * compile and run. So the stepper runs exactly what the code says, and the same IR gives the same bytes.
 *
 * Every value the code embeds comes from the IR (checked numbers, enum words, series ids built from them), never
 * from a caller's free text.
 */

type Ctx = 'entry' | 'trade';
type Idx = 'i' | 'i - 1' | 'k';

interface Interval {
  lo: (idx: Idx) => string;
  hi: (idx: Idx) => string;
}

const num = (x: number): string => (x < 0 ? `(${JSON.stringify(x)})` : JSON.stringify(x));
const whyConst = (w: ExitWhy): string => `WHY_${w.toUpperCase()}`;
const stateConst = (s: string): string => s.toUpperCase();

class Renderer {
  private readonly helpers: string[] = [];
  private readonly whys = new Set<ExitWhy>();
  private marks = 0;
  /** The series that hold one level for a whole trading day or session: the prior day's, the opening range's. */
  private readonly held: ReadonlySet<string>;

  constructor(
    private readonly ir: DeciderIR,
    private readonly typed: boolean,
  ) {
    this.held = new Set(ir.series.filter((x) => x.kind === 'prior_day' || x.kind === 'opening_range').map((x) => x.id));
  }

  /** A piece of type syntax: written in the TypeScript rendition only. */
  private t(s: string): string {
    return this.typed ? s : '';
  }

  private why(w: ExitWhy): string {
    this.whys.add(w);
    return whyConst(w);
  }

  private at(array: string, idx: string): string {
    return `s.${array}[${idx}]${this.t('!')}`;
  }

  private value(v: Value, idx: Idx, ctx: Ctx): string {
    switch (v.src) {
      case 'bar':
        return this.at(v.field, idx);
      case 'series':
        return this.at(v.id, idx);
      case 'constant':
        return num(v.value);
      case 'signal_bar':
        return ctx === 'trade' ? this.at(v.field, 'st.signal') : this.at(v.field, idx);
      case 'previous_bar':
        return this.at(v.field, `${idx} - 1`);
    }
  }

  /** An operand as an interval; a mark reads the loop's lo and hi. */
  private interval(o: Operand, ctx: Ctx): Interval {
    if (o.kind === 'mark') return { lo: () => 'lo', hi: () => 'hi' };
    if (o.kind === 'zone') return { lo: (idx) => this.value(o.lo, idx, ctx), hi: (idx) => this.value(o.hi, idx, ctx) };
    const v = (idx: Idx) => this.value(o.at, idx, ctx);
    return { lo: v, hi: v };
  }

  /**
   * Where a break or a cross reads an operand for the bar before the one decided. A line that moves bar by bar (a
   * bar's price, an average, VWAP, the N-bar high, the previous bar) is read as it stood at that bar. A level held for
   * a day or a session (the prior day, the opening range), a number and a mark are the level in force for the bar
   * decided, and the bar before is held to that same level: on a new day's first bar the prior day's high is the day
   * just ended, and the bar before (that day's last) is compared with it, not with the day before's.
   */
  private before(o: Operand): Idx {
    if (o.kind === 'mark') return 'i';
    const values = o.kind === 'zone' ? [o.lo, o.hi] : [o.at];
    return values.every((v) => v.src === 'constant' || (v.src === 'series' && this.held.has(v.id))) ? 'i' : 'i - 1';
  }

  private shapeTest(shape: 'level' | 'zone' | 'any'): string {
    return shape === 'any' ? '' : `s.markShape[m] === ${shape === 'zone' ? 1 : 0} && `;
  }

  /** A helper that holds a leaf reading the trader's marks: true when some mark satisfies it. */
  private markHelper(shape: 'level' | 'zone' | 'any', test: string): string {
    const name = `someMark${this.marks++}`;
    const n = this.t(': number');
    this.helpers.push(
      [
        `function ${name}(i${n}, st${this.t(': State')}, s${this.t(': Series')})${this.t(': boolean')} {`,
        `  for (let m = 0; m < s.markLo.length; m++) {`,
        ...(/\blo\b/.test(test) ? [`    const lo = ${this.at('markLo', 'm')};`] : []),
        ...(/\bhi\b/.test(test) ? [`    const hi = ${this.at('markHi', 'm')};`] : []),
        `    if (${this.shapeTest(shape)}${test}) return true;`,
        `  }`,
        `  return false;`,
        `}`,
      ].join('\n'),
    );
    return `${name}(i, st, s)`;
  }

  cond(c: Cond, ctx: Ctx): string {
    if ('args' in c) return `(${c.args.map((a) => this.cond(a, ctx)).join(c.op === 'and' ? ' && ' : ' || ')})`;
    let test: string;
    let mark: Operand | undefined;
    if ('level' in c) {
      const z = this.interval(c.level, ctx);
      if (c.level.kind === 'mark') mark = c.level;
      // A break is the bar trading through the level (its high above, its low below) where the bar before had not;
      // a level's zone is broken through its far side.
      const was = this.before(c.level);
      const up = `${this.at('h', 'i')} > ${z.hi('i')} && ${this.at('h', 'i - 1')} <= ${z.hi(was)}`;
      const down = `${this.at('l', 'i')} < ${z.lo('i')} && ${this.at('l', 'i - 1')} >= ${z.lo(was)}`;
      test =
        c.op === 'breaks_above'
          ? `(${up})`
          : c.op === 'breaks_below'
            ? `(${down})`
            : c.op === 'breaks'
              ? `((${up}) || (${down}))`
              : `(${this.at('l', 'i')} <= ${z.hi('i')} && ${this.at('h', 'i')} >= ${z.lo('i')})`;
    } else {
      const l = this.interval(c.left, ctx);
      const r = this.interval(c.right, ctx);
      mark = [c.left, c.right].find((o) => o.kind === 'mark');
      const [lw, rw] = [this.before(c.left), this.before(c.right)];
      const up = `${l.lo('i')} > ${r.hi('i')} && ${l.lo(lw)} <= ${r.hi(rw)}`;
      const down = `${l.hi('i')} < ${r.lo('i')} && ${l.hi(lw)} >= ${r.lo(rw)}`;
      test =
        c.op === 'above'
          ? `${l.lo('i')} > ${r.hi('i')}`
          : c.op === 'below'
            ? `${l.hi('i')} < ${r.lo('i')}`
            : c.op === 'crosses_above'
              ? `(${up})`
              : c.op === 'crosses_below'
                ? `(${down})`
                : `((${up}) || (${down}))`;
    }
    return mark?.kind === 'mark' ? this.markHelper(mark.shape, test) : test;
  }

  /** A distance in price at index idx; `base` is what a fraction is of. */
  private distance(d: Distance | TargetDistance, idx: string, base: string): string {
    switch (d.unit) {
      case 'price':
        return num(d.value);
      case 'fraction':
        return `${base} * ${num(d.value)}`;
      case 'atr':
        return `${num(d.mult)} * ${this.at(d.series, idx)}`;
      case 'range':
        return `${num(d.mult)} * (${this.at(d.hi, idx)} - ${this.at(d.lo, idx)})`;
      case 'r':
        return `${num(d.value)} * st.risk`;
    }
  }

  /**
   * The price a level operand stands for at index idx, from the trade's side: a zone's near edge for a target
   * (lo long, hi short), its far edge for a stop or trail (lo long, hi short too: the side the trade leaves by).
   * Marks: the nearest one on the given side of `ref` (below it long, above it short for a stop or trail; beyond
   * it for a target); NaN when there is none.
   */
  private levelPrice(o: Operand, idx: Idx, ctx: Ctx, ref: string, role: 'protect' | 'target'): string {
    if (o.kind === 'point') return this.value(o.at, idx, ctx);
    if (o.kind === 'zone') return `(st.dir > 0 ? ${this.value(o.lo, idx, ctx)} : ${this.value(o.hi, idx, ctx)})`;
    const name = `nearestMark${this.marks++}`;
    const n = this.t(': number');
    // protect: long takes the highest lo below ref, short the lowest hi above it (the edge the trade leaves by);
    // target: long the lowest lo above ref, short the highest hi below it (the edge it reaches first).
    const beyond = role === 'protect' ? 'd * (ref - x) > 0' : 'd * (x - ref) > 0';
    const nearer = role === 'protect' ? 'd * (x - best) > 0' : 'd * (best - x) > 0';
    const shape = o.shape === 'any' ? [] : [`    if (s.markShape[m] !== ${o.shape === 'zone' ? 1 : 0}) continue;`];
    this.helpers.push(
      [
        `function ${name}(st${this.t(': State')}, s${this.t(': Series')}, ref${n})${this.t(': number')} {`,
        `  const d = st.dir;`,
        `  let best = NaN;`,
        `  for (let m = 0; m < s.markLo.length; m++) {`,
        ...shape,
        `    const x = d > 0 ? ${this.at('markLo', 'm')} : ${this.at('markHi', 'm')};`,
        `    if (${beyond} && (best !== best || ${nearer})) best = x;`,
        `  }`,
        `  return best;`,
        `}`,
      ].join('\n'),
    );
    return `${name}(st, s, ${ref})`;
  }

  /** The initial stop at the fill; a level stop with an offset reads `base`, the level fill() has just read. */
  private stopAtFill(): string {
    const stop = this.ir.stop;
    if (stop.kind === 'distance') {
      const d = stop.distance;
      return d.unit === 'fraction' ? `q(price * (1 - d * ${num(d.value)}))` : `q(price - d * ${this.distance(d, 'k', 'price')})`;
    }
    if (stop.where === 'at') return `q(${this.levelPrice(stop.level, 'k', 'trade', 'price', 'protect')})`;
    const away = stop.where === 'below' ? '-' : stop.where === 'above' ? '+' : '- d *';
    return `q(base ${away} ${this.distance(stop.offset, 'k', 'base')})`;
  }

  private targetAtFill(): string {
    const target = this.ir.target;
    if (target === null) return 'NaN';
    if (target.kind === 'level') return 'targetAt(k, st, s)';
    const d = target.distance;
    return d.unit === 'fraction' ? `q(price * (1 + d * ${num(d.value)}))` : `q(price + d * ${this.distance(d, 'k', 'price')})`;
  }

  private breakevenAtFill(): string {
    const be = this.ir.breakeven;
    if (be === null) return 'NaN';
    return be.unit === 'fraction' ? `q(price * (1 + d * ${num(be.value)}))` : `q(price + d * ${this.distance(be, 'k', 'price')})`;
  }

  private trailCandidate(): string | null {
    const trail = this.ir.trail;
    if (trail === null) return null;
    if (trail.kind === 'level') return `q(${this.levelPrice(trail.level, 'i', 'trade', this.at('c', 'i'), 'protect')})`;
    const d = trail.distance;
    return d.unit === 'fraction' ? `q(st.best * (1 - d * ${num(d.value)}))` : `q(st.best - d * ${this.distance(d, 'i', 'st.best')})`;
  }

  private deadlines(): string[] {
    const ir = this.ir;
    const lines: string[] = [];
    const earliest = (instant: string, why: ExitWhy) => {
      lines.push(`  deadline(st, ${instant}, ${this.why(why)});`);
    };
    if (ir.flat_at_session_end && ir.session.kind === 'windows') earliest(this.at(ir.session.end, 'k'), 'session_end');
    for (const t of ir.time) {
      if (t.kind === 'seconds') earliest(`${this.at('t', 'f')} + ${t.n}`, 'time');
      if (t.kind === 'clock') earliest(this.at(t.series, 'f'), 'clock');
      if (t.kind === 'session_close') earliest(this.at(t.series, t.series === 'session_end' ? 'k' : 'f'), 'session_close');
    }
    return lines;
  }

  render(seed: string, version: string): string {
    if (!VERSION_PATTERN.test(version)) throw new RangeError(`a version is 1 to 64 of A-Z a-z 0-9 . _ : / + -, got ${JSON.stringify(version)}`);
    const ir = this.ir;
    const t = (s: string) => this.t(s);
    const n = t(': number');
    const ex = this.typed ? 'export ' : '';
    const sig = `i${n}, st${t(': State')}, s${t(': Series')}`;

    // Conditions first: they register the helpers and constants the rest of the module needs.
    const conditions: string[] = [];
    const condFn = (name: string, c: Cond, ctx: Ctx) =>
      conditions.push(`function ${name}(${sig})${t(': boolean')} {\n  return ${this.cond(c, ctx)};\n}`);
    if (ir.entry.long) condFn('enterLong', ir.entry.long, 'entry');
    if (ir.entry.short) condFn('enterShort', ir.entry.short, 'entry');
    if (ir.exit_when) condFn('exitRule', ir.exit_when, 'trade');
    if (ir.target?.kind === 'level') {
      const x = this.levelPrice(ir.target.level, 'i', 'trade', 'st.entry', 'target');
      conditions.push(
        [
          `/** The level target read at bar i: active only while it lies beyond the entry. */`,
          `function targetAt(${sig})${t(': number')} {`,
          `  const x = ${x};`,
          `  return st.dir * (x - st.entry) > 0 ? q(x) : NaN;`,
          `}`,
        ].join('\n'),
      );
    }

    const fill: string[] = [
      `${ex}function fill(f${n}, price${n}, st${t(': State')}, s${t(': Series')})${t(': boolean')} {`,
    ];
    if (ir.stop.kind === 'level' && ir.stop.where !== 'at') {
      fill.push(`  const base = ${this.levelPrice(ir.stop.level, 'k', 'trade', 'price', 'protect')};`);
    }
    fill.push(
      `  const stop = ${this.stopAtFill()};`,
      `  if (!(d * (price - stop) > 0)) {`,
      `    st.phase = FLAT;`,
      `    return false;`,
      `  }`,
      `  st.phase = d > 0 ? IN_LONG : IN_SHORT;`,
      `  st.fill = f;`,
      `  st.entry = price;`,
      `  st.stop = stop;`,
      `  st.stopWhy = ${this.why('stop')};`,
      `  st.risk = d * (price - stop);`,
      `  st.best = price;`,
      `  st.target = ${this.targetAtFill()};`,
      `  st.beAt = ${this.breakevenAtFill()};`,
      `  st.lastBar = ${ir.time.find((x) => x.kind === 'bars') ? `f + ${(ir.time.find((x) => x.kind === 'bars') as { n: number }).n - 1}` : 'Infinity'};`,
      `  st.deadline = Infinity;`,
      `  st.deadlineWhy = 0;`,
      ...this.deadlines(),
      `  return true;`,
      `}`,
    );
    // The side and the signal bar, read once at the top where the body uses them.
    const fillBody = fill.slice(1).join('\n');
    fill.splice(1, 0, `  const d = st.dir;`, ...(/\bk\b/.test(fillBody) ? [`  const k = st.signal;`] : []));

    const decide: string[] = [`${ex}function decide(${sig})${t(': void')} {`, `  if (st.phase === FLAT) {`];
    if (ir.session.kind === 'windows') decide.push(`    if (${this.at(ir.session.gate, 'i')} !== 1) return;`);
    const longTest = ir.entry.long ? 'enterLong(i, st, s)' : 'false';
    const shortTest = ir.entry.short ? 'enterShort(i, st, s)' : 'false';
    if (ir.entry.long && ir.entry.short) {
      decide.push(
        `    const long = ${longTest};`,
        `    const short = ${shortTest};`,
        `    // Both at once say nothing about the direction: neither is taken.`,
        `    if (long !== short) arm(i, st, long ? 1 : -1);`,
      );
    } else {
      decide.push(`    if (${ir.entry.long ? longTest : shortTest}) arm(i, st, ${ir.entry.long ? 1 : -1});`);
    }
    decide.push(
      `    return;`,
      `  }`,
      `  if (st.phase !== IN_LONG && st.phase !== IN_SHORT) return;`,
    );
    const held = decide.length;
    if (ir.breakeven || ir.trail?.kind === 'distance') {
      decide.push(`  const reach = d > 0 ? ${this.at('h', 'i')} : ${this.at('l', 'i')};`, `  if (d * (reach - st.best) > 0) st.best = reach;`);
    }
    if (ir.breakeven) {
      decide.push(
        `  if (st.beAt === st.beAt && d * (st.best - st.beAt) >= 0) {`,
        `    if (d * (st.entry - st.stop) > 0) {`,
        `      st.stop = st.entry;`,
        `      st.stopWhy = ${this.why('breakeven')};`,
        `    }`,
        `    st.beAt = NaN;`,
        `  }`,
      );
    }
    const trail = this.trailCandidate();
    if (trail) {
      decide.push(
        `  const trail = ${trail};`,
        `  if (d * (trail - st.stop) > 0) {`,
        `    st.stop = trail;`,
        `    st.stopWhy = ${this.why('trail')};`,
        `  }`,
      );
    }
    if (ir.target?.kind === 'level') decide.push(`  st.target = targetAt(i, st, s);`);
    if (ir.time.some((x) => x.kind === 'bars')) {
      decide.push(`  if (i >= st.lastBar) {`, `    st.phase = CLOSING;`, `    st.why = ${this.why('time')};`, `    return;`, `  }`);
    }
    if (ir.time.some((x) => x.kind !== 'bars') || ir.flat_at_session_end) {
      decide.push(
        `  if (${this.at('t', 'i')} + TF >= st.deadline) {`,
        `    st.phase = CLOSING;`,
        `    st.why = st.deadlineWhy;`,
        `    return;`,
        `  }`,
      );
    }
    if (ir.exit_when) {
      decide.push(`  if (exitRule(i, st, s)) {`, `    st.phase = EXITING;`, `    st.why = ${this.why('exit_rule')};`, `  }`);
    }
    // Whether decide does anything while a trade is open: when it does not, the stepper need not call it then.
    const manages = decide.length > held;
    if (/\bd\b/.test(decide.slice(held).join('\n'))) decide.splice(held, 0, `  const d = st.dir;`);
    decide.push(`}`);

    const arm = [
      `${ex}function arm(i${n}, st${t(': State')}, dir${n})${t(': void')} {`,
      `  st.phase = ARMED;`,
      `  st.dir = dir;`,
      `  st.signal = i;`,
      `  st.seal = SEAL[i & 7]${t('!')};`,
      `}`,
    ];

    const usesDeadline = fill.some((l) => l.includes('deadline(st,'));
    const deadlineFn = usesDeadline
      ? [
          `/** Keeps the earliest scheduled exit and why it happens. */`,
          `function deadline(st${t(': State')}, instant${n}, why${n})${t(': void')} {`,
          `  if (instant < st.deadline) {`,
          `    st.deadline = instant;`,
          `    st.deadlineWhy = why;`,
          `  }`,
          `}`,
        ].join('\n')
      : null;

    const seriesIds = ir.series.map((x) => x.id);
    const types = this.typed
      ? [
          `export interface State {`,
          ...[
            'phase',
            'dir',
            'signal',
            'fill',
            'entry',
            'stop',
            'stopWhy',
            'target',
            'risk',
            'best',
            'beAt',
            'deadline',
            'deadlineWhy',
            'lastBar',
            'why',
            'seal',
          ].map((f) => `  ${f}: number;`),
          `}`,
          '',
          `export interface Series {`,
          ...['t', 'o', 'h', 'l', 'c', 'v', 'markLo', 'markHi', ...seriesIds].map((f) => `  readonly ${f}: Float64Array;`),
          `  readonly markShape: Uint8Array;`,
          `}`,
          '',
        ]
      : [];

    const used = (name: string) => [...fill, ...decide, ...conditions, ...this.helpers].some((l) => new RegExp(`\\b${name}\\b`).test(l));
    const states = STATES.map((s, i) => [stateConst(s), i] as const).filter(([c]) => c === 'ARMED' || used(c));
    const whys = EXIT_WHY.map((w, i) => [w, i] as const).filter(([w]) => this.whys.has(w));
    const words = sealWords(seed);

    const lines = [
      `/**`,
      ` * Decider generated by the deck's forge from a decider IR (${ir.ir}): ${ir.market} ${ir.timeframe}, side ${ir.side}.`,
      ` * seed_hash: ${seed}`,
      ` * version: ${version}`,
      ` * Pure: decide(i, st, s) at the close of bar i; arm(i, st, dir) on a signal bar; fill(f, price, st, s) at the`,
      ` * open of the fill bar, false when the stop is not beyond the fill. They read the bars and series handed in`,
      ` * and write only the state; nothing here reads a bar after the one it is called for.`,
      ` */`,
      '',
      `${ex}const SEED_HASH = '${seed}';`,
      `${ex}const VERSION = '${version}';`,
      `/** Whether decide moves, re-reads or ends an open trade; when false it reads only flat bars. */`,
      `${ex}const MANAGES = ${manages};`,
      `/** The watermark: the seed hash in eight 32-bit words, written into the state on every arm. */`,
      `const SEAL${t(': readonly number[]')} = [${words.map((w) => `0x${w.toString(16).padStart(8, '0')}`).join(', ')}];`,
      '',
      ...states.map(([c, i]) => `const ${c} = ${i};`),
      ...whys.map(([w, i]) => `const ${whyConst(w)} = ${i};`),
      ...(used('TF') ? [`/** Bar length in seconds. */`, `const TF = ${ir.tf_seconds};`] : []),
      `/** The market's tick as 1 / tick: prices are kept on the tick grid. */`,
      `const INV_TICK = ${Math.round(1 / ir.tick)};`,
      '',
      ...types,
      `const q = (x${n})${n} => Math.round(x * INV_TICK) / INV_TICK;`,
      '',
      ...[...conditions, ...this.helpers].flatMap((h) => [h, '']),
      ...(deadlineFn ? [deadlineFn, ''] : []),
      ...arm,
      '',
      ...decide,
      '',
      ...fill,
      ...(this.typed ? [] : ['', 'return { SEED_HASH, VERSION, MANAGES, decide, arm, fill };']),
    ];
    return `${lines.join('\n')}\n`;
  }
}

/** The TypeScript source of the decider: same IR, seed hash and version, same bytes. */
export const codeOf = (ir: DeciderIR, seedHash: string, version: string): string => new Renderer(ir, true).render(seedHash, version);

/** The same source with its type syntax left out, as the body of a function returning the module. */
export const jsOf = (ir: DeciderIR, seedHash: string, version: string): string => new Renderer(ir, false).render(seedHash, version);
