import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { readConfig } from '../config/env.js';
import { startDeck } from '../deck.js';
import { TYPED_DECISION_VERSION } from '../engine/book/index.js';
import { barsToRows, tuplesFromBars } from '../engine/bars.js';
import { TapeArchive } from '../store/tape-archive.js';
import { FileTapeDays } from '../store/tape-days.js';
import { signedIn } from '../test/support/deck.js';
import { benchMonth, benchWeek } from './bars.js';
import { spawnServer } from './child.js';
import type { BenchRow } from './indicators.js';

// The agent rail: a replay of a week of BTC 1m bars (10,080, the month's first whole week: benchWeek) against a
// local decide() that answers at once, in its own process. The deck runs in this process on an archive filled with
// the month (no venue), as `npm run tape -- import` would fill it; the replay's time is the run's own, from its start
// to its end (the window read included). The same 10,080 bodies POSTed to the same decide() one after another by a
// bare undici loop are the round trip alone. The deck's overhead per bar is the replay's time less that, per bar.
// `npx tsx bench/replay.ts` runs it alone.


interface RunView {
  state: string;
  bars_done: number;
  started_at: number;
  ended_at: number | null;
  orders: number;
  fills: number;
}

/** The round trip alone: the replay's bodies POSTed in turn, each waiting for its answer, over one keep-alive pool. */
async function roundTrips(url: string, bodies: readonly unknown[]): Promise<number> {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const started = performance.now();
  for (const body of bodies) {
    const res = await request(url, { dispatcher, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.body.text();
  }
  const ms = performance.now() - started;
  await dispatcher.close();
  return ms;
}

export async function benchReplay(): Promise<BenchRow[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-replay-'));
  const month = benchMonth().bars;
  const { from: FROM, to: TO, bars: BARS } = benchWeek();
  await new TapeArchive(new FileTapeDays(scratch)).import('BTC', '1m', tuplesFromBars(month));
  const decide = await spawnServer('bench/decide-server.ts', {});
  const deck = await startDeck(readConfig({ PORT: '0', HOST: '127.0.0.1', DECK_LOG: 'silent', DECK_DATA: scratch, DECK_LOOPBACK_TARGETS: '1' }));
  try {
    const op = await signedIn(deck.url, 'bench_rail');
    const post = (path: string, body: unknown) =>
      fetch(`${deck.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...op.bearer }, body: JSON.stringify(body) }).then((r) => r.json());
    await post('/agent/models', { name: 'week', decide_url: decide.url, market: 'BTC' });
    const replay = async (hours: number): Promise<RunView> => {
      const started = await post('/agent/runs', { model: 'week', mode: 'replay', to: TO, hours });
      const id = (started as { run: { id: string } }).run.id;
      let run: RunView;
      do {
        await new Promise((r) => setTimeout(r, 50));
        run = ((await fetch(`${deck.url}/agent/runs/${id}`, { headers: op.bearer }).then((r) => r.json())) as { run: RunView }).run;
      } while (run.state === 'running');
      if (run.state !== 'done' || run.bars_done !== hours * 60) throw new Error(`the replay ended ${run.state} after ${run.bars_done} bars`);
      return run;
    };
    // The bodies the rail sends (the position as the replay's book holds it matters not to the fixture's timing).
    const week = barsToRows(month).filter((b) => b.t >= FROM && b.t < TO);
    const flat = { side: 'flat', size: 0, entry: null, stop: null, target: null };
    const bodies = week.map((bar, index) => ({ version: TYPED_DECISION_VERSION, model: 'week', run: 'run_0000000000000000', mode: 'replay', market: 'BTC', timeframe: '1m', bar, index, position: flat }));

    // Both sides warm (the decide() process and the deck's code), then the round trips alone before and after the
    // replay, so a machine that grows busier or quieter weighs on both.
    await roundTrips(decide.url, bodies.slice(0, 2000));
    await replay(24);
    const before = await roundTrips(decide.url, bodies);
    const run = await replay(168);
    const after = await roundTrips(decide.url, bodies);
    const replayMs = run.ended_at! - run.started_at;
    const aloneMs = (before + after) / 2;
    const perBar = (ms: number) => (ms * 1000) / BARS;
    return [
      {
        name: `agent rail: replay of ${BARS.toLocaleString('en-US')} BTC 1m bars against a local decide() answering at once (${run.orders} orders, ${run.fills} fills)`,
        value: (BARS / replayMs) * 1000,
        unit: 'bars/s',
      },
      {
        name: "agent rail: the deck's overhead per bar (the replay's time less the decide() round trips alone, per bar); baseline: one round trip alone (mean of a run before and one after the replay)",
        value: perBar(replayMs - aloneMs),
        unit: 'µs/bar',
        baseline: perBar(aloneMs),
      },
    ];
  } finally {
    deck.server.closeAllConnections();
    await deck.close();
    await decide.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchReplay(), null, 2)}\n`);
}
