import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../config/root.js';

/**
 * The skill bank: short markdown documents under skills/ at the project root, one per skill, each opening with a
 * front matter of its id (the file's name), title, summary and the tools it uses:
 *
 *   ---
 *   id: backtest
 *   title: Rehearse a forged rule over the real tape
 *   summary: One sentence an agent reads in the list.
 *   tools: rehearse, forge_trial
 *   ---
 *
 * They are read and checked once, when this module loads at start: a document that does not pass fails start-up
 * with its file named.
 */
const FrontMatter = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]{1,47}$/, '2 to 48 of a-z, 0-9 and -, starting with a letter'),
  title: z.string().min(1).max(100),
  summary: z.string().min(1).max(300),
  tools: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/, 'a tool name')).min(1, 'names no tool'),
});

export interface Skill {
  id: string;
  title: string;
  summary: string;
  tools: string[];
  /** The document's markdown after its front matter. */
  text: string;
}

const FENCE = '---';

/** One document: its front matter (key: value lines between two --- lines; tools comma-separated) and its text. */
export function skillOf(file: string, raw: string): Skill {
  const fail = (why: string) => new Error(`skill ${file}: ${why}`);
  const lines = raw.replace(/\r\n/g, '\n').split('\n');
  const end = lines.indexOf(FENCE, 1);
  if (lines[0] !== FENCE || end < 0) throw fail('it must open with a front matter between two --- lines');
  const fields: Record<string, string> = {};
  for (const line of lines.slice(1, end)) {
    const m = /^([a-z]+):\s*(.*)$/.exec(line);
    if (!m) throw fail(`front matter line "${line}" is not "key: value"`);
    if (Object.hasOwn(fields, m[1]!)) throw fail(`front matter names ${m[1]} twice`);
    fields[m[1]!] = m[2]!.trim();
  }
  const tools = fields.tools === undefined ? undefined : fields.tools.split(',').map((t) => t.trim()).filter(Boolean);
  const parsed = FrontMatter.safeParse({ ...fields, ...(tools ? { tools } : {}) });
  if (!parsed.success) throw fail(parsed.error.issues.map((i) => `${i.path.join('.') || 'front matter'}: ${i.message}`).join('; '));
  const named = basename(file, '.md');
  if (parsed.data.id !== named) throw fail(`id ${parsed.data.id} is not the file's name (${named})`);
  const text = lines.slice(end + 1).join('\n').trim();
  if (!text) throw fail('it has no text after its front matter');
  return { ...parsed.data, text: `${text}\n` };
}

/** Every document of a folder, by id. */
export function loadSkills(dir: string): readonly Skill[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
  if (files.length === 0) throw new Error(`skill bank ${dir}: no .md documents`);
  return files.map((f) => skillOf(join(dir, f), readFileSync(join(dir, f), 'utf8')));
}

export const SKILLS: readonly Skill[] = loadSkills(join(PROJECT_ROOT, 'skills'));

export const skillById = (id: string): Skill | null => SKILLS.find((s) => s.id === id) ?? null;
