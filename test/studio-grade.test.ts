import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileLedger } from '../store/file-ledger.js';
import type { GradeEntry } from '../store/grades.js';
import { except, FAITHFUL, startGrader, type GraderFixture } from './fixtures/grader.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { answered, callAnswered } from './support/answers.js';
import { grantsFile, legacyClient } from './support/mcp.js';
import { emaCrossWords, forgeWords, meterSpent, REHEARSE_TO, rehearseDay } from './support/studio.js';

// POST /studio/grade against a grader lane speaking the chat-completions protocol over real HTTP: facts first (a
// failed one is a reject receipt and the lane is never asked), then one decision of eight closed questions under
// RUBRIC_v1, funded by the caller's own key, the house, the plan or a trial ping; receipts chained in a ledger.

const HOUSE_KEY = `sk-house-${'h'.repeat(32)}`;
const OWN_KEY = `sk-own-${'o'.repeat(32)}`;
const UNKNOWN_KEY = `sk-unknown-${'u'.repeat(32)}`;
const QUESTIONS = ['market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit', 'nothing_added'];
const NO = { yes: 0.05, partly: 0.1, no: 0.85 };

type Who = Awaited<ReturnType<typeof signedIn>>;

let venue: VenueFixture;
let grader: GraderFixture;
let grants: string;
let deck: TestDeck;
/** A deck with no grader lane (DECK_GRADER_URL unset). */
let laneless: TestDeck;
/** A deck with a lane but no house key. */
let keyless: TestDeck;
let words: string;
let house: Who;
let houseSeed: string;

