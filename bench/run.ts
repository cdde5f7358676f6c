import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { ANSWERS_ENV, type Answers } from './answers.js';
import { ROOT, spawnServer, type Child } from './child.js';
import { buildDeck } from './compiled.js';
import { load, together, type Measure, type Run, type Shot } from './load.js';
import { residentMiB } from './proc.js';
import { firstAnswer, median, runToExit, type Start } from './start.js';

// `npm run bench`: the deck against baselines measured in the same run. Every server runs in its own
// process; the load comes from this one and goes to one server at a time, in interleaved rounds so that
// other work on the machine weighs on the deck and its baselines alike. Prints a table and writes
// bench/RESULTS.md.

const CONNECTIONS = 32;
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
const TSX_START = ['--import', 'tsx', 'main.ts'];

const thrice = async (f: () => Promise<number>) => median([await f(), await f(), await f()]);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function answerOf(url: string, shot: Shot): Promise<string> {
  const res = await fetch(`${url}${shot.path}`, { method: shot.method, headers: shot.headers, body: shot.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${shot.method} ${shot.path} answered ${res.status}: ${text}`);
  return text;
}

/** A baseline is only a baseline if it answers the very bytes the deck answers. */
async function sameAs(server: Child, shot: Shot, deck: string, who: string) {
  const text = await answerOf(server.url, shot);
  if (text !== deck) throw new Error(`${who} does not answer ${shot.path} with the deck's bytes:\n${text}\n!=\n${deck}`);
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
async function compare(targets: Target[]): Promise<Measure[]> {
  for (const t of targets) await load(t.server, [t.shot], { connections: CONNECTIONS, seconds: WARM_SECONDS });
  const runs: Run[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const run = await load(t.server, [t.shot], { connections: CONNECTIONS, seconds: ROUND_SECONDS });
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

async function main() {
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const load0 = loadavg()[0]!;
  const servers: Child[] = [];
  try {
    const deck = await spawnServer('main.ts', { DECK_DATA: join(scratch, 'data') });
    servers.push(deck);
    const answers: Answers = { mcp: await answerOf(deck.url, MCP_CALL), plans: await answerOf(deck.url, PLANS) };
    const answersFile = join(scratch, 'answers.json');
    await writeFile(answersFile, JSON.stringify(answers));
    const sdk = await spawnServer('bench/bare-sdk.ts', { [ANSWERS_ENV]: answersFile });
    servers.push(sdk);
    const bare = await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile });
    servers.push(bare);
    await sameAs(sdk, MCP_CALL, answers.mcp, 'the bare SDK server');
    await sameAs(bare, MCP_CALL, answers.mcp, 'the bare express route');
    await sameAs(bare, PLANS, answers.plans, 'the bare express route');

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
    await Promise.all(servers.splice(0).map((s) => s.stop()));

    log('start to first answer');
    const tsxStarts: Start[] = [];
    for (let i = 0; i < START_RUNS; i++) tsxStarts.push(await firstAnswer(TSX_START));
    const nodeAlone = await thrice(() => runToExit(['-e', '0']));
    const withTsx = await thrice(() => runToExit(['--import', 'tsx', '-e', '0']));
    let compiled: Start[] | string;
    try {
      const main = await buildDeck();
      compiled = [];
      for (let i = 0; i < START_RUNS; i++) compiled.push(await firstAnswer([main]));
    } catch (error) {
      compiled = (error as Error).message.split('\n')[0]!;
    }
    log(`  tsx ${startOf(tsxStarts)}; compiled ${typeof compiled === 'string' ? compiled : startOf(compiled)}`);

    log('resident memory after 100 and 10,000 requests');
    const deckRss = await residentAfter(await spawnServer('main.ts', { DECK_DATA: join(scratch, 'data-rss') }), servers);
    const bareRss = await residentAfter(await spawnServer('bench/bare-express.ts', { [ANSWERS_ENV]: answersFile }), servers);
    log(`  deck ${deckRss.map((m) => m.toFixed(1)).join(' then ')} MiB; bare express ${bareRss.map((m) => m.toFixed(1)).join(' then ')} MiB`);

    const rows: Row[] = [
      { measure: 'MCP tools/call catalogue: deck', result: rate(deckMcp), ratio: '', goal: 'p99 < 50 ms', met: deckMcp.p99 < 50 },
      { measure: 'MCP: (a) bare SDK server, new per request', result: rate(sdkMcp), ratio: versus(deckMcp, sdkMcp), goal: 'deck >= 3x (a)', met: deckMcp.rps >= 3 * sdkMcp.rps },
      { measure: 'MCP: (b) bare express route', result: rate(bareMcp), ratio: versus(deckMcp, bareMcp), goal: 'deck >= 0.5x (b)', met: deckMcp.rps >= 0.5 * bareMcp.rps },
      { measure: 'REST GET /plans: deck', result: rate(deckPlans), ratio: '', goal: '', met: null },
      { measure: 'REST GET /plans: bare express route', result: rate(barePlans), ratio: versus(deckPlans, barePlans), goal: 'deck >= 0.8x', met: deckPlans.rps >= 0.8 * barePlans.rps },
      {
        measure: `start to first answer, as npm start runs it (node dist/main.js), median of ${START_RUNS}`,
        result: typeof compiled === 'string' ? `not measured: ${compiled}` : startOf(compiled),
        ratio: '',
        goal: '< 1000 ms',
        met: typeof compiled !== 'string' && median(compiled.map((s) => s.ms)) < 1000,
      },
      { measure: `start to first answer from source with the tsx loader (as the tests run it), median of ${START_RUNS}`, result: startOf(tsxStarts), ratio: '', goal: '', met: null },
      { measure: 'start: node alone / node with the tsx loader, to exit', result: `${ms(nodeAlone)} / ${ms(withTsx)}`, ratio: '', goal: '', met: null },
      { measure: 'resident memory after 100 / 10,000 requests: deck', result: resident(deckRss), ratio: x(deckRss[1] / deckRss[0]), goal: '<= 1.2x', met: deckRss[1] / deckRss[0] <= 1.2 },
      { measure: 'resident memory after 100 / 10,000 requests: bare express routes', result: resident(bareRss), ratio: x(bareRss[1] / bareRss[0]), goal: '', met: null },
    ];

    const machine = [
      `${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
      `Linux ${release()}, Node ${process.version}`,
      new Date().toISOString(),
      `load average ${load0.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end`,
    ].join('; ');
    const table = [
      '| measure | result | ratio | goal | met |',
      '|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.measure} | ${r.result} | ${r.ratio} | ${r.goal} | ${r.met === null ? '' : r.met ? 'yes' : 'NO'} |`),
    ].join('\n');
    process.stdout.write(`\n${machine}\n\n${table}\n`);
    await writeFile(
      join(ROOT, 'bench', 'RESULTS.md'),
      [
        '# Bench results',
        '',
        `Machine: ${machine}.`,
        '',
        table,
        '',
        '## Method',
        '',
        `- \`npm run bench\` (bench/run.ts). Every server runs in its own process, started as \`npm start\` starts the deck (node with the tsx loader); autocannon loads it from the bench process with ${CONNECTIONS} connections, one server at a time: a ${WARM_SECONDS} s warm-up each, then ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per server and call.`,
        '- Ratios are the deck over the baseline, measured in the same run: requests/s (the goal\'s measure), and in brackets the baseline\'s server CPU per request over the deck\'s (from /proc, so it holds when other work shares the machine). p50 is the mean of the rounds\' medians, p99 the worst round\'s.',
        '- Every baseline answers the deck\'s exact bytes, checked before it is loaded. (a) is a new McpServer and StreamableHTTPServerTransport per request (sessionIdGenerator undefined, enableJsonResponse true) in the SDK\'s express app, with one tool answering the deck\'s catalogue result. (b) and the REST baseline are express routes (etag and x-powered-by off, as in the deck) answering the deck\'s JSON; the MCP one does not read the request body.',
        '- The MCP call is a 2025-era tools/call of the keyless catalogue tool on POST /mcp/candles.',
        '- Start runs the deck on fresh data until GET /plans answers 200; the CPU is what the process had spent by then. The compiled row runs the same code emitted by tsc (no type check) with plain node, to show what the tsx loader costs.',
        '- Resident memory is VmRSS of a fresh server after 100 and after 10,000 requests (MCP catalogue calls and GET /plans, alternating, 32 connections); the bare express routes take the same requests, as a reference for what the runtime itself grows by.',
        '',
      ].join('\n'),
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
