import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { onboarded } from '../../services/studio/register.js';
import { ForgeOnboardAnswer } from '../../services/studio/answers.js';

export const forgeOnboard = defineTool({
  name: 'forge_onboard',
  title: 'An onboarded algorithm',
  description:
    "The intent and exact script block of an algorithm in the onboarded register (documented examples: see the strategies tool), ready to forge as they are. The house's own strategies are sealed: they answer 404.",
  input: z.object({ onboard: z.string().min(1).max(64).describe("the algorithm's name") }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ForgeOnboardAnswer,
  access: 'session',
  toolset: TOOLSETS.forge,
  rest: { method: 'GET', path: '/forge', errors: [404] },
  async run(ctx, { onboard }) {
    const { name, title, source, intent, script } = onboarded(ctx, onboard);
    return { ok: true, name, title, source, intent, script };
  },
});