const grade = (url: string, who: Who, body: unknown) => callAnswered(`${url}/studio/grade`, { body, headers: who.bearer });
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
/** POST /studio/rehearse over the hours before REHEARSE_TO; answers the envelope and its digest (sha256 of the bytes). */
async function rehearseOn(url: string, who: Who, seed: string, extra: Record<string, unknown>) {
  const res = await fetch(`${url}/studio/rehearse`, {
    method: 'POST',
    headers: { ...who.bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ seed_hash: seed, to: REHEARSE_TO, ...extra }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(res.status).toBe(200);
  return { body: JSON.parse(bytes.toString('utf8')), digest: sha256(bytes) };
}
/** The context of a grader request: its user message up to the question. */
const contextOf = (content: string) => content.slice(0, content.lastIndexOf('\n\nQuestion ('));

/** A principal of `url` with the EMA cross forged and, unless told, rehearsed; answers it and the seed. */
async function ready(url: string, name: string, rehearse = true): Promise<{ who: Who; seed: string }> {
  const who = await signedIn(url, name);
  const seed = await forgeWords(url, who, words);
  if (rehearse) await rehearseDay(url, who, seed);
  return { who, seed };
}

beforeAll(async () => {
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m'), 'ETH/1m': sampleRows('ETH-1m') });
  grader = await startGrader([HOUSE_KEY, OWN_KEY]);
  grants = await grantsFile([
    { name: 'grade_house', tier: 'house' },
    { name: 'grade_plan', tier: 'plan' },
  ]);
  const env = { DECK_TAPE_URL: venue.url, DECK_GRANTS: grants };
  deck = await testDeck({ ...env, DECK_GRADER_URL: grader.url, DECK_GRADER_KEY: HOUSE_KEY });
  laneless = await testDeck(env);
  keyless = await testDeck({ ...env, DECK_GRADER_URL: grader.url });
  house = await signedIn(deck.url, 'grade_house');
  words = await emaCrossWords(deck.url, house);
  houseSeed = await forgeWords(deck.url, house, words);
  await rehearseDay(deck.url, house, houseSeed);
}, 60_000);
afterAll(async () => {
  await Promise.all([deck.stop(), laneless.stop(), keyless.stop()]);
  await Promise.all([venue.close(), grader.close()]);
  await rm(dirname(grants), { recursive: true, force: true });
});
beforeEach(() => {
  grader.mode = 'logprobs';
  grader.policy = () => FAITHFUL;
});

describe('POST /studio/grade: facts first', () => {
  it('needs a session, and a forge of yours (404)', async () => {
    expect((await callAnswered(`${deck.url}/studio/grade`, { body: { seed_hash: houseSeed } })).status).toBe(401);
    const stranger = await signedIn(deck.url, 'grade_stranger');
    expect((await grade(deck.url, stranger, { seed_hash: houseSeed })).status).toBe(404);
    expect((await grade(deck.url, house, { seed_hash: 'f'.repeat(64) })).status).toBe(404);
    expect((await callAnswered(`${deck.url}/studio/grade`, { raw: 'not json', headers: house.bearer })).status).toBe(400);
  });

  it('rejects a forge with no rehearsal without asking the grader: nothing spent', async () => {
    const { who, seed } = await ready(deck.url, 'grade_unrehearsed', false);
    const asked = grader.requests.length;
    const spent = await meterSpent(deck.url, who);
    const { status, body } = await grade(deck.url, who, { seed_hash: seed });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, rubric: 'RUBRIC_v1', seed_hash: seed, decision: 'reject', grader: null });
    const failed = body.facts.filter((f: { held: boolean }) => !f.held).map((f: { name: string }) => f.name);
    expect(failed).toEqual(['rehearsed', 'stop_obeyed', 'sides', 'exits']);
    expect(body.reasons[0]).toMatch(/^rehearsed: no rehearsal of this seed is kept/);
    expect(body.receipt_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.trial_pings_left).toBeUndefined();
    expect(grader.requests.length).toBe(asked);
    expect(await meterSpent(deck.url, who)).toBe(spent);
  });

  it('rejects a rehearsal whose trade broke its stop, without asking, even with no grader lane configured', async () => {
    // The kept rehearsal is altered on disk while the deck is down: one trade lost 5R, with no gap to explain it.
    const dir = await mkdtemp(join(tmpdir(), 'deck-grade-'));
    const env = { DECK_DATA: dir, DECK_TAPE_URL: venue.url };
    let d = await testDeck(env);
    try {
      const { who, seed } = await ready(d.url, 'grade_tampered');
      await d.stop();
      // Its trades are kept apart, by its digest.
      const doc = JSON.parse(await readFile(join(dir, 'rehearsals.json'), 'utf8'));
      const file = join(dir, 'trades', `${doc.by_principal[Object.keys(doc.by_principal)[0]!][0].digest}.json`);
      const trades = JSON.parse(await readFile(file, 'utf8'));
      Object.assign(trades[0], { r: -5, exit_open: null });
      await writeFile(file, JSON.stringify(trades));
      d = await testDeck(env);
      const { status, body } = await grade(d.url, who, { seed_hash: seed });
      expect(status).toBe(200);
      expect(body.decision).toBe('reject');
      expect(body.grader).toBeNull();
      const stop = body.facts.find((f: { name: string }) => f.name === 'stop_obeyed');
      expect(stop).toMatchObject({ held: false, detail: expect.stringMatching(/^1 of \d+ trades broke their stop: trade 1 .* lost 5R/) });
    } finally {
      await d.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('one grader decision under RUBRIC_v1', () => {
  it('accepts when every closed question holds: eight distributions, the words sent to the grader only', async () => {
    const asked = grader.requests.length;
    const { status, body } = await grade(deck.url, house, { seed_hash: houseSeed });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, decision: 'accept', grader: { model: 'gpt-4o-mini', funded: 'house' } });
    expect(body.facts.every((f: { held: boolean }) => f.held)).toBe(true);
    expect(body.grader.answers.map((a: { id: string }) => a.id)).toEqual(QUESTIONS);
    for (const a of body.grader.answers) {
      expect(a).toMatchObject({ distribution: { yes: 0.9, partly: 0.07, no: 0.03 }, source: 'logprobs', samples: null, verdict: 'holds' });
    }
    expect(body.reasons).toHaveLength(8);
    expect(body.decision_digest).toMatch(/^[0-9a-f]{64}$/);
    // One request per question, on the house key, asking for log-probabilities and samples.
    const sent = grader.requests.slice(asked);
    expect(sent.map((r) => r.id).sort()).toEqual([...QUESTIONS].sort());
    for (const r of sent) {
      expect(r.bearer).toBe(HOUSE_KEY);
      expect(r.body).toMatchObject({ model: 'gpt-4o-mini', n: 5, logprobs: true, top_logprobs: 5 });
      expect(r.body.messages[1]!.content).toContain(words);
      expect(r.body.messages[0]!.content).toContain('never whether the rule would make money');
    }
    // The receipt carries only the words' digest.
    expect(JSON.stringify(body)).not.toContain(words);
  });

  it('rejects when the stop question fails, naming it in the reasons', async () => {
    grader.policy = except(['stop'], NO);
    const { body } = await grade(deck.url, house, { seed_hash: houseSeed });
    expect(body.decision).toBe('reject');
    expect(body.grader.answers[5]).toMatchObject({ id: 'stop', distribution: { yes: 0.05, partly: 0.1, no: 0.85 }, verdict: 'fails' });
    expect(body.reasons).toContain('stop: fails, the stop does not sit where the words say (yes 0.05, partly 0.1, no 0.85)');
  });

  it('revises when a question is unsure, from counted samples when the lane gives no log-probabilities', async () => {
    grader.mode = 'samples';
    grader.policy = except(['entry'], { yes: 0.6, partly: 0.4, no: 0 });
    const { body } = await grade(deck.url, house, { seed_hash: houseSeed });
    expect(body.decision).toBe('revise');
    expect(body.grader.answers[4]).toMatchObject({ id: 'entry', distribution: { yes: 0.6, partly: 0.4, no: 0 }, source: 'samples', samples: 5, verdict: 'unsure' });
    expect(body.grader.answers[0]).toMatchObject({ distribution: { yes: 1, partly: 0, no: 0 }, source: 'samples', verdict: 'holds' });
  });

  it('composes deterministically: the same distributions give the same decision digest, each receipt its own hash', async () => {
    grader.policy = except(['exit'], { yes: 0.75, partly: 0.2, no: 0.05 });
    const a = (await grade(deck.url, house, { seed_hash: houseSeed })).body;
    grader.mode = 'samples';
    grader.policy = except(['exit'], { yes: 0.8, partly: 0.2, no: 0 });
    const other = (await grade(deck.url, house, { seed_hash: houseSeed })).body;
    grader.mode = 'logprobs';
    grader.policy = except(['exit'], { yes: 0.75, partly: 0.2, no: 0.05 });
    const b = (await grade(deck.url, house, { seed_hash: houseSeed })).body;
    expect(a.decision).toBe('accept');
    expect(b.decision_digest).toBe(a.decision_digest);
    expect(b.receipt_hash).not.toBe(a.receipt_hash);
    expect(other.decision_digest).not.toBe(a.decision_digest);
    expect(b.prev_hash).toBe(other.receipt_hash);
    expect(other.prev_hash).toBe(a.receipt_hash);
  });

  it('answers 502 when the grader refuses or answers nonsense, and records nothing', async () => {
    const count = async () => (await FileLedger.open<GradeEntry>(deck.dataDir, 'grades')).all.length;
    const before = await count();
    grader.mode = 'garbage';
    const garbage = await grade(deck.url, house, { seed_hash: houseSeed });
    expect(garbage.status).toBe(502);
    expect(garbage.body).toMatchObject({ error: 'grader_nonsense', upstream: 'the grader' });
    grader.mode = 'refuse';
    const refused = await grade(deck.url, house, { seed_hash: houseSeed });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('grader_refused');
    expect(await count()).toBe(before);
  });

  it('is the grade tool on /mcp, answering the same receipt', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, house.bearer);
    try {
      const result = await client.callTool({ name: 'grade', arguments: { seed_hash: houseSeed } });
      answered('grade', result.structuredContent);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ ok: true, decision: 'accept', grader: { funded: 'house' }, seed_hash: houseSeed });
    } finally {
      await client.close();
    }
  });
});

