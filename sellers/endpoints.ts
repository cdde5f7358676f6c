import type { Tool } from '../tools/define.js';
import { opens, TIERS, type Principal, type Tier } from '../tools/principal.js';
import { MCP_TOOLS } from '../tools/registry.js';
import { HOUSE_TOOLS, SELLERS, type Seller } from './sellers.js';

/** A tool as tools/list shows it, built once. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: boolean };
  _meta: { 'deck/access': string; 'deck/tier': Tier | null };
}

/** One MCP endpoint: the deck's own /mcp (every tool) or a seller's /mcp/{seller} (its filter). */
export interface McpEndpoint {
  id: string;
  name: string;
  path: string;
  tools: readonly Tool[];
  byName: ReadonlyMap<string, Tool>;
  /** tools/list per tier (and for anonymous callers), computed once: a tool locked above the tier is left out. */
  listings: ReadonlyMap<Tier | 'anonymous', readonly ToolListing[]>;
}

const listing = (t: Tool): ToolListing => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  annotations: { title: t.title, readOnlyHint: t.rest?.method === 'GET', openWorldHint: false },
  _meta: { 'deck/access': t.access, 'deck/tier': t.tier },
});

/** Builds an endpoint over a set of tools, with its tools/list per tier computed once. */
export function endpoint(id: string, name: string, path: string, tools: readonly Tool[]): McpEndpoint {
  const all = tools.map(listing);
  const listings = new Map<Tier | 'anonymous', ToolListing[]>([['anonymous', all.filter((l) => !l._meta['deck/tier'])]]);
  for (const tier of TIERS) listings.set(tier, all.filter((l) => !l._meta['deck/tier'] || opens(tier, l._meta['deck/tier'])));
  return { id, name, path, tools, byName: new Map(tools.map((t) => [t.name, t])), listings };
}

/** The tools a seller serves: its card's tools the registry holds, plus the house tools. */
export const sellerTools = (seller: Seller): Tool[] =>
  MCP_TOOLS.filter((t) => seller.tools.includes(t.name) || (HOUSE_TOOLS as readonly string[]).includes(t.name));

export const DECK_ENDPOINT = endpoint('deck', 'the deck', '/mcp', MCP_TOOLS);

export const SELLER_ENDPOINTS: ReadonlyMap<string, McpEndpoint> = new Map(
  SELLERS.map((s) => [s.id, endpoint(s.id, s.name, `/mcp/${s.id}`, sellerTools(s))]),
);

/** Which of an endpoint's listings a caller sees: its tier's, or the anonymous one. */
export const listedAs = (principal: Principal | null): Tier | 'anonymous' => (principal ? principal.tier : 'anonymous');

export const listingFor = (e: McpEndpoint, principal: Principal | null): readonly ToolListing[] => e.listings.get(listedAs(principal)) ?? [];
