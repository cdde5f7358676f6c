import { z } from 'zod';
import type { BarTuple } from '../engine/bars.js';

/** One bar as the venue's wire and the archive's files carry it: [t, o, h, l, c, v], t = open time in unix seconds. */
export type CandleRow = BarTuple;

const positive = z.number().finite().positive();

export const CandleRowSchema = z
  .tuple([z.number().int().nonnegative(), positive, positive, positive, positive, z.number().finite().nonnegative()])
  .refine(([, o, h, l, c]) => l <= Math.min(o, c) && Math.max(o, c) <= h, 'needs l <= min(o, c) <= max(o, c) <= h');

/** The venue's answer to GET {tape_url}/candles/{market}/{tf}?from&to (docs/tape.md states it). */
export const VenueAnswer = z.object({ candles: z.array(CandleRowSchema) });