describe('the rehearsal a grade judges', () => {
  it('is the one the studio record holds, not a later direct rehearsal on another market', async () => {
    const who = house;
    const strategy = 'rests-on';
    const act = (body: Record<string, unknown>) => callAnswered(`${deck.url}/studio/state`, { body: { strategy, ...body }, headers: who.bearer });
    for (const move of [{ action: 'words', text: words }, { action: 'read' }, { action: 'forge' }, { action: 'rehearse', to: REHEARSE_TO, hours: 24 }]) {
      expect((await act(move)).status).toBe(200);
    }
    const record = (await callAnswered(`${deck.url}/studio/state?strategy=${strategy}`, { headers: who.bearer })).body.record;
    expect(record.rehearsal).toMatchObject({ market: 'BTC', timeframe: '1m' });
    const seed = record.seed.seed_hash as string;
    // A later rehearsal of the same seed straight through the route, on ETH over six hours.
    const eth = await rehearseOn(deck.url, who, seed, { market: 'ETH', hours: 6 });
    expect(eth.body.market).toBe('ETH');
    expect(eth.digest).not.toBe(record.rehearsal.digest);

    const asked = grader.requests.length;
    const graded = await act({ action: 'grade' });
    expect(graded.status).toBe(200);
    const receipt = graded.body.answer;
    expect(receipt.rehearsal).toEqual({
      digest: record.rehearsal.digest,
      chosen: 'named',
      market: 'BTC',
      timeframe: '1m',
      from: record.rehearsal.window.from,
      to: record.rehearsal.window.to,
      trades: record.rehearsal.trades,
    });
    expect(receipt.facts[5]).toMatchObject({ name: 'rehearsed', held: true, detail: expect.stringContaining(`rehearsal ${record.rehearsal.digest} (the one named): ${record.rehearsal.trades} trades on BTC 1m`) });
    expect(graded.body.coverage.grade.rests_on).toEqual({ seed_hash: seed, rehearsal_digest: receipt.rehearsal.digest, decision: 'accept' });
    expect(grader.requests.slice(asked).every((r) => !r.body.messages[1]!.content.includes('ETH'))).toBe(true);

    // A direct grade naming no rehearsal judges the latest on the rule's own market: BTC, not the later ETH one.
    const direct = (await grade(deck.url, who, { seed_hash: seed })).body;
    expect(direct.rehearsal).toMatchObject({ digest: record.rehearsal.digest, chosen: 'latest_on_rule_market', market: 'BTC' });
    // Naming the ETH rehearsal by its digest judges that one.
    const named = (await grade(deck.url, who, { seed_hash: seed, rehearsal_digest: eth.digest })).body;
    expect(named.rehearsal).toMatchObject({ digest: eth.digest, chosen: 'named', market: 'ETH', trades: eth.body.trades.length });
    expect(named.decision_digest).not.toBe(direct.decision_digest);
  });

  it('answers 404 naming rehearsal_digest for a rehearsal not kept, and 422 for one not shaped like a digest', async () => {
    const asked = grader.requests.length;
    const missing = await grade(deck.url, house, { seed_hash: houseSeed, rehearsal_digest: 'f'.repeat(64) });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, error: 'rehearsal_not_found', field: 'rehearsal_digest' });
    const bad = await grade(deck.url, house, { seed_hash: houseSeed, rehearsal_digest: 'not-a-digest' });
    expect(bad.status).toBe(422);
    expect(bad.body.problems.map((p: { field: string }) => p.field)).toEqual(['rehearsal_digest']);
    expect(grader.requests.length).toBe(asked);
  });

  it('rejects unasked when the seed was rehearsed only on another market than its rule\'s', async () => {
    const { who, seed } = await ready(deck.url, 'grade_elsewhere', false);
    await rehearseOn(deck.url, who, seed, { market: 'ETH', hours: 6 });
    const asked = grader.requests.length;
    const { body } = await grade(deck.url, who, { seed_hash: seed });
    expect(body).toMatchObject({ decision: 'reject', rehearsal: null, grader: null, shown: null });
    expect(body.reasons[0]).toBe(
      "rehearsed: no rehearsal of this seed on BTC, the rule's market, is kept (only on ETH): rehearse it on BTC, or name the rehearsal to judge by its rehearsal_digest",
    );
    expect(grader.requests.length).toBe(asked);
  });

  it('shows the grader what the code does in plain words, and keeps the digest of what it showed', async () => {
    const asked = grader.requests.length;
    const { body } = await grade(deck.url, house, { seed_hash: houseSeed });
    expect(body.decision).toBe('accept');
    const code = body.shown.code_in_words as string;
    expect(code).toMatch(/^What the forged code does \(decider\.v1\): it trades BTC on 1m bars, long and short/);
    expect(code).toContain('Enter long when the 9-bar EMA of the closes crosses above the 21-bar EMA of the closes');
    expect(code).toContain('Stop: 2 x ATR(14) at the signal bar\'s close from the entry fill');
    const sent = grader.requests.slice(asked);
    expect(sent).toHaveLength(8);
    for (const r of sent) {
      const context = contextOf(r.body.messages[1]!.content);
      expect(sha256(context)).toBe(body.shown.digest);
      expect(context).toContain(code.trimEnd());
      expect(context).toContain('The rule as the deck forged it (script.v1, JSON)');
    }
  });
});

