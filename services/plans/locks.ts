import type { PlansFile } from '../../config/files.js';
import type { Tier } from '../../core/principal.js';

/** Tier locks: the lowest tier that opens each locked tool, by name. A tool not named opens to every session. */
export type Locks = ReadonlyMap<string, Tier>;

/**
 * The plans file's tier locks (`tier_tools`), held to the registry: a name no tool has, or a tool that needs no key
 * (it answers callers who have no tier), fails start-up naming it.
 */
export function locksOf(plans: Pick<PlansFile, 'tier_tools'>, tools: readonly { name: string; access: string }[]): Locks {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const locks = new Map<string, Tier>();
  for (const [tier, names] of Object.entries(plans.tier_tools) as [Tier, string[]][]) {
    for (const name of names) {
      const tool = byName.get(name);
      if (!tool) throw new Error(`plans file: tier_tools.${tier} names ${name}, which is not a tool`);
      if (tool.access === 'none') throw new Error(`plans file: tier_tools.${tier} names ${name}, which needs no key: a tier cannot lock it`);
      locks.set(name, tier);
    }
  }
  return locks;
}
