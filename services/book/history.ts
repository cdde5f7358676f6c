import type { Market } from '../../engine/markets.js';
import type { BookRef } from '../../upstream/venue/venue.js';
import type { Ctx } from '../context.js';

/**
 * Brings a live book up to now on every market it has orders or fills on, before it is read: the history shows
 * what the tape has already decided. A replay's book is as its run left it.
 */
export async function settled(ctx: Ctx, ref: BookRef): Promise<void> {
  if (ref.mode !== 'live') return;
  const venue = ctx.upstreams.venue;
  const markets = new Set<Market>([...venue.orders(ref.key).map((o) => o.market), ...venue.fills(ref.key).map((f) => f.market)]);
  const now = Math.floor(ctx.clock() / 1000);
  for (const m of markets) await venue.settle(ref, m, now);
}
