import { parseArgs } from 'node:util';
import { z } from 'zod';
import { readConfig } from '../config/env.js';
import type { Bars } from '../engine/bars.js';
import {
  DEFAULT_OPTIONS,
  drawOf,
  FORECAST_TIMEFRAMES,
  HORIZON,
  issueAll,
  lookbackBars,
  scoreEnvelope,
  SUPERSEDED_WHY,
  supersedes,
  type Calibration,
  type Envelope,
  type Pair,
  type Score,
} from '../engine/forecast/index.js';
import { MARKETS, TIMEFRAME_SECONDS } from '../engine/markets.js';
import type { Backend } from '../store/backend.js';
import { openBackend } from '../store/open-backend.js';
import { Forecasts } from '../store/forecasts.js';
import { TapeArchive } from '../store/tape-archive.js';
import type { TapeDays } from '../store/tape-days.js';
import { lookbackFrom } from '../upstream/forecast/bars.js';
import { Tape } from '../upstream/tape/tape.js';

const USAGE =
  'usage: npm run forecast -- backfill --market BTC --tf 5m [--from 2025-03-10T00:00:00Z --to 2025-03-20T00:00:00Z]\n' +
  '       npm run forecast -- cells --market BTC --tf 5m [--from ... --to ...]';
const VERBS = ['backfill', 'cells'] as const;
const DAY_S = 86_400;
/** Bars read after the stretch so its last envelopes can be scored (a CME weekend included). */
const TAIL_S = 3 * DAY_S;

const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

const when = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/, 'an ISO-8601 date or UTC time')
  .transform((s) => Math.floor(Date.parse(s) / 1000));

/** The first and last UTC day the archive holds for the pair or a finer timeframe it is built from. */
async function archivedStretch(tapeDays: TapeDays, pair: Pair): Promise<{ from: number; to: number } | null> {
  const days: string[] = [];
  for (const tf of [pair.tf, '1m', '15s'] as const) days.push(...(await tapeDays.list(pair.market, tf)));
  if (days.length === 0) return null;
  days.sort();
  return { from: Date.parse(`${days[0]}T00:00:00Z`) / 1000, to: Date.parse(`${days.at(-1)}T00:00:00Z`) / 1000 + DAY_S };
}

interface Stretch {
  from: number;
  to: number;
  /** The pair's bars from the look-back before `from` to the tail after `to`, from the archive alone. */
  bars: Bars;
}

/** The stretch asked (by default all the archive holds of the pair) and its bars; an exit code when there is none. */
async function readStretch(backend: Backend, pair: Pair, window: { from?: number; to?: number }): Promise<Stretch | number> {
  const stretch = await archivedStretch(backend.tapeDays, pair);
  if (!stretch) {
    process.stderr.write(`nothing archived for ${pair.market} ${pair.tf} (nor 1m or 15s to build it from): import bars with npm run tape -- import\n`);
    return 1;
  }
  const from = window.from ?? stretch.from;
  const to = window.to ?? stretch.to;
  if (from >= to) {
    process.stderr.write(`--from must be before --to\n${USAGE}\n`);
    return 2;
  }
  const len = TIMEFRAME_SECONDS[pair.tf];
  // The archive alone (no venue): the deck scores from what it kept, and a backfill issues from it.
  const tape = new Tape(new TapeArchive(backend.tapeDays), null, () => Date.now());
  const read = { from: lookbackFrom(pair, len, from, lookbackBars()), to: to + (HORIZON + 1) * len + TAIL_S };
  const { bars } = await tape.window(pair.market, pair.tf, read.from, read.to, false, () => true);
  return { from, to, bars };
}

const f4 = (x: number | null): string => (x === null ? '-' : x.toFixed(4));

/** A calibration as lines: one per cell (the nine touches, then the band), then the pair's worst. */
function cellLines(c: Calibration): string[] {
  const { draw, label } = drawOf(c);
  return [
    ...c.touch.map(
      (t) => `  ${`${t.atr} ATR within ${t.within}`.padEnd(20)} n ${t.n}, effective ${t.effective}: ece ${f4(t.ece)} (stated ${f4(t.stated)}, happened ${f4(t.happened)}): ${t.draw}, ${t.label}`,
    ),
    `  ${`band, ${c.band.within} bars`.padEnd(20)} n ${c.band.n}, effective ${c.band.effective}: coverage ${f4(c.band.coverage)} of ${f4(c.band.nominal)} (ece ${f4(c.band.ece)}): ${c.band.draw}, ${c.band.label}`,
    `  the pair (its worst cell): ece ${f4(c.ece)}, coverage ${f4(c.coverage)}: ${draw}, ${label}`,
  ];
}

