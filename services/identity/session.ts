import { digest } from '../../upstream/identity/keys.js';
import type { Ctx } from '../context.js';
import { newSessionToken } from './credentials.js';

/** A session opened for a principal: the token (kept by the deck only as its digest) and when it ends. */
export interface Opened {
  token: string;
  expires_at: number;
}

/**
 * Opens a session for an account at the key generation it has now (a rotation ends it): the one way every door, the
 * key at login and the email and X doors alike, signs a person in.
 */
export async function openSession(ctx: Pick<Ctx, 'clock' | 'config' | 'store'>, account: { id: string; key_gen: number }): Promise<Opened> {
  const now = ctx.clock();
  const token = newSessionToken();
  const expires_at = now + ctx.config.sessionHours * 3_600_000;
  await ctx.store.sessions.add(digest(token), { principal_id: account.id, key_gen: account.key_gen, expires_at }, now);
  return { token, expires_at };
}
