import { z } from 'zod';
import { MARKETS, type Market } from '../markets.js';
import { round4 } from '../stepper/stats.js';
import { notionalOf, onStep, stepDown } from './contracts.js';
import { CAP_NAMES, limitsFor, type CapName, type Caps } from './caps.js';
import { dirOf, FILL_WHY, SIDES, type Fill } from './order.js';

/** How a follower sizes: `size` for the model's largest recent order, or `notional` dollars for its largest in dollars. */
export type FollowBasis = { size: number } | { notional: number };

/** One cap that cut an order: the size it would have been and the size it became. */
export const CutSchema = z.strictObject({ cap: z.enum([...CAP_NAMES, 'rounds_to_zero']), from: z.number(), to: z.number() });
export type Cut = z.infer<typeof CutSchema>;

export const FollowRowSchema = z.strictObject({
  fill_id: z.string(),
  order_id: z.string().nullable(),
  t: z.number().int(),
  market: z.enum(MARKETS),
  side: z.enum(SIDES),
  why: z.enum(FILL_WHY),
  price: z.number(),
  model_size: z.number(),
  scaled: z.number().describe("the model's size times the scale, before the size grid and the caps"),
  size: z.number().describe("what the follower's order would have been"),
  cuts: z.array(CutSchema),
});
export type FollowRow = z.infer<typeof FollowRowSchema>;

export const FollowQuoteSchema = z.strictObject({
  scale: z.number().describe("the one factor every order of the model's is scaled by"),
  reference: z
    .strictObject({ fill_id: z.string(), size: z.number(), notional_usd: z.number() })
    .nullable()
    .describe("the model's largest recent order the scale is taken from; null with no orders"),
  rows: z.array(FollowRowSchema),
  summary: z.strictObject({ orders: z.number().int(), followed: z.number().int(), cut: z.number().int(), dropped: z.number().int() }),
});
export type FollowQuote = z.infer<typeof FollowQuoteSchema>;

/**
 * Following a model at the follower's own size inside the follower's own caps, over the model's recent fills (oldest
 * first). Every fill is scaled by one factor: the follower's size over the model's largest fill, or the follower's
 * dollars over the model's largest fill in dollars, then put on the market's size grid (rounded down). What a fill
 * closes of the model's position closes the same share of the follower's (all of it when the model goes flat), and
 * caps never cut a close: reducing is always allowed. What it opens passes the caps in turn: a market not allowed,
 * the largest order, the largest order in dollars, the largest position, shorts not allowed. Each cut is named with
 * the size before and after it.
 */
export function followQuote(fills: readonly Fill[], basis: FollowBasis, caps: Caps): FollowQuote {
  const byNotional = 'notional' in basis;
  let ref: Fill | null = null;
  let refValue = 0;
  for (const f of fills) {
    const v = byNotional ? notionalOf(f.market, f.size, f.price) : f.size;
    if (v > refValue) [ref, refValue] = [f, v];
  }
  const scale = ref ? (byNotional ? basis.notional : basis.size) / refValue : 0;
  const model = new Map<Market, number>();
  const follower = new Map<Market, number>();
  const rows: FollowRow[] = [];
  for (const f of fills) {
    const m = f.market;
    const d = dirOf(f.side);
    const before = model.get(m) ?? 0;
    const after = onStep(m, before + d * f.size);
    model.set(m, after);
    const mine = follower.get(m) ?? 0;
    const cuts: Cut[] = [];
    // The part that closes the model's position, then the part that opens (a turn has both).
    const closes = Math.sign(before) === -d ? Math.min(f.size, Math.abs(before)) : 0;
    const opens = onStep(m, f.size - closes);
    let close = 0;
    if (closes > 0 && Math.sign(mine) === Math.sign(before)) {
      close = Math.abs(after) === 0 || Math.sign(after) === d ? Math.abs(mine) : Math.min(Math.abs(mine), stepDown(m, closes * scale));
    }
    let open = opens > 0 ? stepDown(m, opens * scale) : 0;
    if (opens > 0) {
      const limits = limitsFor(caps, m);
      const cut = (cap: CapName, to: number) => {
        const next = Math.max(0, stepDown(m, to));
        if (next < open) {
          cuts.push({ cap, from: open, to: next });
          open = next;
        }
      };
      if (!limits.traded) cut('markets', 0);
      cut('max_order_size', limits.max_order_size);
      cut('max_notional', limits.max_notional / notionalOf(m, 1, f.price));
      const held = onStep(m, mine + d * close);
      cut('max_position', limits.max_position - Math.max(0, d * held));
      if (d < 0 && !limits.allow_short) cut('allow_short', Math.max(0, held));
      if (open === 0 && cuts.length === 0) cuts.push({ cap: 'rounds_to_zero', from: round4(opens * scale), to: 0 });
    }
    const size = onStep(m, close + open);
    follower.set(m, onStep(m, mine + d * size));
    rows.push({
      fill_id: f.id,
      order_id: f.order_id,
      t: f.t,
      market: m,
      side: f.side,
      why: f.why,
      price: f.price,
      model_size: f.size,
      scaled: round4(f.size * scale),
      size,
      cuts,
    });
  }
  return {
    scale: round4(scale),
    reference: ref ? { fill_id: ref.id, size: ref.size, notional_usd: round4(notionalOf(ref.market, ref.size, ref.price)) } : null,
    rows,
    summary: {
      orders: rows.length,
      followed: rows.filter((r) => r.size > 0).length,
      cut: rows.filter((r) => r.cuts.some((c) => c.cap !== 'rounds_to_zero')).length,
      dropped: rows.filter((r) => r.size === 0).length,
    },
  };
}
