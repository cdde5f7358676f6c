import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { HOUSE_WIDE } from '../../store/backend.js';
import { secondsToNextUtcDay, utcDay } from '../../store/spend.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput, DeckError, limitReached } from '../../core/errors.js';
import { linkProof, proofOf } from '../../services/doors/link.js';
import { clientOf } from '../../services/identity/client.js';
import { Name, Wallet } from '../../services/identity/name-rule.js';
import { answer } from '../../services/schemas.js';

export const join = defineTool({
  name: 'join',
  title: 'Join',
  description:
    'Mints a principal and its key at the identity door. The key is shown once, in this answer, and never again: the deck keeps only its digest. A person does this, in a browser at the join page or with curl; never a server or an agent. With the proof an email or X sign-in gave, the new principal is linked to that door (422 naming proof when it is not live; 409 door_taken when another principal took the door meanwhile).',
  input: z
    .object({
      name: Name,
      wallet: Wallet.nullable().optional(),
      proof: z.string().min(1).max(200).optional().describe('a proof an email or X sign-in gave: the new principal is linked to that door'),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: 'none',
  surface: 'rest',
  output: answer({
    principal: z.object({
      name: z.string(),
      agent_id: z.string(),
      wallet: z.string().nullable(),
      wallet_status: z.enum(['unproven']).nullable().describe('a wallet named at join is unproven until its own signature proves it (POST /me/wallet)'),
    }),
    key: z.string().describe('the key, shown once, in this answer, and never again'),
    shown_once: z.literal(true),
    next: z.string().describe('how to sign in'),
  }),
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/join', status: 201, errors: [409, 429, 502, 503] },
  async run(ctx, { name, wallet, proof }) {
    if (ctx.config.reservedNames.has(name)) throw badInput([{ field: 'name', message: 'reserved for the house' }]);
    if (proof !== undefined) proofOf(ctx, proof);
    if (ctx.store.accounts.byName(name)) throw new DeckError(409, 'name_taken', `the name ${name} is taken`, { field: 'name' });
    const now = ctx.clock();
    const day = utcDay(now);
    const client = clientOf(ctx, ctx.caller);
    const { joinPerClient: perClient, joinPerDay: perDay } = ctx.config;
    const admit = (n: { total: number; client: number }) => {
      if (perClient !== null && n.client >= perClient) throw limitReached('join_limit', `at most ${perClient} principals a day from one client`, secondsToNextUtcDay(now));
      if (n.total >= perDay) throw limitReached('join_limit', `at most ${perDay} principals a day for everyone`, secondsToNextUtcDay(now));
    };
    // The account's write is the join's commit, and counts it: a join refused by the door, or cut by a crash
    // before that write, counts nothing (the embedded door forgets its half at the next start). Joins take turns,
    // one at a time for the whole house (the join guard, across the decks of a shared store), each reading the
    // counts every deck recorded before its turn: joins at once cannot pass the limits together.
    return ctx.guards.run('join', HOUSE_WIDE, async () => {
      await ctx.store.backend.catchUp();
      if (ctx.store.accounts.byName(name)) throw new DeckError(409, 'name_taken', `the name ${name} is taken`, { field: 'name' });
      admit(ctx.store.accounts.joinsOn(day, client));
      const { principal, key } = await ctx.upstreams.door.mint({ name, wallet: wallet ?? null });
      // The door's link is written before the account's commit: a join cut between the two leaves a link to no account,
      // which counts for nothing and is taken over by the next link of that door.
      if (proof !== undefined) await linkProof(ctx, proof, principal.id);
      const account = await ctx.store.accounts.join(
        { id: principal.id, name: principal.name, agent_id: `agent_${randomBytes(8).toString('hex')}`, wallet: principal.wallet, key_gen: 1, created_at: ctx.clock() },
        day,
        client,
      );
      ctx.log.info('join', { name: account.name, agent_id: account.agent_id });
      return {
        ok: true,
        principal: { name: account.name, agent_id: account.agent_id, wallet: account.wallet, wallet_status: account.wallet ? ('unproven' as const) : null },
        key,
        shown_once: true,
        next: `sign in: POST ${ctx.urls.base}/login with { "key": "<your key>" }`,
      };
    });
  },
});
