import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tuplesFromBars } from '../engine/bars.js';
import { TapeArchive } from '../store/tape-archive.js';
import { FileTapeDays } from '../store/tape-days.js';
import { signedIn } from '../test/support/deck.js';
import { ANSWERS_ENV, BARE_LIST_PATH, type Answers } from './answers.js';
import { benchMonth, benchWeek } from './bars.js';
import { spawnServer, type Child } from './child.js';
import { cpuUsOf, load, rpsOf, together, type Measure, type Shot } from './load.js';
import { num, ratios, spread, spreadOfTrials, verdict, type Row, type Trial } from './report.js';

// The deck against bare servers answering its very bytes, each in its own process, loaded from this one a server at
// a time in interleaved rounds, so that other work on the machine weighs on the deck and its baselines alike. Every
// goal is a ratio of server CPU per request (from /proc) between the deck and a baseline in the same round.

const CONNECTIONS = 32;
/**
 * The sealed week answers about 800 KB. At 16 connections or more the load generator, not the server, sets the
 * pace (its CPU goes from half a core to nearly all of one while the deck's and the baseline's requests/s both
 * halve), so the tape is loaded with 8, where each server still answers as fast as it can.
 */
const TAPE_CONNECTIONS = 8;
export const ROUNDS = 5;
/** Seconds per round: each server and call is loaded ROUNDS x ROUND_SECONDS in all. */
export const ROUND_SECONDS = 3;
export const WARM_SECONDS = 2;

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) });
export const MCP_CALL: Shot = { method: 'POST', path: '/mcp/candles', headers: MCP_HEADERS, body: rpc('tools/call', { name: 'catalogue', arguments: {} }) };
export const MCP_LIST: Shot = { method: 'POST', path: '/mcp/candles', headers: MCP_HEADERS, body: rpc('tools/list') };
export const PLANS: Shot = { method: 'GET', path: '/plans' };
/** The sealed window: the month's first whole week of BTC 1m (benchWeek), 10,080 bars. */
export function weekPath(): string {
  const week = benchWeek();
  return `/timetravel/candles/BTC/1m?from=${week.from}&to=${week.to}`;
}

