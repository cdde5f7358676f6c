import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile } from './support/mcp.js';
import { sampleFile } from './support/tape-file.js';
import { EMA_CROSS } from './fixtures/scripts.js';
import { irOf } from '../engine/decider/ir.js';
import { transferableSymbol, valueSymbol } from 'piscina';
import type { ImageRead } from '../core/image.js';
import { LONG_STRING_CHARS, putLongStrings, takeLongStrings } from '../core/pool/long-strings.js';
import { WorkPool } from '../core/pool/pool.js';
import type { OnThread } from '../core/pool/thread.js';
import { WORK_NICE } from '../core/pool/yielding.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

// Rehearsals run on the work pool's threads, fairly per principal and bounded: the same bytes as on the event loop,
// 429 naming the lane or the queue past its bound, and a rehearsal whose client has gone cancelled, recording nothing.
// Over the ES 1m sample a deck with no venue seeds itself with.

const TO = 1381525200;
const RULE = 'ES on the 1 minute chart, long and short: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';
let grants: string;
const decks: TestDeck[] = [];

beforeAll(async () => {
  grants = await grantsFile([{ name: 'pool_a', tier: 'house' }, { name: 'pool_b', tier: 'house' }, { name: 'pool_c', tier: 'house' }]);
});
afterAll(async () => {
  await Promise.all(decks.map((d) => d.stop()));
  await rm(dirname(grants), { recursive: true, force: true });
});

async function deckWith(env: Record<string, string>) {
  const deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_GRANTS: grants, ...env });
  decks.push(deck);
  return deck;
}

const post = (url: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });

/** Signs in, forges the rule and answers what a rehearsal of it over `hours` is asked with. */
async function ready(deck: TestDeck, name: string, hours = 24) {
  const { bearer } = await signedIn(deck.url, name);
  const forged = await (await post(`${deck.url}/forge`, { intent: RULE }, bearer)).json();
  return { bearer, body: { seed_hash: forged.seed_hash as string, to: TO, hours, folds: 4 } };
}

