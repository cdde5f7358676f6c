import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import { PROJECT_ROOT } from '../../config/root.js';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import type { TapeArchive } from '../../store/tape-archive.js';
import type { Logger } from '../../config/logger.js';
import { importBarsCsv } from './import.js';

/** The sample of real candles shipped with the deck, one file per market and timeframe (ES-1m.csv), its licence beside it. */
export const SAMPLE_DIR = join(PROJECT_ROOT, 'tape', 'sample');

/** A sample file's name: <market>-<tf>.csv. */
const SampleName = z
  .string()
  .regex(/^[A-Z]+-[0-9a-z]+\.csv$/)
  .transform((name) => name.slice(0, -'.csv'.length).split('-'))
  .pipe(z.tuple([z.enum(MARKETS), z.enum(TIMEFRAMES)]));

const iso = (t: number | null) => (t === null ? null : new Date(t * 1000).toISOString());

/**
 * Seeds the archive from the sample at start, when the deck has no venue (DECK_TAPE_URL unset), the sample is not
 * turned off (DECK_SAMPLE_TAPE=off) and the archive keeps nothing yet: through the import `npm run tape -- import`
 * runs, with its checks, so the studio, the forecast and plates have a tape from the first minute. Every candle
 * answer from those bars says so (coverage.source "sample"). A file the checks refuse is logged and left out.
 */
export async function seedSample(config: Pick<Config, 'tapeUrl' | 'sampleTape'>, archive: TapeArchive, log: Logger): Promise<void> {
  if (config.tapeUrl || !config.sampleTape || (await archive.holdsAny())) return;
  for (const name of (await readdir(SAMPLE_DIR)).sort()) {
    const named = SampleName.safeParse(name);
    if (!named.success) continue;
    const [market, tf] = named.data;
    const done = await importBarsCsv(archive, await readFile(join(SAMPLE_DIR, name), 'utf8'), market, tf, 'sample');
    if (!done.ok) {
      log.error('sample_tape_refused', { file: `tape/sample/${name}`, why: done.why, lines: done.lines });
      continue;
    }
    log.info('sample_tape', {
      market,
      tf,
      bars: done.added,
      from: iso(done.first),
      to: iso(done.last),
      why: 'no venue (DECK_TAPE_URL) and an empty archive: seeded from the sample shipped in tape/sample/; DECK_SAMPLE_TAPE=off turns this off',
    });
  }
}
