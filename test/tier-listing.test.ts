import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadPlans } from '../config/files.js';
import { endpoint, listingFor } from '../sellers/endpoints.js';
import { locksOf } from '../services/plans/locks.js';
import { defineTool } from '../tools/define.js';
import type { Principal, Tier } from '../core/principal.js';

// The listing rule on the endpoint builder the MCP servers use, with tools made for the test, one per tier (the
// registry's follow_quote, on the max tier, is held to it over MCP in copy.test.ts).
const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const tool = (name: string) =>
  defineTool({ name, title: name, description: name, input: z.object({}), annotations: READS, access: 'session', toolset: { id: 'test', default: false, description: 'tools made by a test' }, output: z.object({ ok: z.literal(true) }), run: async () => ({ ok: true as const }) });

const tools = [tool('open'), tool('planned'), tool('maxed'), tool('housed')];
// The tier locks as a plans file states them (tier_tools), held to these tools.
const locks = locksOf({ tier_tools: { plan: ['planned'], max: ['maxed'], house: ['housed'] } }, tools);
const e = endpoint('test', 'test', '/mcp/test', tools, undefined, locks);
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
    const ctx = { principal: as('plan'), offer: { plans: loadPlans('config/plans.json'), locks }, config: { treasury: null } };
    await expect(maxed.call(ctx as never, {})).rejects.toMatchObject({ status: 403, code: 'upgrade_required', details: { tier: 'max', buy: { plan: 'premium-99' } } });
  });
});

describe('the tier locks of a plans file', () => {
  it('are held to the registry at start: a name no tool has, or a keyless tool, is refused naming it', () => {
    const keyless = defineTool({ name: 'free_for_all', title: 'k', description: 'k', input: z.object({}), annotations: READS, access: 'none', toolset: { id: 'test', default: false, description: 'tools made by a test' }, output: z.object({ ok: z.literal(true) }), run: async () => ({ ok: true as const }) });
    expect(() => locksOf({ tier_tools: { plan: ['nothing'] } }, tools)).toThrow(/tier_tools.plan names nothing, which is not a tool/);
    expect(() => locksOf({ tier_tools: { max: ['free_for_all'] } }, [keyless])).toThrow(/needs no key/);
  });

  it('refuse a tool locked on two tiers when the file is read', async () => {
    const { mkdtemp, readFile, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const plans = JSON.parse(await readFile('config/plans.json', 'utf8'));
    const path = join(await mkdtemp(join(tmpdir(), 'deck-locks-')), 'plans.json');
    await writeFile(path, JSON.stringify({ ...plans, tier_tools: { plan: ['forecast'], max: ['forecast'] } }));
    expect(() => loadPlans(path)).toThrow(/tier_tools: a tool is locked on one tier at most/);
  });

  it('follow the contract in the shipped file: the forecast opens to every session, follow_quote on the max tier', () => {
    expect(loadPlans('config/plans.json').tier_tools).toEqual({ max: ['follow_quote'] });
  });
});
