import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgedEmaCross, signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';

// How a long call goes, told as it goes (docs/mcp.md, "Progress"): a rehearsal's real steps (the tape read, its turn in
// the work pool, the rule stepped, the null, the verdict, the record) as notifications/progress on the answer's event
// stream for a call that gave a progressToken, as a task's status message and on its tasks/result; the answer the
// same bytes with or without them, and one JSON body for a client that takes no stream.

let deck: TestDeck;
let alice: Awaited<ReturnType<typeof signedIn>>;
let bob: Awaited<ReturnType<typeof signedIn>>;
let seed: string;
let bobs: string;

const ask = () => ({ name: 'rehearse', arguments: { seed_hash: seed, market: 'ES', folds: 3 } });
/** The steps a rehearsal with folds tells, in order, after any wait for its turn. */
const STEPS = [/^reading the tape: ES 1m$/, /^running in the work pool$/, /^stepping the rule over [\d,]+ bars$/, /^running the random null: 1,000 runs$/, /^weighing the verdict/, /^cutting 3 walk-forward folds$/, /^recording the rehearsal$/];

beforeAll(async () => {
  // One pool thread: the steps cross from a worker thread, and a rehearsal can be made to wait behind another.
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_PROFILE: 'local', DECK_WORKERS: '1' });
  alice = await signedIn(deck.url, 'alice');
  bob = await signedIn(deck.url, 'bob');
  seed = await forgedEmaCross(deck.url, alice.bearer);
  bobs = await forgedEmaCross(deck.url, bob.bearer);
}, 60_000);
afterAll(() => deck.stop());

const inOrder = (told: Progress[]) => {
  expect(told.map((p) => p.progress)).toEqual(told.map((_, i) => i + 1));
  const words = told.map((p) => p.message!);
  expect(words).toHaveLength(STEPS.length);
  words.forEach((w, i) => expect(w).toMatch(STEPS[i]!));
};

describe('progress of a long call', () => {
  it('tells a call that gave a progressToken each step in order on its stream, and answers the same bytes', { timeout: 60_000 }, async () => {
    const client = await legacyClient(`${deck.url}/mcp`, alice.bearer);
    try {
      const told: Progress[] = [];
      const heard = await client.callTool(ask(), CallToolResultSchema, { onprogress: (p) => told.push(p) });
      inOrder(told);
      const plain = await client.callTool(ask());
      expect(JSON.stringify(heard)).toBe(JSON.stringify(plain));
    } finally {
      await client.close();
    }
  });

  it('answers one JSON body to a client that takes no stream, and streams only when asked for progress', { timeout: 60_000 }, async () => {
    const body = (meta: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { ...ask(), _meta: meta } });
    const post = (accept: string, meta: Record<string, unknown>) =>
      fetch(`${deck.url}/mcp`, { method: 'POST', headers: { ...alice.bearer, accept, 'content-type': 'application/json' }, body: JSON.stringify(body(meta)) });
    const json = await post('application/json', { progressToken: 'p1' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await json.json()) as { result: { structuredContent: unknown } };
    const unasked = await post('application/json, text/event-stream', {});
    expect(unasked.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await unasked.json()).toEqual(answer);
    const streamed = await post('application/json, text/event-stream', { progressToken: 'p1' });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await streamed.text()).trim().split('\n\n').map((f) => JSON.parse(/^data: (.*)$/m.exec(f)![1]!) as Record<string, any>);
    const notes = frames.slice(0, -1);
    expect(notes.every((n) => n.method === 'notifications/progress' && n.params.progressToken === 'p1')).toBe(true);
    inOrder(notes.map((n) => n.params as Progress));
    expect(frames.at(-1)).toEqual({ ...answer, id: 7 });
  });

  it('moves a rehearsal task\'s status message through its steps, waiting in the pool first, and tells them on its tasks/result', { timeout: 60_000 }, async () => {
    const client = new Client({ name: 'deck-test-progress', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${deck.url}/mcp`), { requestInit: { headers: alice.bearer } }));
    try {
      // Bob's rehearsals hold the one thread, so Alice's waits for its turn.
      const busy = [4, 5, 6].map((folds) => call(`${deck.url}/studio/rehearse`, { body: { seed_hash: bobs, market: 'ES', folds }, headers: bob.bearer }));
      while (deck.services.pool.depth() < 3) await new Promise((r) => setTimeout(r, 1));
      const told: Progress[] = [];
      const statuses: string[] = [];
      let result: unknown;
      for await (const m of client.experimental.tasks.callToolStream(ask(), CallToolResultSchema, { task: { ttl: 60_000 }, onprogress: (p) => told.push(p) })) {
        if (m.type === 'taskStatus' && m.task.statusMessage) statuses.push(m.task.statusMessage);
        if (m.type === 'result') result = m.result;
        if (m.type === 'error') throw m.error;
      }
      for (const done of await Promise.all(busy)) expect(done.status).toBe(200);
      // The task said it was running, then each step: all of them as progress, in order, before the result.
      expect(told.map((p) => p.progress)).toEqual(told.map((_, i) => i + 1));
      const words = told.map((p) => p.message!);
      expect(words.slice(0, 3)).toEqual(['rehearse is running', 'rehearse: reading the tape: ES 1m', expect.stringMatching(/^rehearse: waiting for a turn in the work pool \([1-3] jobs? ahead\)$/)]);
      inOrder(words.filter((_, i) => i !== 0 && i !== 2).map((w, i) => ({ progress: i + 1, message: w.replace(/^rehearse: /, '') })));
      // What tasks/get showed is among them (it is polled, so it sees some), in the same order.
      const seen = statuses.filter((s, i) => s !== statuses[i - 1]);
      expect(seen.map((s) => words.indexOf(s))).toEqual([...seen.map((s) => words.indexOf(s))].sort((a, b) => a - b));
      expect(seen.every((s) => words.includes(s))).toBe(true);
      const plain = await client.callTool(ask());
      expect((result as { structuredContent: unknown }).structuredContent).toEqual(plain.structuredContent);
    } finally {
      await client.close();
    }
  });
});