async function answerOf(url: string, shot: Shot): Promise<string> {
  const res = await fetch(`${url}${shot.path}`, { method: shot.method, headers: shot.headers, body: shot.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${shot.method} ${shot.path} answered ${res.status}: ${text}`);
  return text;
}

/** Fills an archive with the BTC 1m month (benchMonth), as `npm run tape -- import` would, before the deck opens it. */
export async function archiveTape(dataDir: string): Promise<void> {
  await new TapeArchive(new FileTapeDays(dataDir)).import('BTC', '1m', tuplesFromBars(benchMonth().bars));
}

/**
 * Asks for the week once with a session bearer, which seals it; answers the request and the sealed bytes, after
 * checking that they hold the whole week from the archive and do not change.
 */
async function sealedWeek(deck: Child, bearer: Record<string, string>): Promise<{ shot: Shot; bytes: string }> {
  const shot: Shot = { method: 'GET', path: weekPath(), headers: bearer };
  const first = await answerOf(deck.url, shot);
  const { candles, coverage } = JSON.parse(first) as { candles: unknown[]; coverage: { source: string; sealed: boolean } };
  if (candles.length !== benchWeek().bars || coverage.source !== 'archive' || !coverage.sealed) {
    throw new Error(`the week answered ${candles.length} bars from the ${coverage.source}, sealed ${coverage.sealed}`);
  }
  const bytes = await answerOf(deck.url, shot);
  if (bytes !== first) throw new Error('the sealed week answered different bytes the second time');
  return { shot, bytes };
}

/** A baseline is only a baseline if it answers the very bytes the deck answers. */
async function sameAs(server: Child, shot: Shot, deck: string, who: string) {
  const text = await answerOf(server.url, shot);
  if (text !== deck) throw new Error(`${who} does not answer ${shot.path} with the deck's bytes:\n${text.slice(0, 1000)}\n!=\n${deck.slice(0, 1000)}`);
}

export interface Servers {
  deck: Child;
  sdk: Child;
  bare: Child;
  /** The bare express app on the deck's own server (rest/http-server.ts). */
  born: Child;
  /** GET /me and the sealed week, each with a session bearer. */
  me: Shot;
  week: Shot;
  answers: Answers;
  answersFile: string;
}

/** Starts the built deck on an archive holding the BTC month, signs in, seals the week, and starts the baselines. */
export async function startServers(built: string, scratch: string, started: Child[]): Promise<Servers> {
  const deckData = join(scratch, 'data');
  await archiveTape(deckData);
  const deck = await spawnServer(built, { DECK_DATA: deckData, DECK_TAPE_URL: undefined });
  started.push(deck);
  const bearer = (await signedIn(deck.url, 'bench')).bearer;
  const week = await sealedWeek(deck, bearer);
  const me: Shot = { method: 'GET', path: '/me', headers: bearer };
  const answers: Answers = {
    mcpCall: await answerOf(deck.url, MCP_CALL),
    mcpList: await answerOf(deck.url, MCP_LIST),
    plans: await answerOf(deck.url, PLANS),
    me: await answerOf(deck.url, me),
    tape: week.bytes,
  };
  const answersFile = join(scratch, 'answers.json');
  await writeFile(answersFile, JSON.stringify(answers));
  const sdk = await spawnServer('bench/bare-sdk.ts', { [ANSWERS_ENV]: answersFile });
  started.push(sdk);
  const bare = await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile });
  started.push(bare);
  const born = await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile, BENCH_BORN: '1' });
  started.push(born);
  await sameAs(sdk, MCP_CALL, answers.mcpCall, 'the bare SDK server');
  await sameAs(sdk, MCP_LIST, answers.mcpList, 'the bare SDK server');
  const routes: [Shot, string][] = [
    [MCP_CALL, answers.mcpCall],
    [{ ...MCP_LIST, path: BARE_LIST_PATH }, answers.mcpList],
    [PLANS, answers.plans],
    [me, answers.me],
    [week.shot, answers.tape],
  ];
  for (const [server, who] of [[bare, 'the bare express app'], [born, "the bare express app on the deck's server"]] as const) {
    for (const [shot, bytes] of routes) await sameAs(server, shot, bytes, who);
  }
  return { deck, sdk, bare, born, me, week: week.shot, answers, answersFile };
}

interface Target {
  name: string;
  server: Child;
  shot: Shot;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Warms every target, then loads them in turn, round after round: round i of each target ran side by side. */
async function compare(targets: Target[], connections = CONNECTIONS): Promise<Measure[]> {
  for (const t of targets) await load(t.server, [t.shot], { connections, seconds: WARM_SECONDS });
  const runs = targets.map(() => [] as Measure['runs']);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const run = await load(t.server, [t.shot], { connections, seconds: ROUND_SECONDS });
      runs[i]!.push(run);
      log(`  ${t.name}, round ${round + 1}: ${rpsOf(run).toFixed(0)} req/s, ${cpuUsOf(run).toFixed(0)} µs CPU/req, load ${run.load.toFixed(2)} per core`);
    }
  }
  return runs.map(together);
}

/** Per round: the deck's CPU per request over the baseline's, and the higher load of the two runs. */
const cpuRatios = (deck: Measure, base: Measure, over: 'deck' | 'base'): Trial[] =>
  deck.runs.map((d, i) => {
    const b = base.runs[i]!;
    return { value: over === 'deck' ? cpuUsOf(d) / cpuUsOf(b) : cpuUsOf(b) / cpuUsOf(d), load: Math.max(d.load, b.load) };
  });

/** The third baseline: no goal, it shows what the deck's own work costs over the floor of an express app served its way. */
const BORN = "the same bare express route on the deck's server, its requests born with express's prototypes";

const serverFigure = (m: Measure) =>
  `${spread(m.cpuUs, 'µs CPU/req', 0)}; ${spread(m.rps, 'req/s', 0)}; p50 ${num(m.p50, 1)} ms, p99 ${m.p99} ms`;