/**
 * Walk-forward issuance over the archived tape: an envelope at the close of every bar in [from, to), each from the
 * bars closed by then (as the deck would have issued it on demand), appended to the pair's ledger unless its
 * issued_t is there already. One there already that read a last bar which had not closed is superseded (an entry
 * appended, the chain untouched). Then every envelope of the pair the bars can score is scored.
 */
async function backfill(backend: Backend, pair: Pair, window: { from?: number; to?: number }): Promise<number> {
  const started = performance.now();
  const stretch = await readStretch(backend, pair, window);
  if (typeof stretch === 'number') return stretch;
  const { from, to, bars } = stretch;
  const issued: Envelope[] = [];
  const walk = issueAll(bars, pair, from, to, DEFAULT_OPTIONS, (e) => issued.push(e));
  const book = await new Forecasts(backend).book(pair);
  const added = await book.append(issued, Date.now());
  // One recorded from a bar that had not closed is superseded by what the closed bars give (an entry appended).
  const stale = issued.filter((e) => {
    const recorded = book.recorded(e.issued_t);
    return recorded !== null && supersedes(e, recorded);
  });
  const replaced = await book.replace(stale, SUPERSEDED_WHY, Date.now());
  const scores: Score[] = [];
  for (const e of book.unscored(() => true, Infinity)) {
    const s = scoreEnvelope(e, bars);
    if (s) scores.push(s);
  }
  const scored = await book.addScores(scores, Date.now());
  const calibration = book.calibration();
  const { draw, label } = drawOf(calibration);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `${pair.market} ${pair.tf} ${iso(from)} to ${iso(to)}: ${bars.length} bars read; ${walk.issues.length} envelopes issued walk-forward, ` +
      `${added} new, ${walk.issues.length - added - replaced} already there; ${walk.unissued} bars with none (warming up or flat); ` +
      `${replaced} replaced (issued from a bar that had not closed); ${scored} newly scored; ${seconds} s\n` +
      `calibration: n ${calibration.n}, ece ${calibration.ece ?? 'none'}, coverage ${calibration.coverage ?? 'none'}: ${draw}, ${label}\n` +
      `${cellLines(calibration).join('\n')}\n`,
  );
  return 0;
}

/**
 * The forecaster measured cell by cell over the archived tape, writing nothing: the walk a backfill would issue
 * over [from, to), scored against the bars after it, once by the first stage alone (revision 1: the trailing
 * sample's numbers, as the deck issued before its recalibration) and once as the deck issues now.
 */
async function cells(backend: Backend, pair: Pair, window: { from?: number; to?: number }): Promise<number> {
  const stretch = await readStretch(backend, pair, window);
  if (typeof stretch === 'number') return stretch;
  const { from, to, bars } = stretch;
  const first = issueAll(bars, pair, from, to, { ...DEFAULT_OPTIONS, recalibration: 0 });
  const now = issueAll(bars, pair, from, to, DEFAULT_OPTIONS);
  process.stdout.write(
    `${pair.market} ${pair.tf} ${iso(from)} to ${iso(to)}: ${bars.length} bars read; ${now.issues.length} envelopes issued walk-forward, ${now.scores.length} scored\n` +
      `first stage alone (revision 1):\n${cellLines(first.calibration).join('\n')}\n` +
      `as issued (revision 2, recalibrated):\n${cellLines(now.calibration).join('\n')}\n`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { market: { type: 'string' }, tf: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
  });
  const verb = z.enum(VERBS).safeParse(positionals[0]);
  const market = z.enum(MARKETS).safeParse(values.market);
  const tf = z.enum(FORECAST_TIMEFRAMES).safeParse(values.tf);
  const from = when.optional().safeParse(values.from);
  const to = when.optional().safeParse(values.to);
  if (!verb.success || positionals.length !== 1 || !market.success || !tf.success || !from.success || !to.success) {
    process.stderr.write(`${USAGE}\n  --market one of ${MARKETS.join(', ')}; --tf one of ${FORECAST_TIMEFRAMES.join(', ')}; --from and --to ISO-8601\n`);
    return 2;
  }
  const backend = await openBackend(readConfig());
  const run = verb.data === 'backfill' ? backfill : cells;
  return run(backend, { market: market.data, tf: tf.data }, { from: from.data, to: to.data }).finally(() => backend.close());
}

main(process.argv.slice(2)).then((code) => process.exit(code));
