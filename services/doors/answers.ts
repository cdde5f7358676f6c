import { z } from 'zod';
import { answer } from '../schemas.js';

export const DoorKindSchema = z.enum(['email', 'x']);

/** What a proved door answers: signed in, or a proof to join or link with. */
export const ProvedAnswer = answer({
  signed_in: z.boolean().describe('true: signed in as the principal the door is linked to (the deck_session cookie is set)'),
  door: DoorKindSchema,
  label: z.string().describe('the door as the person sees it: the address masked, or @username'),
  name: z.string().optional().describe('signed in: the principal'),
  agent_id: z.string().optional(),
  expires_at: z.iso.datetime().describe('when the session ends, or when the proof does'),
  proof: z.string().optional().describe('linked to no principal yet: join with it (POST /join { name, proof }) or, signed in, link it (POST /me/doors { proof }); 15 minutes, once'),
  next: z.string(),
  session: z.object({ token: z.string(), expires_at: z.number().int() }).optional().describe('the session, which REST moves into the deck_session cookie (never in the body)'),
});

/** The doors linked to a principal. */
export const DoorsList = z.array(z.strictObject({ door: DoorKindSchema, label: z.string(), linked_at: z.iso.datetime() }));
