import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseIndicators, warmUpBars } from '../engine/indicators/index.js';
import { renderPlate } from '../engine/plate/plate.js';
import type { PlateInput } from '../engine/plate/view.js';
import { barsBetween } from '../test/support/tape-file.js';
import { benchMonth } from './bars.js';
import type { BenchRow } from './indicators.js';

// Rendering a plate of 500 BTC 1m candles of the bench's month (bench/bars.ts) with two indicators (ema:20, bb:20:2),
// a level and a zone, as POST /plates asks it: the window plus the bars that warm the indicators up.
// `npx tsx bench/plate.ts` runs it alone.

const RUNS = 30;
const CANDLES = 500;
const FIRST = 2000;
const MiB = 2 ** 20;

function plateInput(): PlateInput {
  const month = benchMonth().bars;
  const indicators = parseIndicators(['ema:20', 'bb:20:2']);
  const bars = barsBetween(month, FIRST - Math.max(...indicators.map(warmUpBars)), FIRST + CANDLES);
  // A level and a zone inside the window's range, wherever the month's prices lie.
  const shown = barsBetween(month, FIRST, FIRST + CANDLES);
  const low = Math.min(...shown.l);
  const high = Math.max(...shown.h);
  const at = (share: number) => Math.round(low + share * (high - low));
  return {
    market: 'BTC',
    tf: '1m',
    from: month.t[FIRST]!,
    to: month.t[FIRST]! + CANDLES * 60,
    bars,
    indicators,
    marks: [
      { kind: 'level', price: at(0.8) },
      { kind: 'zone', price: at(0.15), price2: at(0.3) },
    ],
  };
}

export async function benchPlate(): Promise<BenchRow[]> {
  const input = plateInput();
  renderPlate(input);
  const before = process.memoryUsage().rss;
  let peak = before;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    renderPlate(input);
    times.push(performance.now() - start);
    const spent = process.cpuUsage(used);
    cpu.push((spent.user + spent.system) / 1000);
    peak = Math.max(peak, process.memoryUsage().rss);
    // Turn the event loop between renders, as a server does between requests: the rasterizer's native buffers are
    // released by finalizers that run there, so a tight synchronous loop would count them as held for ever.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[RUNS >> 1]!;
  const wall = median(times);
  const worst = times[RUNS - 1]!;
  return [
    {
      name: `plate: ${CANDLES} candles with ema:20 and bb:20:2, a level and a zone, 1200x700 PNG (median of ${RUNS}, slowest ${worst.toFixed(1)} ms)`,
      value: wall,
      unit: 'ms',
      goal: '< 50 ms',
      met: wall < 50,
    },
    // Processor time is what the render itself costs; wall time also counts whatever else the machine runs.
    { name: `plate: processor time of one render (median of ${RUNS})`, value: median(cpu), unit: 'ms' },
    { name: `plate: resident memory growth over ${RUNS} renders (highest rss after a render, less rss before)`, value: (peak - before) / MiB, unit: 'MiB' },
    { name: 'plate: peak resident memory of the whole bench process (maxRSS)', value: process.resourceUsage().maxRSS / 1024, unit: 'MiB' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchPlate()) {
    const goal = r.goal ? `, goal ${r.goal}: ${r.met ? 'met' : 'NOT met'}` : '';
    process.stdout.write(`${r.name}: ${r.value.toFixed(1)} ${r.unit}${goal}\n`);
  }
}