describe('funding: own key, house, plan or trial pings', () => {
  it('spends the plan for a plan principal, recorded on the meter as one grade', async () => {
    const planner = await signedIn(deck.url, 'grade_plan');
    const seed = await forgeWords(deck.url, planner, words);
    await rehearseDay(deck.url, planner, seed);
    const spent = await meterSpent(deck.url, planner);
    const { body } = await grade(deck.url, planner, { seed_hash: seed });
    expect(body).toMatchObject({ decision: 'accept', grader: { funded: 'plan' } });
    expect(await meterSpent(deck.url, planner)).toBe(spent + 20);
  });

  it('asks with the caller\'s own key, leaving the trial pings untouched; 422 for a key not shaped like one', async () => {
    const { who, seed } = await ready(deck.url, 'grade_own_key');
    const asked = grader.requests.length;
    for (const bad of ['sk-short', 'pk-' + 'x'.repeat(30), `sk-${'x'.repeat(20)} space`]) {
      const { status, body } = await grade(deck.url, who, { seed_hash: seed, grader_key: bad });
      expect(status).toBe(422);
      expect(body.problems.map((p: { field: string }) => p.field)).toEqual(['grader_key']);
      expect(JSON.stringify(body)).not.toContain(bad);
    }
    expect(grader.requests.length).toBe(asked);
    const { body } = await grade(deck.url, who, { seed_hash: seed, grader_key: OWN_KEY });
    expect(body).toMatchObject({ decision: 'accept', grader: { funded: 'own_key' } });
    expect(body.trial_pings_left).toBeUndefined();
    expect(grader.requests.slice(asked).every((r) => r.bearer === OWN_KEY)).toBe(true);
    expect(JSON.stringify(body)).not.toContain(OWN_KEY);
    // The three trial pings are all still there.
    expect((await grade(deck.url, who, { seed_hash: seed })).body).toMatchObject({ grader: { funded: 'trial' }, trial_pings_left: 2 });
  });

  it('answers 502 when the lane refuses the caller\'s key, without carrying the key back', async () => {
    const { who, seed } = await ready(deck.url, 'grade_unknown_key');
    const { status, body } = await grade(deck.url, who, { seed_hash: seed, grader_key: UNKNOWN_KEY });
    expect(status).toBe(502);
    expect(body).toMatchObject({ error: 'grader_refused', grader: { status: 401, type: 'invalid_request_error', code: 'invalid_api_key' } });
    expect(JSON.stringify(body)).not.toContain(UNKNOWN_KEY);
  });

  it('spends a free principal\'s trial pings, then answers 402 naming what would fund it', async () => {
    const { who, seed } = await ready(deck.url, 'grade_trial');
    for (const left of [2, 1, 0]) {
      const { body } = await grade(deck.url, who, { seed_hash: seed });
      expect(body).toMatchObject({ decision: 'accept', grader: { funded: 'trial' }, trial_pings_left: left });
    }
    const asked = grader.requests.length;
    const spent = await meterSpent(deck.url, who);
    const { status, body } = await grade(deck.url, who, { seed_hash: seed });
    expect(status).toBe(402);
    expect(body).toMatchObject({ error: 'no_grader_funding', fund: ['grader_key', 'plan'], plans: ['plan-29', 'premium-99'], trial_pings: { limit: 3, used: 3 } });
    expect(grader.requests.length).toBe(asked);
    expect(await meterSpent(deck.url, who)).toBe(spent);
    // Its own key still funds it.
    expect((await grade(deck.url, who, { seed_hash: seed, grader_key: OWN_KEY })).body.grader.funded).toBe('own_key');
  });

  it('gives back the trial ping of a decision that did not come back: the lane down (503) or nonsense (502)', async () => {
    const { who, seed } = await ready(deck.url, 'grade_giveback');
    const spent = await meterSpent(deck.url, who);
    grader.mode = 'down';
    const down = await grade(deck.url, who, { seed_hash: seed });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ error: 'upstream_unreachable', upstream: 'the grader' });
    grader.mode = 'garbage';
    expect((await grade(deck.url, who, { seed_hash: seed })).status).toBe(502);
    expect(await meterSpent(deck.url, who)).toBe(spent);
    grader.mode = 'logprobs';
    expect((await grade(deck.url, who, { seed_hash: seed })).body).toMatchObject({ grader: { funded: 'trial' }, trial_pings_left: 2 });
  });

  it('answers 503 naming DECK_GRADER_URL when no lane is configured, with nothing spent', async () => {
    const { who, seed } = await ready(laneless.url, 'grade_laneless');
    const spent = await meterSpent(laneless.url, who);
    const asked = grader.requests.length;
    const { status, body } = await grade(laneless.url, who, { seed_hash: seed });
    expect(status).toBe(503);
    expect(body).toMatchObject({ error: 'upstream_not_configured', upstream: 'the grader lane' });
    expect(body.message).toContain('DECK_GRADER_URL');
    expect(await meterSpent(laneless.url, who)).toBe(spent);
    expect(grader.requests.length).toBe(asked);
    expect((await FileLedger.open<GradeEntry>(laneless.dataDir, 'grades')).all).toHaveLength(0);
    expect(JSON.parse(await readFile(join(laneless.dataDir, 'grader-pings.json'), 'utf8').catch(() => '{"used":{}}')).used).toEqual({});
  });

  it('answers 402 naming the caller\'s own key when the house holds no grader key', async () => {
    const { who, seed } = await ready(keyless.url, 'grade_keyless');
    const { status, body } = await grade(keyless.url, who, { seed_hash: seed });
    expect(status).toBe(402);
    expect(body).toMatchObject({ error: 'no_grader_funding', fund: ['grader_key'] });
    expect((await grade(keyless.url, who, { seed_hash: seed, grader_key: OWN_KEY })).body.grader.funded).toBe('own_key');
  });
});

describe('the receipt ledger', () => {
  it('chains every receipt, verifies from the first, and keeps neither the words nor a key', async () => {
    const first = (await grade(deck.url, house, { seed_hash: houseSeed })).body;
    const second = (await grade(deck.url, house, { seed_hash: houseSeed })).body;
    expect(second.prev_hash).toBe(first.receipt_hash);
    expect(second.seq).toBe(first.seq + 1);
    const ledger = await FileLedger.open<GradeEntry>(deck.dataDir, 'grades');
    expect(ledger.verify()).toBeNull();
    const last = ledger.all.at(-1)!;
    expect(last).toMatchObject({ seq: second.seq, hash: second.receipt_hash, prev: first.receipt_hash });
    expect(last.entry).toMatchObject({ decision: second.decision, decision_digest: second.decision_digest, seed_hash: houseSeed });
    const text = await readFile(join(deck.dataDir, 'grades.jsonl'), 'utf8');
    for (const secret of [words, HOUSE_KEY, OWN_KEY]) expect(text).not.toContain(secret);
  });
});
