import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileLedger } from '../store/file-ledger.js';
import type { SeriesLedgerEntry } from '../store/series.js';
import { LAYER_KEY, LayerDouble } from './fixtures/layer.js';
import { signedIn, spawnDeck, testDeck, type SpawnedDeck } from './support/deck.js';
import { callAnswered } from './support/answers.js';
import { hireBody } from './support/series.js';

// A deck killed (SIGKILL) after the layer opened an epoch's handshake and before the deck wrote the series: the
// handshake was kept in the recovery ledger first, so the restarted deck's next read of the series adopts it. Then a
// move the series file holds but the ledger lost is chained again when the store opens.

const decks: SpawnedDeck[] = [];
let layer: LayerDouble;
let data: string;
afterAll(async () => {
  for (const d of decks) if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
  await Promise.all(decks.map((d) => d.exited));
  await layer?.close();
  if (data) await rm(data, { recursive: true, force: true });
});

const movesOf = (s: { moves: { row: string | null; what: string }[] }) => s.moves.map((m) => [m.row, m.what]);

describe('a deck killed between the layer\'s answer and its own write', () => {
  it('adopts the open handshake on the next read after a restart', { timeout: 120_000 }, async () => {
    layer = await new LayerDouble().start();
    data = await mkdtemp(join(tmpdir(), 'deck-series-crash-'));
    const env = { DECK_DATA: data, DECK_COORD_URL: layer.url, DECK_COORD_KEY: LAYER_KEY, DECK_JOIN_PER_CLIENT: '100' };
    const first = await spawnDeck(env);
    decks.push(first);
    const me = await signedIn(first.url, 'crash_hirer');
    const opened = await callAnswered(`${first.url}/v1/series`, { body: { quote: hireBody() }, headers: me.bearer });
    expect(opened.status).toBe(201);
    const id: string = opened.body.series.id;

    // The layer has opened the handshake; while the deck waits for the settle, it is killed.
    layer.before.settle = async () => {
      first.child.kill('SIGKILL');
      await first.exited;
    };
    await expect(fetch(`${first.url}/v1/series/${id}/epochs`, { method: 'POST', headers: me.bearer })).rejects.toThrow();
    // The dropped connection can reach the test before the exit does.
    expect(await first.exited).toBeNull();
    expect(first.child.signalCode).toBe('SIGKILL');
    delete layer.before.settle;
    const held = [...layer.handshakes.values()].filter((h) => h.series_id === id);
    expect(held).toHaveLength(1);
    const handshakeId = held[0]!.handshake_id;
    // What the dead deck left: the series as MANDATED, the handshake in the recovery ledger.
    const file = JSON.parse(await readFile(join(data, 'series.json'), 'utf8')) as { by_principal: Record<string, { id: string; state: string }[]> };
    expect(Object.values(file.by_principal).flat().find((s) => s.id === id)!.state).toBe('MANDATED');
    const recovery = await readFile(join(data, 'series-recovery.jsonl'), 'utf8');
    expect(recovery).toContain(handshakeId);

    const second = await spawnDeck(env);
    decks.push(second);
    const read = await callAnswered(`${second.url}/v1/series/${id}`, { headers: me.bearer });
    expect(read.status).toBe(200);
    expect(read.body.series.state).toBe('EPOCH_OPEN');
    expect(read.body.series.epochs[0]).toMatchObject({ state: 'open', handshake_id: handshakeId, unsigned: { to: layer.contract, value: '0' } });
    expect(read.body.hire).toMatchObject({ handshake_id: handshakeId, state: 'open' });
    expect(movesOf(read.body.series)).toEqual([['R01', 'opened'], ['R02', 'epoch_adopted'], [null, 'plan_kept']]);
    // No second handshake: the series knows its epoch is open.
    const again = await callAnswered(`${second.url}/v1/series/${id}/epochs`, { method: 'POST', headers: me.bearer });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('epoch_open');
    expect([...layer.handshakes.values()].filter((h) => h.series_id === id)).toHaveLength(1);
    await second.stop();

    // The ledger loses its last line (as if the deck died between the series write and the chaining): the store
    // chains the move again when it opens.
    const ledgerFile = join(data, 'series.jsonl');
    const lines = (await readFile(ledgerFile, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    await writeFile(ledgerFile, `${lines.slice(0, -1).join('\n')}\n`);
    const third = await testDeck({ ...env, DECK_LOG: 'silent' });
    try {
      const ledger = await FileLedger.open<SeriesLedgerEntry>(data, 'series');
      expect(ledger.verify()).toBeNull();
      expect(ledger.all.map((e) => [e.entry.series_id, e.entry.n, e.entry.what])).toEqual([
        [id, 1, 'opened'],
        [id, 2, 'epoch_adopted'],
        [id, 3, 'plan_kept'],
      ]);
      const after = await callAnswered(`${third.url}/v1/series/${id}`, { headers: me.bearer });
      expect(movesOf(after.body.series)).toEqual([['R01', 'opened'], ['R02', 'epoch_adopted'], [null, 'plan_kept']]);
    } finally {
      await third.stop();
    }
  });
});
