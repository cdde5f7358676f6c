import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readRule } from '../../engine/reader/read.js';
import { PARTS, type Part, type PartName } from '../../engine/reader/schema.js';

/**
 * The reader's corpora and their score. The corpus (test/fixtures/rules/*.json) is what the reader is developed
 * against and is held to exactly; the held-out rules (test/fixtures/rules/held-out/) are never tuned on and are
 * scored: parts read as written, whole rules read as written, and guesses (a part read to a value the words do not
 * give, where the hand-written reading has another value or none). Run as a script, it prints both scores:
 *   npx tsx test/support/reader-score.ts
 */

export interface Expected {
  status: string;
  value?: unknown;
  readings?: unknown[];
  defaults?: unknown[];
}
export interface CorpusRule {
  where: string;
  text: string;
  expect: Record<PartName, Expected>;
}

const RULES = new URL('../fixtures/rules/', import.meta.url);
export const CORPUS = RULES;
export const HELD_OUT = new URL('held-out/', RULES);
export const FRESH = new URL('fresh/', RULES);

/** Every rule of the folder's JSON files, in file order. */
export function rulesIn(dir: URL): CorpusRule[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) =>
      (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Omit<CorpusRule, 'where'>[]).map((rule, i) => ({ where: `${f}#${i}`, ...rule })),
    );
}

/** A part as the corpus writes it: status, the value of a part that has one, readings, the defaults it took. */
export function shown(p: Part<unknown>): Expected {
  const valued = p.value !== null && p.value !== undefined;
  const extra = p as Part<unknown> & { defaults?: unknown[] };
  return {
    status: p.status,
    ...(valued ? { value: p.value } : {}),
    ...(p.status === 'ambiguous' ? { readings: p.readings!.map((r) => r.value) } : {}),
    ...(extra.defaults !== undefined ? { defaults: extra.defaults } : {}),
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(canon(a)) === JSON.stringify(canon(b));
function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])]));
}

export interface Score {
  rules: number;
  parts: number;
  /** Parts read exactly as written by hand. */
  right: number;
  /** Rules whose seven parts are all right. */
  whole: number;
  /** Parts given a value the hand-written reading does not hold. */
  guessed: { where: string; part: PartName }[];
}

export function score(rules: readonly CorpusRule[]): Score {
  let right = 0;
  let whole = 0;
  const guessed: Score['guessed'] = [];
  for (const rule of rules) {
    const reading = readRule(rule.text);
    let all = true;
    for (const p of PARTS) {
      const got = shown(reading[p] as Part<unknown>);
      if (same(got, rule.expect[p])) right++;
      else {
        all = false;
        if (got.value !== undefined) guessed.push({ where: rule.where, part: p });
      }
    }
    if (all) whole++;
  }
  return { rules: rules.length, parts: rules.length * PARTS.length, right, whole, guessed };
}

const pct = (k: number, n: number): string => `${((100 * k) / n).toFixed(1)}%`;
export const line = (name: string, s: Score): string =>
  `${name}: ${s.right}/${s.parts} parts (${pct(s.right, s.parts)}), ${s.whole}/${s.rules} rules whole (${pct(s.whole, s.rules)}), ${s.guessed.length} parts guessed`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [name, dir] of [['corpus', CORPUS], ['held-out', HELD_OUT], ['fresh', FRESH]] as const) {
    const s = score(rulesIn(dir));
    console.log(line(name, s));
    for (const g of s.guessed) console.log(`  guessed ${g.part} in ${g.where}`);
  }
}
