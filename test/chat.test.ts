import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saidTo, startChatModel, type ChatFixture } from './fixtures/chat-model.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';
import { sample, scrape } from './support/metrics.js';

// The chat lane over real HTTP and MCP, against a local OpenAI-compatible lane: a model's words, labelled, through a
// fair queue, metered once whole, streamed when asked, cut at the timeout with nothing spent.

const KEY = `sk-${'c'.repeat(32)}`;
const MODEL = 'deck-chat-test';

let lane: ChatFixture;
let deck: TestDeck;
type Who = Awaited<ReturnType<typeof signedIn>>;
let ada: Who;

const ask = (who: Who, content: string, extra: Record<string, unknown> = {}, url = deck.url) =>
  call(`${url}/chat`, { body: { messages: [{ role: 'user', content }], ...extra }, headers: who.bearer });

/** The chat acts of a principal's history (the meter's entries of kind chat). */
const chatActs = async (who: Who, url = deck.url) => (await call(`${url}/records/history?kind=chat`, { headers: who.bearer })).body.acts as { what: { units: number } }[];

/** Server-sent events of a response, as { event, data } in order. */
async function eventsOf(res: Response): Promise<{ event: string; data: any }[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      return { event, data: JSON.parse(data) };
    });
}

beforeAll(async () => {
  lane = await startChatModel(KEY);
  deck = await testDeck({ DECK_CHAT_URL: lane.url, DECK_CHAT_KEY: KEY, DECK_CHAT_MODEL: MODEL });
  ada = await signedIn(deck.url, 'ada');
});
afterAll(async () => {
  await deck.stop();
  await lane.close();
});

