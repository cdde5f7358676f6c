import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyNBars, hold, startDecide, type DecideFixture } from './fixtures/decide.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { movableClock, type MovableClock } from './support/clock.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

import { until } from './support/wait.js';
import { callAnswered } from './support/answers.js';

// The agent rail over HTTP: models registered with a decide() endpoint (a real local HTTP server), replays over a
// past window of the real BTC minutes shipped, and a live run on a venue whose clock the test moves with the deck's. A decide()
// that is slow, wrong or down stops its run with the reason; the fills it made stay.

const btc = sampleRows('BTC-1m');
const at = new Map(btc.map((r, i) => [r[0], i]));
const q2 = (x: number) => Math.round(x * 100) / 100;
/** The replay window: the six hours before 2018-04-05 12:00 UTC, in a day the shipped BTC minutes hold whole. */
const TO = Date.UTC(2018, 3, 5, 12) / 1000;
const FROM = TO - 6 * 3600;
/** The deck's and the venue's now: well after the window. */
const NOW = Date.UTC(2018, 3, 6, 0, 0, 30) / 1000;

let clock: MovableClock;
let venue: VenueFixture;
let deck: TestDeck;
let op: Awaited<ReturnType<typeof signedIn>>;
const fixtures: DecideFixture[] = [];

const post = (path: string, body?: unknown) => callAnswered(`${deck.url}${path}`, { method: 'POST', body, headers: op.bearer });
const get = (path: string) => callAnswered(`${deck.url}${path}`, { headers: op.bearer });
const runOf = async (id: string) => (await get(`/agent/runs/${id}`)).body.run;
const ended = (id: string) => until(() => runOf(id), (r) => r.state !== 'running');

/** A decide() fixture and a model registered on it. */
async function model(name: string, answer: Parameters<typeof startDecide>[0], extra: Record<string, unknown> = {}) {
  const f = await startDecide(answer);
  fixtures.push(f);
  const r = await post('/agent/models', { name, decide_url: f.url, market: 'BTC', ...extra });
  expect(r.status).toBe(201);
  return f;
}

async function replay(name: string, body: Record<string, unknown> = {}) {
  const r = await post('/agent/runs', { model: name, mode: 'replay', to: TO, hours: 6, ...body });
  expect(r.status).toBe(202);
  return r.body.run as { id: string; state: string; bars_total: number };
}

beforeAll(async () => {
  clock = movableClock(NOW);
  venue = await startVenue({ 'BTC/1m': btc });
  venue.clock = clock;
  deck = await testDeck({ DECK_TAPE_URL: venue.url, DECK_LOOPBACK_TARGETS: '1', DECK_AGENT_POLL_MS: '20' }, clock);
  op = await signedIn(deck.url, 'rail_op');
});
afterAll(async () => {
  await deck.stop();
  await Promise.all(fixtures.map((f) => f.close()));
  await venue.close();
});

