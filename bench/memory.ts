import { join } from 'node:path';
import { ANSWERS_ENV, BARE_LIST_PATH } from './answers.js';
import { spawnServer, type Child } from './child.js';
import { collectGarbage, INSPECTED, inspectorOf } from './collector.js';
import { load, type Shot } from './load.js';
import { isDisturbed, loadPerCore } from './machine.js';
import { residentMiB } from './proc.js';
import { num, ratios, spread, type Row, type Trial } from './report.js';
import { MCP_CALL, MCP_LIST, PLANS } from './servers.js';
import { spreadOf } from './spread.js';

// Resident memory: what a fresh server grows by over 10,000 requests, the deck against a bare express app taking the
// same requests, a fresh pair per round. Each reading follows a full collection forced through the server's inspector,
// the same for both: without it a reading says mostly when the collector last ran (a major collection that happened
// to run just before one reading and not the other moved a round's ratio from 0.9x to 1.7x).

const ROUNDS = 5;
/** A pause after each load, so its connections have closed and their buffers are garbage, before the collection. */
const SETTLE_MS = 500;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const CONNECTIONS = 32;
const FIRST = 100;
const THEN = 10_000;

/** What a server holds after a forced full collection: its resident memory and its live heap, in MiB. */
interface Held {
  rss: number;
  heap: number;
}

async function held(server: Child): Promise<Held> {
  await settle();
  const { heapUsedMiB } = await collectGarbage(inspectorOf(server.logged));
  return { rss: await residentMiB(server.pid), heap: heapUsedMiB };
}

/** What a fresh server holds after FIRST requests and after THEN more (MCP calls, MCP lists and GET /plans in turn). */
async function growth(server: Child, shots: Shot[], started: Child[]): Promise<{ first: Held; then: Held }> {
  started.push(server);
  try {
    await load(server, shots, { connections: CONNECTIONS, amount: FIRST });
    const first = await held(server);
    await load(server, shots, { connections: CONNECTIONS, amount: THEN });
    return { first, then: await held(server) };
  } finally {
    await server.stop();
    started.splice(started.indexOf(server), 1);
  }
}

export async function memoryPiece(built: string, scratch: string, answersFile: string, started: Child[]): Promise<Row[]> {
  const trials: Trial[] = [];
  const deckGrowth: number[] = [];
  const bareGrowth: number[] = [];
  const deckHeap: number[] = [];
  const bareHeap: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = loadPerCore();
    const deck = await growth(await spawnServer(built, { DECK_DATA: join(scratch, `data-rss-${round}`), ...INSPECTED }), [MCP_CALL, MCP_LIST, PLANS], started);
    const bare = await growth(
      await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile, ...INSPECTED }),
      [MCP_CALL, { ...MCP_LIST, path: BARE_LIST_PATH }, PLANS],
      started,
    );
    deckGrowth.push(deck.then.rss - deck.first.rss);
    bareGrowth.push(bare.then.rss - bare.first.rss);
    deckHeap.push(deck.then.heap - deck.first.heap);
    bareHeap.push(bare.then.heap - bare.first.heap);
    trials.push({ value: (deck.then.rss - deck.first.rss) / (bare.then.rss - bare.first.rss), load: Math.max(before, loadPerCore()) });
    const said = (h: Held) => `${num(h.rss, 1)} MiB (heap ${num(h.heap, 1)})`;
    process.stderr.write(`  round ${round + 1}: deck ${said(deck.first)} then ${said(deck.then)}; bare express ${said(bare.first)} then ${said(bare.then)}\n`);
  }
  // The rounds pair a fresh deck with a fresh bare app, but their growths are independent draws: the deck's median is
  // held to the bare app's median and its worst round to the bare app's worst, each within the goal's 1.2x.
  const deck = spreadOf(deckGrowth);
  const bare = spreadOf(bareGrowth);
  const medianMet = deck.median <= 1.2 * bare.median;
  const worstMet = deck.max <= 1.2 * bare.max;
  const disturbed = trials.filter((t) => isDisturbed(t.load)).length;
  return [
    { measure: `resident memory growth from ${FIRST} to ${(FIRST + THEN).toLocaleString('en-US')} requests, each reading after a forced full collection: deck`, result: spread(deck, 'MiB', 1), ratio: '', goal: '', met: '' },
    { measure: 'live heap growth over the same requests, after the same collections: deck', result: spread(spreadOf(deckHeap), 'MiB', 1), ratio: '', goal: '', met: '' },
    { measure: 'live heap growth: bare express app', result: spread(spreadOf(bareHeap), 'MiB', 1), ratio: '', goal: '', met: '' },
    {
      measure: 'resident memory growth: bare express app, the same requests and collections (ratio: the deck\'s growth / its, median to median and worst to worst; each round\'s pair in brackets)',
      result: spread(bare, 'MiB', 1),
      ratio: `${(deck.median / bare.median).toFixed(2)}x median, ${(deck.max / bare.max).toFixed(2)}x worst (rounds ${ratios(spreadOf(trials.map((t) => t.value)))})`,
      goal: '<= 1.2x',
      met: `${medianMet && worstMet ? 'yes' : 'NO'} (median ${medianMet ? 'met' : 'missed'}, worst ${worstMet ? 'met' : 'missed'}; ${disturbed} of the ${trials.length} rounds ran disturbed)`,
    },
  ];
}

export const MEMORY_METHOD = { rounds: ROUNDS, connections: CONNECTIONS, first: FIRST, then: THEN };
