import { join } from 'node:path';
import { ANSWERS_ENV, BARE_LIST_PATH } from './answers.js';
import { spawnServer, type Child } from './child.js';
import { load, type Shot } from './load.js';
import { isDisturbed, loadPerCore } from './machine.js';
import { residentMiB } from './proc.js';
import { num, ratios, spread, type Row, type Trial } from './report.js';
import { MCP_CALL, MCP_LIST, PLANS } from './servers.js';
import { spreadOf } from './spread.js';

// Resident memory: what a fresh server grows by over 10,000 requests, the deck against a bare express app taking the
// same requests, a fresh pair per round.

const ROUNDS = 5;
/** A pause after each load before VmRSS is read, so the collector's background work of that load has settled. */
const SETTLE_MS = 500;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const CONNECTIONS = 32;
const FIRST = 100;
const THEN = 10_000;

/** VmRSS of a fresh server after FIRST requests and after THEN more (MCP calls, MCP lists and GET /plans in turn). */
async function growth(server: Child, shots: Shot[], started: Child[]): Promise<{ first: number; then: number }> {
  started.push(server);
  try {
    await load(server, shots, { connections: CONNECTIONS, amount: FIRST });
    await settle();
    const first = await residentMiB(server.pid);
    await load(server, shots, { connections: CONNECTIONS, amount: THEN });
    await settle();
    return { first, then: await residentMiB(server.pid) };
  } finally {
    await server.stop();
    started.splice(started.indexOf(server), 1);
  }
}

export async function memoryPiece(built: string, scratch: string, answersFile: string, started: Child[]): Promise<Row[]> {
  const trials: Trial[] = [];
  const deckGrowth: number[] = [];
  const bareGrowth: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = loadPerCore();
    const deck = await growth(await spawnServer(built, { DECK_DATA: join(scratch, `data-rss-${round}`) }), [MCP_CALL, MCP_LIST, PLANS], started);
    const bare = await growth(
      await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile }),
      [MCP_CALL, { ...MCP_LIST, path: BARE_LIST_PATH }, PLANS],
      started,
    );
    deckGrowth.push(deck.then - deck.first);
    bareGrowth.push(bare.then - bare.first);
    trials.push({ value: (deck.then - deck.first) / (bare.then - bare.first), load: Math.max(before, loadPerCore()) });
    process.stderr.write(
      `  round ${round + 1}: deck ${num(deck.first, 1)} then ${num(deck.then, 1)} MiB; bare express ${num(bare.first, 1)} then ${num(bare.then, 1)} MiB\n`,
    );
  }
  // The rounds pair a fresh deck with a fresh bare app, but their growths are independent draws: the deck's median is
  // held to the bare app's median and its worst round to the bare app's worst, each within the goal's 1.2x.
  const deck = spreadOf(deckGrowth);
  const bare = spreadOf(bareGrowth);
  const medianMet = deck.median <= 1.2 * bare.median;
  const worstMet = deck.max <= 1.2 * bare.max;
  const disturbed = trials.filter((t) => isDisturbed(t.load)).length;
  return [
    { measure: `resident memory growth from ${FIRST} to ${(FIRST + THEN).toLocaleString('en-US')} requests: deck`, result: spread(deck, 'MiB', 1), ratio: '', goal: '', met: '' },
    {
      measure: 'resident memory growth: bare express app, the same requests (ratio: the deck\'s growth / its, median to median and worst to worst; each round\'s pair in brackets)',
      result: spread(bare, 'MiB', 1),
      ratio: `${(deck.median / bare.median).toFixed(2)}x median, ${(deck.max / bare.max).toFixed(2)}x worst (rounds ${ratios(spreadOf(trials.map((t) => t.value)))})`,
      goal: '<= 1.2x',
      met: `${medianMet && worstMet ? 'yes' : 'NO'} (median ${medianMet ? 'met' : 'missed'}, worst ${worstMet ? 'met' : 'missed'}; ${disturbed} of the ${trials.length} rounds ran disturbed)`,
    },
  ];
}

export const MEMORY_METHOD = { rounds: ROUNDS, connections: CONNECTIONS, first: FIRST, then: THEN };
