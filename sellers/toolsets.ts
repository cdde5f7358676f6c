import type { Tool } from '../tools/define.js';
import { MCP_TOOLS } from '../tools/registry.js';

/**
 * The toolsets a bare /mcp lists, in registry order: those marked default (tools/toolsets.ts), the studio's own loop.
 */
export const DEFAULT_TOOLSETS: readonly string[] = [...new Set(MCP_TOOLS.filter((t) => t.toolset.default).map((t) => t.toolset.id))];

/** The words the toolsets parameter takes besides toolset names. */
const ALL = 'all';
const DEFAULT = 'default';

/** Toolset name → the names of its tools, in registry order. */
export function toolsetsOf(tools: readonly Tool[]): ReadonlyMap<string, readonly string[]> {
  const sets = new Map<string, string[]>();
  for (const t of tools) sets.set(t.toolset.id, [...(sets.get(t.toolset.id) ?? []), t.name]);
  return sets;
}

export type ToolsetChoice = { ok: true; toolsets: ReadonlySet<string> } | { ok: false; message: string };

/**
 * Reads the toolsets query parameter ("book,agent", repeated, "all" or "default" among names) against an endpoint's
 * toolsets; absent, it is the endpoint's default. A name the endpoint does not have is refused by name.
 */
export function chooseToolsets(raw: unknown, known: ReadonlyMap<string, readonly string[]>, defaults: readonly string[]): ToolsetChoice {
  if (raw === undefined) return { ok: true, toolsets: new Set(defaults) };
  const parts = (Array.isArray(raw) ? raw : [raw]).map((p) => (typeof p === 'string' ? p : null));
  if (parts.includes(null)) return { ok: false, message: 'toolsets: expected comma-separated toolset names' };
  const names = parts.flatMap((p) => p!.split(',')).map((n) => n.trim()).filter((n) => n !== '');
  const offered = `the toolsets are ${[...known.keys()].join(', ')}, or ${ALL} or ${DEFAULT}`;
  if (names.length === 0) return { ok: false, message: `toolsets: names no toolset; ${offered}` };
  const unknown = names.filter((n) => n !== ALL && n !== DEFAULT && !known.has(n));
  if (unknown.length) return { ok: false, message: `toolsets: unknown toolset ${unknown.map((n) => JSON.stringify(n)).join(', ')}; ${offered}` };
  const chosen = new Set<string>();
  for (const n of names) for (const set of n === ALL ? known.keys() : n === DEFAULT ? defaults : [n]) chosen.add(set);
  return { ok: true, toolsets: chosen };
}
