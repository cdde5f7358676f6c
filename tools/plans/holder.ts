import { z } from 'zod';
import { holderMessage } from '../../engine/plans/messages.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { holderOf } from '../../services/plans/standing.js';
import { HolderStanding } from '../../services/plans/standing-schema.js';
import { answer } from '../../services/schemas.js';

export const holderState = defineTool({
  name: 'holder',
  title: 'Holder standing',
  description:
    "Your holder standing today: the wallet linked today, the NFTs of the operator's collection it held when linked, the allowance they add to your meter (allowance_per_nft x min(nfts, max_nfts)), used and remaining. " +
    'message is the exact text to sign today to link a wallet (POST /plans/holder).',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: answer({ holder: HolderStanding, message: z.string().describe('the exact text to sign today to link a wallet') }),
  toolset: TOOLSETS.plans,
  rest: { method: 'GET', path: '/plans/holder' },
  async run(ctx) {
    const p = ctx.principal;
    const holder = holderOf(ctx, p.id);
    return { ok: true, holder, message: holderMessage(p.agent_id, holder.day) };
  },
});
