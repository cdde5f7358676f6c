import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../tools/define.js';
import { REGISTRY } from '../tools/registry.js';

// One file per tool, named after it (a tool's read and its list, or a read and its set, may share the file of one of
// them); what an area's tools share that is not a tool lives in the area's lib/.
const TOOLS = join(import.meta.dirname, '..', 'tools');

describe('the tools folder', () => {
  it('holds in each area only files named after a tool they define, the rest in lib/', async () => {
    const astray: string[] = [];
    for (const area of (await readdir(TOOLS, { withFileTypes: true })).filter((d) => d.isDirectory())) {
      for (const file of (await readdir(join(TOOLS, area.name))).filter((f) => f.endsWith('.ts'))) {
        const exported = Object.values((await import(join(TOOLS, area.name, file))) as Record<string, unknown>);
        const names = REGISTRY.filter((t: Tool) => exported.includes(t)).map((t) => t.name.replaceAll('_', '-'));
        if (!names.includes(file.replace(/\.ts$/, ''))) astray.push(`tools/${area.name}/${file} (defines ${names.join(', ') || 'no tool'})`);
      }
    }
    expect(astray).toEqual([]);
  });
});