describe('POST /chat', () => {
  it("answers the lane's words as JSON, labelled as a model's words, and records one spend on the meter without the words", async () => {
    const { status, body } = await ask(ada, 'what is a stop?');
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, by: 'model', model: MODEL, message: { role: 'assistant', content: saidTo('what is a stop?') }, finish_reason: 'stop', spent: { action: 'chat', units: 2 } });
    expect(body.notice).toMatch(/a model's words/);
    expect(lane.requests.at(-1)).toMatchObject({ bearer: KEY, body: { model: MODEL, messages: [{ role: 'user', content: 'what is a stop?' }] } });
    expect(lane.requests.at(-1)!.body.stream).toBeUndefined();

    const acts = await chatActs(ada);
    expect(acts).toHaveLength(1);
    expect(acts[0]!.what.units).toBe(2);
    // Never in a ledger: neither the question nor the answer is on disk in any ledger.
    const meter = await readFile(join(deck.dataDir, 'meter.jsonl'), 'utf8');
    expect(meter).toContain('"action":"chat"');
    expect(meter).not.toContain('what is a stop');
  });

  it('streams the words as server-sent events when asked: the label, each piece, then the whole answer', async () => {
    const who = await signedIn(deck.url, 'streamer');
    const res = await fetch(`${deck.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...who.bearer },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'one two three' }], stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await eventsOf(res);
    expect(events[0]).toMatchObject({ event: 'label', data: { by: 'model', model: MODEL } });
    const words = events.filter((e) => e.event === 'words').map((e) => e.data.text as string);
    expect(words.length).toBeGreaterThan(1);
    expect(words.join('')).toBe(saidTo('one two three'));
    const done = events.at(-1)!;
    expect(done).toMatchObject({ event: 'done', data: { ok: true, by: 'model', message: { content: saidTo('one two three') }, spent: { action: 'chat', units: 2 } } });
    expect(lane.requests.at(-1)!.body.stream).toBe(true);
    expect(await chatActs(who)).toHaveLength(1);
  });

  it('is a tool over MCP, answering the whole (a stream asked for is read whole)', async () => {
    const who = await signedIn(deck.url, 'mcp_caller');
    const client = await legacyClient(`${deck.url}/mcp`, who.bearer);
    for (const stream of [false, true]) {
      const got = await client.callTool({ name: 'chat', arguments: { messages: [{ role: 'user', content: 'over mcp' }], stream } });
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent).toMatchObject({ by: 'model', model: MODEL, message: { content: saidTo('over mcp') } });
    }
    await client.close();
    expect(await chatActs(who)).toHaveLength(2);
  });

  it('refuses a body without messages, or a role the lane does not take, naming the field (422)', async () => {
    expect((await call(`${deck.url}/chat`, { body: {}, headers: ada.bearer })).body.problems[0].field).toBe('messages');
    const bad = await call(`${deck.url}/chat`, { body: { messages: [{ role: 'tool', content: 'x' }] }, headers: ada.bearer });
    expect(bad.status).toBe(422);
    expect(bad.body.problems[0].field).toBe('messages.0.role');
  });

  it('needs a session (401)', async () => {
    expect((await call(`${deck.url}/chat`, { body: { messages: [{ role: 'user', content: 'hi' }] } })).status).toBe(401);
  });

  it("carries only the status, type and code of the lane's refusal, never its message (which quotes the key)", async () => {
    lane.mode = 'refuse';
    try {
      const res = await ask(ada, 'refused');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ error: 'chat_refused', lane: { status: 401, type: 'invalid_request_error', code: 'invalid_api_key' } });
      expect(JSON.stringify(res.body)).not.toContain(KEY);
    } finally {
      lane.mode = 'answer';
    }
  });
});

describe('the fair queue', () => {
  let fair: TestDeck;
  let busy: Who;
  let quiet: Who;
  beforeAll(async () => {
    // One call at a time for everyone; each principal's lane holds 50.
    fair = await testDeck({ DECK_CHAT_URL: lane.url, DECK_CHAT_KEY: KEY, DECK_CHAT_MODEL: MODEL, DECK_CHAT_CONCURRENCY: '1', DECK_CHAT_LANE: '50' });
    busy = await signedIn(fair.url, 'busy');
    quiet = await signedIn(fair.url, 'quiet');
  });
  afterAll(() => fair.stop());

  /** Waits until the chat lane's queue holds `n` calls (running or waiting), read from the deck's own metrics. */
  async function depthIs(n: number) {
    for (let i = 0; i < 200; i++) {
      if (sample(await scrape(fair.url), 'deck_guard_queue_depth', { guard: 'chat_lane' }) === n) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`the chat lane never held ${n}`);
  }

  it('serves a principal who asks once within two turns of one who asked fifty times, and refuses the 51st with 429 and Retry-After', async () => {
    lane.mode = 'gated';
    const before = lane.requests.length;
    try {
      const busyCalls = Array.from({ length: 51 }, (_, i) => ask(busy, `busy ${i}`, {}, fair.url));
      await depthIs(50);
      const refused = await Promise.race(busyCalls.map((p) => p.then((r) => (r.status === 429 ? r : new Promise<never>(() => {})))));
      expect(refused.body).toMatchObject({ error: 'lane_full', lane_size: 50 });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.body.retry_after_s).toBe(Number(refused.headers.get('retry-after')));
      expect(lane.held()).toBe(1);

      const quietCall = ask(quiet, 'quiet once', {}, fair.url);
      await depthIs(51);
      while (lane.requests.length - before < 51) {
        await new Promise((r) => setTimeout(r, 5));
        if (lane.held() > 0) await lane.release();
      }
      const order = lane.requests.slice(before).map((r) => r.body.messages[0]!.content);
      // The busy principal's first call held the one turn when the quiet one asked: the quiet one is served next.
      expect(order.indexOf('quiet once')).toBeGreaterThanOrEqual(1);
      expect(order.indexOf('quiet once')).toBeLessThanOrEqual(2);
      expect((await quietCall).body.message.content).toBe(saidTo('quiet once'));
      const statuses = (await Promise.all(busyCalls)).map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(50);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
      // The refused call spent nothing: fifty answers, fifty spends.
      expect(await chatActs(busy, fair.url)).toHaveLength(50);
    } finally {
      lane.mode = 'answer';
    }
  });
});

describe('the timeout', () => {
  let slow: TestDeck;
  let who: Who;
  beforeAll(async () => {
    slow = await testDeck({ DECK_CHAT_URL: lane.url, DECK_CHAT_KEY: KEY, DECK_CHAT_MODEL: MODEL, DECK_CHAT_TIMEOUT_S: '1' });
    who = await signedIn(slow.url, 'slow');
  });
  afterAll(() => slow.stop());

  it('cuts a lane that never answers at DECK_CHAT_TIMEOUT_S: 503 upstream_timeout, nothing spent, the turn given back', async () => {
    lane.mode = 'silent';
    try {
      const started = Date.now();
      const res = await ask(who, 'anyone there?', {}, slow.url);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'upstream_timeout', timeout_s: 1, upstream: 'the chat lane' });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await chatActs(who, slow.url)).toHaveLength(0);
      expect(sample(await scrape(slow.url), 'deck_guard_queue_depth', { guard: 'chat_lane' })).toBe(0);
    } finally {
      lane.mode = 'answer';
    }
  });

  it('ends a stream whose lane stops answering with an error event, nothing spent', async () => {
    lane.mode = 'stall';
    try {
      const res = await fetch(`${slow.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...who.bearer },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'stall now' }], stream: true }),
      });
      expect(res.status).toBe(200);
      const events = await eventsOf(res);
      expect(events.map((e) => e.event)).toEqual(['label', 'words', 'error']);
      expect(events.at(-1)!.data).toMatchObject({ ok: false, error: 'upstream_timeout', status: 503 });
      expect(await chatActs(who, slow.url)).toHaveLength(0);
    } finally {
      lane.mode = 'answer';
    }
  });
});

describe('without a lane', () => {
  it('answers 503 naming DECK_CHAT_URL, DECK_CHAT_MODEL and DECK_CHAT_KEY, nothing spent', async () => {
    const bare = await testDeck();
    try {
      const who = await signedIn(bare.url, 'ada');
      const res = await ask(who, 'hello', {}, bare.url);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'upstream_not_configured' });
      for (const v of ['DECK_CHAT_URL', 'DECK_CHAT_MODEL', 'DECK_CHAT_KEY']) expect(res.body.message).toContain(v);
      expect(await chatActs(who, bare.url)).toHaveLength(0);
    } finally {
      await bare.stop();
    }
  });
});