describe('registering a model', () => {
  it('takes a decide() URL, a market and a timeframe; a name is the principal\'s once', async () => {
    await model('plain', () => hold());
    const again = await post('/agent/models', { name: 'plain', decide_url: 'https://93.184.215.14/decide', market: 'BTC' });
    expect(again.status).toBe(409);
    const mine = await get('/agent/models/plain');
    expect(mine.body.model).toMatchObject({ name: 'plain', id: 'rail_op/plain', market: 'BTC', timeframe: '1m', synthetic: false, refused: { total: 0, fields: {} } });
    expect((await get('/agent/models')).body.models).toContainEqual(mine.body.model);
  });

  it('refuses a decide() that is not https, carries credentials, or is not a public address, in every form, in one set of words', async () => {
    const refused = async (url: string, on = deck, who = op) => {
      const r = await callAnswered(`${on.url}/agent/models`, { body: { name: 'nope', decide_url: url, market: 'BTC' }, headers: who.bearer });
      expect(r.status, url).toBe(422);
      expect(r.body.problems.map((p: { field: string }) => p.field)).toEqual(['decide_url']);
      return r.body.problems[0].message as string;
    };
    expect(await refused('http://93.184.215.14/decide')).toBe('decide() must be an https URL');
    await refused('https://user:pw@models.example/decide');
    await refused('not a url');
    const oneWords = (url: string) => `${new URL(url).hostname} is not a public address the deck may reach (a name must resolve, and only to public addresses)`;
    // Inner addresses other than loopback are refused even where loopback is allowed (DECK_LOOPBACK_TARGETS=1).
    const inner = [
      'https://10.0.0.1/d', 'https://172.16.5.4/d', 'https://192.168.1.1/d', 'https://100.64.0.1/d', 'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/d', 'https://[::]/d', 'https://224.0.0.1/d', 'https://[fc00::1]/d', 'https://[fd12:3456::1]/d', 'https://[fe80::1]/d',
      'https://[fec0::1]/d', 'https://[::ffff:10.0.0.1]/d', 'https://[::ffff:169.254.169.254]/d', 'https://[::10.0.0.1]/d',
      'https://[64:ff9b::a9fe:a9fe]/d', 'https://[2002:a9fe:a9fe::1]/d', 'https://[2001:db8::1]/d', 'https://nothing.invalid/d',
    ];
    for (const url of inner) expect(await refused(url), url).toBe(oneWords(url));
    const strict = await testDeck();
    try {
      const who = await signedIn(strict.url, 'rail_strict');
      const loopback = [
        'http://127.0.0.1:9/decide', `http://127.0.0.1:${new URL(deck.url).port}/decide`, 'https://localhost/decide', 'https://[::1]/decide',
        'https://127.8.0.1/decide', 'https://127.1/decide', 'https://2130706433/decide', 'https://0x7f000001/decide', 'https://0177.0.0.1/decide',
        'https://[0:0:0:0:0:0:0:1]/decide', 'https://[::ffff:127.0.0.1]/decide', 'https://[::ffff:7f00:1]/decide', 'https://[::127.0.0.1]/decide',
      ];
      for (const url of [...loopback, ...inner]) expect(await refused(url, strict, who), url).toBe(oneWords(url));
      // A public address is taken (its host is not asked anything at registration).
      for (const [i, url] of ['https://93.184.215.14/decide', 'https://[2606:4700:4700::1111]/decide'].entries()) {
        const r = await callAnswered(`${strict.url}/agent/models`, { body: { name: `public${i}`, decide_url: url, market: 'BTC' }, headers: who.bearer });
        expect(r.status, url).toBe(201);
      }
    } finally {
      await strict.stop();
    }
  });

  it('lets only the house register a synthetic book actor', async () => {
    const r = await post('/agent/models', { name: 'actor', decide_url: 'https://93.184.215.14/decide', market: 'BTC', synthetic: true });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: 'house_only', field: 'synthetic' });
  });
});

