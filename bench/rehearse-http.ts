import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signedIn } from '../test/support/deck.js';
import { spawnServer, type Child } from './child.js';
import { loadPerCore } from './machine.js';
import { medianVerdict, spread, type Row, type Trial } from './report.js';
import { MAX_BARS } from '../services/tape/candle-window.js';
import { benchMonth } from './bars.js';
import { archiveTape } from './servers.js';
import { spreadOf } from './spread.js';

// POST /studio/rehearse over HTTP: the deck as npm start runs it, on an archive holding the BTC 1m month and no
// venue; a house principal forges the onboarded EMA cross and rehearses it over the whole month (744 hours, 44,640
// bars, ending at the tape's last close). The first rehearsal seals the tape's windows it reads whole and is not timed
// (the row says how many of them were sealed); then RUNS rehearsals one after the other, each timed from the request to
// the last byte of the answer, which must be the same bytes every time. `npx tsx bench/rehearse-http.ts` runs it alone (after `npm run build`).

const RUNS = 5;
const HOURS = 744;
const GOAL_MS = 250;

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

export async function rehearseHttpPiece(built: string, scratch: string, started: Child[]): Promise<Row[]> {
  const data = join(scratch, 'data-rehearse');
  await archiveTape(data);
  const grants = join(scratch, 'grants-rehearse.json');
  await writeFile(grants, JSON.stringify({ grants: [{ name: 'bench_house', tier: 'house', why: 'the bench rehearses a month' }] }));
  const deck = await spawnServer(built, { DECK_DATA: data, DECK_TAPE_URL: undefined, DECK_GRANTS: grants });
  started.push(deck);
  try {
    const { bearer } = await signedIn(deck.url, 'bench_house');
    const onboard = await fetch(`${deck.url}/forge?onboard=ema-cross`, { headers: bearer });
    const { intent } = (await onboard.json()) as { intent: string };
    const forged = await post(`${deck.url}/forge`, { intent }, bearer);
    if (forged.status !== 200) throw new Error(`forge answered ${forged.status}: ${forged.text.slice(0, 500)}`);
    const { seed_hash } = JSON.parse(forged.text) as { seed_hash: string };
    const { bars } = benchMonth();
    const to = bars.t[bars.length - 1]! + 60;
    const body = { seed_hash, hours: HOURS, to };
    const first = await post(`${deck.url}/studio/rehearse`, body, bearer);
    if (first.status !== 200) throw new Error(`rehearse answered ${first.status}: ${first.text.slice(0, 500)}`);
    const { window, trades } = JSON.parse(first.text) as { window: { bars: number; warm_up_bars: number }; trades: unknown[] };
    // The rehearsal reads its bars through the tape in windows of at most MAX_BARS; each whole one is sealed by now.
    const parts = Math.ceil((window.bars + window.warm_up_bars) / MAX_BARS);
    const sealed = (await readdir(join(data, 'seals'), { recursive: true })).filter((f) => f.endsWith('.json')).length;
    const trials: Trial[] = [];
    for (let run = 0; run < RUNS; run++) {
      const load = loadPerCore();
      const t0 = performance.now();
      const again = await post(`${deck.url}/studio/rehearse`, body, bearer);
      const ms = performance.now() - t0;
      if (again.text !== first.text) throw new Error(`the rehearsal answered different bytes on run ${run + 1}`);
      trials.push({ value: ms, load: Math.max(load, loadPerCore()) });
      process.stderr.write(`  rehearsal ${run + 1}: ${ms.toFixed(0)} ms\n`);
    }
    const s = spreadOf(trials.map((t) => t.value));
    return [
      {
        measure: `POST /studio/rehearse over HTTP: ${HOURS} h of BTC 1m (${window.bars.toLocaleString('en-US')} bars and ${window.warm_up_bars} of warm-up, ${trades.length} trades, 1,000-run null), ${sealed} of its ${parts} tape windows sealed${sealed < parts ? ' (the first reaches back before the tape\'s first bar for the rule\'s warm-up, where the archive holds nothing, so it is not whole and is read from the archive every time)' : ''}, request to last byte, ${RUNS} runs`,
        result: spread(s, 'ms', 0),
        ratio: '',
        goal: `median < ${GOAL_MS} ms`,
        met: medianVerdict(trials, (v) => v < GOAL_MS).text,
      },
    ];
  } finally {
    await deck.stop();
    started.splice(started.indexOf(deck), 1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const started: Child[] = [];
  try {
    const { buildDeck } = await import('./compiled.js');
    for (const r of await rehearseHttpPiece(await buildDeck(), scratch, started)) process.stdout.write(`${r.measure}: ${r.result}, goal ${r.goal}: ${r.met}\n`);
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    await rm(scratch, { recursive: true, force: true });
  }
}
