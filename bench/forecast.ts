import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bars } from '../engine/bars.js';
import {
  calibrate,
  DEFAULT_OPTIONS,
  drawOf,
  HORIZON,
  issueAll,
  TOUCH_ATR,
  TOUCH_WITHIN,
  type Calibration,
  type ForecastOptions,
  type Pair,
  type Walk,
} from '../engine/forecast/index.js';
import { TIMEFRAME_SECONDS } from '../engine/markets.js';
import { resample } from '../engine/resample.js';
import { brier } from '../test/support/forecast-scores.js';
import { stitched } from '../test/support/tape-file.js';
import { BENCH_TAPE, benchFile, benchHas, benchMonth } from './bars.js';
import type { BenchRow } from './indicators.js';

// The forecast envelope on real bars. (a) Speed: a walk-forward backfill with scoring of 30 days of BTC 5m bars
// (8,640 issues) built from the bench's month (bench/bars.ts), cold and warm, and the process's peak memory, for
// revision 2 and for its first stage alone. (b) Quality: every tape file of the DECK_BENCH_TAPE folder walked forward; the two tuning choices (the trailing sample's size N, then the share
// of the learned regime slope the recalibration applies) are picked on the earlier 40% of each file's time span,
// and each cell's ece and the band's coverage are then reported on the later 60%, which nothing was tuned on. It needs
// months of unbroken history, which the shipped sample (days far apart) does not hold: without the folder, quality is
// not measured and the run says so. `npx tsx bench/forecast.ts` runs it alone and writes bench/FORECAST.md when
// quality was measured.

const DAY_BARS = 288;
const PERF_DAYS = 30;
const WARM_RUNS = 5;
/** The earlier part of each file (by time) tunes; the rest is scored. */
const TUNE_SHARE = 0.4;
/** Sizes of the trailing sample tried on the earlier part (with the first stage alone), then shares of the regime slope. */
const SAMPLE_SIZES = [1000, 2000, 4000];
const SHARES = [0, 0.25, 0.5, 0.75, 1];
/** The first stage alone: revision 1, as the deck issued before its recalibration. */
const FIRST_STAGE: ForecastOptions = { ...DEFAULT_OPTIONS, recalibration: 0 };
const CRYPTO_TARGET = { ece: 0.05, coverage: 0.03 };

interface Series {
  pair: Pair;
  source: string;
  bars: Bars;
}

const fiveMinutes = (minutes: Bars): Bars => resample(minutes, 60, 300).bars;

/** The files quality is walked on, those the folder holds: crypto 1m (built into 5m) and 1h, CME 1m (into 5m). */
const QUALITY_FILES: readonly { market: Pair['market']; file: string; tf: Pair['tf'] }[] = [
  ...(['BTC', 'ETH', 'SOL'] as const).map((market) => ({ market, file: `${market}-1m`, tf: '5m' as const })),
  ...(['BTC', 'ETH', 'SOL'] as const).map((market) => ({ market, file: `${market}-1h`, tf: '1h' as const })),
  ...(['ES', 'NQ'] as const).map((market) => ({ market, file: `${market}-1m`, tf: '5m' as const })),
];

/** The series quality is measured on; null without a DECK_BENCH_TAPE folder. */
function tape(): Series[] | null {
  if (!process.env[BENCH_TAPE]) return null;
  return QUALITY_FILES.filter((q) => benchHas(q.file)).map(({ market, file, tf }): Series => {
    const { bars, source } = benchFile(file);
    return tf === '5m' ? { pair: { market, tf }, source: `${source} built into 5m`, bars: fiveMinutes(bars) } : { pair: { market, tf }, source, bars };
  });
}

const isCrypto = (s: Series): boolean => s.pair.market === 'BTC' || s.pair.market === 'ETH' || s.pair.market === 'SOL';

/**
 * The month twice over (stitched: the second copy scaled to open at the first one's last close and dated on from
 * it): a month of history before the 30 timed days, so every issue has a full trailing sample, and a day after them,
 * so every issue is scored. Only the timing reads this series.
 */
const twoMonths = (): Bars => {
  const month = fiveMinutes(benchMonth().bars);
  return stitched([month, month]);
};

