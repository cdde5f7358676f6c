import { int } from '../schemas.js';
import { z } from 'zod';

export const MAX_PAGE = 500;
const DEFAULT_PAGE = 100;

/** The paging fields of a history read: oldest first, so a page never moves as new entries arrive. */
export const Paging = {
  offset: int.refine((n) => n >= 0, 'zero or more').optional().describe('entries to skip, oldest first (default 0)'),
  limit: int.refine((n) => n >= 1 && n <= MAX_PAGE, `1 to ${MAX_PAGE}`).optional().describe(`entries to answer (default ${DEFAULT_PAGE}, at most ${MAX_PAGE})`),
};

/** A page's schema, its items of `item`. */
export const PageOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    total: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    next_offset: z.number().int().nullable().describe('where the next page starts; null on the last'),
    items: z.array(item),
  });

export type Page<T> = z.infer<ReturnType<typeof PageOf<z.ZodType<T>>>>;

export function pageOf<T, U = T>(all: readonly T[], p: { offset?: number | undefined; limit?: number | undefined }, view?: (x: T) => U): Page<U> {
  const offset = p.offset ?? 0;
  const limit = p.limit ?? DEFAULT_PAGE;
  const slice = all.slice(offset, offset + limit);
  return {
    total: all.length,
    offset,
    limit,
    next_offset: offset + limit < all.length ? offset + limit : null,
    items: view ? slice.map(view) : (slice as unknown as U[]),
  };
}
