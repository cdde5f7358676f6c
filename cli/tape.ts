import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { readConfig } from '../config/env.js';
import { MARKETS, TIMEFRAMES } from '../engine/markets.js';
import { openBackend } from '../store/open-backend.js';
import { TapeArchive } from '../store/tape-archive.js';
import { importBarsCsv } from '../upstream/tape/import.js';

const USAGE = 'usage: npm run tape -- import <file.csv> --market BTC --tf 1m   (header t,o,h,l,c,v; t in unix seconds UTC)';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { market: { type: 'string' }, tf: { type: 'string' } } });
  const [verb, file] = positionals;
  const market = z.enum(MARKETS).safeParse(values.market);
  const tf = z.enum(TIMEFRAMES).safeParse(values.tf);
  if (verb !== 'import' || !file || !market.success || !tf.success) {
    process.stderr.write(`${USAGE}\n  --market one of ${MARKETS.join(', ')}; --tf one of ${TIMEFRAMES.join(', ')}\n`);
    return 2;
  }
  // Into the store the deck is configured with: the data directory's files, or the database.
  const backend = await openBackend(readConfig());
  const done = await importBarsCsv(new TapeArchive(backend.tapeDays), await readFile(file, 'utf8'), market.data, tf.data).finally(() => backend.close());
  if (!done.ok) {
    process.stderr.write(`${file}: ${done.why}\n${done.lines.map((l) => `  ${l}\n`).join('')}`);
    return 1;
  }
  process.stdout.write(`${file}: ${done.read} bars read, ${done.added} new kept for ${market.data} ${tf.data}\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
