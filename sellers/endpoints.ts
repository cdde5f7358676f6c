import type { Tool, ToolAnnotations } from '../tools/define.js';
import { opens, TIERS, type Principal, type Tier } from '../core/principal.js';
import type { Locks } from '../services/plans/locks.js';
import { MCP_TOOLS, type ToolName } from '../tools/registry.js';
import { HOUSE_TOOLS, SELLERS, type Seller } from '../config/sellers.js';
import { DEFAULT_TOOLSETS, toolsetsOf } from './toolsets.js';
import type { ArgumentBounds } from './json-rpc.js';
import { TOOL_INPUT_BOUNDS } from '../core/json-bounds.js';
import { appMeta } from './app/resource.js';
import { TASK_TOOLS } from './task-tools.js';

/** A tool as tools/list shows it, built once. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  /** The answer's outline: its top-level fields and their types (OpenAPI keeps the whole). */
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: ToolAnnotations & { title: string };
  /** A tool that may take seconds to minutes runs as a task when the client asks (2025-11-25 tasks). */
  execution?: { taskSupport: 'optional' };
  /** With the MCP App that draws its result, for a tool that opens one (appMeta). */
  _meta: { 'deck/access': string; 'deck/tier': Tier | null } & ReturnType<typeof appMeta>;
}

/** One MCP endpoint: the deck's own /mcp (every tool) or a seller's /mcp/{seller} (its filter). */
export interface McpEndpoint {
  id: string;
  name: string;
  path: string;
  tools: readonly Tool[];
  byName: ReadonlyMap<string, Tool>;
  /** Its tools by toolset; tools/list shows the toolsets a client names (?toolsets=), every tool stays callable. */
  toolsets: ReadonlyMap<string, readonly string[]>;
  /** The toolsets a bare URL lists. */
  defaults: readonly string[];
  /** The tier locks its listings follow (the plans file's tier_tools): the lowest tier that opens each locked tool. */
  locks: Locks;
  /** tools/list per tier (and for anonymous callers), computed once: a tool locked above the tier is left out. */
  listings: ReadonlyMap<Tier | 'anonymous', readonly ToolListing[]>;
  /** What a tools/call's arguments may hold: its tool's bounds (a name it does not serve: a tool input's). */
  argumentBounds: ArgumentBounds;
}

const NO_LOCKS: Locks = new Map();

const listing = (t: Tool, locks: Locks): ToolListing => ({
  name: t.name,
  title: t.title,
  description: t.listedDescription,
  inputSchema: t.listedSchema,
  outputSchema: t.listedOutputSchema,
  annotations: { title: t.title, ...t.annotations },
  ...(TASK_TOOLS.has(t.name) ? { execution: { taskSupport: 'optional' as const } } : {}),
  _meta: { 'deck/access': t.access, 'deck/tier': locks.get(t.name) ?? null, ...appMeta(t.name) },
});

/**
 * Builds an endpoint over a set of tools, with its tools/list per tier computed once under the deck's tier locks (none
 * unless told). A bare URL lists the default toolsets (every toolset unless told).
 */
export function endpoint(id: string, name: string, path: string, tools: readonly Tool[], defaults?: readonly string[], locks: Locks = NO_LOCKS): McpEndpoint {
  const all = tools.map((t) => listing(t, locks));
  const listings = new Map<Tier | 'anonymous', ToolListing[]>([['anonymous', all.filter((l) => !l._meta['deck/tier'])]]);
  for (const tier of TIERS) listings.set(tier, all.filter((l) => !l._meta['deck/tier'] || opens(tier, l._meta['deck/tier'])));
  const toolsets = toolsetsOf(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const argumentBounds: ArgumentBounds = (tool) => (typeof tool === 'string' && byName.get(tool)?.bounds) || TOOL_INPUT_BOUNDS;
  return { id, name, path, tools, byName, locks, listings, toolsets, defaults: defaults ?? [...toolsets.keys()], argumentBounds };
}

/** The same endpoint as a deck serves it: its listings follow that deck's tier locks. */
export const lockedBy = (e: McpEndpoint, locks: Locks): McpEndpoint => endpoint(e.id, e.name, e.path, e.tools, e.defaults, locks);

/** A seller as its endpoint serves it: every tool it names is one the registry holds (a misspelled name fails the typecheck). */
export type ServedSeller = Seller<ToolName>;

/** The tools a seller serves: its card's tools, plus the house tools. */
const sellerTools = (seller: ServedSeller): Tool[] => {
  const names: readonly ToolName[] = [...seller.tools, ...HOUSE_TOOLS];
  return MCP_TOOLS.filter((t) => names.some((name) => name === t.name));
};

/** The endpoints as described (their tools and toolsets); a deck serves them lockedBy its plans file's tier locks. */
export const DECK_ENDPOINT = endpoint('deck', 'the deck', '/mcp', MCP_TOOLS, DEFAULT_TOOLSETS);

export const SELLER_ENDPOINTS: ReadonlyMap<string, McpEndpoint> = new Map(
  SELLERS.map((s) => [s.id, endpoint(s.id, s.name, `/mcp/${s.id}`, sellerTools(s))]),
);

/** Which of an endpoint's listings a caller sees: its tier's, or the anonymous one. */
export const listedAs = (principal: Principal | null): Tier | 'anonymous' => (principal ? principal.tier : 'anonymous');

/** tools/list for a tier: what it opens, of the toolsets asked for (the endpoint's default unless told). */
export const listingOf = (e: McpEndpoint, tier: Tier | 'anonymous', toolsets: ReadonlySet<string> = new Set(e.defaults)): readonly ToolListing[] =>
  (e.listings.get(tier) ?? []).filter((l) => toolsets.has(e.byName.get(l.name)!.toolset.id));

/** tools/list for a caller: what its tier opens, of the toolsets it asked for. */
export const listingFor = (e: McpEndpoint, principal: Principal | null, toolsets?: ReadonlySet<string>): readonly ToolListing[] =>
  listingOf(e, listedAs(principal), toolsets);

/** The paths of the endpoints that serve a tool, /mcp first; none for a name the deck does not have. */
export const servedOn = (name: string): string[] => [DECK_ENDPOINT, ...SELLER_ENDPOINTS.values()].filter((e) => e.byName.has(name)).map((e) => e.path);

/** What a tools/call of a name an endpoint does not serve is told: where it is served, or that the deck has no such tool. */
export function unknownToolMessage(e: McpEndpoint, name: string): string {
  const where = servedOn(name);
  const pointer = where.length ? `${name} is on ${where.join(' and ')}` : `the deck has no tool ${name}; catalogue lists each seller's tools`;
  return `unknown tool ${name} on ${e.path}; ${pointer}`;
}
