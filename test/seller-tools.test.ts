import { describe, expect, it } from 'vitest';
import { HOUSE_TOOLS, SELLERS } from '../config/sellers.js';
import type { ServedSeller } from '../sellers/endpoints.js';
import { REGISTRY } from '../tools/registry.js';

// A seller's tools are named by the registry's own names: a misspelled one fails the typecheck (npm run typecheck),
// before any deck starts.

/** A seller's list with a name the registry does not hold: the type refuses it. */
export const misspelled: ServedSeller['tools'] = [
  'forge',
  // @ts-expect-error no tool is named rehearsal (the tool is rehearse)
  'rehearsal',
];

describe("the sellers' tools", () => {
  it('are all registered tools that reach MCP, the house tools among every endpoint', () => {
    const mcp = new Map(REGISTRY.map((t) => [t.name, t.surface]));
    for (const name of [...HOUSE_TOOLS, ...SELLERS.flatMap((s) => s.tools)]) expect(mcp.get(name), name).toBe('both');
  });
});
