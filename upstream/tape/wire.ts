import { z } from 'zod';
import { allocBars, type Bars } from '../../engine/bars.js';

/** One bar as the venue's wire and the archive's files carry it: [t, o, h, l, c, v], t = open time in unix seconds. */
export type CandleRow = [t: number, o: number, h: number, l: number, c: number, v: number];

const positive = z.number().finite().positive();

export const CandleRowSchema = z
  .tuple([z.number().int().nonnegative(), positive, positive, positive, positive, z.number().finite().nonnegative()])
  .refine(([, o, h, l, c]) => l <= Math.min(o, c) && Math.max(o, c) <= h, 'needs l <= min(o, c) <= max(o, c) <= h');

/** The venue's answer to GET {tape_url}/candles/{market}/{tf}?from&to (the README states it). */
export const VenueAnswer = z.object({ candles: z.array(CandleRowSchema) });

export function barsFromTuples(rows: readonly CandleRow[]): Bars {
  const b = allocBars(rows.length);
  rows.forEach(([t, o, h, l, c, v], i) => {
    b.t[i] = t;
    b.o[i] = o;
    b.h[i] = h;
    b.l[i] = l;
    b.c[i] = c;
    b.v[i] = v;
  });
  return b;
}

export function tuplesFromBars(b: Bars): CandleRow[] {
  const rows: CandleRow[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) rows[i] = [b.t[i]!, b.o[i]!, b.h[i]!, b.l[i]!, b.c[i]!, b.v[i]!];
  return rows;
}
