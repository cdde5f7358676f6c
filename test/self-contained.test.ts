import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsidePaths } from './support/outside-paths.js';
import { sampleFile } from './support/tape-file.js';

// A clone with nothing beside it holds everything the repository runs: its tests, its benchmarks and the deck read
// nothing outside it. Every code file is read here for the paths it names; .ci/run then runs the suite in a fresh
// clone of its own, where a path this misses fails on a missing file.

const ROOT = join(import.meta.dirname, '..');
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Every code file of the repository (not node_modules/, the built dist/ or git's own files). */
const FILES = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
  .map((p) => p.split(sep).join('/'))
  .filter((p) => CODE.test(p) && !/(^|\/)node_modules\//.test(p) && !p.startsWith('dist/') && !p.startsWith('.git/'))
  .sort();

/** Where the paths a file of test/support would name outside the repository lead, from its root. */
const outsideIn = (text: string, file = 'test/support/some.ts') => outsidePaths(ROOT, file, text).map((o) => o.leads);

describe('what the repository reads', () => {
  it('reads every code file: the deck, its tests and support, the engine tests, the benchmarks', () => {
    for (const file of ['deck.ts', 'vitest.config.ts', 'test/support/tape-file.ts', 'test/fixtures/venue.ts', 'engine/calendar.test.ts', 'bench/bars.ts', 'cli/tape.ts']) {
      expect(FILES, file).toContain(file);
    }
  });

  it('names no path outside the repository', () => {
    const outside = FILES.flatMap((file) => outsidePaths(ROOT, file, readFileSync(join(ROOT, file), 'utf8')));
    expect(outside.map((o) => `${o.at}: ${o.code} leads to ${o.leads}`)).toEqual([]);
  });

  it('finds a path outside however it is written: from the file, from the working directory, through a constant, or the home', () => {
    const tape = '../beside/tape';
    expect(outsideIn("const bars = readFileSync(new URL(`../../../beside/tape/${name}.csv`, import.meta.url), 'utf8');")).toEqual([tape]);
    expect(outsideIn("const ROOT = join(import.meta.dirname, '..', '..');\nconst csv = readFileSync(join(ROOT, '..', 'beside', 'tape', 'BTC-1m.csv'));")).toEqual([`${tape}/BTC-1m.csv`]);
    expect(outsideIn("readFileSync('../beside/tape/ES-1m.csv', 'utf8');")).toEqual([`${tape}/ES-1m.csv`]);
    expect(outsideIn('const dir = fileURLToPath(new URL("../../..", import.meta.url));\nreaddirSync(join(dir, "beside"));')).toEqual(['..', '../beside']);
    expect(outsideIn("export { tape } from '../../../beside/tape.js';\nconst late = await import('../../../beside/x.js');")).toEqual(['../beside/tape.js', '../beside/x.js']);
    expect(outsideIn("const p = join(homedir(), '.deck');\nconst q = process.env.HOME;")).toEqual(["the user's home", "the user's home"]);
  });

  it('lets the repository name its own files, the system and data that only looks like a path', () => {
    const inside = [
      "const bars = readFileSync(new URL(`../../tape/sample/${name}.csv`, import.meta.url), 'utf8');",
      "const ROOT = join(import.meta.dirname, '..', '..');\nreadFileSync(join(ROOT, 'package.json'));",
      "import { sampleFile } from './tape-file.js';\nimport { bars } from '../../engine/bars.js';",
      "const SHOTS = '/tmp';\nawait page.screenshot({ path: `${SHOTS}/x.png` });\nreadFileSync('/usr/bin/chromium');",
      "const odd = fc.constantFrom('../..', '%zz');\nconst dir = await mkdtemp(join(tmpdir(), 'deck-'));\nreadFileSync(join(dir, '..', 'x'));",
    ];
    for (const text of inside) expect(outsideIn(text), text).toEqual([]);
  });

  it("reads a test's candles from the shipped sample, and names what it holds when asked for more", () => {
    expect(sampleFile('ES-1m').length).toBe(6826);
    expect(() => sampleFile('NQ-1m')).toThrow(
      'the shipped sample (tape/sample/) holds no NQ-1m.csv, only BTC-1h-binance, BTC-1h, BTC-1m, BTC-1s, ES-1m, ETH-1m: build the bars the test needs from these, or skip it saying why',
    );
  });
});
