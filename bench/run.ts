import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TAPE, benchMonth, benchWeek } from './bars.js';
import { ROOT, type Child } from './child.js';
import { buildDeck } from './compiled.js';
import { ENGINE_BENCHES, engineRows } from './engine.js';
import type { BenchRow } from './indicators.js';
import { DISTURBED_PER_CORE, loadLine, machineLine } from './machine.js';
import { MEMORY_METHOD, memoryPiece } from './memory.js';
import { rehearseHttpPiece } from './rehearse-http.js';
import { poolPiece } from './pool.js';
import { BOMBS_METHOD, bombsPiece } from './bombs.js';
import { table, type Row } from './report.js';
import { mcpPiece, METHOD, restPiece, ROUND_SECONDS, ROUNDS, startServers, tapePiece, WARM_SECONDS, weekPath } from './servers.js';
import { startPiece } from './start.js';

// `npm run bench`: the deck against baselines measured in the same run, in pieces: the servers (mcp, rest, tape),
// start, memory, the rehearsal over HTTP, then the engine benchmarks, each in its own process while no server runs.
// `npx tsx bench/run.ts mcp rest ...` runs only the pieces named and prints their tables; the whole run also writes
// bench/RESULTS.md. Every figure is given as the spread of its rounds, with the machine and its load, and a goal is
// met only when every round meets it: a round on a disturbed machine (load above 1.5 per core) still counts.

const PIECES = ['mcp', 'rest', 'tape', 'start', 'memory', 'rehearse', 'pool', 'bombs', 'engine'] as const;
type Piece = (typeof PIECES)[number];

const log = (line: string) => process.stderr.write(`${line}\n`);
const met = (m: boolean | undefined) => (m === undefined ? '' : m ? 'yes' : 'NO');
const x = (r: number) => `${r.toFixed(2)}x`;
/** An engine figure (a benchmark answers NaN, which JSON carries as null, for what it could not measure). */
const amount = (value: number | null, unit: string) =>
  value === null || !Number.isFinite(value) ? 'not measured' : `${value.toFixed(unit === 'ece' ? 4 : Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0)} ${unit}`;

function engineTable(rows: readonly BenchRow[]): string {
  return [
    '| benchmark | result | baseline | ratio | goal | met |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${amount(r.value, r.unit)} | ${r.baseline === undefined ? '' : amount(r.baseline, r.unit)} | ${r.ratio === undefined ? '' : x(r.ratio)} | ${r.goal ?? ''} | ${met(r.met)} |`),
  ].join('\n');
}