describe('a replay', () => {
  let f: DecideFixture;
  let id: string;

  it('steps the window bar by bar, POSTing each closed bar and the position to decide()', async () => {
    f = await model('stepper', everyNBars(60, 30, 0.01, 300));
    const run = await replay('stepper');
    id = run.id;
    expect(run).toMatchObject({ state: 'running', bars_total: 360 });
    const done = await ended(id);
    expect(done).toMatchObject({ state: 'done', bars_done: 360, bars_total: 360, end: { code: 'window_stepped' }, decisions: { enter: 6, exit: 6, hold: 348 }, orders: 12 });
    expect(f.received.map((r) => r.bar.t)).toEqual(btc.slice(at.get(FROM)!, at.get(TO)!).map((r) => r[0]));
    const k = at.get(FROM)!;
    expect(f.received[0]).toMatchObject({ version: 'typed-decision.v1', model: 'stepper', run: id, mode: 'replay', market: 'BTC', timeframe: '1m', index: 0, position: { side: 'flat' } });
    expect(f.received[0]!.bar).toEqual({ t: btc[k]![0], o: btc[k]![1], h: btc[k]![2], l: btc[k]![3], c: btc[k]![4], v: btc[k]![5] });
    // The entry decided at bar 0's close filled at bar 1's open: bar 1 is sent with the position.
    expect(f.received[1]!.position).toMatchObject({ side: 'long', size: 0.01, entry: q2(btc[k + 1]![1] + 0.5), stop: q2(btc[k]![4] - 300) });
  });

  it("routes the answers into a book of the run's own, marked replay, filled from the tape", async () => {
    const fills = (await get(`/book/fills?run=${id}`)).body.fills;
    expect(fills.total).toBe(12);
    const k = at.get(FROM)!;
    for (const [j, fill] of fills.items.entries()) {
      // Entries decided at bars 0, 60, ...; exits at 30, 90, ...: each fills at the next bar's open.
      const bar = k + j * 30 + 1;
      expect(fill).toMatchObject({ mode: 'replay', run: id, model: 'stepper', why: 'market', t: btc[bar]![0], side: j % 2 ? 'sell' : 'buy' });
      expect(fill.price).toBe(q2(btc[bar]![1] + (j % 2 ? -0.5 : 0.5)));
    }
    const orders = (await get(`/book/orders?run=${id}`)).body.orders;
    expect(orders.items.every((o: { mode: string; source: string; status: string }) => o.mode === 'replay' && o.source === 'decision' && o.status === 'filled')).toBe(true);
    expect(orders.items[0].why).toBe('bar 0');
    // A replay's order belongs to a past window.
    expect((await callAnswered(`${deck.url}/book/orders/${orders.items[0].id}`, { method: 'DELETE', headers: op.bearer })).body.error).toBe('order_replayed');
  });

  it("never touches the model's live book: a replay is a test, not a track record", async () => {
    expect((await get('/book/fills?model=stepper')).body.fills.total).toBe(0);
    expect((await get('/copy/models')).body.models.items.map((m: { id: string }) => m.id)).not.toContain('rail_op/stepper');
  });

  it('stops after its bar budget', async () => {
    const run = await replay('stepper', { budget_bars: 10 });
    expect(await ended(run.id)).toMatchObject({ state: 'done', bars_done: 10, budget_bars: 10, end: { code: 'budget_spent' } });
  });

  it('shows its progress while it runs, and stops when told, its fills so far kept', async () => {
    await model('steady', (req) => ({ ...everyNBars(4, 2, 0.01, 300)(req), delayMs: 15 }));
    const run = await replay('steady');
    const mid = await until(() => runOf(run.id), (r) => r.bars_done >= 12);
    expect(mid.state).toBe('running');
    expect(mid.bars_done).toBeLessThan(360);
    expect(mid.last_bar_t).toBeGreaterThanOrEqual(FROM);
    const stopped = await post(`/agent/runs/${run.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.run).toMatchObject({ state: 'stopped', end: { code: 'stopped' } });
    expect(stopped.body.run.bars_done).toBeLessThan(360);
    expect((await get(`/book/fills?run=${run.id}`)).body.fills.total).toBeGreaterThanOrEqual(3);
    const listed = (await get('/agent/runs?model=steady')).body.runs;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([run.id]);
  });
});

describe('a decide() that misbehaves stops its run with the reason; its fills stay', () => {
  it('slow: no answer within the timeout after its retries', async () => {
    const f = await model('slowpoke', (req) => (req.index < 5 ? everyNBars(3, 2, 0.01, 300)(req) : { ...hold(), delayMs: 600 }));
    const run = await replay('slowpoke', { timeout_ms: 150, retries: 1 });
    const done = await ended(run.id);
    const t5 = btc[at.get(FROM)! + 5]![0];
    expect(done).toMatchObject({ state: 'stopped', bars_done: 5, retried: 1, end: { code: 'decide_timeout', bar_t: t5 } });
    expect(done.end.message).toMatch(/150 ms/);
    expect(f.received.filter((r) => r.index === 5)).toHaveLength(2);
    // Entered at bar 0, out at bar 2, in again at bar 3: the three fills stay.
    expect((await get(`/book/fills?run=${run.id}`)).body.fills.total).toBe(3);
  });

  it('wrong: an answer that is not typed-decision.v1, refused naming each field and counted against the model', async () => {
    await model('wrongun', (req) =>
      req.index < 3 ? hold() : { body: { action: 'enter', side: 'long', size: -1, stop: 'low', why: '' } },
    );
    const done = await ended((await replay('wrongun')).id);
    expect(done).toMatchObject({ state: 'stopped', bars_done: 3, end: { code: 'bad_decision' } });
    expect(done.end.problems.map((p: { field: string }) => p.field).sort()).toEqual(['size', 'stop', 'why']);
    expect((await get('/agent/models/wrongun')).body.model.refused).toEqual({ total: 1, fields: { size: 1, stop: 1, why: 1 } });

    await model('garbled', () => ({ raw: 'enter long!' }));
    const garbled = await ended((await replay('garbled')).id);
    expect(garbled).toMatchObject({ state: 'stopped', bars_done: 0, end: { code: 'bad_decision', problems: [{ field: '(answer)' }] } });
  });

  it('wrong for the book: an entry while a position is open is refused, named and counted', async () => {
    await model('greedy', (req) => ({ body: { action: 'enter', side: 'long', size: 0.01, stop: q2(req.bar.c - 300), why: 'more' } }));
    const done = await ended((await replay('greedy')).id);
    // Bar 0 enters; bar 1 holds the position and enters again.
    expect(done).toMatchObject({ state: 'stopped', bars_done: 1, end: { code: 'not_flat', problems: [{ field: 'action' }] } });
    expect((await get('/agent/models/greedy')).body.model.refused).toEqual({ total: 1, fields: { action: 1 } });
    expect((await get(`/book/fills?run=${done.id}`)).body.fills.total).toBe(1);
  });

  it('down: nothing listening, or a 5xx after its retries; a 4xx at once', async () => {
    const gone = await model('gone', () => hold());
    await gone.close();
    expect(await ended((await replay('gone', { retries: 2 })).id)).toMatchObject({ state: 'stopped', bars_done: 0, retried: 2, end: { code: 'decide_unreachable' } });
    await model('failing', () => ({ status: 503, body: { error: 'overloaded' } }));
    expect(await ended((await replay('failing')).id)).toMatchObject({ state: 'stopped', retried: 1, end: { code: 'decide_failed' } });
    await model('refusing', () => ({ status: 401, body: { error: 'who are you' } }));
    expect(await ended((await replay('refusing')).id)).toMatchObject({ state: 'stopped', retried: 0, end: { code: 'decide_refused' } });
  });
});

describe('starting a run', () => {
  it('refuses an unknown model (404), a live run with a window (422), a budget out of bounds (422)', async () => {
    await model('starter', () => hold());
    expect((await post('/agent/runs', { model: 'nobody', mode: 'replay' })).status).toBe(404);
    const live = await post('/agent/runs', { model: 'starter', mode: 'live', hours: 2 });
    expect(live.status).toBe(422);
    expect(live.body.problems.map((p: { field: string }) => p.field)).toEqual(['hours']);
    expect((await post('/agent/runs', { model: 'starter', mode: 'replay', budget_bars: 0 })).status).toBe(422);
    expect((await get('/agent/runs/run_0000000000000000')).status).toBe(404);
  });

  it('runs one live run a model and two runs a principal at once (409 run_under_way, 429 busy)', async () => {
    await model('sleepy', () => ({ ...hold(), delayMs: 100 }));
    const live = await post('/agent/runs', { model: 'starter', mode: 'live' });
    expect(live.status).toBe(202);
    const twice = await post('/agent/runs', { model: 'starter', mode: 'live' });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: 'run_under_way', field: 'model' });
    const second = await replay('sleepy');
    const third = await post('/agent/runs', { model: 'sleepy', mode: 'replay', to: TO, hours: 1 });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ error: 'busy', running: expect.arrayContaining([live.body.run.id, second.id]) });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const id of [live.body.run.id, second.id]) expect((await post(`/agent/runs/${id}/stop`)).body.run.state).toBe('stopped');
    expect((await post('/agent/runs', { model: 'sleepy', mode: 'replay', to: TO, hours: 1, budget_bars: 1 })).status).toBe(202);
  });
});

describe('a live run', () => {
  it("decides each bar once the tape closes it, into the model's live book, filled at the next bar's open", async () => {
    const f = await model('livewire', everyNBars(3, 2, 0.01, 300));
    const start = Math.floor(NOW / 60) * 60;
    const r = await post('/agent/runs', { model: 'livewire', mode: 'live' });
    expect(r.status).toBe(202);
    const id = r.body.run.id as string;
    expect(r.body.run).toMatchObject({ mode: 'live', window: { from: start, to: null }, bars_total: null });
    // Nothing is decided before a bar closes.
    await new Promise((res) => setTimeout(res, 100));
    expect(f.received).toHaveLength(0);
    for (let n = 1; n <= 6; n++) {
      clock.set(start + n * 60);
      await until(() => runOf(id), (x) => x.bars_done === n);
    }
    expect(f.received.map((x) => x.bar.t)).toEqual([0, 1, 2, 3, 4, 5].map((n) => start + n * 60));
    expect(f.received.every((x) => x.mode === 'live')).toBe(true);
    const k = at.get(start)!;
    // Entered at bar 0's close (placed at the next bar's open time): filled at bar 1's open.
    expect(f.received[1]!.position).toMatchObject({ side: 'long', entry: q2(btc[k + 1]![1] + 0.5) });
    const fills = (await get('/book/fills?model=livewire')).body.fills;
    expect(fills.items.slice(0, 2)).toMatchObject([
      { mode: 'live', run: id, t: btc[k + 1]![0], price: q2(btc[k + 1]![1] + 0.5), side: 'buy' },
      { mode: 'live', run: id, t: btc[k + 3]![0], price: q2(btc[k + 3]![1] - 0.5), side: 'sell' },
    ]);
    const stopped = await post(`/agent/runs/${id}/stop`);
    expect(stopped.body.run).toMatchObject({ state: 'stopped', bars_done: 6 });
    // A live record: the copy seller lists it.
    expect((await get('/copy/models')).body.models.items.map((m: { id: string }) => m.id)).toContain('rail_op/livewire');
  });
});
