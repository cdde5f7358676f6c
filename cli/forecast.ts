import { parseArgs } from 'node:util';
import { z } from 'zod';
import { readConfig } from '../config/env.js';
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
  type Envelope,
  type Pair,
  type Score,
} from '../engine/forecast/index.js';
import { MARKETS, TIMEFRAME_SECONDS } from '../engine/markets.js';
import { openBackend } from '../store/open-backend.js';
import { Forecasts } from '../store/forecasts.js';
import { TapeArchive } from '../store/tape-archive.js';
import type { TapeDays } from '../store/tape-days.js';
import { lookbackFrom } from '../upstream/forecast/bars.js';
import { Tape } from '../upstream/tape/tape.js';

const USAGE = 'usage: npm run forecast -- backfill --market BTC --tf 5m [--from 2025-03-10T00:00:00Z --to 2025-03-20T00:00:00Z]';
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

/**
 * Walk-forward issuance over the archived tape: an envelope at the close of every bar in [from, to), each from the
 * bars closed by then (as the deck would have issued it on demand), appended to the pair's ledger unless its
 * issued_t is there already. One there already that read a last bar which had not closed is superseded (an entry
 * appended, the chain untouched). Then every envelope of the pair the bars can score is scored.
 */
async function backfill(pair: Pair, window: { from?: number; to?: number }): Promise<number> {
  const started = performance.now();
  const backend = await openBackend(readConfig());
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
      `calibration: n ${calibration.n}, ece ${calibration.ece ?? 'none'}, coverage ${calibration.coverage ?? 'none'}: ${draw}, ${label}\n`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { market: { type: 'string' }, tf: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
  });
  const market = z.enum(MARKETS).safeParse(values.market);
  const tf = z.enum(FORECAST_TIMEFRAMES).safeParse(values.tf);
  const from = when.optional().safeParse(values.from);
  const to = when.optional().safeParse(values.to);
  if (positionals[0] !== 'backfill' || positionals.length !== 1 || !market.success || !tf.success || !from.success || !to.success) {
    process.stderr.write(`${USAGE}\n  --market one of ${MARKETS.join(', ')}; --tf one of ${FORECAST_TIMEFRAMES.join(', ')}; --from and --to ISO-8601\n`);
    return 2;
  }
  return backfill({ market: market.data, tf: tf.data }, { from: from.data, to: to.data });
}

main(process.argv.slice(2)).then((code) => process.exit(code));