/** Every goal of the run and whether it was met, in one list: the goals missed first. */
function verdicts(rows: readonly Row[], engine: readonly BenchRow[]): string[] {
  const goals = [
    ...rows.filter((r) => r.goal).map((r) => ({ what: r.measure, goal: r.goal, met: r.met.startsWith('yes'), how: r.met })),
    ...engine.filter((r) => r.goal).map((r) => ({ what: r.name, goal: r.goal!, met: r.met === true, how: met(r.met) })),
  ];
  // A measure's name without its closing note on how the ratio is taken.
  const name = (what: string) => what.replace(/ \((ratio|median of|load)[^]*$/, '');
  const line = (g: (typeof goals)[number]) => `- ${g.met ? 'Met' : '**Not met**'}: ${name(g.what)}, goal ${g.goal}: ${g.how}.`;
  return [...goals.filter((g) => !g.met).map(line), ...goals.filter((g) => g.met).map(line)];
}

/** How the run measures, as RESULTS.md states it (the tape's lines name the bars the run read). */
const methodLines = () => [
  '- `npm run bench` (bench/run.ts), in this order: the build, the servers (MCP, REST, the tape), start, memory, the rehearsal over HTTP, the work pool (rehearsals at once), JSON bombs, then the engine benchmarks, so that no server runs while they do. `npx tsx bench/run.ts <piece> ...` runs only the pieces named (mcp, rest, tape, start, memory, rehearse, pool, bombs, engine) and prints their tables.',
  `- The deck is built and run as \`npm start\` does (\`npm run build\`, then \`node dist/main.js\`); the baselines run from source with the tsx loader. Every server runs in its own process; autocannon loads it from the bench process, one server at a time: a ${WARM_SECONDS} s warm-up each, then ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per server and request, with ${METHOD.connections} connections (${METHOD.tapeConnections} for the tape).`,
  '- Every server goal is a ratio of server CPU per answered request, user and system, every thread, read from the kernel\'s scheduler statistics (/proc/<pid>/task/*/schedstat), between the deck and a baseline in the same round: so it measures work done, not how much of the machine the server was given. Requests/s and latency are shown beside it. A figure is the min / median / max of its rounds; a ratio\'s rounds are each round\'s ratio.',
  `- A round is disturbed when the one-minute load average is above ${DISTURBED_PER_CORE} per core before or after it (other work then shares the cores). A goal is met only when every round meets it, disturbed rounds included; the verdict says how many rounds met it and how many ran disturbed. The machine line gives the load at the start and the end of the run.`,
  '- Every baseline answers the deck\'s exact bytes, checked before it is loaded. (a) is a new McpServer and StreamableHTTPServerTransport per request (sessionIdGenerator undefined, enableJsonResponse true) in the SDK\'s express app, with one tool answering the deck\'s catalogue result and tools/list answering the deck\'s listing. (b) and the REST baselines are express routes (etag and x-powered-by off, as in the deck) answering the deck\'s bytes from memory; the MCP ones do not read the request body (tools/list has a path of its own) and the signed-in one does not read its bearer. (c) and the REST rows after it are the same express app on the deck\'s own server (rest/http-server.ts), whose requests and responses are born with express\'s prototypes: express\'s Object.setPrototypeOf of each request and response then changes nothing. They hold no goal (the goals are against the bare app as express serves it by default); they show what the deck\'s own work costs over the floor an express app served that way has.',
  '- MCP requests are 2025-era (no protocol claim in `_meta`) on the candles seller endpoint, keyless: tools/call of the catalogue tool, and tools/list. The signed-in REST read is GET /me with the session of a principal the bench joined and logged in over HTTP.',
  `- The bars: ${benchMonth().source} (44,640 BTC 1m bars without a hole), read from the real candles shipped in tape/sample/ unless ${BENCH_TAPE} names a folder of longer tape files. The forecast's quality rows read that folder's files as they are (bench/forecast.ts).`,
  `- The tape: before the deck starts, its data directory's archive is filled with that month (as \`npm run tape -- import\` fills it) and the deck runs with no venue (DECK_TAPE_URL unset). GET ${weekPath()} (${new Date(benchWeek().from * 1000).toISOString().replace('.000Z', 'Z')} and the seven days after) with the session as bearer; the first answer seals the window, and the bench checks that it holds ${benchWeek().bars.toLocaleString('en-US')} bars from the archive and that asking again answers the same bytes.`,
  '- Start: the deck on fresh data, from spawn until GET /plans answers 200; the CPU is what the process had spent by then. The goal\'s row runs `node dist/main.js` as `npm start` does after its build (the build is not timed).',
  `- Memory: VmRSS of a fresh server after ${MEMORY_METHOD.first} requests and after ${MEMORY_METHOD.then.toLocaleString('en-US')} more (MCP tools/call, MCP tools/list and GET /plans in turn, ${MEMORY_METHOD.connections} connections); the growth between them, the deck against a bare express app taking the same requests, a fresh pair in each of ${MEMORY_METHOD.rounds} rounds. Both run with their inspector open (node --inspect on a loopback port), and each reading is taken half a second after its load and just after a full collection forced through the inspector (HeapProfiler.collectGarbage), the same way for the deck and the bare app: a reading then says what the server holds, not when its collector last ran. The live heap left by the same collections is shown beside it. The goal holds the deck's median growth to the bare app's median and its worst round to the bare app's worst; each round's own ratio is shown too.`,
  '- The rehearsal over HTTP: the built deck on the BTC archive, no venue; a house principal forges the onboarded EMA cross and POSTs /studio/rehearse for 744 hours ending at the tape\'s last close. The first rehearsal seals the windows and is not timed; each timed one is request to last byte, and must answer the same bytes.',
  `- JSON bombs: the built deck on fresh data; another client pings /mcp (JSON-RPC ping, one at a time, ${BOMBS_METHOD.gapMs} ms apart, on a connection of its own) for ${BOMBS_METHOD.roundMs / 1000} s with nothing else running (the baseline), then for ${BOMBS_METHOD.roundMs / 1000} s while ${BOMBS_METHOD.bombers} anonymous clients each send a bomb again as soon as it is answered (${BOMBS_METHOD.bombs}), after ${BOMBS_METHOD.warmMs / 1000} s of them; ${BOMBS_METHOD.rounds} such rounds. A figure is the round's p99; the ratio is each round's p99 under bombs over its p99 at rest, and the goal holds every round's p99 under bombs.`,
  `- Engine: ${ENGINE_BENCHES.map((n) => `bench/${n}.ts`).join(', ')}, each in a fresh node process of its own (bench/engine.ts), one after the other, with no server running. Each row names what it measured and states its own goal, if it has one; a ratio there is the peer's time over the deck's (the indicators against trading-signals, in the same process). The forecast's ece rows come from the same walk as FORECAST.md; \`npx tsx bench/forecast.ts\` rewrites that report, \`npm run bench\` does not.`,
];

async function main() {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((p) => !(PIECES as readonly string[]).includes(p));
  if (unknown.length) throw new Error(`no bench piece ${unknown.join(', ')}; the pieces are ${PIECES.join(', ')}`);
  const pieces = new Set<Piece>(asked.length ? (asked as Piece[]) : PIECES);
  const whole = pieces.size === PIECES.length;
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const loadAtStart = loadLine();
  const started: Child[] = [];
  const rows: Row[] = [];
  const engine: BenchRow[] = [];
  try {
    log('building the deck as npm start does');
    const built = await buildDeck();
    let answersFile: string | null = null;
    if (pieces.has('mcp') || pieces.has('rest') || pieces.has('tape') || pieces.has('memory')) {
      const s = await startServers(built, scratch, started);
      answersFile = s.answersFile;
      if (pieces.has('mcp')) rows.push(...(await mcpPiece(s)));
      if (pieces.has('rest')) rows.push(...(await restPiece(s)));
      if (pieces.has('tape')) rows.push(...(await tapePiece(s)));
      await Promise.all(started.splice(0).map((c) => c.stop()));
    }
    if (pieces.has('start')) {
      log('start to first answer');
      rows.push(...(await startPiece(built)));
    }
    if (pieces.has('memory') && answersFile) {
      log('resident memory growth over 10,000 requests');
      rows.push(...(await memoryPiece(built, scratch, answersFile, started)));
    }
    if (pieces.has('rehearse')) {
      log('POST /studio/rehearse over HTTP');
      rows.push(...(await rehearseHttpPiece(built, scratch, started)));
    }
    if (pieces.has('pool')) {
      log('the work pool: rehearsals at once and a ping beside them');
      rows.push(...(await poolPiece(built, scratch, started)));
    }
    if (pieces.has('bombs')) {
      log("another client's ping while JSON bombs run");
      rows.push(...(await bombsPiece(built, scratch, started)));
    }
    if (pieces.has('engine')) {
      for (const name of ENGINE_BENCHES) {
        log(`engine: ${name}`);
        engine.push(...(await engineRows(name)));
      }
    }
  } finally {
    await Promise.all(started.map((c) => c.stop()));
    await rm(scratch, { recursive: true, force: true });
  }

  const machine = `${machineLine()}; ${new Date().toISOString()}; at the start ${loadAtStart}; at the end ${loadLine()}`;
  const tables = [rows.length ? table(rows) : '', engine.length ? engineTable(engine) : ''].filter(Boolean);
  process.stdout.write(`\n${machine}\n\n${tables.join('\n\n')}\n`);
  if (!whole) return;
  await writeFile(
    join(ROOT, 'bench', 'RESULTS.md'),
    [
      '# Bench results',
      '',
      `Machine: ${machine}.`,
      '',
      '## Verdicts',
      '',
      ...verdicts(rows, engine),
      '',
      '## Servers, start, memory, the rehearsal over HTTP',
      '',
      table(rows),
      '',
      '## Engine',
      '',
      engineTable(engine),
      '',
      'The forecast\'s quality report, market by market with how its one choice was tuned and the touch odds, is [FORECAST.md](FORECAST.md).',
      '',
      '## Method',
      '',
      ...methodLines(),
      '',
    ].join('\n'),
  );
}

await main();
