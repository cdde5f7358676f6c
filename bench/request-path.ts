import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { signedIn } from '../test/support/deck.js';
import { grantsFile } from '../test/support/mcp.js';
import { spawnServer, type Child } from './child.js';
import { buildDeck } from './compiled.js';
import { loadLine, loadPerCore, machineLine } from './machine.js';
import { spread, table, verdict, type Row, type Trial } from './report.js';
import { spreadOf } from './spread.js';

// `npx tsx bench/request-path.ts`: how long a route's largest legal body holds the event loop, read as the worst
// delay of another client's GET /health (one at a time, PROBE_GAP_MS apart) while that body is sent, one request at
// a time, against the same ping's worst delay while nothing else is sent (the baseline), on a deck as npm start runs
// it. Heavy work is on the work pool; what is measured is what stays on the loop: reading the body, its schema, the
// answer's encoding.

const SENDS = 7;
const PROBE_GAP_MS = 2;
const GOAL_MS = 20;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The ping, one at a time: the worst delay seen since the last `take()`. */
function prober(url: string) {
  const dispatcher = new Agent({ connections: 1 });
  let worst = 0;
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const sent = performance.now();
      const res = await request(`${url}/health`, { dispatcher });
      await res.body.text();
      worst = Math.max(worst, performance.now() - sent);
      await sleep(PROBE_GAP_MS);
    }
  })();
  return {
    take(): number {
      const w = worst;
      worst = 0;
      return w;
    },
    async stop(): Promise<void> {
      stopped = true;
      await running;
      await dispatcher.close();
    },
  };
}

/** One route's largest legal body, as sent. */
interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** The status a legal body is answered with. */
  status: number;
}

const RULE = 'ES on the 1 minute chart, long and short: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';
/** Words that read as a note the reader passes over, to fill a forge's intent to its cap. */
const padding = (bytes: number) => ` Note: ${'the market is calm today and nothing else. '.repeat(Math.floor(bytes / 44))}`;

function cases(seed: string): Case[] {
  const png = Buffer.alloc(5 * 1024 * 1024 - 1024, 7);
  png.write('\x89PNG\r\n\x1a\n', 'binary');
  return [
    { name: 'POST /forge, an intent near the 256 KB cap', method: 'POST', path: '/forge', body: JSON.stringify({ intent: RULE + padding(250_000) }), status: 200 },
    { name: 'POST /studio/image, a 5 MiB image (7 MB of base64)', method: 'POST', path: '/studio/image', body: JSON.stringify({ data: png.toString('base64') }), status: 200 },
    {
      name: 'POST /studio/rehearse, 120 h of ES 1m with 4 folds and its verdict',
      method: 'POST',
      path: '/studio/rehearse',
      body: JSON.stringify({ seed_hash: seed, to: 1381525200, hours: 120, folds: 4 }),
      status: 200,
    },
    { name: 'GET /timetravel/candles, the ES week of 1m (the tape\'s largest answer here)', method: 'GET', path: '/timetravel/candles/ES/1m?from=1381104000&to=1381525200', status: 200 },
    {
      name: 'POST /mcp tools/call workflow_read, words at the 4,000-character cap',
      method: 'POST',
      path: '/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'workflow_read', arguments: { text: (RULE + padding(4_000)).slice(0, 4_000) } } }),
      status: 200,
    },
  ];
}

async function main(): Promise<void> {
  log(machineLine());
  const entry = await buildDeck();
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-path-'));
  const grants = await grantsFile([{ name: 'bench_house', tier: 'house' }]);
  let deck: Child | null = null;
  try {
    deck = await spawnServer(entry, { DECK_DATA: join(scratch, 'data'), DECK_GRANTS: grants, DECK_SAMPLE_TAPE: 'on', DECK_TAPE_URL: undefined });
    const { bearer } = await signedIn(deck.url, 'bench_house');
    const forged = (await (await fetch(`${deck.url}/forge`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ intent: RULE }) })).json()) as { seed_hash: string };
    const dispatcher = new Agent({ connections: 1 });
    const probe = prober(deck.url);
    const rows: Row[] = [];
    try {
      await sleep(500);
      for (const c of cases(forged.seed_hash)) {
        const send = async () => {
          const res = await request(`${deck!.url}${c.path}`, { dispatcher, method: c.method, headers: { ...bearer, ...(c.body ? { 'content-type': 'application/json' } : {}), ...c.headers }, ...(c.body ? { body: c.body } : {}) });
          const text = await res.body.text();
          if (res.statusCode !== c.status) throw new Error(`${c.name}: ${res.statusCode} ${text.slice(0, 300)}`);
        };
        await send(); // warm: the pool's threads, the seals, the JIT
        const held: Trial[] = [];
        const quiet: number[] = [];
        for (let i = 0; i < SENDS; i++) {
          await sleep(300);
          probe.take();
          await sleep(300);
          quiet.push(probe.take());
          const load = loadPerCore();
          await send();
          await sleep(2 * PROBE_GAP_MS + 5); // the ping that waited behind it comes back
          held.push({ value: probe.take(), load: Math.max(load, loadPerCore()) });
        }
        const during = spreadOf(held.map((t) => t.value));
        log(`${c.name}: the ping's worst ${during.median.toFixed(1)} ms (median of ${SENDS}), quiet ${spreadOf(quiet).median.toFixed(1)} ms`);
        rows.push({
          measure: `${c.name}: another client's GET /health, its worst delay while the body is sent and answered`,
          result: spread(during, 'ms', 1),
          ratio: `quiet ${spread(spreadOf(quiet), 'ms', 1)}`,
          goal: `< ${GOAL_MS} ms`,
          met: verdict(held, (v) => v < GOAL_MS).text,
        });
      }
    } finally {
      await probe.stop();
      await dispatcher.close();
    }
    process.stdout.write(`${machineLine()}\n${loadLine()}\n${SENDS} sends a route, one at a time; the ping every ${PROBE_GAP_MS} ms on a connection of its own\n\n${table(rows)}\n`);
  } finally {
    await deck?.stop();
    await rm(scratch, { recursive: true, force: true });
    await rm(join(grants, '..'), { recursive: true, force: true });
  }
}

await main();
