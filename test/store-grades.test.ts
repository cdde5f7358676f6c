import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KeptRehearsal } from '../engine/grade/index.js';
import { Grades, REHEARSALS_KEPT } from '../store/grades.js';
import { jsonBackend } from '../store/json-backend.js';

// The rehearsals grading keeps, on disk: by (principal, seed) and digest, the newest REHEARSALS_KEPT of a seed, as
// long as its forge, so a studio record's rehearsal stays gradable through a few direct rehearsals made after it.

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
const open = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'deck-grades-'));
  dirs.push(dir);
  return { dir, grades: await Grades.open(await jsonBackend(dir)) };
};

const SEED = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const rehearsal = (seed: string, n: number, market: KeptRehearsal['market'] = 'BTC'): KeptRehearsal => ({
  id: seed,
  digest: n.toString(16).padStart(64, '0'),
  market,
  timeframe: '1m',
  window: { from: 0, to: 60 * n, bars: n, warm_up_bars: 0 },
  costs: { slippage_ticks: 50, fee: { per_side: 5, unit: 'bps' }, slippage: 0.5 },
  trades: [],
});
const digests = (list: KeptRehearsal[]) => list.map((r) => parseInt(r.digest, 16));

describe('the kept rehearsals', () => {
  it('keep the newest of a seed by digest, the same rehearsal again moving up, each seed on its own', async () => {
    const { dir, grades } = await open();
    for (let n = 1; n <= REHEARSALS_KEPT + 1; n++) await grades.keepRehearsal('p1', rehearsal(SEED, n), 1000 + n, 10_000);
    await grades.keepRehearsal('p1', rehearsal(OTHER, 1, 'ETH'), 1100, 10_000);
    await grades.keepRehearsal('p2', rehearsal(SEED, 1), 1100, 10_000);
    expect(digests(grades.rehearsals('p1', SEED, 2000))).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    await grades.keepRehearsal('p1', rehearsal(SEED, 4), 1200, 10_000);
    expect(digests(grades.rehearsals('p1', SEED, 2000))).toEqual([2, 3, 5, 6, 7, 8, 9, 4]);
    expect(digests(grades.rehearsals('p1', OTHER, 2000))).toEqual([1]);
    expect(digests(grades.rehearsals('p2', SEED, 2000))).toEqual([1]);
    // On disk, across a restart; and gone with their forge.
    const again = await Grades.open(await jsonBackend(dir));
    expect(digests(again.rehearsals('p1', SEED, 2000))).toEqual([2, 3, 5, 6, 7, 8, 9, 4]);
    expect(again.rehearsals('p1', SEED, 10_000)).toEqual([]);
  });

  it('leave out a rehearsal kept before rehearsals were named by digest', async () => {
    const { dir, grades } = await open();
    await grades.keepRehearsal('p1', rehearsal(SEED, 1), 1000, 10_000);
    const file = join(dir, 'rehearsals.json');
    const doc = JSON.parse(await readFile(file, 'utf8'));
    delete doc.by_principal.p1[0].digest;
    await writeFile(file, JSON.stringify(doc));
    expect((await Grades.open(await jsonBackend(dir))).rehearsals('p1', SEED, 2000)).toEqual([]);
  });
});
