import { digest } from '../../upstream/identity/keys.js';
import { badInput, DeckError } from '../../core/errors.js';
import type { DoorLink, DoorProof } from '../../store/doors.js';
import type { Ctx } from '../context.js';

const refused = (field: string) => badInput([{ field, message: 'not a live proof: unknown, used or over its 15 minutes; prove the door again' }]);

/** A proof presented, checked (live) but not spent: 422 naming `field` otherwise. */
export function proofOf(ctx: Pick<Ctx, 'store' | 'clock'>, proof: string, field = 'proof'): DoorProof {
  const p = ctx.store.doors.data.proofs[digest(proof)];
  if (!p || p.expires_at <= ctx.clock()) throw refused(field);
  return p;
}

/**
 * Links the door a proof proved to a principal and spends the proof, in one write. A principal keeps one door of each
 * kind: a newer email address (or X account) takes the place of the one before. A door linked to another principal that
 * still exists is 409 door_taken (its owner unlinks it first); a link left by a join cut before its commit names no
 * account and is taken over.
 */
export function linkProof(ctx: Pick<Ctx, 'store' | 'clock'>, proof: string, principalId: string, field = 'proof'): Promise<DoorLink> {
  const now = ctx.clock();
  return ctx.store.doors.update(now, (d) => {
    const p = d.proofs[digest(proof)];
    if (!p) throw refused(field);
    const held = d.links[p.key];
    if (held && held.principal_id !== principalId && ctx.store.accounts.byId(held.principal_id)) {
      throw new DeckError(409, 'door_taken', `${p.label} is linked to another principal: it signs in as that one`, { field, door: p.door });
    }
    for (const [k, l] of Object.entries(d.links)) if (l.principal_id === principalId && l.door === p.door) delete d.links[k];
    const link: DoorLink = { principal_id: principalId, door: p.door, label: p.label, linked_at: now };
    d.links[p.key] = link;
    delete d.proofs[digest(proof)];
    return link;
  });
}

/** The doors linked to a principal, as it sees them. */
export const doorsOf = (ctx: Pick<Ctx, 'store'>, principalId: string) =>
  Object.values(ctx.store.doors.data.links)
    .filter((l) => l.principal_id === principalId)
    .map((l) => ({ door: l.door, label: l.label, linked_at: new Date(l.linked_at).toISOString() }))
    .sort((a, b) => a.door.localeCompare(b.door));
