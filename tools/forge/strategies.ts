import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { register } from '../../services/studio/register.js';
import { StrategiesAnswer } from '../../services/studio/answers.js';

export const strategies = defineTool({
  name: 'strategies',
  title: 'Onboarded strategies',
  description:
    "The public algorithms of the onboarded register: each one's name, title, where it is documented, its intent in words, market and timeframe. The house's own are not listed. Needs no key; GET /forge?onboard=<name> gives the exact script.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: StrategiesAnswer,
  access: 'none',
  toolset: TOOLSETS.forge,
  async run(ctx) {
    return {
      ok: true,
      strategies: register(ctx)
        .filter((s) => !s.house)
        .map((s) => ({ name: s.name, title: s.title, source: s.source, intent: s.intent, market: s.script.market, timeframe: s.script.timeframe })),
    };
  },
});
