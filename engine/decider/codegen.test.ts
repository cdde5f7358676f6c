import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { VARIETY } from '../../test/support/forged.js';
import { seedHash } from './canonical.js';
import { codeOf, jsOf } from './codegen.js';
import { irOf } from './ir.js';
import type { Script } from './script.js';
import { verifyWatermark } from './watermark.js';

const VERSION = 'forge.test.v1';

/** Rules that between them reach every part of the generator: marks, zones, level targets, trails, clocks, rules. */
const scripts: Record<string, Script> = VARIETY;

describe('the generated decider', () => {
  const ir = irOf(scripts.emaCross!);
  const seed = seedHash(ir, VERSION);
  const code = codeOf(ir, seed, VERSION);

  it('is the same bytes for the same IR, seed hash and version, and carries the watermark in its header and constants', () => {
    expect(codeOf(irOf(scripts.emaCross!), seed, VERSION)).toBe(code);
    expect(codeOf(ir, seedHash(ir, 'other'), 'other')).not.toBe(code);
    expect(code).toContain(` * seed_hash: ${seed}\n * version: ${VERSION}\n`);
    expect(code).toContain(`export const SEED_HASH = '${seed}';`);
    expect(code).toContain(`const SEAL: readonly number[] = [0x${seed.slice(0, 8)}, 0x${seed.slice(8, 16)},`);
    expect(code).toContain('st.seal = SEAL[i & 7]!;');
  });

  it('runs as written: jsOf is the TypeScript with its type syntax stripped, token for token', () => {
    const tokens = (text: string) =>
      text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/[^\n]*/g, '')
        .replace(/\bexport /g, '')
        .replace(/\s+/g, '');
    for (const script of Object.values(scripts)) {
      const one = irOf(script);
      const hash = seedHash(one, VERSION);
      const js = jsOf(one, hash, VERSION);
      expect(js).not.toMatch(/\bexport\b|\binterface\b|: number|: State/);
      const stripped = ts.transpileModule(codeOf(one, hash, VERSION), {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: true },
      }).outputText;
      // jsOf ends by returning the module's functions, where the TypeScript exports them.
      expect(tokens(js)).toBe(`${tokens(stripped)}return{SEED_HASH,VERSION,MANAGES,decide,arm,fill};`);
    }
  });

  it('verifies its watermark, also after its types are stripped, its comments dropped and its numbers rewritten', () => {
    const mark = { seed_hash: seed, version: VERSION };
    expect(verifyWatermark(code)).toEqual(mark);
    const stripped = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, removeComments: true } }).outputText;
    expect(stripped).not.toContain('seed_hash:');
    expect(verifyWatermark(stripped)).toEqual(mark);
    const squeezed = code
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replaceAll("'", '"')
      .replace(/0x[0-9a-f]{8}/g, (hex) => String(Number(hex)));
    expect(verifyWatermark(squeezed)).toEqual(mark);
    // Without its SEED_HASH line the seal still names the hash.
    expect(verifyWatermark(code.replace(/^export const SEED_HASH.*$/m, ''))).toEqual(mark);
  });

  it('refuses a watermark whose parts disagree or are gone', () => {
    const other = 'f'.repeat(64);
    expect(verifyWatermark(code.replace(`SEED_HASH = '${seed}'`, `SEED_HASH = '${other}'`))).toBeNull();
    expect(verifyWatermark(code.replace(/const SEAL[^\n]*\n/, ''))).toBeNull();
    expect(verifyWatermark(code.replace(/^export const VERSION.*$/m, ''))).toBeNull();
    expect(verifyWatermark('function decide() {}')).toBeNull();
  });

  it('refuses a version that could not sit in a string literal', () => {
    expect(() => codeOf(ir, seed, "v1'; evil()")).toThrow(RangeError);
  });

  it('type-checks under strict settings, for every kind of rule', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-codegen-'));
    try {
      const files = await Promise.all(
        Object.entries(scripts).map(async ([name, script]) => {
          const one = irOf(script);
          const file = join(dir, `${name}.ts`);
          await writeFile(file, codeOf(one, seedHash(one, VERSION), VERSION));
          return file;
        }),
      );
      const program = ts.createProgram(files, {
        strict: true,
        noUncheckedIndexedAccess: true,
        noImplicitReturns: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        lib: ['lib.es2022.d.ts'],
        types: [],
        noEmit: true,
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
