import { appendFile, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFile } from '../store/json-file.js';
import { FileLedger } from '../store/file-ledger.js';

interface Spend {
  who: string;
  units: number;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deck-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const ledgerFile = () => join(dir, 'meter.jsonl');
const linesOf = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

async function ledgerOf(n: number): Promise<FileLedger<Spend>> {
  const ledger = await FileLedger.open<Spend>(dir, 'meter');
  for (let i = 1; i <= n; i++) await ledger.append({ who: 'ada', units: i }, 1_700_000_000_000 + i);
  return ledger;
}

describe('the hash-chained ledger', () => {
  it('appends entries that each carry the previous hash, and reads them back verified', async () => {
    const ledger = await ledgerOf(3);
    const [a, b, c] = ledger.all;
    expect([a!.seq, b!.seq, c!.seq]).toEqual([1, 2, 3]);
    expect(a!.prev).toBe('0'.repeat(64));
    expect(b!.prev).toBe(a!.hash);
    expect(c!.prev).toBe(b!.hash);
    expect(new Set([a!.hash, b!.hash, c!.hash]).size).toBe(3);
    expect(ledger.verify()).toBeNull();

    const reopened = await FileLedger.open<Spend>(dir, 'meter');
    expect(reopened.all).toEqual(ledger.all);
    expect(reopened.verify()).toBeNull();
    expect(await linesOf(ledgerFile())).toHaveLength(3);
  });

  it('serializes concurrent appends into one unbroken chain', async () => {
    const ledger = await FileLedger.open<Spend>(dir, 'meter');
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => ledger.append({ who: 'ada', units: i }, 1_700_000_000_000)));
    expect(made.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const reopened = await FileLedger.open<Spend>(dir, 'meter');
    expect(reopened.all).toHaveLength(40);
    expect(reopened.verify()).toBeNull();
  });

  it('refuses every append of a write that failed, and chains the next ones on what is on disk', async () => {
    const ledger = await ledgerOf(2);
    const kept = await readFile(ledgerFile());
    // The file cannot be opened for appending (a directory stands in its place): the whole batch is refused.
    await unlink(ledgerFile());
    await mkdir(ledgerFile());
    const refused = await Promise.allSettled([3, 4, 5].map((u) => ledger.append({ who: 'ada', units: u }, 1_700_000_000_000 + u)));
    expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(ledger.all).toHaveLength(2);
    await rm(ledgerFile(), { recursive: true });
    await writeFile(ledgerFile(), kept);
    const made = await Promise.all([6, 7, 8].map((u) => ledger.append({ who: 'ada', units: u }, 1_700_000_000_000 + u)));
    expect(made.map((e) => e.seq)).toEqual([3, 4, 5]);
    const reopened = await FileLedger.open<Spend>(dir, 'meter');
    expect(reopened.all.map((e) => e.entry.units)).toEqual([1, 2, 6, 7, 8]);
    expect(reopened.verify()).toBeNull();
  });

  it('finds a tampered entry, and a re-hashed one by the broken link after it', async () => {
    await ledgerOf(3);
    const lines = await linesOf(ledgerFile());
    const second = JSON.parse(lines[1]!);
    second.entry.units = 1_000;
    await writeFile(ledgerFile(), [lines[0], JSON.stringify(second), lines[2], ''].join('\n'));
    expect((await FileLedger.open<Spend>(dir, 'meter')).verify()).toEqual({ seq: 2, why: 'hash does not match the entry' });

    second.hash = 'f'.repeat(64);
    await writeFile(ledgerFile(), [lines[0], JSON.stringify(second), lines[2], ''].join('\n'));
    const broken = (await FileLedger.open<Spend>(dir, 'meter')).verify();
    expect(broken?.seq).toBe(2);

    // Dropping a line breaks the link of the one after it.
    await writeFile(ledgerFile(), [lines[0], lines[2], ''].join('\n'));
    expect((await FileLedger.open<Spend>(dir, 'meter')).verify()).toEqual({ seq: 3, why: 'prev does not match the previous hash' });
  });

  it('drops a torn last line on open, and the next append starts a clean line', async () => {
    await ledgerOf(2);
    // A crash mid-append: part of a line, no newline.
    await appendFile(ledgerFile(), '{"seq":3,"at":17000000');
    const reopened = await FileLedger.open<Spend>(dir, 'meter');
    expect(reopened.all).toHaveLength(2);
    expect(reopened.verify()).toBeNull();

    await reopened.append({ who: 'ada', units: 9 }, 1_700_000_000_009);
    const lines = await linesOf(ledgerFile());
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const again = await FileLedger.open<Spend>(dir, 'meter');
    expect(again.all.map((e) => e.entry.units)).toEqual([1, 2, 9]);
    expect(again.verify()).toBeNull();
  });

  it('refuses to open when a whole line in the middle is damaged, rather than drop what follows', async () => {
    await ledgerOf(3);
    const lines = await linesOf(ledgerFile());
    await writeFile(ledgerFile(), [lines[0], 'not json', lines[2], ''].join('\n'));
    await expect(FileLedger.open<Spend>(dir, 'meter')).rejects.toThrow(/line 2 is not JSON/);
  });
});

