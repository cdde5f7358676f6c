import { z } from 'zod';
import { irOf } from '../../engine/decider/index.js';
import { TIMEFRAME_SECONDS } from '../../engine/markets.js';
import { defineTool } from '../define.js';
import { unitsFor } from '../../services/meter/prices.js';
import type { Ctx } from '../../services/context.js';
import { onboarded, type Onboarded } from '../../services/studio/register.js';
import { DEFAULT_HOURS } from '../../services/studio/window.js';
import { StrategyQuoteAnswer } from '../../services/studio/answers.js';

/** One forge plus one rehearsal of a strategy over the default window, in meter units from the price list. */
export function quoteOf(ctx: Ctx, s: Onboarded) {
  const { market, timeframe } = s.script;
  const bars = (DEFAULT_HOURS * 3600) / TIMEFRAME_SECONDS[timeframe] + irOf(s.script).warm_up_bars;
  const forge = unitsFor(ctx.offer.plans, 'forge');
  const rehearse = unitsFor(ctx.offer.plans, 'rehearse', bars);
  return {
    name: s.name,
    market,
    timeframe,
    window: { hours: DEFAULT_HOURS, bars_at_most: bars },
    unit: 'meter unit',
    meter: { forge, rehearse, total: forge + rehearse },
  };
}

export const strategyQuote = defineTool({
  name: 'strategy_quote',
  title: 'Quote an onboarded strategy',
  description:
    `What forging and rehearsing an onboarded strategy costs on the meter, from the price list: one forge plus one rehearsal over the default window (${DEFAULT_HOURS} hours of its timeframe, warm-up included), quoted at the most bars that window can hold. Its market and timeframe come with it. The house's own strategies are sealed (404). Needs no key.`,
  input: z.object({ name: z.string().min(1).max(64).describe('a name from the strategies tool') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: StrategyQuoteAnswer,
  access: 'none',
  toolset: 'forge',
  async run(ctx, { name }) {
    return { ok: true, ...quoteOf(ctx, onboarded(ctx, name)) };
  },
});
