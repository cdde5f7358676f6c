import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ATR, EMA, RSI } from 'trading-signals';
import type { Bars } from '../engine/bars.js';
import { atr, ema, rsi } from '../engine/indicators/index.js';
import { stitched } from '../test/support/tape-file.js';
import { benchMonth } from './bars.js';

// EMA, ATR and RSI over a million bars: the deck's indicators against trading-signals, the peer library, in the
// same process. Both write a full series (the peer's answers go into a preallocated Float64Array; its candle
// objects are built before the clock starts, its best case). `npx tsx bench/indicators.ts` runs it alone.

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  goal?: string;
  met?: boolean;
}

const BARS = 1_000_000;
const RUNS = 7;
const N = 14;
const EMA_N = 20;

/**
 * The bench's BTC 1m month laid end to end until there are a million bars, each copy scaled to open at the previous
 * copy's last close (stitched), so every bar's move is a real one and the series has no jumps.
 */
const millionBars = (): Bars => stitched([benchMonth().bars], BARS);

/**
 * Median milliseconds of each side over RUNS timed runs, after one untimed run each that lets the JIT settle.
 * The two sides take turns, so whatever else the machine is doing weighs on both alike.
 */
function medianPair(ours: () => unknown, peer: () => unknown): [number, number] {
  ours();
  peer();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    [ours, peer].forEach((run, side) => {
      const start = performance.now();
      run();
      times[side]!.push(performance.now() - start);
    });
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[RUNS >> 1]!;
  return [median(times[0]), median(times[1])];
}

/** Feeds a peer indicator one input at a time, keeping every answer as the deck's series keeps it. */
function peerSeries<I>(make: () => { add(input: I): number | null }, inputs: readonly I[]): Float64Array {
  const indicator = make();
  const out = new Float64Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) out[i] = indicator.add(inputs[i]!) ?? NaN;
  return out;
}

export async function benchIndicators(): Promise<BenchRow[]> {
  const bars = millionBars();
  const closes = [...bars.c];
  const candles = closes.map((close, i) => ({ high: bars.h[i]!, low: bars.l[i]!, close }));
  const cases: [string, () => unknown, () => unknown][] = [
    [`EMA(${EMA_N})`, () => ema(bars.c, EMA_N), () => peerSeries(() => new EMA(EMA_N), closes)],
    [`ATR(${N})`, () => atr(bars.h, bars.l, bars.c, N), () => peerSeries(() => new ATR(N), candles)],
    [`RSI(${N})`, () => rsi(bars.c, N), () => peerSeries(() => new RSI(N), closes)],
  ];
  return cases.map(([name, ours, peer]) => {
    const [value, baseline] = medianPair(ours, peer);
    const ratio = baseline / value;
    return {
      name: `indicators: ${name} over ${BARS.toLocaleString('en-US')} bars, deck vs trading-signals (ratio = peer time / deck time)`,
      value,
      unit: 'ms',
      baseline,
      ratio,
      goal: '>= 1x (at least as fast)',
      met: ratio >= 1,
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchIndicators()) {
    process.stdout.write(`${r.name}: ${r.value.toFixed(2)} ${r.unit}, peer ${r.baseline!.toFixed(2)} ${r.unit}, ${r.ratio!.toFixed(1)}x, goal ${r.goal}: ${r.met ? 'met' : 'NOT met'}\n`);
  }
}
