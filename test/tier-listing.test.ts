import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadPlans } from '../config/files.js';
import { endpoint, listingFor } from '../sellers/endpoints.js';
import { defineTool } from '../tools/define.js';
import type { Principal, Tier } from '../core/principal.js';

// The listing rule on the endpoint builder the MCP servers use, with tools made for the test, one per tier (the
// registry's follow_quote, on the max tier, is held to it over MCP in copy.test.ts).
const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const tool = (name: string, tier?: Tier) =>
  defineTool({ name, title: name, description: name, input: z.object({}), annotations: READS, access: 'session', toolset: 'test', output: z.object({ ok: z.literal(true) }), ...(tier ? { tier } : {}), run: async () => ({ ok: true as const }) });

const e = endpoint('test', 'test', '/mcp/test', [tool('open'), tool('planned', 'plan'), tool('maxed', 'max'), tool('housed', 'house')]);
const as = (tier: Tier): Principal => ({ id: 'p', name: 'p', agent_id: 'a', wallet: null, wallet_status: null, tier, via: 'session' });
const names = (p: Principal | null) => listingFor(e, p).map((l) => l.name);

describe('tools/list shows what the caller tier opens', () => {
  it('shows an anonymous caller the tools no tier locks', () => {
    expect(names(null)).toEqual(['open']);
  });

  it('opens each tier and everything below it', () => {
    expect(names(as('free'))).toEqual(['open']);
    expect(names(as('plan'))).toEqual(['open', 'planned']);
    expect(names(as('max'))).toEqual(['open', 'planned', 'maxed']);
    expect(names(as('house'))).toEqual(['open', 'planned', 'maxed', 'housed']);
  });

  it('answers upgrade_required naming the tier when a locked tool is called', async () => {
    const maxed = e.byName.get('maxed')!;
    const ctx = { principal: as('plan'), offer: { plans: loadPlans('config/plans.json') }, config: { treasury: null } };
    await expect(maxed.call(ctx as never, {})).rejects.toMatchObject({ status: 403, code: 'upgrade_required', details: { tier: 'max', buy: { plan: 'premium-99' } } });
  });
});
