import type { z } from 'zod';
import type { ServedCoverage } from './candles-schema.js';

const KEY = Buffer.from('"coverage":');

/**
 * The coverage of a candle answer as served (its last field, so only that tail is parsed, not the candles): what
 * a seal read back is judged by, and what a read is metered by.
 */
export function coverageIn(bytes: Buffer): z.output<typeof ServedCoverage> {
  const at = bytes.lastIndexOf(KEY);
  if (at < 0) throw new Error('a candle answer without its coverage');
  return JSON.parse(bytes.subarray(at + KEY.length, bytes.length - 1).toString('utf8')) as z.output<typeof ServedCoverage>;
}
