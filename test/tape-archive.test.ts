import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TapeArchive } from '../store/tape-archive.js';
import { FileTapeDays } from '../store/tape-days.js';
import { sampleRows } from './fixtures/venue.js';

const D = 86_400;
/** 5 April 2018: the shipped BTC minutes hold every minute of it. */
const DAY = Date.UTC(2018, 3, 5) / 1000;
const rows = sampleRows('BTC-1m').filter((r) => r[0] >= DAY && r[0] < DAY + D);
const settled = (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 400))]);

describe('the tape archive on disk', () => {
  it('is the truth, not a copy: a reader sees what another writer (an import) kept after it read the day', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const deck = new TapeArchive(new FileTapeDays(dir));
    const importer = new TapeArchive(new FileTapeDays(dir));
    await importer.import('BTC', '1m', rows.slice(0, 600));
    expect((await deck.read('BTC', '1m', DAY, DAY + D)).rows).toHaveLength(600);
    await importer.import('BTC', '1m', rows.slice(600));
    const kept = await deck.read('BTC', '1m', DAY, DAY + D);
    expect(kept.rows).toEqual(rows);
    expect(kept.held).toEqual([{ from: DAY, to: DAY + D }]);
    // And a writer adds to what is on disk, not to what it read before.
    await deck.keep('BTC', '1m', [], { from: DAY + D, to: DAY + D + 3600 });
    expect(await importer.read('BTC', '1m', DAY, DAY + 2 * D)).toEqual({ rows, held: [{ from: DAY, to: DAY + D + 3600 }], sample: [] });
  });

  it('keeps the stretch a source vouched for even where it sent no bar (a holiday is known empty)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const archive = new TapeArchive(new FileTapeDays(dir));
    expect(await archive.keep('NQ', '1m', [], { from: DAY, to: DAY + 4 * 3600 })).toBe(0);
    expect(await archive.read('NQ', '1m', DAY, DAY + D)).toEqual({ rows: [], held: [{ from: DAY, to: DAY + 4 * 3600 }], sample: [] });
  });

  it('marks what the sample vouched for, keeps the mark under later bars, and tells an empty archive from one that keeps a day', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const archive = new TapeArchive(new FileTapeDays(dir));
    expect(await archive.holdsAny()).toBe(false);
    await archive.import('BTC', '1m', rows.slice(0, 600), 'sample');
    expect(await archive.holdsAny()).toBe(true);
    const sampled = { from: rows[0]![0], to: rows[599]![0] + 60 };
    expect((await archive.read('BTC', '1m', DAY, DAY + D)).sample).toEqual([sampled]);
    // An import after it adds bars and history, never a mark: only the sample's stretch reads as the sample's.
    await archive.import('BTC', '1m', rows.slice(600));
    const kept = await archive.read('BTC', '1m', DAY, DAY + D);
    expect(kept.rows).toEqual(rows);
    expect(kept.held).toEqual([{ from: DAY, to: DAY + D }]);
    expect(kept.sample).toEqual([sampled]);
    expect((await new TapeArchive(new FileTapeDays(dir)).read('BTC', '1m', DAY, DAY + D)).sample).toEqual([sampled]);
  });

  it('writes a day only under its lock: a writer waits while another holds it, and takes over one left by a dead writer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const folder = join(dir, 'tape', 'BTC', '1m');
    const lock = join(folder, '.2018-04-05.json.lock');
    await mkdir(folder, { recursive: true });
    await writeFile(lock, '');
    const archive = new TapeArchive(new FileTapeDays(dir));
    const waiting = archive.import('BTC', '1m', rows);
    expect(await settled(waiting)).toBe(false);
    expect((await new TapeArchive(new FileTapeDays(dir)).read('BTC', '1m', DAY, DAY + D)).rows).toEqual([]);
    await utimes(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await waiting).toBe(rows.length);
    expect((await new TapeArchive(new FileTapeDays(dir)).read('BTC', '1m', DAY, DAY + D)).rows).toEqual(rows);
  });
});
