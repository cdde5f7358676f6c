import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileLedger } from '../store/file-ledger.js';
import type { ScoreEntry } from '../store/grades.js';
import { except, FAITHFUL, startGrader, type GraderFixture } from './fixtures/grader.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { callAnswered, everyAct } from './support/answers.js';
import { grantsFile } from './support/mcp.js';
import { emaCrossWords, forgeWords, meterSpent, REHEARSE_TO, rehearseDay } from './support/studio.js';

// POST /studio/score and GET /studio/score: facts first, then closed questions to a grader lane speaking the
// chat-completions protocol over real HTTP, then code composes a score, recorded for calibration (k/n with a Wilson
// lower bound, house-wide and the principal's).

const HOUSE_KEY = `sk-house-${'h'.repeat(32)}`;
const OWN_KEY = `sk-own-${'o'.repeat(32)}`;
const PARTS = ['market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit'];
const NO = { yes: 0.05, partly: 0.1, no: 0.85 };
/** Six parts read; the session is not stated, so it takes the documented default (any time, for crypto). */
const NO_SESSION = 'ETH on the 5 minute chart. Buy a break of the prior day high. Stop at the prior day low. Trail by 2 ATR(14).';
/** Six parts settled; the stop is missing (a trailing stop would be a stop, so this rule only takes its profit). */
const NO_STOP = 'ETH on the 5 minute chart. Buy a break of the prior day high. Take profit at 2 ATR(14).';

type Who = Awaited<ReturnType<typeof signedIn>>;

let venue: VenueFixture;
let grader: GraderFixture;
let grants: string;
let deck: TestDeck;
let laneless: TestDeck;
let house: Who;
let words: string;

const score = (url: string, who: Who, body: unknown) => callAnswered(`${url}/studio/score`, { body, headers: who.bearer });
const calibration = (url: string, who: Who, stage = 'parts') => callAnswered(`${url}/studio/score?stage=${stage}`, { headers: who.bearer });
const failed = (facts: { name: string; held: boolean }[]) => facts.filter((f) => !f.held).map((f) => f.name);

beforeAll(async () => {
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m'), 'ETH/1m': sampleRows('ETH-1m') });
  grader = await startGrader([HOUSE_KEY, OWN_KEY]);
  grants = await grantsFile([{ name: 'score_house', tier: 'house' }]);
  deck = await testDeck({ DECK_TAPE_URL: venue.url, DECK_GRANTS: grants, DECK_GRADER_URL: grader.url, DECK_GRADER_KEY: HOUSE_KEY });
  laneless = await testDeck({ DECK_TAPE_URL: venue.url });
  house = await signedIn(deck.url, 'score_house');
  words = await emaCrossWords(deck.url, house);
}, 60_000);
afterAll(async () => {
  await Promise.all([deck.stop(), laneless.stop()]);
  await Promise.all([venue.close(), grader.close()]);
  await rm(dirname(grants), { recursive: true, force: true });
});
beforeEach(() => {
  grader.mode = 'logprobs';
  grader.policy = () => FAITHFUL;
});

describe('POST /studio/score: the request', () => {
  it('needs a session', async () => {
    expect((await callAnswered(`${deck.url}/studio/score`, { body: { stage: 'parts', text: words } })).status).toBe(401);
  });

  it('answers 400 for a body that is not JSON, or one without stage', async () => {
    expect((await callAnswered(`${deck.url}/studio/score`, { raw: 'stage=parts', headers: house.bearer })).status).toBe(400);
    const { status, body } = await score(deck.url, house, { text: words });
    expect(status).toBe(400);
    expect(body.problems).toEqual([{ field: 'stage', message: 'required: parts or rehearsed' }]);
  });

  it.each([
    [{ stage: 'forged' }, 'stage'],
    [{ stage: 'parts' }, 'text'],
    [{ stage: 'rehearsed' }, 'seed_hash'],
    [{ stage: 'parts', text: 'x', grader_key: 'sk-nope' }, 'grader_key'],
  ])('answers 422 naming the field for %j', async (body, field) => {
    const res = await score(deck.url, house, body);
    expect(res.status).toBe(422);
    expect(res.body.problems.map((p: { field: string }) => p.field)).toEqual([field]);
  });

  it('answers 413 for words over the studio words cap', async () => {
    const { status, body } = await score(deck.url, house, { stage: 'parts', text: `${words} `.repeat(40) });
    expect(status).toBe(413);
    expect(body).toMatchObject({ field: 'text', cap_chars: 4000 });
  });
});