interface Counter {
  n: number;
  log: number[];
}

const docFile = () => join(dir, 'counter.json');
const openCounter = () => JsonFile.open<Counter>(dir, 'counter', () => ({ n: 0, log: [] }));

describe('the JSON document file', () => {
  it('writes an update to disk before it resolves', async () => {
    const file = await openCounter();
    await file.update((d) => void (d.n = 7));
    expect(JSON.parse(await readFile(docFile(), 'utf8'))).toEqual({ n: 7, log: [] });
    expect((await openCounter()).data).toEqual({ n: 7, log: [] });
  });

  it('leaves memory and disk unchanged when an update throws', async () => {
    const file = await openCounter();
    await file.update((d) => void (d.n = 1));
    const before = await readFile(docFile(), 'utf8');
    await expect(
      file.update((d) => {
        d.n = 99;
        d.log.push(99);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(file.data).toEqual({ n: 1, log: [] });
    expect(await readFile(docFile(), 'utf8')).toBe(before);
  });

  it('serializes concurrent updates: none is lost, each sees the one before', async () => {
    const file = await openCounter();
    const seen = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        file.update((d) => {
          d.n += 1;
          d.log.push(i);
          return d.n;
        }),
      ),
    );
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const onDisk = (await openCounter()).data;
    expect(onDisk.n).toBe(50);
    expect(onDisk.log).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('leaves memory as before when the write fails, and writes again once it can', async () => {
    const file = await openCounter();
    await file.update((d) => void (d.n = 1));
    // A directory where the writer puts its temporary file: the write fails for any user, root included.
    const temp = join(dir, '.counter.json.tmp');
    await mkdir(temp);
    await expect(file.update((d) => void (d.n = 2))).rejects.toThrow();
    expect(file.data.n).toBe(1);
    expect(JSON.parse(await readFile(docFile(), 'utf8')).n).toBe(1);

    await rm(temp, { recursive: true });
    await file.update((d) => void (d.n += 1));
    expect(file.data.n).toBe(2);
    expect(JSON.parse(await readFile(docFile(), 'utf8')).n).toBe(2);
  });

  it('shows readers only what is on disk while a write is still under way', async () => {
    const file = await openCounter();
    await file.update((d) => void (d.n = 1));
    // A non-empty directory where the document goes: the rename fails and the writer retries for a while.
    await unlink(docFile());
    await mkdir(join(docFile(), 'in-the-way'), { recursive: true });
    const pending = file.update((d) => void (d.n = 2));
    const outcome = pending.then(
      () => 'written',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await Promise.race([outcome, 'under way'])).toBe('under way');
    expect(file.data.n).toBe(1);
    expect(await outcome).toBe('failed');
    expect(file.data.n).toBe(1);
  });
});
