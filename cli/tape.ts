import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { readConfig } from '../config/env.js';
import { MARKETS, TIMEFRAMES } from '../engine/markets.js';
import { openBackend } from '../store/open-backend.js';
import { TapeArchive } from '../store/tape-archive.js';
import { importBarsCsv, importSecondsCsv } from '../upstream/tape/import.js';

const USAGE = 'usage: npm run tape -- import <file.csv> --market BTC --tf 1m   (header t,o,h,l,c,v; t in unix seconds UTC; --tf 1s keeps the 15s bars built from 1s bars)';

const iso = (t: number) => new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ');

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { market: { type: 'string' }, tf: { type: 'string' } } });
  const [verb, file] = positionals;
  const market = z.enum(MARKETS).safeParse(values.market);
  const tf = z.enum([...TIMEFRAMES, '1s']).safeParse(values.tf);
  if (verb !== 'import' || !file || !market.success || !tf.success) {
    process.stderr.write(`${USAGE}\n  --market one of ${MARKETS.join(', ')}; --tf one of ${TIMEFRAMES.join(', ')}, or 1s\n`);
    return 2;
  }
  // Into the store the deck is configured with: the data directory's files, or the database.
  const backend = await openBackend(readConfig());
  const archive = new TapeArchive(backend.tapeDays);
  const text = await readFile(file, 'utf8');
  const done = await (tf.data === '1s' ? importSecondsCsv(archive, text, market.data, 'import') : importBarsCsv(archive, text, market.data, tf.data)).finally(() => backend.close());
  if (!done.ok) {
    process.stderr.write(`${file}: ${done.why}\n${done.lines.map((l) => `  ${l}\n`).join('')}`);
    return 1;
  }
  const kept = tf.data === '1s' ? '15s' : tf.data;
  const stretches = done.stretches.map((s) => `${iso(s.from)} to ${iso(s.to)}`).join(', ');
  const read = 'seconds' in done ? `${done.seconds} 1s bars read, ${done.read} 15s bars built` : `${done.read} bars read`;
  process.stdout.write(`${file}: ${read}, ${done.added} new kept for ${market.data} ${kept}; held: ${stretches || 'nothing'}\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
