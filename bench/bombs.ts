import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { ROOT, spawnServer, type Child } from './child.js';
import { loadPerCore } from './machine.js';
import { num, ratios, spread, verdict, type Row, type Trial } from './report.js';
import { spreadOf } from './spread.js';

// What JSON bombs do to everyone else: another client's MCP ping, one at a time, timed while eight anonymous clients
// send bombs as fast as the deck answers them, against the same client's ping while nothing else runs (the baseline),
// in interleaved rounds on one deck as npm start runs it. The bombs: a tools/call whose arguments hold 300,000 keys
// (3.5 MB), a body of 300,000 keys, arrays nested 1,500,000 deep (3 MB), and POST /join with 80,000 keys (0.9 MB).
// The bombers run in a process of their own (this file, given `bombers <url>`), so their sending never delays the
// ping's own timing. `npx tsx bench/bombs.ts` runs it alone (after `npm run build`).

const ROUNDS = 5;
const ROUND_MS = 4_000;
/** Bombs run this long before a round's pings are timed, so every bomber has one in flight. */
const WARM_MS = 1_000;
const BOMBERS = 8;
const PROBE_GAP_MS = 5;
const GOAL_MS = 100;

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PING = JSON.stringify({ jsonrpc: '2.0', id: 'probe', method: 'ping' });
const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;