interface Speed {
  cold: number;
  warm: number;
  /** The median of as many runs of the first stage alone, interleaved with the warm ones. */
  firstStage: number;
  issues: number;
  scored: number;
  peakMiB: number;
}

function speed(): Speed {
  const bars = twoMonths();
  const first = bars.length / 2;
  const from = bars.t[first]! + 300;
  const to = bars.t[first + PERF_DAYS * DAY_BARS - 1]! + 301;
  const pair: Pair = { market: 'BTC', tf: '5m' };
  const timed = (options: ForecastOptions = DEFAULT_OPTIONS): [number, Walk] => {
    const start = performance.now();
    const walk = issueAll(bars, pair, from, to, options);
    return [performance.now() - start, walk];
  };
  const [cold, walk] = timed();
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  const warm: number[] = [];
  const stage: number[] = [];
  for (let r = 0; r < WARM_RUNS; r++) {
    warm.push(timed()[0]);
    stage.push(timed(FIRST_STAGE)[0]);
  }
  return { cold, warm: median(warm), firstStage: median(stage), issues: walk.issues.length, scored: walk.scores.length, peakMiB: process.resourceUsage().maxRSS / 1024 };
}

interface Split {
  cut: number;
  tune: Calibration;
  scored: Calibration;
  /** On the scored part: the share of envelopes whose close 24 bars on stayed within the band at k = 24. */
  coverage24: number | null;
}

/**
 * One walk over a whole file. Tuning scores are the envelopes issued before the cut whose outcomes were also
 * known by it, so no bar after the cut reaches the tuning; the scored part is every envelope issued from the cut.
 */
function split(s: Series, options: ForecastOptions): Split & { walk: Walk } {
  const { bars, pair } = s;
  const tf = TIMEFRAME_SECONDS[pair.tf];
  const start = bars.t[0]!;
  const end = bars.t[bars.length - 1]! + tf;
  const cut = Math.round(start + TUNE_SHARE * (end - start));
  const walk = issueAll(bars, pair, start, end + 1, options);
  const later = walk.scores.filter((x) => x.issued_t >= cut);
  let held = 0;
  let counted = 0;
  let i = 0;
  for (const issue of walk.issues) {
    if (issue.issued_t < cut) continue;
    while (bars.t[i]! + tf < issue.issued_t) i++;
    const c = bars.c[i + HORIZON];
    if (c === undefined) break;
    counted++;
    if (c >= issue.lower && c <= issue.upper) held++;
  }
  return {
    cut,
    tune: calibrate(walk.scores.filter((x) => x.issued_t < cut), { bar: tf, asOf: cut }),
    scored: calibrate(later, { bar: tf }),
    coverage24: counted ? held / counted : null,
    walk,
  };
}

/** The tuning loss of a row: its worst cell's ece (the band's |coverage − nominal| among them) on the earlier part. */
const loss = (c: Calibration): number => c.ece ?? 1;

interface Grid<K> {
  value: K;
  loss: number;
  rows: Calibration[];
}

interface Quality {
  samples: Grid<number>[];
  shares: Grid<number>[];
  chosen: { sample: number; share: number };
  rows: (Split & { series: Series; met: boolean | null; first: Calibration; brier: { first: number; now: number } })[];
}

/** Each value tried on the crypto rows' earlier part, with its mean loss; the least wins (the first on a tie). */
function tune(crypto: Series[], values: number[], options: (v: number) => ForecastOptions): { grid: Grid<number>[]; chosen: number } {
  const grid = values.map((value) => {
    const rows = crypto.map((s) => split(s, options(value)).tune);
    return { value, rows, loss: rows.reduce((sum, c) => sum + loss(c), 0) / rows.length };
  });
  return { grid, chosen: grid.reduce((best, g) => (g.loss < best.loss ? g : best)).value };
}

