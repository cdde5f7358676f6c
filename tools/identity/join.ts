import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { secondsToNextUtcDay, utcDay } from '../../store/spend.js';
import { defineTool } from '../define.js';
import { badInput, DeckError, limitReached } from '../errors.js';
import { clientOf } from './client.js';
import { Name, Wallet } from './name-rule.js';

export const join = defineTool({
  name: 'join',
  title: 'Join',
  description:
    'Mints a principal and its key at the identity door. The key is shown once, in this answer, and never again: the deck keeps only its digest. A person does this, in a browser at the join page or with curl; never a server or an agent.',
  input: z.object({ name: Name, wallet: Wallet.nullable().optional() }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: 'none',
  surface: 'rest',
  rest: { method: 'POST', path: '/join', status: 201, errors: [409, 429, 502, 503] },
  async run(ctx, { name, wallet }) {
    if (ctx.config.reservedNames.has(name)) throw badInput([{ field: 'name', message: 'reserved for the house' }]);
    if (ctx.store.accounts.byName(name)) throw new DeckError(409, 'name_taken', `the name ${name} is taken`, { field: 'name' });
    const now = ctx.clock();
    const day = utcDay(now);
    const client = clientOf(ctx, ctx.caller);
    const { joinPerClient: perClient, joinPerDay: perDay } = ctx.config;
    const admit = (n: { total: number; client: number }) => {
      if (n.client >= perClient) throw limitReached('join_limit', `at most ${perClient} principals a day from one client`, secondsToNextUtcDay(now));
      if (n.total >= perDay) throw limitReached('join_limit', `at most ${perDay} principals a day for everyone`, secondsToNextUtcDay(now));
    };
    // The count is taken first so two joins at once cannot both pass the limit; when the door refuses or
    // cannot be reached the count is given back, so nothing is recorded.
    await ctx.store.joins.take(day, client, admit);
    const minted = await ctx.upstreams.door.mint({ name, wallet: wallet ?? null }).catch(async (error: unknown) => {
      await ctx.store.joins.release(day, client);
      throw error;
    });
    const { principal, key } = minted;
    const account = {
      id: principal.id,
      name: principal.name,
      agent_id: `agent_${randomBytes(8).toString('hex')}`,
      wallet: principal.wallet,
      key_gen: 1,
      created_at: ctx.clock(),
    };
    await ctx.store.accounts.put(account);
    ctx.log.info('join', { name: account.name, agent_id: account.agent_id });
    return {
      ok: true,
      principal: { name: account.name, agent_id: account.agent_id, wallet: account.wallet },
      key,
      shown_once: true,
      next: `sign in: POST ${ctx.urls.base}/login with { "key": "<your key>" }`,
    };
  },
});
