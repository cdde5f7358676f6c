import { z } from 'zod';
import { CapsSchema, HOUSE_LIMITS, HOUSE_MAX_NOTIONAL_USD, limitsFor } from '../../engine/book/index.js';
import { MARKETS } from '../../engine/markets.js';
import type { SessionCtx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { CapsAnswer } from '../../services/book/answers.js';

/** The caps and the limits they make on every market, inside the house's. */
const capsView = (ctx: SessionCtx) => {
  const caps = ctx.store.bookCaps.get(ctx.principal.id);
  return {
    ok: true,
    caps,
    house: { markets: HOUSE_LIMITS, max_notional: HOUSE_MAX_NOTIONAL_USD },
    limits: Object.fromEntries(MARKETS.map((m) => [m, limitsFor(caps, m)])),
  };
};

export const capsRead = defineTool({
  name: 'book_caps',
  title: 'Your caps',
  description: "The caps on your book (markets, max_order_size, max_notional in dollars, max_position, allow_short), the house's limits they sit inside, and the limits they make per market. A model's caps sit inside yours.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: CapsAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'GET', path: '/book/caps' },
  async run(ctx) {
    return capsView(ctx);
  },
});

export const capsSet = defineTool({
  name: 'book_caps_set',
  title: 'Set your caps',
  description: "Sets the caps on your book (they replace the ones set before; a field left out is the house's limit). They only ever tighten the house's limits. Orders already working are not touched.",
  input: z.object({ caps: CapsSchema }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: CapsAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'POST', path: '/book/caps' },
  async run(ctx, { caps }) {
    await ctx.store.bookCaps.set(ctx.principal.id, caps);
    return capsView(ctx);
  },
});