describe('stage parts', () => {
  it('asks one closed question per part read and scores 7/7 when each holds; the words go only to the grader', async () => {
    const asked = grader.requests.length;
    const { status, body } = await score(deck.url, house, { stage: 'parts', text: words });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, rubric: 'RUBRIC_v1', stage: 'parts', score: { k: 7, n: 7, value: 1 }, grader: { funded: 'house' } });
    expect(failed(body.facts)).toEqual([]);
    expect(body.facts.map((f: { name: string }) => f.name)).toEqual([...PARTS, 'citations']);
    expect(body.grader.answers.map((a: { id: string }) => a.id)).toEqual(PARTS);
    const sent = grader.requests.slice(asked);
    expect(sent.map((r) => r.id).sort()).toEqual([...PARTS].sort());
    for (const r of sent) {
      expect(r.body.messages[1]!.content).toContain(words);
      expect(r.body.messages[1]!.content).toContain(`The deck read the ${r.id} as (JSON)`);
    }
    expect(body.subject.words_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(body)).not.toContain(words);
  });

  it('scores a part not read 0 without asking about it', async () => {
    const asked = grader.requests.length;
    const { body } = await score(deck.url, house, { stage: 'parts', text: NO_STOP });
    expect(failed(body.facts)).toEqual(['stop']);
    expect(body.score).toEqual({ k: 6, n: 7, value: 0.8571 });
    expect(grader.requests.length - asked).toBe(6);
    expect(body.reasons[0]).toBe('stop: missing');
    expect(body.facts[0]).toEqual({ name: 'market', held: true, detail: 'read, citing characters 0-3' });
    // The score ledger keeps the words only as their digest: not whole, nor a part of them.
    const ledger = await readFile(join(deck.dataDir, 'scores.jsonl'), 'utf8');
    for (const quoted of [NO_STOP, 'Buy a break of the prior day high', words]) expect(ledger).not.toContain(quoted);
  });

  it('asks about a part a documented default completed, showing the grader the default it took', async () => {
    const asked = grader.requests.length;
    const { body } = await score(deck.url, house, { stage: 'parts', text: NO_SESSION });
    expect(failed(body.facts)).toEqual([]);
    expect(body.facts.find((f: { name: string }) => f.name === 'session')).toEqual({ name: 'session', held: true, detail: 'defaulted by session_crypto, citing characters 0-3' });
    const session = grader.requests.slice(asked).find((r) => r.id === 'session')!;
    expect(session.body.messages[1]!.content).toContain('the deck filled in, by its documented defaults:\n- all of it: BTC, ETH and SOL trade around the clock');
    const stop = grader.requests.slice(asked).find((r) => r.id === 'stop')!;
    expect(stop.body.messages[1]!.content).not.toContain('documented defaults');
  });

  it('scores a part the grader says the reading gets wrong 0', async () => {
    grader.policy = except(['stop'], NO);
    const { body } = await score(deck.url, house, { stage: 'parts', text: words });
    expect(body.score).toEqual({ k: 6, n: 7, value: 0.8571 });
    expect(body.reasons).toContain('stop: fails, the reading of the stop does not say what the words say (yes 0.05, partly 0.1, no 0.85)');
  });

  it('asks nothing and spends nothing when no part reads', async () => {
    const asked = grader.requests.length;
    const spent = await meterSpent(deck.url, house);
    const { status, body } = await score(deck.url, house, { stage: 'parts', text: 'good morning, nice weather today' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ score: { k: 0, n: 7, value: 0 }, grader: null });
    expect(grader.requests.length).toBe(asked);
    expect(await meterSpent(deck.url, house)).toBe(spent);
  });
});

