import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { tuplesFromBars } from '../engine/bars.js';
import { signedIn } from '../test/support/deck.js';
import { tapeFile } from '../test/support/tape-file.js';
import { TapeArchive } from '../store/tape-archive.js';
import { ANSWERS_ENV, type Answers } from './answers.js';
import { ROOT, spawnServer, type Child } from './child.js';
import { buildDeck } from './compiled.js';
import { ENGINE_BENCHES, engineRows } from './engine.js';
import type { BenchRow } from './indicators.js';
import { load, together, type Measure, type Run, type Shot } from './load.js';
import { residentMiB } from './proc.js';
import { firstAnswer, median, npmStartRows, npmStarts, runToExit, type Start } from './start.js';

// `npm run bench`: the deck against baselines measured in the same run. Every server runs in its own
// process; the load comes from this one and goes to one server at a time, in interleaved rounds so that
// other work on the machine weighs on the deck and its baselines alike. Then the engine benchmarks, each in
// its own process while no server runs. Prints two tables and writes bench/RESULTS.md.

const CONNECTIONS = 32;
/**
 * The sealed week answers about 800 KB. At 16 connections or more the load generator, not the server, sets the
 * pace (its CPU goes from half a core to nearly all of one while the deck's and the baseline's requests/s both
 * halve), so the tape is loaded with 8, where each server still answers as fast as it can.
 */
const TAPE_CONNECTIONS = 8;
const ROUNDS = 2;
/** Seconds per round: each server and call is loaded ROUNDS x ROUND_SECONDS in all. */
const ROUND_SECONDS = 5;
const WARM_SECONDS = 2;
const START_RUNS = 5;

const MCP_CALL: Shot = {
  method: 'POST',
  path: '/mcp/candles',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'catalogue', arguments: {} } }),
};
const PLANS: Shot = { method: 'GET', path: '/plans' };
/** The sealed window: 2025-03-02T00:00Z and the seven days after it, 10,080 BTC 1m bars. */
const WEEK_FROM = Date.UTC(2025, 2, 2) / 1000;
const WEEK_BARS = 7 * 24 * 60;
const WEEK_PATH = `/timetravel/candles/BTC/1m?from=${WEEK_FROM}&to=${WEEK_FROM + WEEK_BARS * 60}`;
const TSX_START = ['--import', 'tsx', 'main.ts'];