function quality(): Quality | null {
  const all = tape();
  if (!all) return null;
  const crypto = all.filter(isCrypto);
  const nominal = DEFAULT_OPTIONS.nominal;
  const samples = tune(crypto, SAMPLE_SIZES, (sample) => ({ ...FIRST_STAGE, sample }));
  const shares = tune(crypto, SHARES, (recalibration) => ({ ...DEFAULT_OPTIONS, sample: samples.chosen, recalibration }));
  const chosen = { sample: samples.chosen, share: shares.chosen };
  const rows = all.map((series) => {
    const r = split(series, { ...DEFAULT_OPTIONS, sample: chosen.sample, recalibration: chosen.share });
    const first = split(series, { ...FIRST_STAGE, sample: chosen.sample });
    const met = isCrypto(series)
      ? r.scored.ece !== null && r.scored.ece < CRYPTO_TARGET.ece && Math.abs(r.scored.coverage! - nominal) <= CRYPTO_TARGET.coverage
      : null;
    const later = (w: Walk) => w.scores.filter((x) => x.issued_t >= r.cut);
    return { ...r, series, met, first: first.scored, brier: { first: brier(later(first.walk)), now: brier(later(r.walk)) } };
  });
  return { samples: samples.grid, shares: shares.grid, chosen, rows };
}

const day = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);
const f4 = (x: number | null): string => (x === null ? '–' : x.toFixed(4));
const pct = (x: number | null): string => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);

/** One calibration's cells in a row: the nine touch cells' ece (unmeasured ones in brackets), then the band's coverage. */
const cellsRow = (c: Calibration): string =>
  [...c.touch.map((t) => (t.label === 'unmeasured' ? `(${f4(t.ece)})` : f4(t.ece))), `${pct(c.band.coverage)}${c.band.label === 'unmeasured' ? ' (unmeasured)' : ''}`].join(' | ');

function gridTable(name: string, grid: Grid<number>[], chosen: number, crypto: Series[]): string[] {
  return [
    `| ${name} | ` + crypto.map((s) => `${s.pair.market} ${s.pair.tf} ece (worst cell) / coverage`).join(' | ') + ' | tuning loss |',
    '|---|' + crypto.map(() => '---|').join('') + '---|',
    ...grid.map((g) => `| ${g.value}${g.value === chosen ? ' (chosen)' : ''} | ${g.rows.map((c) => `${f4(c.ece)} / ${pct(c.coverage)}`).join(' | ')} | ${g.loss.toFixed(4)} |`),
  ];
}

