import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { SKILLS, skillById } from '../../services/skills/bank.js';
import { answer } from '../../services/schemas.js';

export const skillRead = defineTool({
  name: 'skill_read',
  title: 'Read a skill',
  description: 'One skill of the bank by its id (the skills tool lists them): its title and its text in markdown. An unknown id is 404 naming the ids.',
  input: z.object({ id: z.string().min(1).max(64).describe('a skill id, as the skills tool lists it') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: answer({ id: z.string(), title: z.string(), text: z.string().describe('the skill in markdown') }),
  toolset: TOOLSETS.skills,
  rest: { method: 'GET', path: '/skills/:id', errors: [404] },
  async run(_ctx, { id }) {
    const skill = skillById(id);
    if (!skill) {
      const ids = SKILLS.map((s) => s.id);
      throw new DeckError(404, 'not_found', `no skill ${id}; the skills are ${ids.join(', ')}`, { skills: ids });
    }
    return { ok: true, id: skill.id, title: skill.title, text: skill.text };
  },
});
