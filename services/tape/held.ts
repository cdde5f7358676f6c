import { z } from 'zod';
import { MARKETS, TIMEFRAMES, type Market, type Timeframe } from '../../engine/markets.js';
import { ORIGINS, type HeldTape } from '../../store/tape-archive.js';
import { FINER } from '../../upstream/tape/tape.js';
import { badInput, DeckError } from '../../core/errors.js';
import type { Ctx } from '../context.js';

/** What the tape holds of a market and timeframe, as the catalogue lists it. */
export const HeldListing = z.object({
  market: z.enum(MARKETS),
  tf: z.enum(TIMEFRAMES),
  bars: z.number().int().describe('bars the archive keeps'),
  windows: z
    .array(
      z.object({
        from: z.number().int().describe('unix seconds'),
        to: z.number().int().describe('unix seconds, exclusive'),
        source: z.enum(ORIGINS).describe('who vouched for it: sample (shipped with the deck), import (npm run tape -- import) or venue'),
      }),
    )
    .describe('the stretches of history held: an expected bar absent inside one is known absent'),
});

/** A note an answer carries about what the deck can do with it: `code` names it, `message` says it in words. */
export const Warnings = z
  .array(z.object({ code: z.literal('market_not_held'), message: z.string() }))
  .optional()
  .describe("present when the rule's market cannot be rehearsed here: no bars held and no venue that serves it");

/** The timeframes a bar of tf can be read or built from, tf first. */
const sources = (tf: Timeframe): Timeframe[] => [tf, ...FINER[tf]];

/** The archive's holdings in a few words: "ES 1m; BTC 15s, 1m, 1h; ETH 1m", or "nothing". */
export function heldWords(held: readonly HeldTape[]): string {
  const byMarket = new Map<Market, Timeframe[]>();
  for (const h of held) byMarket.set(h.market, [...(byMarket.get(h.market) ?? []), h.tf]);
  return byMarket.size === 0 ? 'nothing' : [...byMarket].map(([m, tfs]) => `${m} ${tfs.join(', ')}`).join('; ');
}

/**
 * Why the tape cannot serve a rule on this market at this timeframe, or null when it can: a venue that serves the
 * market, or bars held at the timeframe or a finer one to build it from. Names the market and what is held.
 */
async function notHeld(ctx: Ctx, market: Market, tf: Timeframe): Promise<string | null> {
  if (ctx.upstreams.tape.asksVenue(market)) return null;
  const held = await ctx.store.archive.held();
  if (held.some((h) => h.market === market && sources(tf).includes(h.tf))) return null;
  const venue = ctx.config.tapeUrl ? `its venue (${ctx.upstreams.tape.venueSource}) does not serve ${market}` : 'no venue is configured (DECK_TAPE_URL)';
  return `the tape holds no ${tf} bars of ${market}, nor finer ones to build them from, and ${venue}: it holds ${heldWords(held)} (GET /catalogue lists the windows)`;
}

/** The warning a reading or a forge carries when its rule's market cannot be rehearsed here; none when it can. */
export async function tapeWarnings(ctx: Ctx, market: Market | null, tf: Timeframe | null): Promise<{ warnings?: z.output<typeof Warnings> }> {
  const why = market && tf ? await notHeld(ctx, market, tf) : null;
  return why ? { warnings: [{ code: 'market_not_held', message: `a rehearsal of this rule would be refused: ${why}` }] } : {};
}

/** Refuses a rehearsal or a trial on a market the tape cannot serve: 422 naming the market and what is held. */
export async function refuseNotHeld(ctx: Ctx, market: Market, tf: Timeframe): Promise<void> {
  const why = await notHeld(ctx, market, tf);
  if (why) throw badInput([{ field: 'market', message: why }]);
}

const minute = (t: number) => new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ');

/**
 * Refuses a window of a market the tape holds, outside what it holds, with no venue to ask: 422 naming `to` and the
 * windows held that a rehearsal or trial at tf can read (the timeframe's own and the finer ones it is built from).
 */
export async function refuseOutsideHeld(ctx: Ctx, market: Market, tf: Timeframe, window: { from: number; to: number }): Promise<never> {
  const held = (await ctx.store.archive.held()).filter((h) => h.market === market && sources(tf).includes(h.tf));
  const words = held.map((h) => `${h.tf} ${h.windows.map((w) => `${minute(w.from)} to ${minute(w.to)} (${w.source})`).join(', ')}`).join('; ');
  throw new DeckError(422, 'bad_window', `the tape holds no ${market} bars in the window ${minute(window.from)} to ${minute(window.to)} UTC and no venue is configured (DECK_TAPE_URL) to ask: it holds ${market} ${words || 'nothing'}`, {
    problems: [{ field: 'to', message: 'the window is outside what the tape holds' }],
    window,
    held,
  });
}