function markdown(sp: Speed, q: Quality): string {
  const nominal = DEFAULT_OPTIONS.nominal;
  const crypto = q.rows.filter((r) => isCrypto(r.series)).map((r) => r.series);
  const cellHeader = '| market | tf | stage | ' + TOUCH_ATR.flatMap((a) => TOUCH_WITHIN.map((w) => `${a} ATR in ${w}`)).join(' | ') + ' | band coverage | Brier |';
  const lines = [
    '## Forecast envelope',
    '',
    `Machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, Node ${process.version}. \`npx tsx bench/forecast.ts\`.`,
    '',
    '### Speed: walk-forward backfill with scoring, 30 days of BTC 5m',
    '',
    '| measure | result | goal | met |',
    '|---|---|---|---|',
    `| backfill + scoring, ${sp.issues.toLocaleString('en-US')} issues (${sp.scored.toLocaleString('en-US')} scored), first run in the process | ${sp.cold.toFixed(0)} ms | < 2000 ms | ${sp.cold < 2000 ? 'yes' : 'NO'} |`,
    `| the same, median of ${WARM_RUNS} further runs | ${sp.warm.toFixed(0)} ms | < 2000 ms | ${sp.warm < 2000 ? 'yes' : 'NO'} |`,
    `| the first stage alone (revision 1), median of ${WARM_RUNS} runs interleaved with those | ${sp.firstStage.toFixed(0)} ms | | |`,
    `| peak resident memory of the whole bench process (maxRSS, with the parsed tape) | ${sp.peakMiB.toFixed(0)} MiB | | |`,
    '',
    `The series is ${benchMonth().source} (1m built into 5m) laid twice end to end, the second copy scaled to open at the first one's last close: the 30 timed days (the second month's first ${PERF_DAYS * DAY_BARS} closes) each get a full trailing sample of ${DEFAULT_OPTIONS.sample.toLocaleString('en-US')} bars and are all scored. Time covers issuing every envelope (its ATR, the trailing sample and its regime moved on by one bar, quantiles and odds), its compact history form and its score.`,
    '',
    '### Quality on the real tape',
    '',
    `Each file is walked forward with an envelope at every closed bar. The earlier ${TUNE_SHARE * 100}% of its time span tunes (envelopes issued and scored before the cut), the later ${100 - TUNE_SHARE * 100}% is scored. Two choices are tuned, each by the mean over the six crypto rows of the pair's worst cell ece (the nine touch cells' and the band's |coverage − ${nominal}|) on the earlier part: first N, the trailing sample's size, from ${SAMPLE_SIZES.join(', ')} with the first stage alone; then, with that N, the share of the learned regime slope the recalibration applies, from ${SHARES.join(', ')}. The band's quantile is not tuned: it is the nominal ${nominal}.`,
    '',
    ...gridTable('N', q.samples, q.chosen.sample, crypto),
    '',
    ...gridTable('share', q.shares, q.chosen.share, crypto),
    '',
    `Scored on the later part with N = ${q.chosen.sample} and share ${q.chosen.share}${q.chosen.sample === DEFAULT_OPTIONS.sample && q.chosen.share === DEFAULT_OPTIONS.recalibration ? " (the engine's defaults)" : ` (NOTE: the engine's defaults are ${DEFAULT_OPTIONS.sample} and ${DEFAULT_OPTIONS.recalibration})`}, nominal coverage ${pct(nominal)}. Coverage is over every (envelope, step k = 1..24); at k = 24 it is the band's last step alone. The pair's ece and draw are its worst cell's. Target for the crypto rows: ece < ${CRYPTO_TARGET.ece} (every cell drawn solid) and coverage within ${CRYPTO_TARGET.coverage * 100} points of nominal.`,
    '',
    '| market | tf | source | bars | cut | tuning n | tuning ece | tuning coverage | scored n | ece | coverage | coverage at k = 24 | draw, label | target met |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...q.rows.map((r) => {
      const d = drawOf(r.scored);
      const met = r.met === null ? 'no target' : r.met ? 'yes' : 'NO';
      return `| ${r.series.pair.market} | ${r.series.pair.tf} | ${r.series.source} | ${r.series.bars.length} | ${day(r.cut)} | ${r.tune.n} | ${f4(r.tune.ece)} | ${pct(r.tune.coverage)} | ${r.scored.n} | ${f4(r.scored.ece)} | ${pct(r.scored.coverage)} | ${pct(r.coverage24)} | ${d.draw}, ${d.label} | ${met} |`;
    }),
    '',
    'Each cell on the scored part, its ece (in brackets: fewer than 30 effective outcomes, unmeasured), by the first stage alone (revision 1) and as issued (revision 2), with the band\'s coverage and the Brier score of the nine odds (the mean squared gap between each odds and its outcome, 0 or 1: lower is the better forecast, whatever the bins):',
    '',
    cellHeader,
    '|---|---|---|' + TOUCH_ATR.flatMap(() => TOUCH_WITHIN.map(() => '---|')).join('') + '---|---|',
    ...q.rows.flatMap((r) => [
      `| ${r.series.pair.market} | ${r.series.pair.tf} | revision 1 | ${cellsRow(r.first)} | ${r.brier.first.toFixed(5)} |`,
      `| ${r.series.pair.market} | ${r.series.pair.tf} | revision 2 | ${cellsRow(r.scored)} | ${r.brier.now.toFixed(5)} |`,
    ]),
    '',
    `Revision 2 against revision 1 on the scored part: the Brier score lower on ${q.rows.filter((r) => r.brier.now < r.brier.first).length} of ${q.rows.length} rows, the worst cell's ece lower on ${q.rows.filter((r) => (r.scored.ece ?? 1) < (r.first.ece ?? 1)).length}, and drawn ${q.rows.filter((r) => drawOf(r.scored).draw === 'solid').length} times solid against ${q.rows.filter((r) => drawOf(r.first).draw === 'solid').length}. The recalibration makes the odds sharper (they move with the regime), which the Brier score credits; a cell's ece bins them by what they stated, and a pair's worst cell moved by at most ${Math.max(...q.rows.map((r) => Math.abs((r.scored.ece ?? 0) - (r.first.ece ?? 0)))).toFixed(4)} either way.`,
    '',
    'Touch odds on the scored part as issued, stated (mean) against happened, per touch:',
    '',
    '| market | tf | ' + TOUCH_ATR.flatMap((a) => TOUCH_WITHIN.map((w) => `${a} ATR in ${w}`)).join(' | ') + ' |',
    '|---|---|' + TOUCH_ATR.flatMap(() => TOUCH_WITHIN.map(() => '---|')).join(''),
    ...q.rows.map((r) => `| ${r.series.pair.market} | ${r.series.pair.tf} | ${r.scored.touch.map((t) => `${t.stated?.toFixed(3) ?? '–'} / ${t.happened?.toFixed(3) ?? '–'}`).join(' | ')} |`),
    '',
    `How to read a low ece here: each cell is binned by its own stated odds, so it says the odds held where they were stated, over the scored stretch. The first stage's odds change slowly (the trailing sample takes in one bar and lets one go per issue, out of ${DEFAULT_OPTIONS.sample.toLocaleString('en-US')}), so its ece mostly says the frequencies held on average; the recalibration moves the odds and the band with how today's ATR sits against the sample's, and its ece says they held at each level they were stated at.`,
    '',
  ];
  return lines.join('\n');
}

/** The timing rows: the backfill cold and warm, the first stage alone, and the process's peak memory. */
const speedRows = (sp: Speed): BenchRow[] => [
  { name: `forecast: backfill + scoring of 30 days of BTC 5m (${sp.issues} issues), first run`, value: sp.cold, unit: 'ms', goal: '< 2000 ms', met: sp.cold < 2000 },
  { name: `forecast: the same, median of ${WARM_RUNS} further runs`, value: sp.warm, unit: 'ms', goal: '< 2000 ms', met: sp.warm < 2000 },
  { name: `forecast: the first stage alone (revision 1), median of ${WARM_RUNS} runs`, value: sp.firstStage, unit: 'ms' },
  { name: 'forecast: peak resident memory of the whole bench process (maxRSS)', value: sp.peakMiB, unit: 'MiB' },
];

/** Why the quality rows are absent, when they are. */
const NO_QUALITY = `forecast: quality not measured: it needs months of unbroken history, which the shipped sample does not hold; set ${BENCH_TAPE} to a folder of tape files (BTC-1m.csv, BTC-1h.csv, ...)`;

/** The rows, and FORECAST.md's section when quality was measured. */
async function run(): Promise<{ rows: BenchRow[]; markdown: string | null }> {
  const sp = speed();
  const q = quality();
  if (!q) return { rows: [...speedRows(sp), { name: NO_QUALITY, value: NaN, unit: 'ece' }], markdown: null };
  const rows: BenchRow[] = [
    ...speedRows(sp),
    ...q.rows.map((r): BenchRow => ({
      name: `forecast: ${r.series.pair.market} ${r.series.pair.tf} ece on the later ${100 - TUNE_SHARE * 100}% (n ${r.scored.n}, coverage ${pct(r.scored.coverage)} against ${pct(DEFAULT_OPTIONS.nominal)})`,
      value: r.scored.ece ?? NaN,
      unit: 'ece',
      ...(r.met === null ? {} : { goal: `< ${CRYPTO_TARGET.ece}, coverage within ${CRYPTO_TARGET.coverage * 100} points`, met: r.met }),
    })),
  ];
  return { rows, markdown: markdown(sp, q) };
}

export async function benchForecast(): Promise<BenchRow[]> {
  return (await run()).rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { rows, markdown: section } = await run();
  for (const r of rows) {
    const goal = r.goal ? `, goal ${r.goal}: ${r.met ? 'met' : 'NOT met'}` : '';
    process.stdout.write(`${r.name}${Number.isNaN(r.value) ? '' : `: ${r.value.toFixed(r.unit === 'ece' ? 4 : 0)} ${r.unit}`}${goal}\n`);
  }
  if (section) await writeFile(fileURLToPath(new URL('./FORECAST.md', import.meta.url)), section);
  else process.stdout.write('bench/FORECAST.md is left as it is: it reports quality, which this run did not measure\n');
}
