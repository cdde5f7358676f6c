import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { readConfig } from '../config/env.js';
import { readBarsCsv, tuplesFromBars } from '../engine/bars.js';
import { MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES } from '../engine/markets.js';
import { lengthWords, typicalSpacing } from '../engine/spacing.js';
import { TapeArchive } from '../store/tape-archive.js';

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
  const read = readBarsCsv(await readFile(file, 'utf8'), TIMEFRAME_SECONDS[tf.data]);
  if (!read.ok) {
    const lines = read.refused.slice(0, 20).map((r) => `line ${r.line}: ${r.reason}`);
    process.stderr.write(`${file}: ${read.refused.length} bad line(s), nothing imported\n  ${lines.join('\n  ')}\n`);
    return 1;
  }
  // Every t on the grid is not enough: hourly bars sit on the 5m grid too. The bars must be tf apart, as a rule.
  const spacing = typicalSpacing(read.bars.t);
  if (spacing !== null && spacing !== TIMEFRAME_SECONDS[tf.data]) {
    process.stderr.write(`${file}: the bars are ${lengthWords(spacing)} apart (most common spacing ${spacing} s), not ${tf.data}; nothing imported\n`);
    return 1;
  }
  const rows = tuplesFromBars(read.bars);
  const added = await new TapeArchive(readConfig().dataDir).import(market.data, tf.data, rows);
  process.stdout.write(`${file}: ${rows.length} bars read, ${added} new kept for ${market.data} ${tf.data}\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
