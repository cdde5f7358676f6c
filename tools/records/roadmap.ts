import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../config/root.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { RoadmapAnswer } from '../../services/records/answers.js';

/** The README's section that lists what the interface names and the deck does not serve yet. */
const SECTION = '## Not built yet';

/**
 * The items of the README's "Not built yet" list: each bullet (a line opening with "- ", with the indented lines that
 * continue it), in order. A README without the section, or with an empty list, stops start-up: the roadmap would lie.
 */
export function notBuiltOf(readme: string): string[] {
  const lines = readme.replace(/\r\n/g, '\n').split('\n');
  const start = lines.indexOf(SECTION);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section for the roadmap`);
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (line.startsWith('- ')) items.push(line.slice(2).trim());
    else if (/^\s+\S/.test(line) && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
  }
  if (items.length === 0) throw new Error(`README.md's "${SECTION}" section lists nothing`);
  return items;
}

const NOT_BUILT = notBuiltOf(readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8'));

export const roadmap = defineTool({
  name: 'roadmap',
  title: 'The roadmap',
  description:
    "What the deck serves and what it does not yet, generated so it cannot drift: serves is every tool of the registry by area (its REST route's tag, or mcp for a tool served to agents only), with its route and whether agents reach it over MCP; not_built is the README's \"Not built yet\" list as written, each item with the names it gives in backticks. Needs no key.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RoadmapAnswer,
  access: 'none',
  toolset: TOOLSETS.records,
  rest: { method: 'GET', path: '/records/roadmap' },
  async run(ctx) {
    const listed = ctx.offer.tools;
    const areas = [...new Set(listed.map((t) => t.area))].sort();
    return {
      ok: true,
      serves: areas.map((area) => ({ area, tools: listed.filter((t) => t.area === area).map(({ area: _, ...t }) => t) })),
      not_built: NOT_BUILT.map((item) => ({ item, names: [...item.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) })),
    };
  },
});
