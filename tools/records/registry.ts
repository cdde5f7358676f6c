import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { register } from '../../services/studio/register.js';
import { RegistryAnswer } from '../../services/records/answers.js';

export const registry = defineTool({
  name: 'registry',
  title: 'The registry',
  description:
    "One list of what is registered on the deck: each seller (kind seller: its endpoint, its card's address and the tools it serves) and each public algorithm of the onboarded register (kind algorithm: where it is documented, its market and timeframe, and where its exact script is read). The house's own strategies are sealed and not listed. Needs no key.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RegistryAnswer,
  access: 'none',
  toolset: TOOLSETS.records,
  rest: { method: 'GET', path: '/records/registry' },
  async run(ctx) {
    const sellers = ctx.offer.sellers.map((s) => ({ kind: 'seller' as const, id: s.id, name: s.name, description: s.description, endpoint: s.endpoint, card_url: s.card_url, tools: s.tools }));
    const algorithms = register(ctx)
      .filter((a) => !a.house)
      .map((a) => ({
        kind: 'algorithm' as const,
        id: a.name,
        name: a.title,
        source: a.source,
        market: a.script.market,
        timeframe: a.script.timeframe,
        script_url: `${ctx.urls.base}/forge?onboard=${a.name}`,
      }));
    return { ok: true, count: sellers.length + algorithms.length, entries: [...sellers, ...algorithms] };
  },
});
