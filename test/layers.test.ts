import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The import rule: folders import only folders below them, in this order from the bottom; the entry points (deck.ts,
// main.ts, cli/) sit on top. test/ and bench/ may import anything, and nothing imports them.
const LAYERS = ['engine', 'core', 'config', 'store', 'upstream', 'services', 'tools', 'sellers', 'cards', 'rest'] as const;
const ENTRY = LAYERS.length;
const RULE = `folders import only folders below them: ${[...LAYERS, 'the entry points (deck.ts, main.ts, cli/)'].join(' -> ')}`;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** A unit test beside the code it tests (an engine test) is a test: it may import anything. */
const TEST = /\.test\.[a-z]+$/;

/** A file's place: its layer's rank (the entry points above every layer), or null for a file in no layer (test/, bench/). */
function rankOf(path: string): number | null {
  const [top, ...rest] = path.split('/');
  if (rest.length === 0) return CODE.test(top!) ? ENTRY : null;
  if (top === 'cli') return ENTRY;
  const i = (LAYERS as readonly string[]).indexOf(top!);
  return i >= 0 ? i : null;
}

/** The folder a file counts under for cycles: its layer, or the entry point itself (deck.ts and main.ts are one each). */
const unitOf = (path: string): string => (path.includes('/') ? path.split('/')[0]! : path);

interface Import {
  file: string;
  spec: string;
}

/** Every relative import, export-from, dynamic import and require of a file, type-only ones included. */
function importsOf(file: string, text: string): Import[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({ file, spec }));
}

const targetOf = ({ file, spec }: Import): string => normalize(join(dirname(file), spec)).split(sep).join('/');

/** What breaks the rule, one line each: the file, its import, and why. */
function upward(imports: Import[]): string[] {
  const broken: string[] = [];
  for (const i of imports) {
    const from = rankOf(i.file);
    if (from === null) continue;
    const target = targetOf(i);
    const to = rankOf(target);
    if (to === null) broken.push(`${i.file} imports '${i.spec}' (${target}), which is in no layer; ${RULE}`);
    else if (to > from) broken.push(`${i.file} imports '${i.spec}' (${target}): ${unitOf(target)} is above ${unitOf(i.file)}; ${RULE}`);
  }
  return broken;
}

/** Every cycle between folders, each as its folders in import order (first repeated last). */
function cycles(imports: Import[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const i of imports) {
    const [a, b] = [unitOf(i.file), unitOf(targetOf(i))];
    if (a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
  }
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at >= 0) return void found.push([...path.slice(at), node]);
    if (done.has(node)) return;
    for (const next of [...(edges.get(node) ?? [])].sort()) walk(next, [...path, node]);
    done.add(node);
  };
  for (const node of [...edges.keys()].sort()) walk(node, []);
  return found;
}

/** A tool file: a declaration under tools/<area>/. Only the registry lists tools, so only it imports one. */
const isToolFile = (path: string): boolean => /^tools\/[^/]+\/[^/]+$/.test(path) && CODE.test(path);
const REGISTRY_FILE = 'tools/registry.ts';

/** Every import of a tool file by anything but the registry: a tool's work that another needs belongs in services/. */
function toolImports(imports: Import[]): string[] {
  return imports
    .filter((i) => i.file !== REGISTRY_FILE && isToolFile(targetOf(i).replace(/\.js$/, '.ts')))
    .map((i) => `${i.file} imports the tool file ${targetOf(i)}: only ${REGISTRY_FILE} imports a tool; what two tools share is in services/`);
}

/** Every circle of files (a strongly connected set of more than one file), each as its files in order. */
function fileCircles(imports: Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of imports) {
    const to = targetOf(i).replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts');
    edges.set(i.file, [...(edges.get(i.file) ?? []), to]);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      circle.push(w);
      if (w === v) break;
    }
    if (circle.length > 1) found.push(circle.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The deck's own source: every code file of the layers and the entry points (not tests, bench/, dist/, node_modules/). */
function sourceImports(): Import[] {
  const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
    .map((p) => p.split(sep).join('/'))
    .filter((p) => CODE.test(p) && !TEST.test(p) && !p.startsWith('node_modules/') && !p.startsWith('dist/') && rankOf(p) !== null);
  return files.flatMap((f) => importsOf(f, readFileSync(join(ROOT, f), 'utf8')));
}

describe('the import rule', () => {
  const imports = sourceImports();

  it('reads the imports of every layer and entry point', () => {
    const units = new Set(imports.map((i) => unitOf(i.file)));
    for (const unit of [...LAYERS, 'deck.ts', 'main.ts', 'cli']) expect(units, unit).toContain(unit);
  });

  it('has no import that goes up a layer', () => {
    expect(upward(imports)).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(cycles(imports).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('has no circle of files, inside a folder or across folders', () => {
    expect(fileCircles(imports).map((c) => c.join(' <-> '))).toEqual([]);
  });

  it('has no tool file imported but by the registry', () => {
    expect(toolImports(imports)).toEqual([]);
  });

  it('finds a circle of files inside one folder, and a tool file imported by another tool', () => {
    const imports = [
      ...importsOf('services/context.ts', "import type { Rail } from './agent/rail.js';"),
      ...importsOf('services/agent/rail.ts', "import type { SessionCtx } from '../context.js';"),
      ...importsOf('services/agent/answers.ts', "import type { SessionCtx } from '../context.js';"),
      ...importsOf('tools/studio/studio-act.ts', "import { forgeRule } from './forge.js';"),
      ...importsOf('tools/registry.ts', "import { forge } from './studio/forge.js';"),
    ];
    expect(fileCircles(imports)).toEqual([['services/agent/rail.ts', 'services/context.ts']]);
    expect(toolImports(imports)).toEqual([
      'tools/studio/studio-act.ts imports the tool file tools/studio/forge.js: only tools/registry.ts imports a tool; what two tools share is in services/',
    ]);
  });

  it('names the file, the import and the rule for an import that goes up, of any kind', () => {
    const text = [
      "import type { Principal } from '../../rest/credential.js';",
      "export { x } from '../../sellers/sellers.js';",
      "const late = await import('../../cards/card.js');",
      "import { DeckError } from '../../core/errors.js';",
      "import { bars } from '../../engine/bars.js';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(upward(importsOf('tools/plans/price.ts', text))).toEqual([
      `tools/plans/price.ts imports '../../rest/credential.js' (rest/credential.js): rest is above tools; ${RULE}`,
      `tools/plans/price.ts imports '../../sellers/sellers.js' (sellers/sellers.js): sellers is above tools; ${RULE}`,
      `tools/plans/price.ts imports '../../cards/card.js' (cards/card.js): cards is above tools; ${RULE}`,
    ]);
    expect(upward(importsOf('engine/a.ts', "import { DeckError } from '../core/errors.js';"))).toHaveLength(1);
    expect(upward(importsOf('config/a.ts', "import { x } from '../test/support/deck.js';"))[0]).toContain('which is in no layer');
    expect(upward(importsOf('cli/a.ts', "import { x } from '../deck.js';\nimport { y } from '../rest/app.js';"))).toEqual([]);
  });

  it('finds a cycle between folders, however long', () => {
    const imports = [
      ...importsOf('store/a.ts', "import '../upstream/b.js';"),
      ...importsOf('upstream/b.ts', "import '../tools/c.js';"),
      ...importsOf('tools/c.ts', "import '../store/d.js';"),
      ...importsOf('core/e.ts', "import '../engine/f.js';"),
    ];
    expect(cycles(imports)).toEqual([['store', 'upstream', 'tools', 'store']]);
  });
});