describe('stage rehearsed', () => {
  let who: Who;
  let seed: string;
  beforeAll(async () => {
    who = await signedIn(deck.url, 'score_rehearsed');
    seed = await forgeWords(deck.url, who, words);
  });

  it('answers 409 for a forge with no rehearsal, 404 for a seed that is not yours', async () => {
    const { status, body } = await score(deck.url, who, { stage: 'rehearsed', seed_hash: seed });
    expect(status).toBe(409);
    expect(body).toMatchObject({ error: 'not_rehearsed', seed_hash: seed });
    expect((await score(deck.url, house, { stage: 'rehearsed', seed_hash: seed })).status).toBe(404);
  });

  it('checks the trades against the rule, then asks four questions about them', async () => {
    const envelope = await rehearseDay(deck.url, who, seed);
    const asked = grader.requests.length;
    const { status, body } = await score(deck.url, who, { stage: 'rehearsed', seed_hash: seed });
    expect(status).toBe(200);
    expect(body).toMatchObject({ stage: 'rehearsed', score: { k: 4, n: 4, value: 1 }, subject: { seed_hash: seed }, grader: { funded: 'trial' }, trial_pings_left: 2 });
    expect(body.facts.map((f: { name: string; held: boolean }) => [f.name, f.held])).toEqual([
      ['stop_obeyed', true],
      ['sides', true],
      ['exits', true],
      ['traded', true],
    ]);
    const sent = grader.requests.slice(asked);
    expect(sent.map((r) => r.id).sort()).toEqual(['entries', 'exits', 'nothing_added', 'stops']);
    expect(sent[0]!.body.messages[1]!.content).toContain(`${envelope.trades.length} trades; the first`);
    expect(sent[0]!.body.messages[1]!.content).toContain(body.shown.code_in_words.trimEnd());
  });

  it('judges the latest rehearsal on the rule\'s own market, or the one named, and says which', async () => {
    const trader = await signedIn(deck.url, 'score_rehearsed_two');
    const own = await forgeWords(deck.url, trader, words);
    const btc = await callAnswered(`${deck.url}/studio/rehearse`, { body: { seed_hash: own, to: REHEARSE_TO, hours: 6 }, headers: trader.bearer });
    const eth = await callAnswered(`${deck.url}/studio/rehearse`, { body: { seed_hash: own, market: 'ETH', to: REHEARSE_TO, hours: 6 }, headers: trader.bearer });
    const digest = (b: unknown) => createHash('sha256').update(JSON.stringify(b)).digest('hex');
    const asked = grader.requests.length;
    const latest = (await score(deck.url, trader, { stage: 'rehearsed', seed_hash: own, grader_key: OWN_KEY })).body;
    expect(latest.subject).toEqual({ seed_hash: own, rehearsal_digest: digest(btc.body), words_sha256: expect.any(String) });
    expect(latest.rehearsal).toMatchObject({ digest: digest(btc.body), chosen: 'latest_on_rule_market', market: 'BTC', trades: btc.body.trades.length });
    expect(grader.requests.slice(asked).every((r) => /The rule rehearsed on BTC 1m bars/.test(r.body.messages[1]!.content))).toBe(true);
    const named = (await score(deck.url, trader, { stage: 'rehearsed', seed_hash: own, rehearsal_digest: digest(eth.body), grader_key: OWN_KEY })).body;
    expect(named.rehearsal).toMatchObject({ digest: digest(eth.body), chosen: 'named', market: 'ETH' });
    expect(await everyAct(deck.url, trader.bearer)).toEqual(['meter', 'scores']);
    const gone = await score(deck.url, trader, { stage: 'rehearsed', seed_hash: own, rehearsal_digest: 'f'.repeat(64) });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: 'rehearsal_not_found', field: 'rehearsal_digest' });
  });
});

