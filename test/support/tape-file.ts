import { readFileSync } from 'node:fs';
import { readBarsCsv, type Bars } from '../../engine/bars.js';

const read = (url: URL, name: string): Bars => {
  const read = readBarsCsv(readFileSync(url, 'utf8'));
  if (!read.ok) throw new Error(`tape file ${name} refused: ${JSON.stringify(read.refused.slice(0, 3))}`);
  return read.bars;
};

/** Real bars from the shared tape beside the repository (header t,o,h,l,c,v), e.g. tapeFile('BTC-1m'). */
export function tapeFile(name: string): Bars {
  return read(new URL(`../../../shared/tape/${name}.csv`, import.meta.url), name);
}

/** Real bars shipped inside the repository, in tape/sample/ with their licence and provenance, e.g. sampleFile('ETH-1m'). */
export function sampleFile(name: string): Bars {
  return read(new URL(`../../tape/sample/${name}.csv`, import.meta.url), name);
}
