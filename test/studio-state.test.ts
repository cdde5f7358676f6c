import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMove, machineMarkdown, STUDIO_ACTIONS, viewOf, type StudioState } from '../engine/studio/machine.js';
import { except, FAITHFUL, startGrader, type GraderFixture } from './fixtures/grader.js';
import { pngBase64 } from './fixtures/images.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { grantsFile, legacyClient, refusalIn } from './support/mcp.js';
import { answered, callAnswered } from './support/answers.js';

// The studio machine over real HTTP (and MCP): GET /studio/state and POST /studio/state, each move calling the tool
// its own route calls, against a venue serving the real BTC tape.

const H = 3600;
/** The end of 5 April 2018, a day the shipped BTC minutes hold whole. */
const TO = Date.UTC(2018, 3, 6) / 1000;
/** A rule whose stop and exit the words do not give: its reading is unclear. */
const HALF_RULE = 'Long BTC on the 1 minute chart, around the clock, when the 9 EMA crosses above the 21 EMA.';
const NO_GATE = { earned: false, rests_on: null };

let grants: string;
let venue: VenueFixture;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
let intent: string;

type Who = typeof me;
type Mover = (body: Record<string, unknown>) => ReturnType<typeof callAnswered>;
/** POST /studio/state on a deck, as a principal. */
const moverOn = (url: string, who: Who): Mover => (body) => callAnswered(`${url}/studio/state`, { body, headers: who.bearer });
const state = (who: Who = me, strategy?: string) => callAnswered(`${deck.url}/studio/state${strategy ? `?strategy=${strategy}` : ''}`, { headers: who.bearer });
const act = (body: Record<string, unknown>, who: Who = me) => moverOn(deck.url, who)(body);
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const fields = (res: { body: { problems?: { field: string }[] } }) => (res.body.problems ?? []).map((p) => p.field);

/** Moves a strategy by the given moves, each of which must be taken; answers the last answer (or the state, for none). */
async function walk(strategy: string, moves: Record<string, unknown>[], move: Mover = act) {
  let last = null;
  for (const m of moves) {
    last = await move({ strategy, ...m });
    expect(last.status, `${m.action}: ${JSON.stringify(last.body).slice(0, 300)}`).toBe(200);
  }
  return last ? last.body : (await state(me, strategy)).body;
}

/** The moves from blank to each state the walk can reach here (graded and rejected need a grader). */
const TO_STATE = (): Record<Exclude<StudioState, 'graded' | 'rejected'>, Record<string, unknown>[]> => ({
  blank: [],
  worded: [{ action: 'words', text: intent }],
  unclear: [{ action: 'words', text: HALF_RULE }, { action: 'read' }],
  read: [{ action: 'words', text: intent }, { action: 'read' }],
  forged: [{ action: 'words', text: intent }, { action: 'read' }, { action: 'forge' }],
  rehearsed: [{ action: 'words', text: intent }, { action: 'read' }, { action: 'forge' }, { action: 'rehearse', to: TO, hours: 6 }],
});

