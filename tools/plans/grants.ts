import { z } from 'zod';
import { defineTool, upgradeRequired } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { opens } from '../../core/principal.js';
import { meterOf, tierOf } from '../../services/plans/standing.js';
import { answer, flag } from '../../services/schemas.js';
import { Grant } from '../../config/files.js';
import { MeterView } from '../../services/plans/standing-schema.js';

export const grants = defineTool({
  name: 'grants',
  title: 'Grants',
  description:
    "Your grant (from the grants file under version control) and today's spend. all=1 lists every principal's grant and is house only. Read-only: granting is an operator's commit, never a call.",
  input: z.object({ all: flag.optional().describe('true: every grant (house only)') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: z.union([
    answer({ grant: Grant.nullable().describe('your grant, from the grants file'), today: MeterView }),
    answer({
      grants: z.array(Grant.extend({ joined: z.boolean(), today: MeterView.nullable().describe("the holder's meter today; null until the name joins") })).describe('all=1: every grant'),
    }),
  ]),
  toolset: TOOLSETS.plans,
  rest: { method: 'GET', path: '/grants', errors: [403] },
  async run(ctx, { all }) {
    const p = ctx.principal;
    if (!all) {
      const grant = ctx.offer.grants.find((g) => g.name === p.name) ?? null;
      return { ok: true as const, grant, today: meterOf(ctx, p) };
    }
    if (!opens(p.tier, 'house')) throw upgradeRequired(ctx, 'grants with all=1', 'house');
    const rows = ctx.offer.grants.map((g) => {
      const holder = ctx.store.accounts.byName(g.name);
      const today = holder ? meterOf(ctx, { id: holder.id, name: holder.name, tier: tierOf(ctx, holder) }) : null;
      return { ...g, joined: holder !== null, today };
    });
    return { ok: true as const, grants: rows };
  },
});