/** The pool's jobs by kind and where they ran, from the deck's /metrics. */
async function jobsRun(deck: TestDeck): Promise<Record<string, number>> {
  const text = await (await fetch(`${deck.url}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^deck_work_jobs_total\{kind="(\w+)",where="(\w+)"\} (\d+)$/gm)].map((m) => [`${m[1]} ${m[2]}`, Number(m[3])]));
}

describe('the work pool', () => {
  it('answers the same bytes on its threads as on the event loop', async () => {
    const loop = await deckWith({ DECK_WORKERS: '0' });
    const pooled = await deckWith({ DECK_WORKERS: '2' });
    const answers = await Promise.all(
      [loop, pooled].map(async (deck) => {
        const { bearer, body } = await ready(deck, 'pool_a', 120);
        const res = await post(`${deck.url}/studio/rehearse`, body, bearer);
        expect(res.status).toBe(200);
        return res.text();
      }),
    );
    expect(JSON.parse(answers[0]!).verdict.neighbourhood.rules).toBeGreaterThan(1);
    expect(answers[1]).toBe(answers[0]);
  });

  it.runIf(process.platform === 'linux')('runs its threads nicer than the event loop, which answers first when both want a core', async () => {
    // The nice value of each thread of this process (the 19th field of its stat, after the name in brackets).
    const niceOf = async (stat: string) => Number((await readFile(stat, 'utf8')).split(') ')[1]!.split(' ')[16]);
    const threads = async () => Promise.all((await readdir('/proc/self/task')).map((tid) => niceOf(`/proc/self/task/${tid}/stat`)));
    const loop = await niceOf('/proc/thread-self/stat');
    const before = (await threads()).filter((n) => n === loop + WORK_NICE).length;
    const pooled = await deckWith({ DECK_WORKERS: '2' });
    const { bearer, body } = await ready(pooled, 'pool_a');
    expect((await post(`${pooled.url}/studio/rehearse`, body, bearer)).status).toBe(200);
    expect((await threads()).filter((n) => n === loop + WORK_NICE).length - before).toBe(2);
    expect(await niceOf('/proc/thread-self/stat')).toBe(loop);
  });

  it("reads, forges, draws and forecasts on its threads: the reading, the forge (review and scan), a refusal, plates and an envelope are the loop's bytes", async () => {
    const loop = await deckWith({ DECK_WORKERS: '0' });
    const pooled = await deckWith({ DECK_WORKERS: '1' });
    const unsure = 'ES on the 1 minute chart: go long when the 9 EMA crosses above the 21 EMA. Target 2R.';
    const asks: [string, unknown][] = [
      ['/studio/read', { text: RULE }],
      ['/forge', { intent: RULE }],
      ['/forge', { intent: unsure }],
      ['/forge', { intent: RULE, script: { version: 'script.v1' } }],
      // A plate of the ES week's last afternoon, and one of its Saturday, which has no bars to draw.
      ['/plates', { market: 'ES', tf: '1m', from: TO - 4 * 3600, to: TO, indicators: ['ema:9', 'rsi:14'] }],
      ['/plates', { market: 'ES', tf: '1m', from: Date.UTC(2013, 9, 12) / 1000, to: Date.UTC(2013, 9, 12) / 1000 + 6 * 3600 }],
    ];
    // And an envelope the in-process forecaster issues on demand (the ES week's last Friday afternoon).
    const envelope = `/forecast/ES/5m?t=${TO}`;
    // The first light job on a cold pool runs on the loop while the threads load; a rehearsal waits for them.
    const warming = await ready(pooled, 'pool_b');
    expect(await jobsRun(pooled)).toEqual({ 'forging loop': 1, 'reading loop': 1 });
    expect((await post(`${pooled.url}/studio/rehearse`, warming.body, warming.bearer)).status).toBe(200);
    const answers = await Promise.all(
      [loop, pooled].map(async (deck) => {
        const { bearer } = await signedIn(deck.url, 'pool_c');
        const texts: string[] = [];
        // A plate's URLs name the deck that sealed it.
        const answered = async (res: Response) => `${res.status} ${(await res.text()).replaceAll(deck.url, 'DECK')}`;
        for (const [path, body] of asks) texts.push(await answered(await post(`${deck.url}${path}`, body, bearer)));
        // A rehearsal's plate, of the rule forged above.
        const seed = JSON.parse(texts[1]!.slice(4)).seed_hash as string;
        texts.push(await answered(await post(`${deck.url}/studio/rehearse`, { seed_hash: seed, to: TO, hours: 24, plate: true }, bearer)));
        const issued = await fetch(`${deck.url}${envelope}`, { headers: bearer });
        // When it was served is the deck's clock, not the forecaster's work.
        const { served: _served, ...answer } = (await issued.json()) as { served: unknown };
        texts.push(`${issued.status} ${JSON.stringify(answer)}`);
        return texts;
      }),
    );
    expect(answers[0]!.map((t) => t.slice(0, 3))).toEqual(['200', '200', '422', '422', '200', '422', '200', '200']);
    expect(JSON.parse(answers[0]![5]!.slice(4))).toMatchObject({ error: 'undrawable', reason: 'no_bars' });
    expect(JSON.parse(answers[0]![6]!.slice(4)).plate.id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(answers[0]![7]!.slice(4)).envelope.market).toBe('ES');
    expect(JSON.parse(answers[0]![1]!.slice(4)).review.classes).toHaveLength(9);
    expect(answers[1]).toEqual(answers[0]);
    // ... and the plates' PNGs, read by their URLs.
    for (const url of [JSON.parse(answers[0]![4]!.slice(4)).png, JSON.parse(answers[0]![6]!.slice(4)).plate.png] as string[]) {
      const pngs = await Promise.all([loop, pooled].map(async (deck) => Buffer.from(await (await fetch(url.replace('DECK', deck.url))).arrayBuffer())));
      expect(pngs[0]!.subarray(1, 4).toString()).toBe('PNG');
      expect(pngs[1]!.equals(pngs[0]!)).toBe(true);
    }
    // ... and, warm, every kind ran on a thread (three readings: the refused words' too; one forge cast; three plates).
    expect(await jobsRun(pooled)).toEqual({
      'forging loop': 1,
      'reading loop': 1,
      'rehearsal thread': 2,
      'reading thread': 3,
      'forging thread': 1,
      'drawing thread': 2,
      'drawingRehearsal thread': 1,
      'forecasting thread': 1,
    });
    expect(await jobsRun(loop)).toEqual({ 'reading loop': 3, 'forging loop': 1, 'drawing loop': 2, 'rehearsal loop': 1, 'drawingRehearsal loop': 1, 'forecasting loop': 1 });
    // Each job on a thread told what crossing there and back cost it, apart from its own time on the thread.
    const metrics = await (await fetch(`${pooled.url}/metrics`)).text();
    const handOffs = Object.fromEntries([...metrics.matchAll(/^deck_work_hand_off_seconds_count\{kind="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(handOffs).toEqual({ rehearsal: 2, reading: 3, forging: 1, drawing: 2, drawingRehearsal: 1, forecasting: 1 });
    // (The first rehearsal's counts its wait for the threads to load.)
    expect(Number(/^deck_work_hand_off_seconds_sum\{kind="rehearsal"\} (\S+)$/m.exec(metrics)![1])).toBeGreaterThan(0);
  });

  it('runs every kind of work the worker module names through one entry, from source as well as built, timed on its thread', async () => {
    expect(Object.keys(await import('../core/pool/worker.js')).sort()).toEqual(['drawing', 'drawingRehearsal', 'forecasting', 'forging', 'imaging', 'parsing', 'reading', 'rehearsal']);
    // The threads load the entry from source through from-source.mjs, and built as dist/pool-worker.js (cli/build.mjs).
    const fromSource = await readFile(new URL('../core/pool/from-source.mjs', import.meta.url), 'utf8');
    expect(fromSource).toMatch(/export const run = .*import\('\.\/thread\.js'\)/);
    // ... awaiting nothing at its top, which the pool's require() of it cannot take.
    expect(fromSource).not.toMatch(/^(?!\s*\/\/).*\bawait import\(/m);
    expect(await readFile(new URL('../cli/build.mjs', import.meta.url), 'utf8')).toContain("'pool-worker': 'core/pool/thread.ts'");
    const { run } = await import('../core/pool/thread.js');
    const done = await run({ kind: 'parsing', input: new TextEncoder().encode('{"a":[1,2]}') });
    expect(done.answer).toEqual({ a: [1, 2] });
    expect(done.ms).toBeGreaterThanOrEqual(0);
  });

  it("refuses a principal's rehearsal past its lane with 429 lane_full and Retry-After, while another principal is served", async () => {
    const deck = await deckWith({ DECK_WORKERS: '1', DECK_WORK_LANE: '1' });
    const a = await ready(deck, 'pool_a', 120);
    const b = await ready(deck, 'pool_b', 120);
    const asked = await Promise.all([...Array.from({ length: 4 }, () => post(`${deck.url}/studio/rehearse`, a.body, a.bearer)), post(`${deck.url}/studio/rehearse`, b.body, b.bearer)]);
    const statuses = asked.map((r) => r.status);
    expect(statuses.slice(0, 4)).toContain(200);
    expect(statuses.slice(0, 4)).toContain(429);
    expect(statuses[4]).toBe(200);
    const refused = asked.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const why = await refused.json();
    expect(why).toMatchObject({ error: 'lane_full', lane_size: 1 });
    expect(why.message).toContain('work lane');
  });

  it('refuses any rehearsal once the queue holds its most, with 429 queue_full naming the queue', async () => {
    const deck = await deckWith({ DECK_WORKERS: '1', DECK_WORK_QUEUE: '1' });
    const a = await ready(deck, 'pool_a', 120);
    const b = await ready(deck, 'pool_b', 120);
    const asked = await Promise.all([post(`${deck.url}/studio/rehearse`, a.body, a.bearer), post(`${deck.url}/studio/rehearse`, b.body, b.bearer)]);
    expect(asked.map((r) => r.status).sort()).toEqual([200, 429]);
    const refused = asked.find((r) => r.status === 429)!;
    expect(await refused.json()).toMatchObject({ error: 'queue_full', queue_size: 1, message: expect.stringContaining('work queue') });
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('cancels a rehearsal whose client has gone: it runs no further and records nothing', async () => {
    const deck = await deckWith({ DECK_WORKERS: '1' });
    const a = await ready(deck, 'pool_c', 120);
    const used = async () => (await (await fetch(`${deck.url}/meter`, { headers: a.bearer })).json()).spent as number;
    const before = await used();
    expect((await post(`${deck.url}/studio/rehearse`, a.body, a.bearer)).status).toBe(200);
    const one = (await used()) - before;
    expect(one).toBeGreaterThan(0);
    // A second rehearsal, and a third whose client leaves once the pool holds it, waiting behind the second: dropped.
    const gone = new AbortController();
    const second = post(`${deck.url}/studio/rehearse`, a.body, a.bearer);
    const third = post(`${deck.url}/studio/rehearse`, a.body, a.bearer, gone.signal).catch((e: Error) => e);
    while (deck.services.pool.depth() < 2) await new Promise((r) => setTimeout(r, 1));
    gone.abort();
    expect(await third).toBeInstanceOf(Error);
    expect((await second).status).toBe(200);
    // Time for the third to have run had it not been cancelled (each took well under this).
    await new Promise((r) => setTimeout(r, 2_000));
    expect(deck.services.pool.depth()).toBe(0);
    expect((await used()) - before).toBe(2 * one);
  });
});

describe('a pool job told as it goes', () => {
  it("takes an image's base64 to its thread as bytes and hands its bytes back by transfer, and they are the loop's bytes", async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(1 << 20, 7)]);
    const input = { base64: png.toString('base64'), cap: 2 << 20 };
    // The base64 crosses as its bytes; the thread's entry puts it back, and gives piscina the answer with the bytes' own
    // buffer to move.
    const sent = takeLongStrings(input);
    expect(sent).toMatchObject({ value: { base64: '', cap: 2 << 20 }, strings: [{ at: ['base64'] }] });
    const { run } = await import('../core/pool/thread.js');
    const handed = (await run({ kind: 'imaging', input: sent.value, strings: sent.strings })) as unknown as Record<symbol, unknown>;
    const { answer } = handed[valueSymbol] as { answer: ImageRead };
    expect(answer).toMatchObject({ ok: true, mime: 'image/png' });
    expect(handed[transferableSymbol]).toHaveLength(1);
    expect((handed[transferableSymbol] as ArrayBuffer[])[0]).toBe(answer.ok && answer.bytes.buffer);
    // Through a warm pool's thread (a rehearsal waits for the threads to load), the same read arrives whole.
    const reads: ImageRead[] = [];
    for (const threads of [1, 0]) {
      const pool = new WorkPool({ threads, lane: 4, held: 8 });
      try {
        await pool.run('rehearsal', { ir: irOf(EMA_CROSS), seed: 'f'.repeat(64), version: 'test.v1', bars: sampleFile('BTC-1m'), options: { nullRuns: 10 } }, { owner: 'p' });
        reads.push(await pool.run('imaging', input, { owner: 'p' }));
        expect(pool.jobsRun().find((r) => r.kind === 'imaging')?.where).toBe(threads ? 'thread' : 'loop');
      } finally {
        await pool.close();
      }
    }
    // The caller's input is as it gave it. (A Buffer crosses as a plain Uint8Array: the bytes are compared, not their class.)
    expect(input.base64).toBe(png.toString('base64'));
    const [pooled, onLoop] = reads.map((r) => (r.ok ? { ...r, bytes: Buffer.from(r.bytes) } : r));
    expect(pooled).toEqual(onLoop);
    expect(pooled).toMatchObject({ ok: true, bytes: png });
  });

  it("hands a body's long strings back from its thread as their bytes, to move, and the loop puts the same value together", async () => {
    const body = Buffer.from(JSON.stringify({ data: 'A'.repeat(LONG_STRING_CHARS), n: 1, words: 'é'.repeat(LONG_STRING_CHARS) }));
    const { run } = await import('../core/pool/thread.js');
    const handed = (await run({ kind: 'parsing', input: body })) as unknown as Record<symbol, unknown>;
    const done = handed[valueSymbol] as OnThread;
    expect(done.answer).toEqual({ data: '', n: 1, words: 'é'.repeat(LONG_STRING_CHARS) });
    expect(handed[transferableSymbol]).toEqual([done.strings![0]!.bytes.buffer]);
    expect(putLongStrings(done.answer, done.strings!)).toEqual(JSON.parse(body.toString()));
  });

  it('tells its turn and each engine step in order before its answer, on a thread as on the loop, and answers the same', async () => {
    const ir = irOf(EMA_CROSS);
    const job = { ir, seed: 'e'.repeat(64), version: 'test.v1', bars: sampleFile('BTC-1m'), options: { nullRuns: 50, folds: 3 } };
    const answers: string[] = [];
    for (const threads of [1, 0]) {
      const pool = new WorkPool({ threads, lane: 4, held: 8 });
      try {
        const told: string[] = [];
        const heard = await pool.run('rehearsal', job, { owner: 'p', hear: (step) => told.push(step.phase) });
        told.push('answered');
        expect(told).toEqual(['running', 'stepping', 'null', 'folds', 'answered']);
        answers.push(JSON.stringify(heard), JSON.stringify(await pool.run('rehearsal', job, { owner: 'p' })));
      } finally {
        await pool.close();
      }
    }
    expect(new Set(answers).size).toBe(1);
  });
});
