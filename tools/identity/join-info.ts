import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { NAME_RULE, WALLET_RULE } from '../../services/identity/name-rule.js';
import { answer } from '../../services/schemas.js';

export const joinInfo = defineTool({
  name: 'join_info',
  title: 'How to join',
  description: 'The rules of joining: the daily limits, the name rule and the wallet rule.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  surface: 'rest',
  output: answer({
    limits: z.object({
      per_client_per_day: z.number().int().nullable().describe('principals minted per client per UTC day; null: no per-client limit (a deck only its own machine reaches, DECK_PROFILE=local)'),
      everyone_per_day: z.number().int(),
    }),
    name_rule: z.string(),
    wallet: z.string().describe('the wallet rule'),
    join_url: z.string(),
  }),
  toolset: TOOLSETS.identity,
  rest: { method: 'GET', path: '/join' },
  async run(ctx) {
    return {
      ok: true,
      limits: { per_client_per_day: ctx.config.joinPerClient, everyone_per_day: ctx.config.joinPerDay },
      name_rule: NAME_RULE,
      wallet: WALLET_RULE,
      join_url: ctx.urls.join,
    };
  },
});
