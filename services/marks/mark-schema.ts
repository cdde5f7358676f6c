import { z } from 'zod';
import { MARKETS } from '../../engine/markets.js';

export const MARK_LIMITS = { perMarket: 20, total: 60, note: 140 } as const;
export const MARK_ID = /^mk_[0-9a-f]{16}$/;

const price = z.number().finite().positive();

/** A mark as kept and answered: as posted, with its id and when it was placed (unix milliseconds). */
export const Mark = z.object({
  id: z.string().regex(MARK_ID),
  market: z.enum(MARKETS),
  kind: z.enum(['level', 'zone']),
  price: z.number(),
  price2: z.number().optional().describe('the other edge, for a zone'),
  note: z.string().optional(),
  created_at: z.number().int(),
});

/** A mark as posted. Plain note: no markup characters, no control characters, at most 140 characters. */
export const MarkInput = z
  .object({
    market: z.enum(MARKETS),
    kind: z.enum(['level', 'zone']),
    price,
    price2: price.optional().describe('the other edge, for a zone'),
    note: z
      .string()
      .trim()
      .max(MARK_LIMITS.note)
      .regex(/^[^<>`\u0000-\u001f\u007f]*$/, 'a short plain note: no markup (< > `) and no control characters')
      .optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.kind === 'zone' && m.price2 === undefined) ctx.addIssue({ code: 'custom', path: ['price2'], message: 'a zone needs price2' });
    if (m.kind === 'zone' && m.price2 === m.price) ctx.addIssue({ code: 'custom', path: ['price2'], message: 'a zone needs two different prices' });
    if (m.kind === 'level' && m.price2 !== undefined) ctx.addIssue({ code: 'custom', path: ['price2'], message: 'price2 is for a zone only' });
  });
