import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import { PROJECT_ROOT } from '../../config/root.js';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import type { TapeArchive } from '../../store/tape-archive.js';
import type { Logger } from '../../config/logger.js';
import { importBarsCsv, importSecondsCsv } from './import.js';

/** The sample of real candles shipped with the deck, one file per market, timeframe and source, its licence beside it. */
export const SAMPLE_DIR = join(PROJECT_ROOT, 'tape', 'sample');

/**
 * A sample file's name: <market>-<tf>.csv, or <market>-<tf>-<source>.csv for a second source of the same bars
 * (BTC-1h-binance.csv beside Bitfinex's BTC-1h.csv). A 1s file is kept as the 15s bars built from it, the finest
 * timeframe the tape serves.
 */
const SampleName = z
  .string()
  .regex(/^[A-Z]+-[0-9a-z]+(-[a-z0-9]+)?\.csv$/)
  .transform((name) => name.slice(0, -'.csv'.length).split('-').slice(0, 2))
  .pipe(z.tuple([z.enum(MARKETS), z.enum([...TIMEFRAMES, '1s'])]));

const iso = (t: number) => new Date(t * 1000).toISOString();

/**
 * Seeds the archive from the sample at start, when the deck has no venue (DECK_TAPE_URL unset), the sample is not
 * turned off (DECK_SAMPLE_TAPE=off) and the archive keeps nothing yet: each file through the import `npm run tape --
 * import` runs, with its checks, each stretch of days it holds vouched for by the sample, so the studio, the forecast
 * and plates have a tape from the first minute. Every candle answer from those bars says so (coverage.source "sample").
 * One `sample_tape` line is logged per file, with what it seeded; a file the checks refuse is logged and left out.
 */
export async function seedSample(config: Pick<Config, 'tapeUrl' | 'sampleTape'>, archive: TapeArchive, log: Logger): Promise<void> {
  if (config.tapeUrl || !config.sampleTape || (await archive.holdsAny())) return;
  for (const name of (await readdir(SAMPLE_DIR)).sort()) {
    const named = SampleName.safeParse(name);
    if (!named.success) continue;
    const [market, tf] = named.data;
    const text = await readFile(join(SAMPLE_DIR, name), 'utf8');
    const done = tf === '1s' ? await importSecondsCsv(archive, text, market, 'sample') : await importBarsCsv(archive, text, market, tf, 'sample');
    const file = `tape/sample/${name}`;
    if (!done.ok) {
      log.error('sample_tape_refused', { file, why: done.why, lines: done.lines });
      continue;
    }
    log.info('sample_tape', {
      file,
      market,
      tf: tf === '1s' ? '15s' : tf,
      ...('seconds' in done ? { built_from: { tf: '1s', bars: done.seconds } } : {}),
      bars: done.added,
      stretches: done.stretches.map((s) => ({ from: iso(s.from), to: iso(s.to) })),
      why: 'no venue (DECK_TAPE_URL) and an empty archive: seeded from the sample shipped in tape/sample/; DECK_SAMPLE_TAPE=off turns this off',
    });
  }
}
