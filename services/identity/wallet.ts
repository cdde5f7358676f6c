import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { walletMessage } from '../../engine/plans/messages.js';
import { walletStatusOf } from '../../store/accounts.js';
import type { Ctx } from '../context.js';
import type { Principal } from '../../core/principal.js';
import { answer } from '../schemas.js';

/** How long a challenge is taken after it is issued: long enough to sign on a hardware wallet, short enough to be fresh. */
export const CHALLENGE_TTL_MS = 15 * 60_000;
const MAC_BYTES = 16;

/**
 * A nonce is the moment it was issued (8 bytes) and a MAC over it and the principal (16 bytes of HMAC-SHA256 under the
 * deck's secret salt), in base64url: the deck needs to keep nothing to know its own nonces, any deck of a shared store
 * knows them too, and a nonce issued to one principal is refused for another. That each is taken once is kept with the
 * proof (a later proof must sign a later challenge).
 */
export const Nonce = z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'the nonce GET /me/wallet gave: 32 characters of base64url');

const macOf = (salt: string, principalId: string, issued: number): Buffer =>
  createHmac('sha256', salt).update(`wallet-proof|${principalId}|${issued}`).digest().subarray(0, MAC_BYTES);

/** The deck's host as people reach it: what a wallet signs, so a proof made for one deck proves nothing at another. */
const hostOf = (ctx: Pick<Ctx, 'urls'>): string => new URL(ctx.urls.base).host;

/** The text a wallet signs to answer the challenge issued at `issued`, and when that challenge stops being taken. */
function challengeAt(ctx: Pick<Ctx, 'urls' | 'store'>, p: Pick<Principal, 'id' | 'agent_id'>, issued: number) {
  const head = Buffer.alloc(8);
  head.writeBigUInt64BE(BigInt(issued));
  const nonce = Buffer.concat([head, macOf(ctx.store.salt, p.id, issued)]).toString('base64url');
  const expires_at = new Date(issued + CHALLENGE_TTL_MS).toISOString();
  return { message: walletMessage(hostOf(ctx), p.agent_id, nonce, expires_at), nonce, expires_at };
}

/** A fresh challenge for the principal. */
export const challengeFor = (ctx: Pick<Ctx, 'urls' | 'store' | 'clock'>, p: Pick<Principal, 'id' | 'agent_id'>) => challengeAt(ctx, p, ctx.clock());

/**
 * The challenge a nonce answers, when the deck issued it to this principal and it is still taken; else why not, in
 * words for the caller.
 */
export function challengeOf(
  ctx: Pick<Ctx, 'urls' | 'store' | 'clock'>,
  p: Pick<Principal, 'id' | 'agent_id'>,
  nonce: string,
): { refused: string } | { issued: number; message: string } {
  const bytes = Buffer.from(nonce, 'base64url');
  const issued = Number(bytes.readBigUInt64BE(0));
  if (!timingSafeEqual(bytes.subarray(8), macOf(ctx.store.salt, p.id, issued))) {
    return { refused: 'is not one the deck issued to you' };
  }
  if (ctx.clock() >= issued + CHALLENGE_TTL_MS) return { refused: `expired at ${new Date(issued + CHALLENGE_TTL_MS).toISOString()}` };
  return { issued, message: challengeAt(ctx, p, issued).message };
}

const Challenge = z
  .object({
    message: z.string().describe('the exact text to sign with the wallet (EIP-191, personal_sign)'),
    nonce: z.string().describe('send it back with the signature; taken once'),
    expires_at: z.iso.datetime().describe('after this the challenge is refused: ask for a fresh one'),
  })
  .describe('a fresh challenge: sign its message with the wallet and send it to POST /me/wallet');

export const WalletStatusShown = z.enum(['unproven', 'proven']).nullable().describe('unproven: named at join, counts for nothing until its own signature proves it; null: no wallet');

/** Where a principal's wallet stands, with a fresh challenge to prove one: what both wallet tools answer. */
export const WalletAnswer = answer({
  wallet: z.string().nullable().describe('your wallet, checksummed: the one named at join, or the last one proven'),
  wallet_status: WalletStatusShown,
  proven_at: z.iso.datetime().nullable().describe('when it was proven'),
  challenge: Challenge,
});

export function walletView(ctx: Pick<Ctx, 'urls' | 'store' | 'clock'>, p: Pick<Principal, 'id' | 'agent_id'>): z.infer<typeof WalletAnswer> {
  const account = ctx.store.accounts.byId(p.id)!;
  const status = walletStatusOf(account);
  return {
    ok: true,
    wallet: account.wallet,
    wallet_status: status,
    proven_at: status === 'proven' ? new Date(account.wallet_proof!.proven_at).toISOString() : null,
    challenge: challengeFor(ctx, p),
  };
}
