import { barsFromRows, type BarRow, type Bars } from '../../engine/bars.js';

/**
 * The columns of sealed candle answers, by the answer's bytes: the seals keep a window's bytes in memory as one
 * Buffer, so its JSON is parsed once while they keep it (or never, when this deck sealed it from the tape's columns),
 * not on every rehearsal over it; the entry goes with the Buffer.
 */
const known = new WeakMap<Buffer, Bars>();

/** A sealed candle answer's bars as columns. Shared between its readers: read them, never write them. */
export function candleColumns(sealed: Buffer): Bars {
  let bars = known.get(sealed);
  if (!bars) {
    bars = barsFromRows((JSON.parse(sealed.toString('utf8')) as { candles: BarRow[] }).candles);
    known.set(sealed, bars);
  }
  return bars;
}

/** Notes the columns a sealed answer was made from, so reading them back parses nothing. */
export const knowColumns = (sealed: Buffer, bars: Bars): void => void known.set(sealed, bars);
