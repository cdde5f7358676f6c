import { z } from 'zod';
import { DeckError } from '../../core/errors.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { answer } from '../../services/schemas.js';
import { DoorKindSchema, DoorsList } from '../../services/doors/answers.js';
import { doorsOf, linkProof } from '../../services/doors/link.js';

export const doors = defineTool({
  name: 'doors',
  title: 'Your sign-in doors',
  description: 'The email address (masked) and the X account linked to you: signing in through either is signing in as you. The key door is always yours.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  surface: 'rest',
  output: answer({ doors: DoorsList }),
  toolset: TOOLSETS.identity,
  rest: { method: 'GET', path: '/me/doors' },
  async run(ctx) {
    return { ok: true, doors: doorsOf(ctx, ctx.principal.id) };
  },
});

export const doorLink = defineTool({
  name: 'door_link',
  title: 'Link a sign-in door',
  description:
    'Links the door a proof proved (an email address by its code or link, an X account by X sign-in) to you, so it signs in as you from then on. One address and one X account each: a newer one takes the place of the one before. 409 door_taken when it is linked to another principal; 422 naming proof when the proof is unknown, used or past its 15 minutes.',
  input: z.object({ proof: z.string().min(1).max(200).describe('the proof the door answered') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: 'session',
  surface: 'rest',
  output: answer({ doors: DoorsList }),
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/me/doors', errors: [409] },
  async run(ctx, { proof }) {
    const link = await linkProof(ctx, proof, ctx.principal.id);
    ctx.log.info('door_linked', { door: link.door, name: ctx.principal.name });
    return { ok: true, doors: doorsOf(ctx, ctx.principal.id) };
  },
});

export const doorUnlink = defineTool({
  name: 'door_unlink',
  title: 'Unlink a sign-in door',
  description: 'Unlinks your email address or X account: it signs in as you no longer (sessions it opened stay until they end or you rotate your key). 404 when none is linked.',
  input: z.object({ door: DoorKindSchema.describe('email or x') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: 'session',
  surface: 'rest',
  output: answer({ doors: DoorsList }),
  toolset: TOOLSETS.identity,
  rest: { method: 'DELETE', path: '/me/doors', errors: [404] },
  async run(ctx, { door }) {
    const gone = await ctx.store.doors.update(ctx.clock(), (d) => {
      const found = Object.entries(d.links).find(([, l]) => l.principal_id === ctx.principal.id && l.door === door);
      if (found) delete d.links[found[0]];
      return found !== undefined;
    });
    if (!gone) throw new DeckError(404, 'not_found', `no ${door} door is linked to you`, { field: 'door' });
    return { ok: true, doors: doorsOf(ctx, ctx.principal.id) };
  },
});
