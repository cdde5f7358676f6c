import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KeptRehearsal, KeptTrade } from '../engine/grade/index.js';
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
const trade = (n: number): KeptTrade => ({ side: 'long', entry_t: 60 * n, entry: 100 + n, stop: 99, target: 110, exit_t: 120 * n, exit: 101, r: 1, why: 'target', exit_open: 100.5 });
const rehearsal = (seed: string, n: number, market: KeptRehearsal['market'] = 'BTC'): KeptRehearsal => ({
  id: seed,
  digest: n.toString(16).padStart(64, '0'),
  market,
  timeframe: '1m',
  window: { from: 0, to: 60 * n, bars: n, warm_up_bars: 0 },
  costs: { slippage_ticks: 50, fee: { per_side: 5, unit: 'bps' }, slippage: 0.5 },
  trades: [trade(n), trade(n + 1)],
});
const digests = (list: { digest: string }[]) => list.map((r) => parseInt(r.digest, 16));

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

  it('keep each rehearsal\'s trades apart by digest, out of the document written on every keep, until no record names it', async () => {
    const { dir, grades } = await open();
    for (let n = 1; n <= REHEARSALS_KEPT + 1; n++) await grades.keepRehearsal('p1', rehearsal(SEED, n), 1000 + n, 10_000);
    // Another principal's rehearsal of the same bytes names the same digest: its trades stay for them.
    await grades.keepRehearsal('p2', rehearsal(SEED, 1), 1100, 5_000);
    const doc = await readFile(join(dir, 'rehearsals.json'), 'utf8');
    expect(doc).not.toContain('"trades"');
    const files = async () => (await readdir(join(dir, 'trades'))).map((f) => parseInt(f, 16)).sort((a, b) => a - b);
    expect(await files()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const [first] = grades.rehearsals('p2', SEED, 2000);
    expect(await grades.whole(first!)).toEqual({ ...rehearsal(SEED, 1), kept_at: 1100, expires_at: 5_000 });
    // p2's expires: the digest p1 dropped over its last REHEARSALS_KEPT goes with it.
    await grades.keepRehearsal('p1', rehearsal(SEED, 10), 6_000, 10_000);
    expect(await files()).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    // A record read before its trades went reads as not kept.
    expect(await grades.whole(first!)).toBeNull();
    // On disk, across a restart.
    const again = await Grades.open(await jsonBackend(dir));
    expect((await again.whole(again.rehearsals('p1', SEED, 7_000).at(-1)!))?.trades).toEqual(rehearsal(SEED, 10).trades);
  });

  it('keep every record\'s trades while keeps of one seed run at once', async () => {
    const { grades } = await open();
    for (let n = 1; n <= REHEARSALS_KEPT; n++) await grades.keepRehearsal('p1', rehearsal(SEED, n), 1000 + n, 10_000);
    // Each round keeps a rehearsal new to p1 (another principal's trades already there), which drops the seed's oldest,
    // while the oldest is kept again at once.
    for (let round = 0; round < 20; round++) {
      await grades.keepRehearsal('p2', rehearsal(SEED, REHEARSALS_KEPT + 1 + round), 1100 + round, 10_000);
      const oldest = grades.rehearsals('p1', SEED, 2000)[0]!;
      await Promise.all([
        grades.keepRehearsal('p1', rehearsal(SEED, REHEARSALS_KEPT + 1 + round), 1100 + round, 10_000),
        grades.keepRehearsal('p1', rehearsal(SEED, parseInt(oldest.digest, 16)), 1100 + round, 10_000),
      ]);
      const kept = grades.rehearsals('p1', SEED, 2000);
      for (const record of kept) expect((await grades.whole(record))?.trades, `round ${round}`).toHaveLength(2);
    }
  });

  it('read a record kept with its trades inside, as records were kept before', async () => {
    const { dir, grades } = await open();
    await grades.keepRehearsal('p1', rehearsal(SEED, 1), 1000, 10_000);
    const file = join(dir, 'rehearsals.json');
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.by_principal.p1[0].trades = rehearsal(SEED, 1).trades;
    await writeFile(file, JSON.stringify(doc));
    await rm(join(dir, 'trades'), { recursive: true });
    const again = await Grades.open(await jsonBackend(dir));
    expect((await again.whole(again.rehearsals('p1', SEED, 2000)[0]!))?.trades).toEqual(rehearsal(SEED, 1).trades);
  });
});