beforeAll(async () => {
  grants = await grantsFile([{ name: 'studio_walker', tier: 'house' }]);
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m') });
  deck = await testDeck({ DECK_TAPE_URL: venue.url, DECK_GRANTS: grants });
  me = await signedIn(deck.url, 'studio_walker');
  intent = (await callAnswered(`${deck.url}/forge?onboard=ema-cross`, { headers: me.bearer })).body.intent;
}, 60_000);
afterAll(async () => {
  await deck.stop();
  await venue.close();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('GET and POST /studio/state', () => {
  it('need a session (401)', async () => {
    expect((await callAnswered(`${deck.url}/studio/state`)).status).toBe(401);
    const res = await callAnswered(`${deck.url}/studio/state`, { body: { action: 'words', text: intent } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'unauthorized' });
  });

  it('read a strategy no move has touched as blank: nothing earned, words the awaited move', async () => {
    const { status, body } = await state(me, 'untouched');
    expect(status).toBe(200);
    expect(body.record).toMatchObject({ strategy: 'untouched', state: 'blank', rev: 0, words: null, images: [], reading: null, seed: null, rehearsal: null, grade: null });
    expect(body.view).toEqual({ state: 'blank', next: 'words', alt: ['image'], done: [], why: expect.any(String) });
    expect(body.coverage).toEqual({ read: NO_GATE, forge: NO_GATE, rehearse: NO_GATE, grade: NO_GATE });
  });

  it('walk from blank to rehearsed gate by gate, each move calling the tool its route calls', async () => {
    const worded = await act({ action: 'words', text: intent });
    expect(worded.status).toBe(200);
    expect(worded.body).toMatchObject({ ok: true, record: { strategy: 'main', state: 'worded', rev: 1, words: intent }, view: { next: 'read', done: [] }, answer: null });

    const read = await act({ action: 'read' });
    expect(read.status).toBe(200);
    expect(read.body.view).toMatchObject({ state: 'read', next: 'forge', done: ['read'] });
    expect(read.body.record.reading).toEqual(read.body.answer.parts);
    expect(read.body.coverage.read).toEqual({
      earned: true,
      rests_on: { words_sha256: sha256(intent), chars: intent.length, parts: { market: 'read', timeframe: 'read', session: 'read', side: 'read', entry: 'read', stop: 'read', exit: 'read' } },
    });

    const forged = await act({ action: 'forge' });
    expect(forged.status).toBe(200);
    const seed = forged.body.answer.seed_hash as string;
    expect(forged.body.record.seed).toEqual({ seed_hash: seed, version: forged.body.answer.version });
    expect(forged.body.view).toMatchObject({ state: 'forged', next: 'rehearse', done: ['read', 'forge'] });
    expect(forged.body.coverage.forge).toMatchObject({ earned: true, rests_on: { seed_hash: seed, kept: true } });
    // The forge is the deck's own: its route finds it by the seed.
    const kept = await callAnswered(`${deck.url}/studio/forge?seed=${seed}`, { headers: me.bearer });
    expect(kept.status).toBe(200);
    expect(kept.body.expires_at).toBe(forged.body.coverage.forge.rests_on.expires_at);

    const rehearsed = await act({ action: 'rehearse', to: TO, hours: 24 });
    expect(rehearsed.status).toBe(200);
    expect(rehearsed.body.view).toMatchObject({ state: 'rehearsed', next: 'grade', done: ['read', 'forge', 'rehearse'] });
    const { window } = rehearsed.body.answer;
    expect(window).toMatchObject({ from: TO - 24 * H, to: TO });
    // The digest is of the bytes POST /studio/rehearse answers for the same seed and window.
    const route = await fetch(`${deck.url}/studio/rehearse`, { method: 'POST', headers: { ...me.bearer, 'content-type': 'application/json' }, body: JSON.stringify({ seed_hash: seed, to: TO, hours: 24 }) });
    const digest = sha256(Buffer.from(await route.arrayBuffer()));
    expect(rehearsed.body.coverage.rehearse).toEqual({
      earned: true,
      rests_on: {
        seed_hash: seed,
        digest,
        market: 'BTC',
        timeframe: '1m',
        asked: { from: TO - 24 * H, to: TO, hours: 24, folds: null },
        // The bars the rule traded over, as the envelope states them (its readiness stays in the envelope).
        window: { from: window.from, to: window.to, bars: window.bars, warm_up_bars: window.warm_up_bars },
        trades: rehearsed.body.answer.trades.length,
        tape: { bars: window.bars, expected: 24 * 60 },
      },
    });
    expect(rehearsed.body.coverage.grade).toEqual(NO_GATE);

    const again = await state();
    expect(again.body).toEqual({ ok: true, record: rehearsed.body.record, view: rehearsed.body.view, coverage: rehearsed.body.coverage });
    expect(again.body.record.rev).toBe(4);
  });

  it('passes the grade tool\'s 503 through while no grader lane is configured, grading nothing and keeping the state', async () => {
    const before = (await state()).body.record;
    expect(before.state).toBe('rehearsed');
    const res = await act({ action: 'grade' });
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/grade/);
    const after = (await state()).body;
    expect(after.record).toEqual(before);
    expect(after.coverage.grade).toEqual(NO_GATE);
  });

  it('refuses every action that is not the current state\'s move with 409 and the view, moving nothing', async () => {
    let refused = 0;
    for (const [at, moves] of Object.entries(TO_STATE())) {
      const strategy = `at-${at}`;
      const reached = await walk(strategy, moves);
      expect(reached.record.state).toBe(at);
      for (const action of STUDIO_ACTIONS.filter((a) => !isMove(at as StudioState, a))) {
        const res = await act({ strategy, action });
        expect(res.status, `${at}: ${action}`).toBe(409);
        expect(res.body).toMatchObject({ ok: false, error: 'not_the_move', view: viewOf(at as StudioState) });
        refused++;
      }
      expect((await state(me, strategy)).body.record).toEqual(reached.record);
    }
    expect(refused).toBe(18);
  });

  it('sends every later gate back on words, image and reset; forge and rehearse again send back only what follows them', async () => {
    const strategy = 'back';
    const rehearsed = (await walk(strategy, TO_STATE().rehearsed)).record;
    const seed = rehearsed.seed.seed_hash;

    const again = await act({ strategy, action: 'rehearse', to: TO - H, hours: 6 });
    expect(again.body.record).toMatchObject({ state: 'rehearsed', seed: rehearsed.seed, rehearsal: { asked: { to: TO - H } } });
    expect(again.body.record.rehearsal.digest).not.toBe(rehearsed.rehearsal.digest);

    const reforged = await act({ strategy, action: 'forge' });
    expect(reforged.body.record).toMatchObject({ state: 'forged', seed: { seed_hash: seed }, rehearsal: null, reading: rehearsed.reading });
    expect(reforged.body.coverage.rehearse).toEqual(NO_GATE);

    await walk(strategy, [{ action: 'rehearse', to: TO, hours: 6 }]);
    const pictured = await act({ strategy, action: 'image', data: pngBase64() });
    expect(pictured.status).toBe(200);
    expect(pictured.body.answer.id).toMatch(/^im_[0-9a-f]{16}$/);
    expect(pictured.body.record).toMatchObject({ state: 'worded', words: intent, images: [pictured.body.answer.id], reading: null, seed: null, rehearsal: null, grade: null });
    expect(pictured.body.coverage).toEqual({ read: NO_GATE, forge: NO_GATE, rehearse: NO_GATE, grade: NO_GATE });

    const regained = await walk(strategy, [{ action: 'read' }, { action: 'forge' }]);
    expect(regained.record.seed.seed_hash).toBe(seed);
    const reworded = await act({ strategy, action: 'words', text: `${intent} Shown on the chart.` });
    expect(reworded.body.record).toMatchObject({ state: 'worded', reading: null, seed: null, images: [pictured.body.answer.id] });
    expect(reworded.body.view.done).toEqual([]);

    const reset = await act({ strategy, action: 'reset' });
    expect(reset.body.record).toMatchObject({ state: 'blank', words: null, images: [], reading: null, seed: null });
    expect((await act({ strategy, action: 'reset' })).status).toBe(409);
  });

  it('keeps an image given before any words in blank: no reader reads pictures', async () => {
    const res = await act({ strategy: 'picture-first', action: 'image', data: pngBase64(8, 8) });
    expect(res.status).toBe(200);
    expect(res.body.record).toMatchObject({ state: 'blank', images: [res.body.answer.id] });
    expect((await act({ strategy: 'picture-first', action: 'read' })).status).toBe(409);
  });

  it('reads words with a missing part as unclear: the reading says which, and only new words move on', async () => {
    const strategy = 'half';
    const unclear = await walk(strategy, TO_STATE().unclear);
    expect(unclear.view).toMatchObject({ state: 'unclear', next: 'words', done: [] });
    expect(unclear.coverage.read).toMatchObject({ earned: false, rests_on: { parts: { entry: 'read', stop: 'missing', exit: 'missing' } } });
    expect(unclear.record.reading.stop.status).toBe('missing');
    for (const action of ['read', 'forge']) expect((await act({ strategy, action })).status).toBe(409);
    const whole = await walk(strategy, [{ action: 'words', text: intent }, { action: 'read' }]);
    expect(whole.view).toMatchObject({ state: 'read', done: ['read'] });
  });

  it('reads words whose session takes the market\'s documented default as read: the record says the part is defaulted', async () => {
    const words = 'BTC 1m: go long when the close crosses above the 20 EMA. Stop 1.5 ATR(14) below entry. Take profit at 2R.';
    const got = await walk('defaulted', [{ action: 'words', text: words }, { action: 'read' }]);
    expect(got.view).toMatchObject({ state: 'read', next: 'forge', done: ['read'] });
    expect(got.coverage.read).toMatchObject({ earned: true, rests_on: { parts: { session: 'defaulted', entry: 'read', stop: 'read' } } });
    expect(got.record.reading.session).toMatchObject({ status: 'defaulted', value: { kind: 'always' }, defaults: [{ path: '', rule: 'session_crypto' }] });
  });

  it('refuses words over the 4,000-character cap with 413 and takes them at the cap', async () => {
    const strategy = 'long-words';
    const over = await act({ strategy, action: 'words', text: 'a'.repeat(4001) });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ error: 'too_large', field: 'text', cap_chars: 4000 });
    expect((await state(me, strategy)).body.record.rev).toBe(0);
    expect((await act({ strategy, action: 'words', text: 'a'.repeat(4000) })).body.record.state).toBe('worded');
  });

  it.each([
    [{ action: 'publish' }, 'action'],
    [{}, 'action'],
    [{ action: 'words' }, 'text'],
    [{ action: 'words', text: '' }, 'text'],
    [{ action: 'image' }, 'data'],
    [{ action: 'read', text: 'go long' }, 'text'],
    [{ action: 'forge', market: 'BTC' }, 'market'],
    [{ action: 'rehearse', market: 'XAU' }, 'market'],
    [{ action: 'rehearse', hours: 0 }, 'hours'],
    [{ action: 'words', text: 'go long', strategy: 'Not A Name' }, 'strategy'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const res = await act(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('bad_input');
    expect(fields(res)).toEqual([field]);
  });

  it('passes the refusals of the tools behind the moves through with their own status, moving nothing', async () => {
    const strategy = 'refused';
    const forged = (await walk(strategy, TO_STATE().forged)).record;
    const future = await act({ strategy, action: 'rehearse', to: Math.floor(Date.now() / 1000) + H });
    expect(future.status).toBe(422);
    expect(fields(future)).toEqual(['to']);
    const notAnImage = await act({ strategy, action: 'image', data: Buffer.from('plain words, not a picture').toString('base64') });
    expect(notAnImage.status).toBe(415);
    expect(notAnImage.body.error).toBe('unsupported_image');
    // The moves' fields are held to the schemas of the tools behind them.
    const oneFold = await act({ strategy, action: 'rehearse', folds: 1 });
    expect(oneFold.status).toBe(422);
    expect(fields(oneFold)).toEqual(['folds']);
    const notBase64 = await act({ strategy, action: 'image', data: 'not base64!' });
    expect(notBase64.status).toBe(422);
    expect(fields(notBase64)).toEqual(['data']);
    expect((await state(me, strategy)).body.record).toEqual(forged);
  });

  it('takes one of two moves decided on the same state; the other is 409 with the view as it now is', async () => {
    const strategy = 'race';
    await walk(strategy, TO_STATE().forged);
    const [a, b] = await Promise.all([act({ strategy, action: 'rehearse', to: TO, hours: 168 }), act({ strategy, action: 'rehearse', to: TO - H, hours: 168 })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const lost = a.status === 409 ? a : b;
    expect(lost.body).toMatchObject({ error: 'not_the_move', view: { state: 'rehearsed' } });
    expect(lost.body.message).toMatch(/moved to rehearsed while this move ran/);
    expect((await state(me, strategy)).body.record.rev).toBe(4);
  });

  it('keeps each principal\'s record to that principal: another neither sees nor moves it', async () => {
    const stranger = await signedIn(deck.url, 'studio_stranger');
    const mine = (await state()).body.record;
    expect(mine.words).toBe(intent);
    const theirs = await state(stranger);
    expect(theirs.status).toBe(200);
    expect(theirs.body.record).toMatchObject({ strategy: 'main', state: 'blank', rev: 0, words: null });
    for (const action of ['read', 'forge', 'rehearse', 'reset']) expect((await act({ action }, stranger)).status).toBe(409);
    expect((await act({ action: 'words', text: HALF_RULE }, stranger)).body.record.words).toBe(HALF_RULE);
    expect((await state()).body.record).toEqual(mine);
    expect((await state(stranger)).body.record.words).toBe(HALF_RULE);
  });
});

describe('the grade move, with a grader lane', () => {
  const KEY = `sk-${'g'.repeat(32)}`;
  let grader: GraderFixture;
  let graded: TestDeck;
  let actOn: Mover;
  const rehearsedOn = (strategy: string) => walk(strategy, TO_STATE().rehearsed, actOn);

  beforeAll(async () => {
    grader = await startGrader([KEY]);
    graded = await testDeck({ DECK_TAPE_URL: venue.url, DECK_GRANTS: grants, DECK_GRADER_URL: grader.url, DECK_GRADER_KEY: KEY });
    actOn = moverOn(graded.url, await signedIn(graded.url, 'studio_walker'));
  });
  afterAll(async () => {
    await graded.stop();
    await grader.close();
  });

  it('grades a rehearsed strategy: accept is graded, every gate earned, the receipt kept as the grade tool answered it', async () => {
    const rehearsed = await rehearsedOn('faithful');
    const asked = grader.requests.length;
    const res = await actOn({ strategy: 'faithful', action: 'grade' });
    expect(res.status).toBe(200);
    expect(grader.requests.length).toBeGreaterThan(asked);
    expect(res.body.answer).toMatchObject({ ok: true, seed_hash: rehearsed.record.seed.seed_hash, decision: 'accept' });
    expect(res.body.record.grade).toEqual({ decision: 'accept', receipt: res.body.answer });
    expect(res.body.view).toMatchObject({ state: 'graded', next: null, done: ['read', 'forge', 'rehearse', 'grade'] });
    expect(res.body.coverage.grade).toEqual({
      earned: true,
      rests_on: { seed_hash: rehearsed.record.seed.seed_hash, rehearsal_digest: rehearsed.record.rehearsal.digest, decision: 'accept' },
    });
    for (const action of ['grade', 'read']) {
      const again = await actOn({ strategy: 'faithful', action });
      expect(again.status).toBe(409);
      expect(again.body.view).toEqual(viewOf('graded'));
    }
    const rerun = await actOn({ strategy: 'faithful', action: 'rehearse', to: TO - H, hours: 6 });
    expect(rerun.body.record).toMatchObject({ state: 'rehearsed', grade: null });
    expect(rerun.body.coverage.grade).toEqual(NO_GATE);
  });

  it.each([
    ['reject', { yes: 0.05, partly: 0.05, no: 0.9 }],
    ['revise', { yes: 0.3, partly: 0.6, no: 0.1 }],
  ] as const)('holds a %s decision as rejected: the receipt shows why, and only new words, a forge or a rehearsal move on', async (decision, weights) => {
    const strategy = `not-${decision}`;
    await rehearsedOn(strategy);
    grader.policy = except(['exit'], weights);
    try {
      const res = await actOn({ strategy, action: 'grade' });
      expect(res.status).toBe(200);
      expect(res.body.record.grade).toMatchObject({ decision, receipt: { decision } });
      expect(res.body.view).toMatchObject({ state: 'rejected', next: 'words', done: ['read', 'forge', 'rehearse'] });
      expect(res.body.coverage.grade).toMatchObject({ earned: false, rests_on: { decision } });
      for (const action of ['grade', 'read']) expect((await actOn({ strategy, action })).status).toBe(409);
      expect((await actOn({ strategy, action: 'forge' })).body.record).toMatchObject({ state: 'forged', rehearsal: null, grade: null });
    } finally {
      grader.policy = () => FAITHFUL;
    }
  });

  it('passes the grade tool\'s own refusal of a grader key through (422 naming grader_key), moving and spending nothing', async () => {
    await rehearsedOn('own-key');
    const asked = grader.requests.length;
    const res = await actOn({ strategy: 'own-key', action: 'grade', grader_key: 'not-a-key' });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['grader_key']);
    expect(grader.requests.length).toBe(asked);
    // Nothing moved: the strategy is still rehearsed, and grades on the house's key.
    expect((await actOn({ strategy: 'own-key', action: 'grade' })).body.record).toMatchObject({ state: 'graded', grade: { receipt: { grader: { funded: 'house' } } } });
  });
});

describe('the studio machine over MCP', () => {
  it('is studio_state and studio_act on /mcp, answering as the routes do (a 409 carries the view)', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      const moved = await client.callTool({ name: 'studio_act', arguments: { strategy: 'over-mcp', action: 'words', text: intent } });
      answered('studio_act', moved.structuredContent);
      expect(moved.isError).toBeFalsy();
      expect(moved.structuredContent).toMatchObject({ ok: true, record: { state: 'worded', words: intent }, view: { next: 'read' } });
      const refused = await client.callTool({ name: 'studio_act', arguments: { strategy: 'over-mcp', action: 'forge' } });
      expect(refused.isError).toBe(true);
      expect(refusalIn(refused)).toMatchObject({ status: 409, error: 'not_the_move', view: viewOf('worded') });
      const read = await client.callTool({ name: 'studio_state', arguments: { strategy: 'over-mcp' } });
      answered('studio_state', read.structuredContent);
      expect(read.structuredContent).toEqual((await state(me, 'over-mcp')).body);
    } finally {
      await client.close();
    }
  });
});

