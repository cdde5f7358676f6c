import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { onboarded } from '../../services/studio/register.js';
import { DEFAULT_HOURS } from '../../services/studio/window.js';
import { StrategyQuoteAnswer } from '../../services/studio/answers.js';
import { quoteOf } from '../../services/studio/strategy-quote.js';

export const strategyQuote = defineTool({
  name: 'strategy_quote',
  title: 'Quote an onboarded strategy',
  description:
    `What forging and rehearsing an onboarded strategy costs on the meter, from the price list: one forge plus one rehearsal over the default window (${DEFAULT_HOURS} hours of its timeframe, warm-up included), quoted at the most bars that window can hold. Its market and timeframe come with it. The house's own strategies are sealed (404). Needs no key.`,
  input: z.object({ name: z.string().min(1).max(64).describe('a name from the strategies tool') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: StrategyQuoteAnswer,
  access: 'none',
  toolset: TOOLSETS.forge,
  async run(ctx, { name }) {
    return { ok: true, ...quoteOf(ctx, onboarded(ctx, name)) };
  },
});