describe('funding', () => {
  it('spends a free principal\'s trial pings (shared with grading), then answers 402 naming what would fund it', async () => {
    const who = await signedIn(deck.url, 'score_trial');
    for (const left of [2, 1, 0]) expect((await score(deck.url, who, { stage: 'parts', text: words })).body.trial_pings_left).toBe(left);
    const asked = grader.requests.length;
    const { status, body } = await score(deck.url, who, { stage: 'parts', text: words });
    expect(status).toBe(402);
    expect(body).toMatchObject({ fund: ['grader_key', 'plan'], trial_pings: { limit: 3, used: 3 } });
    expect(grader.requests.length).toBe(asked);
    const own = await score(deck.url, who, { stage: 'parts', text: words, grader_key: OWN_KEY });
    expect(own.body.grader.funded).toBe('own_key');
    expect(grader.requests.slice(asked).every((r) => r.bearer === OWN_KEY)).toBe(true);
  });

  it('answers 503 with no lane, recording and spending nothing', async () => {
    const who = await signedIn(laneless.url, 'score_laneless');
    const spent = await meterSpent(laneless.url, who);
    const { status, body } = await score(laneless.url, who, { stage: 'parts', text: words });
    expect(status).toBe(503);
    expect(body.message).toContain('DECK_GRADER_URL');
    expect(await meterSpent(laneless.url, who)).toBe(spent);
    expect((await calibration(laneless.url, who)).body.mine).toEqual({ k: 0, n: 0, rate: null, wilson_lower: null, scores: 0 });
  });

  it('answers 502 when the grader answers nonsense, recording nothing', async () => {
    const scores = async () => (await FileLedger.open<ScoreEntry>(deck.dataDir, 'scores')).all.length;
    const before = await scores();
    grader.mode = 'garbage';
    expect((await score(deck.url, house, { stage: 'parts', text: words })).status).toBe(502);
    expect(await scores()).toBe(before);
  });
});

describe('GET /studio/score: calibration', () => {
  it('answers k/n of closed questions held with a 95% Wilson lower bound, house-wide and yours, kept across a restart', async () => {
    // A deck of its own, so the house-wide counts are exactly these scores.
    const dir = await mkdtemp(join(tmpdir(), 'deck-score-'));
    const env = { DECK_DATA: dir, DECK_GRADER_URL: grader.url, DECK_GRADER_KEY: HOUSE_KEY };
    let d = await testDeck(env);
    try {
      const [a, b, c] = await Promise.all(['calib_a', 'calib_b', 'calib_c'].map((n) => signedIn(d.url, n)));
      expect((await calibration(d.url, a!)).body).toMatchObject({ house: { k: 0, n: 0, rate: null, wilson_lower: null, scores: 0 } });
      await score(d.url, a!, { stage: 'parts', text: words });
      grader.policy = except(['entry', 'stop'], NO);
      await score(d.url, b!, { stage: 'parts', text: words });
      await score(d.url, c!, { stage: 'parts', text: 'good morning, nice weather today' });
      const { status, body } = await calibration(d.url, a!);
      expect(status).toBe(200);
      // 12 of 14 held: (0.857143 + 0.1372 - 1.96 * sqrt(0.008746 + 0.0049)) / 1.2744 = 0.6006
      expect(body).toMatchObject({ ok: true, stage: 'parts', rubric: 'RUBRIC_v1', z: 1.96, house: { k: 12, n: 14, rate: 0.8571, wilson_lower: 0.6006, scores: 3 } });
      // 7 of 7: 1 / (1 + 3.8416 / 7) = 0.6457
      expect(body.mine).toEqual({ k: 7, n: 7, rate: 1, wilson_lower: 0.6457, scores: 1 });
      // 5 of 7: (0.714286 + 0.274400 - 1.96 * sqrt(0.029155 + 0.019600)) / 1.548800 = 0.3589
      expect((await calibration(d.url, b!)).body.mine).toEqual({ k: 5, n: 7, rate: 0.7143, wilson_lower: 0.3589, scores: 1 });
      expect((await calibration(d.url, c!)).body.mine).toEqual({ k: 0, n: 0, rate: null, wilson_lower: null, scores: 1 });
      expect((await calibration(d.url, a!, 'rehearsed')).body.house).toEqual({ k: 0, n: 0, rate: null, wilson_lower: null, scores: 0 });
      expect((await calibration(d.url, a!, 'forged')).status).toBe(422);

      // The counts are read back from the score ledger, which verifies from its first entry.
      await d.stop();
      expect((await FileLedger.open<ScoreEntry>(dir, 'scores')).verify()).toBeNull();
      d = await testDeck(env);
      expect((await calibration(d.url, a!)).body).toEqual(body);
    } finally {
      await d.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
