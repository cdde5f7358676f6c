import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { walletView, WalletAnswer } from '../../services/identity/wallet.js';

export const wallet = defineTool({
  name: 'wallet',
  title: 'Your wallet',
  description:
    'Your wallet and where it stands: unproven (named at join; it counts for nothing) or proven by its own signature (a plan claim it paid binds to you without another signature; it opens your series as your wallet). ' +
    'challenge is a fresh one to prove a wallet: sign its message with the wallet (EIP-191 personal_sign) and send it with wallet_prove (POST /me/wallet) within 15 minutes.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: WalletAnswer,
  toolset: TOOLSETS.identity,
  rest: { method: 'GET', path: '/me/wallet' },
  async run(ctx) {
    return walletView(ctx, ctx.principal);
  },
});
