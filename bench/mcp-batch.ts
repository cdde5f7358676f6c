import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tuplesFromBars } from '../engine/bars.js';
import { startVenue } from '../test/fixtures/venue.js';
import { signedIn } from '../test/support/deck.js';
import { benchMonth } from './bars.js';
import { spawnServer } from './child.js';
import { peakResidentMiB } from './proc.js';

// `npx tsx bench/mcp-batch.ts [list:N | chart:N ...]` (not part of `npm run bench`): what one big JSON-RPC batch
// does to everyone else. Each scenario gets a fresh deck in its own process; while the batch is in flight a small
// request (a ping on /mcp) is sent every 10 ms, one at a time, and its answer times are kept. Prints, per scenario,
// the batch's status, size and time, how long the small requests waited (worst and median) and the deck's peak
// resident memory. list:N is an anonymous batch of N tools/list calls; chart:N a signed-in batch of N chart_image
// calls of one 500-bar BTC 1m window of the bench's month (drawn once before, so every call renders from sealed bars).

const month = benchMonth().bars;
/** Noon of the month's tenth day. */
const START = Math.floor(month.t[0]! / 86_400) * 86_400 + 9.5 * 86_400;
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
const WINDOW = { market: 'BTC', tf: '1m', from: iso(START), to: iso(START + 500 * 60), indicators: ['ema:20', 'bb:20:2'] };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PING = JSON.stringify({ jsonrpc: '2.0', id: 'probe', method: 'ping' });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const batchOf = (n: number, method: string, params?: Record<string, unknown>) =>
  JSON.stringify(Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })));

async function scenario(spec: string, venueUrl: string): Promise<string> {
  const [kind, count] = spec.split(':');
  const n = Number(count);
  const dataDir = await mkdtemp(join(tmpdir(), 'deck-batch-'));
  const deck = await spawnServer('main.ts', { DECK_DATA: dataDir, DECK_TAPE_URL: venueUrl, DECK_JOIN_PER_CLIENT: '1000' });
  try {
    let headers: Record<string, string> = HEADERS;
    let body: string;
    if (kind === 'chart') {
      headers = { ...HEADERS, ...(await signedIn(deck.url, 'batcher')).bearer };
      const once = await fetch(`${deck.url}/mcp`, { method: 'POST', headers, body: batchOf(1, 'tools/call', { name: 'chart_image', arguments: WINDOW }) });
      if (once.status !== 200) throw new Error(`chart_image answered ${once.status}: ${await once.text()}`);
      await once.arrayBuffer();
      body = batchOf(n, 'tools/call', { name: 'chart_image', arguments: WINDOW });
    } else if (kind === 'list') body = batchOf(n, 'tools/list');
    else throw new Error(`unknown scenario ${spec}: use list:N or chart:N`);

    const waits: number[] = [];
    let unanswered = 0;
    let done = false;
    const started = performance.now();
    let peak = 0;
    const batch = fetch(`${deck.url}/mcp`, { method: 'POST', headers, body })
      .then(async (res) => ({ status: `HTTP ${res.status}`, bytes: (await res.arrayBuffer()).byteLength }))
      .catch((error: Error) => ({ status: `no answer (${(error.cause as Error | undefined)?.message ?? error.message})`, bytes: 0 }))
      .then((answer) => {
        done = true;
        return { ...answer, ms: performance.now() - started };
      });
    while (!done) {
      const sent = performance.now();
      const answered = await fetch(`${deck.url}/mcp`, { method: 'POST', headers: HEADERS, body: PING }).then(
        async (res) => (await res.arrayBuffer(), res.status === 200),
        () => false,
      );
      waits.push(performance.now() - sent);
      if (!answered) unanswered++;
      peak = await peakResidentMiB(deck.pid).catch(() => peak);
      await sleep(10);
    }
    const b = await batch;
    peak = await peakResidentMiB(deck.pid).catch(() => peak);
    return (
      `${spec.padEnd(12)} batch ${b.status}, ${(b.bytes / 1024).toFixed(0)} KiB in ${b.ms.toFixed(0)} ms; ` +
      `${waits.length} pings meanwhile (${unanswered} failed), worst ${Math.max(...waits).toFixed(0)} ms, median ${median(waits).toFixed(1)} ms; ` +
      `peak RSS ${peak.toFixed(0)} MiB`
    );
  } finally {
    await deck.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const venue = await startVenue({ 'BTC/1m': tuplesFromBars(month) });
try {
  for (const spec of process.argv.slice(2).length ? process.argv.slice(2) : ['list:100', 'list:10000', 'list:75000', 'chart:50', 'chart:100']) {
    process.stdout.write(`${await scenario(spec, venue.url)}\n`);
  }
} finally {
  await venue.close();
}