const thrice = async (f: () => Promise<number>) => median([await f(), await f(), await f()]);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function answerOf(url: string, shot: Shot): Promise<string> {
  const res = await fetch(`${url}${shot.path}`, { method: shot.method, headers: shot.headers, body: shot.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${shot.method} ${shot.path} answered ${res.status}: ${text}`);
  return text;
}

/** Fills an archive with the real BTC 1m month, as `npm run tape -- import` would, before the deck opens it. */
async function archiveTape(dataDir: string): Promise<void> {
  await new TapeArchive(dataDir).import('BTC', '1m', tuplesFromBars(tapeFile('BTC-1m')));
}

/**
 * Signs in over HTTP and asks for the week once, which seals it; answers the request with its session bearer
 * and the sealed bytes, after checking that they hold the whole week from the archive and do not change.
 */
async function sealedWeek(deck: Child): Promise<{ shot: Shot; bytes: string }> {
  const shot: Shot = { method: 'GET', path: WEEK_PATH, headers: (await signedIn(deck.url, 'bench')).bearer };
  const first = await answerOf(deck.url, shot);
  const { candles, coverage } = JSON.parse(first) as { candles: unknown[]; coverage: { source: string; sealed: boolean } };
  if (candles.length !== WEEK_BARS || coverage.source !== 'archive' || !coverage.sealed) {
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

interface Target {
  name: string;
  server: Child;
  shot: Shot;
}

/** VmRSS of a fresh server after 100 and after 10,000 requests (MCP catalogue calls and GET /plans, alternating). */
async function residentAfter(server: Child, servers: Child[]): Promise<[number, number]> {
  servers.push(server);
  await load(server, [MCP_CALL, PLANS], { connections: CONNECTIONS, amount: 100 });
  const first = await residentMiB(server.pid);
  await load(server, [MCP_CALL, PLANS], { connections: CONNECTIONS, amount: 9_900 });
  const then = await residentMiB(server.pid);
  await server.stop();
  servers.splice(servers.indexOf(server), 1);
  return [first, then];
}

/** Warms every target, then loads them in turn, round after round. */
async function compare(targets: Target[], connections = CONNECTIONS): Promise<Measure[]> {
  for (const t of targets) await load(t.server, [t.shot], { connections, seconds: WARM_SECONDS });
  const runs: Run[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const run = await load(t.server, [t.shot], { connections, seconds: ROUND_SECONDS });
      runs[i]!.push(run);
      log(`  ${t.name}, round ${round + 1}: ${(run.answered / run.seconds).toFixed(0)} req/s, p99 ${run.p99} ms`);
    }
  }
  return runs.map(together);
}

interface Row {
  measure: string;
  result: string;
  ratio: string;
  goal: string;
  met: boolean | null;
}

const x = (r: number) => `${r.toFixed(2)}x`;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const rate = (m: Measure) => `${m.rps.toFixed(0)} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99} ms, ${m.cpuUs.toFixed(0)} µs CPU/req`;
/** Throughput ratio (the goal's measure), then the ratio of CPU per request (robust on a shared machine). */
const versus = (deck: Measure, base: Measure) => `${x(deck.rps / base.rps)} (CPU ${x(base.cpuUs / deck.cpuUs)})`;
const resident = ([a, b]: [number, number]) => `${a.toFixed(1)} MiB / ${b.toFixed(1)} MiB (+${(b - a).toFixed(1)} MiB)`;
const startOf = (runs: Start[]) => `${ms(median(runs.map((r) => r.ms)))} (CPU ${ms(median(runs.map((r) => r.cpuMs)))})`;
const kib = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`;
const met = (m: boolean | null | undefined) => (m === null || m === undefined ? '' : m ? 'yes' : 'NO');
/** An engine figure (a benchmark answers NaN, which JSON carries as null, for what it could not measure). */
const amount = (value: number | null, unit: string) =>
  value === null || !Number.isFinite(value) ? 'not measured' : `${value.toFixed(unit === 'ece' ? 4 : Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0)} ${unit}`;

async function main() {
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const load0 = loadavg()[0]!;
  const servers: Child[] = [];
  try {
    log('building the deck as npm start does');
    const built = await buildDeck();
    const deckData = join(scratch, 'data');
    await archiveTape(deckData);
    const deck = await spawnServer(built, { DECK_DATA: deckData, DECK_TAPE_URL: undefined });
    servers.push(deck);
    const week = await sealedWeek(deck);
    const answers: Answers = { mcp: await answerOf(deck.url, MCP_CALL), plans: await answerOf(deck.url, PLANS), tape: week.bytes };
    const answersFile = join(scratch, 'answers.json');
    await writeFile(answersFile, JSON.stringify(answers));
    const sdk = await spawnServer('bench/bare-sdk.ts', { [ANSWERS_ENV]: answersFile });
    servers.push(sdk);
    const bare = await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile });
    servers.push(bare);
    await sameAs(sdk, MCP_CALL, answers.mcp, 'the bare SDK server');
    await sameAs(bare, MCP_CALL, answers.mcp, 'the bare express route');
    await sameAs(bare, PLANS, answers.plans, 'the bare express route');
    await sameAs(bare, week.shot, answers.tape, 'the bare express route');

    log('MCP tools/call catalogue on POST /mcp/candles');
    const [deckMcp, sdkMcp, bareMcp] = (await compare([
      { name: 'deck', server: deck, shot: MCP_CALL },
      { name: 'bare SDK server', server: sdk, shot: MCP_CALL },
      { name: 'bare express route', server: bare, shot: MCP_CALL },
    ])) as [Measure, Measure, Measure];
    log('REST GET /plans');
    const [deckPlans, barePlans] = (await compare([
      { name: 'deck', server: deck, shot: PLANS },
      { name: 'bare express route', server: bare, shot: PLANS },
    ])) as [Measure, Measure];
    log(`the sealed week on GET /timetravel/candles/BTC/1m (${kib(answers.tape)}), ${TAPE_CONNECTIONS} connections`);
    const [deckWeek, bareWeek] = (await compare(
      [
        { name: 'deck', server: deck, shot: week.shot },
        { name: 'bare express route', server: bare, shot: week.shot },
      ],
      TAPE_CONNECTIONS,
    )) as [Measure, Measure];
    await Promise.all(servers.splice(0).map((s) => s.stop()));

    log('start to first answer');
    const npm = npmStartRows(await npmStarts(START_RUNS));
    const tsxStarts: Start[] = [];
    for (let i = 0; i < START_RUNS; i++) tsxStarts.push(await firstAnswer(TSX_START));
    const nodeAlone = await thrice(() => runToExit(['-e', '0']));
    const withTsx = await thrice(() => runToExit(['--import', 'tsx', '-e', '0']));
    log(`  ${npm.map((r) => `${r.name}: ${ms(r.value)}`).join('; ')}; tsx ${startOf(tsxStarts)}`);

    log('resident memory after 100 and 10,000 requests');
    const deckRss = await residentAfter(await spawnServer(built, { DECK_DATA: join(scratch, 'data-rss') }), servers);
    const bareRss = await residentAfter(await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile }), servers);
    log(`  deck ${deckRss.map((m) => m.toFixed(1)).join(' then ')} MiB; bare express ${bareRss.map((m) => m.toFixed(1)).join(' then ')} MiB`);

    const engine: BenchRow[] = [];
    for (const name of ENGINE_BENCHES) {
      log(`engine: ${name}`);
      engine.push(...(await engineRows(name)));
    }
    const load1 = loadavg()[0]!;

    const rows: Row[] = [
      { measure: 'MCP tools/call catalogue: deck', result: rate(deckMcp), ratio: '', goal: 'p99 < 50 ms', met: deckMcp.p99 < 50 },
      { measure: 'MCP: (a) bare SDK server, new per request', result: rate(sdkMcp), ratio: versus(deckMcp, sdkMcp), goal: 'deck >= 3x (a)', met: deckMcp.rps >= 3 * sdkMcp.rps },
      { measure: 'MCP: (b) bare express route', result: rate(bareMcp), ratio: versus(deckMcp, bareMcp), goal: 'deck >= 0.5x (b)', met: deckMcp.rps >= 0.5 * bareMcp.rps },
      { measure: 'REST GET /plans: deck', result: rate(deckPlans), ratio: '', goal: '', met: null },
      { measure: 'REST GET /plans: bare express route', result: rate(barePlans), ratio: versus(deckPlans, barePlans), goal: 'deck >= 0.8x', met: deckPlans.rps >= 0.8 * barePlans.rps },
      { measure: `tape: sealed week of BTC 1m (${WEEK_BARS.toLocaleString('en-US')} bars) on GET /timetravel/candles, with a bearer: deck`, result: rate(deckWeek), ratio: '', goal: '', met: null },
      {
        measure: 'tape: the same bytes from memory: bare express route',
        result: rate(bareWeek),
        ratio: versus(deckWeek, bareWeek),
        goal: 'deck >= 0.5x',
        met: deckWeek.rps >= 0.5 * bareWeek.rps,
      },
      ...npm.map((r) => ({ measure: r.name, result: ms(r.value), ratio: '', goal: r.goal!, met: r.met! })),
      { measure: `start to first answer from source with the tsx loader (as the tests run it), median of ${START_RUNS}`, result: startOf(tsxStarts), ratio: '', goal: '', met: null },
      { measure: 'start: node alone / node with the tsx loader, to exit', result: `${ms(nodeAlone)} / ${ms(withTsx)}`, ratio: '', goal: '', met: null },
      { measure: 'resident memory after 100 / 10,000 requests: deck', result: resident(deckRss), ratio: x(deckRss[1] / deckRss[0]), goal: '<= 1.2x', met: deckRss[1] / deckRss[0] <= 1.2 },
      { measure: 'resident memory after 100 / 10,000 requests: bare express routes', result: resident(bareRss), ratio: x(bareRss[1] / bareRss[0]), goal: '', met: null },
    ];

    const machine = [
      `${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
      `Linux ${release()}, Node ${process.version}`,
      new Date().toISOString(),
      `load average ${load0.toFixed(1)} at the start and ${load1.toFixed(1)} at the end`,
    ].join('; ');
    const table = [
      '| measure | result | ratio | goal | met |',
      '|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.measure} | ${r.result} | ${r.ratio} | ${r.goal} | ${met(r.met)} |`),
    ].join('\n');
    const engineTable = [
      '| benchmark | result | baseline | ratio | goal | met |',
      '|---|---|---|---|---|---|',
      ...engine.map((r) => `| ${r.name} | ${amount(r.value, r.unit)} | ${r.baseline === undefined ? '' : amount(r.baseline, r.unit)} | ${r.ratio === undefined ? '' : x(r.ratio)} | ${r.goal ?? ''} | ${met(r.met)} |`),
    ].join('\n');
    process.stdout.write(`\n${machine}\n\n${table}\n\n${engineTable}\n`);
    await writeFile(
      join(ROOT, 'bench', 'RESULTS.md'),
      [
        '# Bench results',
        '',
        `Machine: ${machine}.`,
        '',
        '## Servers',
        '',
        table,
        '',
        '## Engine',
        '',
        engineTable,
        '',
        'The forecast\'s quality report, market by market with how its one choice was tuned and the touch odds, is [FORECAST.md](FORECAST.md).',
        '',
        '## Method',
        '',
        '- `npm run bench` (bench/run.ts), in this order: the build, the server measurements, the start measurements, the memory measurements, then the engine benchmarks, so that no server runs while they do.',
        `- The deck is built as \`npm start\` builds it (\`npm run build\`: an esbuild bundle in dist/) and run with \`node dist/main.js\`; the baselines run from source with the tsx loader. Every server runs in its own process; autocannon loads it from the bench process, one server at a time: a ${WARM_SECONDS} s warm-up each, then ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per server and call, with ${CONNECTIONS} connections (${TAPE_CONNECTIONS} for the tape).`,
        '- Ratios are the deck over the baseline, measured in the same run: requests/s (the goal\'s measure), and in brackets the baseline\'s server CPU per request over the deck\'s (from /proc, so it holds when other work shares the machine). p50 is the mean of the rounds\' medians, p99 the worst round\'s.',
        '- Every baseline answers the deck\'s exact bytes, checked before it is loaded. (a) is a new McpServer and StreamableHTTPServerTransport per request (sessionIdGenerator undefined, enableJsonResponse true) in the SDK\'s express app, with one tool answering the deck\'s catalogue result. (b) and the REST baselines are express routes (etag and x-powered-by off, as in the deck) answering the deck\'s bytes from memory; the MCP one does not read the request body.',
        '- The MCP call is a 2025-era tools/call of the keyless catalogue tool on POST /mcp/candles.',
        `- The tape: before the deck starts, its data directory's archive is filled with the real BTC 1m month (the shared tape's BTC-1m.csv, read and checked by the CSV reader \`npm run tape -- import\` uses, and kept as it keeps it) and the deck runs with no venue (DECK_TAPE_URL unset). The bench joins and logs in over HTTP and asks GET ${WEEK_PATH} (2025-03-02T00:00Z and the seven days after) with the session as bearer; that first answer seals the window, and the bench checks that it holds ${WEEK_BARS.toLocaleString('en-US')} bars from the archive and that asking again answers the same bytes. Those bytes (${kib(answers.tape)}) are what the deck and the bare express route then answer under load, with ${TAPE_CONNECTIONS} connections: at 16 or more, autocannon itself sets the pace (its CPU nearly doubles while both servers' requests/s halve).`,
        `- Start: the deck on fresh data, from spawn until GET /plans answers 200, ${START_RUNS} times; the CPU is what the process had spent by then. The goal's rows run \`npm start\` as a person types it, in a process group of its own whose running processes' CPU is counted: first on a tree whose dist/ was removed (the build is timed with the start), then on the tree that start built; the tsx row runs main.ts from source with the tsx loader, as the tests do, and is there for information, as is the row of node and of node with the tsx loader doing nothing.`,
        '- Resident memory is VmRSS of a fresh server after 100 and after 10,000 requests (MCP catalogue calls and GET /plans, alternating, 32 connections); the bare express routes take the same requests, as a reference for what the runtime itself grows by.',
        `- Engine: ${ENGINE_BENCHES.map((n) => `bench/${n}.ts`).join(', ')}, each in a fresh node process of its own (bench/engine.ts), one after the other, with no server running. Each row names what it measured and states its own goal; a ratio there is the peer's time over the deck's (the indicators against trading-signals, in the same process). The forecast's ece rows come from the same walk as FORECAST.md; \`npx tsx bench/forecast.ts\` rewrites that report, \`npm run bench\` does not.`,
        '- Tool lists (bench/tool-tokens.ts): the tokens of each MCP endpoint\'s tools/list (the tools array the house tier is listed, the longest), in the o200k_base encoding of gpt-tokenizer, which works offline from its package. Counted, not timed: the same code gives the same figure anywhere; test/tool-list.test.ts holds the same goals over a real MCP client.',
        '',
      ].join('\n'),
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