/** A baseline's row: its figure and its ratio to the deck, held to a goal when it has one. */
function ratioRow(measure: string, base: Measure, trials: Trial[], goal?: { goal: string; ok: (v: number) => boolean }): Row {
  return { measure, result: serverFigure(base), ratio: ratios(spreadOfTrials(trials)), goal: goal?.goal ?? '', met: goal ? verdict(trials, goal.ok).text : '' };
}

const deckRow = (measure: string, deck: Measure): Row => ({ measure, result: serverFigure(deck), ratio: '', goal: '', met: '' });

/** An MCP request on the seller endpoint: the deck against a bare SDK server per request and a bare express route. */
async function mcpRows(s: Servers, what: string, shot: Shot, barePath: string): Promise<Row[]> {
  log(`MCP ${what} on POST /mcp/candles`);
  const [deck, sdk, bare, born] = (await compare([
    { name: 'deck', server: s.deck, shot },
    { name: 'bare SDK server', server: s.sdk, shot },
    { name: 'bare express route', server: s.bare, shot: { ...shot, path: barePath } },
    { name: "bare express route on the deck's server", server: s.born, shot: { ...shot, path: barePath } },
  ])) as [Measure, Measure, Measure, Measure];
  return [
    deckRow(`MCP ${what} on /mcp/candles (2025 era, keyless): deck`, deck),
    ratioRow(`MCP ${what}: (a) bare SDK server built per request (ratio: its CPU / the deck's)`, sdk, cpuRatios(deck, sdk, 'base'), { goal: '>= 3x', ok: (v) => v >= 3 }),
    ratioRow(`MCP ${what}: (b) bare express route, the same bytes (ratio: the deck's CPU / its)`, bare, cpuRatios(deck, bare, 'deck'), { goal: '<= 1.25x', ok: (v) => v <= 1.25 }),
    ratioRow(`MCP ${what}: (c) ${BORN} (ratio: the deck's CPU / its)`, born, cpuRatios(deck, born, 'deck')),
  ];
}

/** A REST read: the deck against a bare express route answering its bytes (ratio: the route's CPU / the deck's). */
async function restRows(s: Servers, what: string, shot: Shot, goal: number, connections = CONNECTIONS): Promise<Row[]> {
  log(`REST ${what}${connections === CONNECTIONS ? '' : `, ${connections} connections`}`);
  const [deck, bare, born] = (await compare(
    [
      { name: 'deck', server: s.deck, shot },
      { name: 'bare express route', server: s.bare, shot },
      { name: "bare express route on the deck's server", server: s.born, shot },
    ],
    connections,
  )) as [Measure, Measure, Measure];
  return [
    deckRow(`${what}: deck`, deck),
    ratioRow(`${what}: bare express route, the same bytes (ratio: its CPU / the deck's)`, bare, cpuRatios(deck, bare, 'base'), { goal: `>= ${goal}x`, ok: (v) => v >= goal }),
    ratioRow(`${what}: ${BORN} (ratio: its CPU / the deck's)`, born, cpuRatios(deck, born, 'base')),
  ];
}

export const mcpPiece = async (s: Servers): Promise<Row[]> => [
  ...(await mcpRows(s, 'tools/call catalogue', MCP_CALL, MCP_CALL.path!)),
  ...(await mcpRows(s, 'tools/list', MCP_LIST, BARE_LIST_PATH)),
];

export const restPiece = async (s: Servers): Promise<Row[]> => [
  ...(await restRows(s, 'REST GET /plans, anonymous', PLANS, 0.9)),
  ...(await restRows(s, 'REST GET /me with a session bearer', s.me, 0.9)),
];

export const tapePiece = async (s: Servers): Promise<Row[]> =>
  restRows(s, `tape: the sealed week of BTC 1m (${benchWeek().bars.toLocaleString('en-US')} bars, ${(Buffer.byteLength(s.answers.tape) / 1024).toFixed(0)} KiB) on GET /timetravel/candles with a bearer`, s.week, 0.5, TAPE_CONNECTIONS);

export const METHOD = {
  connections: CONNECTIONS,
  tapeConnections: TAPE_CONNECTIONS,
};
