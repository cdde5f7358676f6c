import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { SKILLS } from '../../services/skills/bank.js';
import { answer } from '../../services/schemas.js';

export const skills = defineTool({
  name: 'skills',
  title: 'The skill bank',
  description:
    "The studio's skills: short documents that tell an agent how to drive the studio step by step, with the real tools and their inputs (start with trading-workflow). Each is listed with its id, title, summary and the tools it uses; skill_read gives its text.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: answer({
    skills: z.array(z.object({ id: z.string(), title: z.string(), summary: z.string(), tools: z.array(z.string()).describe('the tools it uses') })),
  }),
  toolset: TOOLSETS.skills,
  rest: { method: 'GET', path: '/skills' },
  async run() {
    return { ok: true, skills: SKILLS.map(({ id, title, summary, tools }) => ({ id, title, summary, tools })) };
  },
});
