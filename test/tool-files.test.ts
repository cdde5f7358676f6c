import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../tools/define.js';
import { REGISTRY } from '../tools/registry.js';
import { TOOLSETS, type Toolset } from '../tools/toolsets.js';

// One file per tool, named after it (a tool's read and its list, or a read and its set, may share the file of one of
// them), in the folder of its toolset; what tools share that is not a tool lives in services/.
const TOOLS = join(import.meta.dirname, '..', 'tools');

describe('the tools folder', () => {
  it('holds in each area only files named after a tool they define, of the toolset the folder is named after', async () => {
    const astray: string[] = [];
    for (const area of (await readdir(TOOLS, { withFileTypes: true })).filter((d) => d.isDirectory())) {
      for (const file of (await readdir(join(TOOLS, area.name))).filter((f) => f.endsWith('.ts'))) {
        const exported = Object.values((await import(join(TOOLS, area.name, file))) as Record<string, unknown>);
        const names = REGISTRY.filter((t: Tool) => exported.includes(t)).map((t) => t.name.replaceAll('_', '-'));
        if (!names.includes(file.replace(/\.ts$/, ''))) astray.push(`tools/${area.name}/${file} (defines ${names.join(', ') || 'no tool'})`);
        for (const t of REGISTRY.filter((t: Tool) => exported.includes(t) && t.toolset.id !== area.name)) astray.push(`tools/${area.name}/${file}: ${t.name} is of the ${t.toolset.id} toolset`);
      }
    }
    expect(astray).toEqual([]);
  });

  it('has a tool in every toolset, each toolset one value the tools name', () => {
    const sets: readonly Toolset[] = Object.values(TOOLSETS);
    for (const set of sets) expect(REGISTRY.filter((t) => t.toolset === set).length, set.id).toBeGreaterThan(0);
    expect(REGISTRY.filter((t) => !sets.includes(t.toolset)).map((t) => t.name)).toEqual([]);
  });
});
