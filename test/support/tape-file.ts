import { readFileSync } from 'node:fs';
import { readBarsCsv, type Bars } from '../../engine/bars.js';

/** Real bars from the shared tape beside the repository (header t,o,h,l,c,v), e.g. tapeFile('BTC-1m'). */
export function tapeFile(name: string): Bars {
  const read = readBarsCsv(readFileSync(new URL(`../../../shared/tape/${name}.csv`, import.meta.url), 'utf8'));
  if (!read.ok) throw new Error(`tape file ${name} refused: ${JSON.stringify(read.refused.slice(0, 3))}`);
  return read.bars;
}