describe('the transition table', () => {
  it('is carried whole by the OpenAPI document (POST /studio/state) and by docs/studio.md, from the machine itself', async () => {
    const doc = (await call(`${deck.url}/openapi.json`)).body;
    const post = doc.paths['/studio/state'].post;
    expect(post.operationId).toBe('studio_act');
    expect(post.description).toContain(machineMarkdown());
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '401', '409', '413', '422', '503']));
    expect(doc.paths['/studio/state'].get.operationId).toBe('studio_state');
    const page = await readFile(new URL('../docs/studio.md', import.meta.url), 'utf8');
    expect(page).toContain(machineMarkdown());
  });
});

describe('a deck without a tape', () => {
  it('passes the rehearse tool\'s refusal through the rehearse move: 422, the tape holds no bars of the market and no venue serves it', async () => {
    const bare = await testDeck();
    try {
      const moveBare = moverOn(bare.url, await signedIn(bare.url, 'tapeless'));
      expect((await walk('main', TO_STATE().forged, moveBare)).record.state).toBe('forged');
      const res = await moveBare({ action: 'rehearse', to: TO });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'bad_input' });
      expect(res.body.message).toMatch(/^market: the tape holds no 1m bars of BTC.*no venue is configured \(DECK_TAPE_URL\)/);
    } finally {
      await bare.stop();
    }
  });
});
