import { z } from 'zod';
import { signerOf } from '../../engine/plans/messages.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { Wallet } from '../../services/identity/name-rule.js';
import { challengeOf, Nonce, walletView, WalletAnswer } from '../../services/identity/wallet.js';

const nonceRefused = (why: string) => new DeckError(422, 'nonce_refused', `the nonce ${why}: ask GET /me/wallet for a fresh challenge`, { field: 'nonce' });

export const walletProve = defineTool({
  name: 'wallet_prove',
  title: 'Prove a wallet',
  description:
    'Proves a wallet is yours by its signature of a challenge (wallet tool, GET /me/wallet: "the deck: wallet proof" with the deck\'s host, your agent_id, a nonce and its expiry). ' +
    'The wallet becomes your wallet, proven: a payment it sends binds to your plan claims without payer_signature_hex, and it opens your series. Each challenge is taken once, for 15 minutes. ' +
    'Refusals (422): wallet_unproven when the signature is not the wallet\'s (or was made for another challenge), nonce_refused when the nonce is not yours, has expired or was used.',
  input: z
    .object({
      wallet_hex: Wallet.describe('the wallet to prove'),
      nonce: Nonce,
      signature_hex: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'a 65-byte signature: 0x and 130 hex digits').describe("the wallet's personal signature of the challenge's message"),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: 'session',
  output: WalletAnswer,
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/me/wallet' },
  async run(ctx, input) {
    const p = ctx.principal;
    const challenge = challengeOf(ctx, p, input.nonce);
    if ('refused' in challenge) throw nonceRefused(challenge.refused);
    const signer = signerOf(challenge.message, input.signature_hex);
    if (signer !== input.wallet_hex) {
      throw new DeckError(422, 'wallet_unproven', `signature_hex was signed by ${signer ?? 'no address (it does not parse)'}, not by ${input.wallet_hex}, over the challenge's message`, {
        sign: challenge.message,
      });
    }
    await ctx.store.accounts.proveWallet(p.id, { wallet: signer, issued_at: challenge.issued, proven_at: ctx.clock() }, (kept) => {
      if (kept && kept.issued_at >= challenge.issued) throw nonceRefused('was used, or a later challenge was');
    });
    ctx.log.info('wallet_proven', { agent_id: p.agent_id, wallet: signer });
    return walletView(ctx, p);
  },
});
