import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELD_FRESH_MS, TapeArchive } from '../store/tape-archive.js';
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

  it('vouches for each stretch of an imported file, not for the months between them, and for a CME week whole through its daily breaks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const archive = new TapeArchive(new FileTapeDays(dir));
    // The shipped BTC minutes: nine days in four stretches, 2016 to 2018.
    await archive.import('BTC', '1m', sampleRows('BTC-1m'));
    const between = Date.UTC(2017, 0, 10) / 1000;
    expect(await archive.read('BTC', '1m', between, between + D)).toEqual({ rows: [], held: [], sample: [] });
    const sep = Date.UTC(2017, 8, 3) / 1000;
    expect((await archive.read('BTC', '1m', sep, sep + 2 * D)).held).toEqual([{ from: sep, to: sep + 2 * D }]);
    // A CME week is one stretch: its daily breaks are less than a day of open market.
    await archive.import('ES', '1m', sampleRows('ES-1m'));
    const es = await archive.read('ES', '1m', Date.UTC(2013, 9, 6) / 1000, Date.UTC(2013, 9, 12) / 1000);
    expect(es.held).toEqual([{ from: Date.UTC(2013, 9, 6, 22) / 1000, to: Date.UTC(2013, 9, 11, 21, 15) / 1000 }]);
  });

  it('lists what it holds per market and timeframe, by who vouched for it, and sees its own writes at once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const archive = new TapeArchive(new FileTapeDays(dir));
    expect(await archive.held()).toEqual([]);
    await archive.import('BTC', '1m', rows.slice(0, 600), 'sample');
    await archive.import('BTC', '1m', rows.slice(600, 900));
    await archive.keep('BTC', '1m', rows.slice(900), { from: rows[900]![0], to: DAY + D });
    const first = await archive.held();
    expect(first).toEqual([
      {
        market: 'BTC',
        tf: '1m',
        bars: rows.length,
        windows: [
          { from: DAY, to: DAY + 600 * 60, source: 'sample' },
          { from: DAY + 600 * 60, to: DAY + 900 * 60, source: 'import' },
          { from: DAY + 900 * 60, to: DAY + D, source: 'venue' },
        ],
      },
    ]);
    // The same value, frozen, until something changes.
    expect(await archive.held()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    await archive.keep('ETH', '1h', [[DAY, 1, 2, 0.5, 1.5, 10]], { from: DAY, to: DAY + 3600 });
    expect((await archive.held()).map((h) => `${h.market} ${h.tf}`)).toEqual(['BTC 1m', 'ETH 1h']);
  });

  it('sees what another process kept once its view is older than HELD_FRESH_MS', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    let now = 0;
    const deck = new TapeArchive(new FileTapeDays(dir), () => now);
    expect(await deck.held()).toEqual([]);
    await new TapeArchive(new FileTapeDays(dir)).import('BTC', '1m', rows);
    expect(await deck.held()).toEqual([]);
    now += HELD_FRESH_MS;
    expect(await deck.held()).toEqual([{ market: 'BTC', tf: '1m', bars: rows.length, windows: [{ from: DAY, to: DAY + D, source: 'import' }] }]);
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

  it("takes over at once a lock left with this process's pid by another process (a restarted container's deck has its predecessor's), and waits on its own", async () => {
    for (const left of [String(process.pid), `${process.pid} 0123456789abcdef`]) {
      const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
      const folder = join(dir, 'tape', 'BTC', '1m');
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, '.2018-04-05.json.lock'), left);
      expect(await new TapeArchive(new FileTapeDays(dir)).import('BTC', '1m', rows)).toBe(rows.length);
    }
    // Two writers of this process, each with its own half of the day: the one second waits for the first's lock, and
    // the day holds both halves.
    const other = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const half = Math.floor(rows.length / 2);
    const [a, b] = [new TapeArchive(new FileTapeDays(other)), new TapeArchive(new FileTapeDays(other))];
    expect(await Promise.all([a.import('BTC', '1m', rows.slice(0, half)), b.import('BTC', '1m', rows.slice(half))])).toEqual([half, rows.length - half]);
    expect((await new TapeArchive(new FileTapeDays(other)).read('BTC', '1m', DAY, DAY + D)).rows).toEqual(rows);
  });

  it('takes over at once a fresh lock whose writer was killed (its pid runs no more), and waits on one whose writer runs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-archive-'));
    const folder = join(dir, 'tape', 'BTC', '1m');
    const lock = join(folder, '.2018-04-05.json.lock');
    await mkdir(folder, { recursive: true });
    const killed = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    await once(killed, 'spawn');
    await writeFile(lock, String(killed.pid));
    const archive = new TapeArchive(new FileTapeDays(dir));
    const waiting = archive.import('BTC', '1m', rows);
    expect(await settled(waiting)).toBe(false);
    killed.kill('SIGKILL');
    await once(killed, 'exit');
    expect(await waiting).toBe(rows.length);
    expect((await new TapeArchive(new FileTapeDays(dir)).read('BTC', '1m', DAY, DAY + D)).rows).toEqual(rows);
  });
});