/** Each bomb: where it goes and its bytes, made once. */
const BOMBS: { name: string; path: string; body: Buffer }[] = [
  { name: 'tools/call, 300,000 argument keys', path: '/mcp', body: Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"catalogue","arguments":${keys(300_000)}}}`) },
  { name: 'a body of 300,000 keys', path: '/mcp', body: Buffer.from(keys(300_000)) },
  { name: 'arrays 1,500,000 deep', path: '/mcp', body: Buffer.from(`${'['.repeat(1_500_000)}${']'.repeat(1_500_000)}`) },
  { name: 'POST /join, 80,000 keys', path: '/join', body: Buffer.from(keys(80_000)) },
];

/** How the piece runs, for the method the results state. */
export const BOMBS_METHOD = { rounds: ROUNDS, roundMs: ROUND_MS, warmMs: WARM_MS, bombers: BOMBERS, gapMs: PROBE_GAP_MS, bombs: BOMBS.map((b) => b.name).join('; ') };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

/** Pings one at a time for `ms`, on a connection of its own; answers each ping's time. */
async function probe(url: string, ms: number): Promise<number[]> {
  const dispatcher = new Agent({ connections: 1 });
  const times: number[] = [];
  const until = performance.now() + ms;
  try {
    while (performance.now() < until) {
      const sent = performance.now();
      const res = await request(`${url}/mcp`, { dispatcher, method: 'POST', headers: MCP_HEADERS, body: PING });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`a ping answered ${res.statusCode}`);
      times.push(performance.now() - sent);
      await sleep(PROBE_GAP_MS);
    }
  } finally {
    await dispatcher.close();
  }
  return times;
}

/** What the bombs were answered: how many, with which statuses, and the largest answer. */
interface Answered {
  count: number;
  statuses: (number | string)[];
  largest: number;
}

/** One bomber: sends its bomb again as soon as the last is answered, until `stop` says so. */
async function bomber(url: string, bomb: (typeof BOMBS)[number], stop: () => boolean, seen: Answered): Promise<void> {
  const dispatcher = new Agent({ connections: 1 });
  try {
    while (!stop()) {
      try {
        const res = await request(`${url}${bomb.path}`, { dispatcher, method: 'POST', headers: MCP_HEADERS, body: bomb.body });
        const bytes = (await res.body.arrayBuffer()).byteLength;
        if (!seen.statuses.includes(res.statusCode)) seen.statuses.push(res.statusCode);
        seen.largest = Math.max(seen.largest, bytes);
      } catch (error) {
        // A bomb the deck cut short is answered too (its connection closed): count how.
        const how = (error as { code?: string }).code ?? 'failed';
        if (!seen.statuses.includes(how)) seen.statuses.push(how);
      }
      seen.count++;
    }
  } finally {
    await dispatcher.close();
  }
}

/** The bombers' process: bombs until its stdin closes, then prints what they were answered. */
async function bombers(url: string): Promise<void> {
  let stopped = false;
  process.stdin.resume();
  process.stdin.on('end', () => void (stopped = true));
  const seen: Answered = { count: 0, statuses: [], largest: 0 };
  await Promise.all(Array.from({ length: BOMBERS }, (_, i) => bomber(url, BOMBS[i % BOMBS.length]!, () => stopped, seen)));
  process.stdout.write(JSON.stringify(seen));
}

/** Starts the bombers in their own process; answers the call that stops them and reads what they saw. */
function startBombers(url: string): () => Promise<Answered> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'bombs.ts'), 'bombers', url], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => void (out += c.toString()));
  return async () => {
    child.stdin.end();
    await once(child, 'exit');
    return JSON.parse(out) as Answered;
  };
}

export async function bombsPiece(built: string, scratch: string, started: Child[]): Promise<Row[]> {
  const deck = await spawnServer(built, { DECK_DATA: join(scratch, 'data-bombs'), DECK_TAPE_URL: undefined });
  started.push(deck);
  try {
    await probe(deck.url, 500);
    const rest: Trial[] = [];
    const bombed: Trial[] = [];
    const ratio: number[] = [];
    const seen: Answered = { count: 0, statuses: [], largest: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const quiet = p99(await probe(deck.url, ROUND_MS));
      const loadBefore = loadPerCore();
      const stop = startBombers(deck.url);
      await sleep(WARM_MS);
      const loud = p99(await probe(deck.url, ROUND_MS));
      const saw = await stop();
      seen.count += saw.count;
      for (const s of saw.statuses) if (!seen.statuses.includes(s)) seen.statuses.push(s);
      seen.largest = Math.max(seen.largest, saw.largest);
      const load = Math.max(loadBefore, loadPerCore());
      rest.push({ value: quiet, load });
      bombed.push({ value: loud, load });
      ratio.push(loud / quiet);
      process.stderr.write(`  round ${round + 1}: ping p99 ${quiet.toFixed(1)} ms at rest, ${loud.toFixed(1)} ms under bombs\n`);
    }
    const answered = `${seen.count.toLocaleString('en-US')} bombs answered in all (${seen.statuses.join(', ')}; the largest answer ${num(seen.largest / 1024, 1)} KiB)`;
    return [
      {
        measure: `another client's MCP ping, p99, at rest (the baseline): one ping at a time, ${PROBE_GAP_MS} ms apart, ${ROUND_MS / 1000} s a round`,
        result: spread(spreadOf(rest.map((t) => t.value)), 'ms', 1),
        ratio: '',
        goal: '',
        met: '',
      },
      {
        measure: `the same ping, p99, while ${BOMBERS} anonymous clients send JSON bombs (${BOMBS.map((b) => b.name).join('; ')}), each again as soon as it is answered; ${answered} (ratio: the round's p99 under bombs over its p99 at rest)`,
        result: spread(spreadOf(bombed.map((t) => t.value)), 'ms', 1),
        ratio: ratios(spreadOf(ratio)),
        goal: `< ${GOAL_MS} ms`,
        met: verdict(bombed, (v) => v < GOAL_MS).text,
      },
    ];
  } finally {
    await deck.stop();
    started.splice(started.indexOf(deck), 1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv[2] === 'bombers') {
  await bombers(process.argv[3]!);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const started: Child[] = [];
  try {
    const { buildDeck } = await import('./compiled.js');
    for (const r of await bombsPiece(await buildDeck(), scratch, started)) process.stdout.write(`${r.measure}: ${r.result}, ratio ${r.ratio || '-'}, goal ${r.goal || '-'}: ${r.met || '-'}\n`);
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    await rm(scratch, { recursive: true, force: true });
  }
}
