import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tuplesFromBars } from '../engine/bars.js';
import { REGISTRY } from '../tools/registry.js';
import { except, FAITHFUL, startGrader, type GraderFixture } from './fixtures/grader.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { movableClock } from './support/clock.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, refusalIn } from './support/mcp.js';
import { answered, callAnswered, everyAct } from './support/answers.js';
import { sampleFile } from './support/tape-file.js';

// The deck's records over real HTTP and MCP: a principal's history with the ledger entry proving each act (and
// another's entries 404), the registry, the ladder (empty with no model; test/copy.test.ts ranks real ones; its refusals
// when the tape fails), the concluded lab by digest only, and the roadmap generated from the registry and the README so
// it cannot drift.

/** The end of 5 April 2018, a day the shipped BTC minutes hold whole. */
const TO = Date.UTC(2018, 3, 6) / 1000;
const KEY = `sk-${'r'.repeat(32)}`;

let grants: string;
let venue: VenueFixture;
let grader: GraderFixture;
let deck: TestDeck;
type Who = Awaited<ReturnType<typeof signedIn>>;
let ada: Who;
let bob: Who;
let intent: string;

/** Walks a strategy through the studio to its grade: words, read, forge, rehearse, grade. */
async function concluded(who: Who, strategy: string) {
  let last;
  for (const move of [{ action: 'words', text: intent }, { action: 'read' }, { action: 'forge' }, { action: 'rehearse', to: TO, hours: 6 }, { action: 'grade' }]) {
    last = await callAnswered(`${deck.url}/studio/state`, { body: { strategy, ...move }, headers: who.bearer });
    expect(last.status, `${move.action}: ${JSON.stringify(last.body).slice(0, 300)}`).toBe(200);
  }
  return last!.body.record as { state: string; words: string; seed: { seed_hash: string }; rehearsal: { digest: string }; grade: { receipt: { receipt_hash: string; rubric: string } } };
}

const ledgerLines = async (name: string) => (await readFile(join(deck.dataDir, `${name}.jsonl`), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l));

beforeAll(async () => {
  grants = await grantsFile([
    { name: 'ada', tier: 'house' },
    { name: 'bob', tier: 'house' },
  ]);
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m') });
  grader = await startGrader([KEY]);
  deck = await testDeck({ DECK_TAPE_URL: venue.url, DECK_GRANTS: grants, DECK_GRADER_URL: grader.url, DECK_GRADER_KEY: KEY });
  ada = await signedIn(deck.url, 'ada');
  bob = await signedIn(deck.url, 'bob');
  intent = (await callAnswered(`${deck.url}/forge?onboard=ema-cross`, { headers: ada.bearer })).body.intent;
}, 60_000);
afterAll(async () => {
  await deck.stop();
  await venue.close();
  await grader.close();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('the concluded lab', () => {
  it('is empty before anyone concludes', async () => {
    expect((await callAnswered(`${deck.url}/records/lab`)).body).toEqual({ ok: true, count: 0, concluded: [] });
  });

  it('lists each strategy brought to a grade by digest only: seed, receipt, decision, rubric, rehearsal; never the words', async () => {
    const accepted = await concluded(ada, 'lab-accept');
    expect(accepted.state).toBe('graded');
    grader.policy = except(['exit'], { yes: 0.05, partly: 0.05, no: 0.9 });
    let rejected;
    try {
      rejected = await concluded(bob, 'lab-reject');
    } finally {
      grader.policy = () => FAITHFUL;
    }
    expect(rejected.state).toBe('rejected');
    const { status, body } = await callAnswered(`${deck.url}/records/lab`);
    expect(status).toBe(200);
    expect(body.count).toBe(2);
    const digestOf = (r: typeof accepted, decision: string) => ({
      seed_hash: r.seed.seed_hash,
      receipt_hash: r.grade.receipt.receipt_hash,
      decision,
      rubric: r.grade.receipt.rubric,
      rehearsal_digest: r.rehearsal.digest,
      concluded_at: expect.any(String),
    });
    expect(body.concluded).toEqual([digestOf(accepted, 'accept'), digestOf(rejected, 'reject')]);
    const text = JSON.stringify(body);
    for (const secret of [intent, 'lab-accept', 'lab-reject']) expect(text).not.toContain(secret);
    // A name as short as ada can turn up inside a hex digest: the names are looked for as words.
    for (const name of ['ada', 'bob']) expect(text).not.toMatch(new RegExp(`\\b${name}\\b`));
  });
});

describe('history', () => {
  it("lists the caller's own acts in time order, each proven by its ledger entry", async () => {
    const { status, body } = await callAnswered(`${deck.url}/records/history?limit=200`, { headers: ada.bearer });
    expect(status).toBe(200);
    const acts = body.acts as { kind: string; ledger: string; seq: number; hash: string; at: string; what: Record<string, unknown> }[];
    expect(body.total).toBe(acts.length);
    for (const kind of ['forge', 'rehearse', 'grade']) expect(acts.map((a) => a.kind)).toContain(kind);
    // Every kind the ledgers beside the meter record is listed, with the price list's actions.
    for (const kind of ['grade', 'score', 'plan_claim', 'holder_link', 'mandate', 'series_move', 'forge']) expect(body.kinds).toContain(kind);
    expect(acts.map((a) => a.at)).toEqual([...acts.map((a) => a.at)].sort());
    const ledgers = { meter: await ledgerLines('meter'), grades: await ledgerLines('grades'), scores: [] as { seq: number; hash: string; entry: { principal_id: string } }[] };
    for (const a of acts) {
      const line = ledgers[a.ledger as keyof typeof ledgers].find((l) => l.seq === a.seq)!;
      expect(line.hash).toBe(a.hash);
    }
    // Every one of ada's entries, and none of bob's.
    const adaId = ledgers.grades.find((l) => l.hash === acts.find((a) => a.ledger === 'grades')!.hash)!.entry.principal_id;
    const own = [...ledgers.meter, ...ledgers.grades].filter((l) => l.entry.principal_id === adaId);
    expect(acts).toHaveLength(own.length);
    const receipt = acts.find((a) => a.ledger === 'grades')!;
    expect(receipt).toMatchObject({ kind: 'grade', what: { decision: 'accept', rubric: 'RUBRIC_v1' } });
    expect(JSON.stringify(body)).not.toContain(intent);
    expect(await everyAct(deck.url, ada.bearer)).toEqual(['grades', 'meter']);
  });

  it('pages by cursor and limit, and keeps one kind', async () => {
    const all = (await callAnswered(`${deck.url}/records/history?limit=200`, { headers: ada.bearer })).body.acts;
    const first = (await callAnswered(`${deck.url}/records/history?limit=2`, { headers: ada.bearer })).body;
    expect(first).toMatchObject({ cursor: 0, next: 2, acts: all.slice(0, 2) });
    const second = (await callAnswered(`${deck.url}/records/history?limit=2&cursor=${first.next}`, { headers: ada.bearer })).body;
    expect(second.acts).toEqual(all.slice(2, 4));
    const last = (await callAnswered(`${deck.url}/records/history?cursor=${all.length - 1}`, { headers: ada.bearer })).body;
    expect(last).toMatchObject({ next: null, acts: all.slice(-1) });
    const grades = (await callAnswered(`${deck.url}/records/history?kind=grade`, { headers: ada.bearer })).body.acts as { kind: string; ledger: string }[];
    expect(grades.map((a) => a.kind)).toEqual(grades.map(() => 'grade'));
    expect(grades.map((a) => a.ledger).sort()).toEqual(['grades', 'meter']);
  });

  it('refuses a kind it does not know, and bad paging, naming the field (422); needs a session (401)', async () => {
    const bad = await callAnswered(`${deck.url}/records/history?kind=teleport`, { headers: ada.bearer });
    expect(bad.status).toBe(422);
    expect(bad.body.problems[0].field).toBe('kind');
    expect(bad.body.problems[0].message).toContain('forge');
    expect((await callAnswered(`${deck.url}/records/history?limit=0`, { headers: ada.bearer })).body.problems[0].field).toBe('limit');
    expect((await callAnswered(`${deck.url}/records/history`)).status).toBe(401);
  });

  it("answers one of the caller's acts whole, as its ledger keeps it; another principal's is 404", async () => {
    const acts = (await callAnswered(`${deck.url}/records/history?kind=grade`, { headers: ada.bearer })).body.acts as { ledger: string; seq: number; hash: string }[];
    const receipt = acts.find((a) => a.ledger === 'grades')!;
    const mine = await callAnswered(`${deck.url}/records/history/grades/${receipt.seq}`, { headers: ada.bearer });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ ok: true, ledger: 'grades', seq: receipt.seq, hash: receipt.hash, entry: { decision: 'accept', rubric: 'RUBRIC_v1' } });
    expect(mine.body.entry.principal_id).toBeUndefined();
    const line = (await ledgerLines('grades')).find((l) => l.seq === receipt.seq);
    expect(mine.body.prev).toBe(line.prev);

    const theirs = await callAnswered(`${deck.url}/records/history/grades/${receipt.seq}`, { headers: bob.bearer });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ error: 'not_found' });
    expect((await callAnswered(`${deck.url}/records/history/meter/99999`, { headers: ada.bearer })).status).toBe(404);
    const bad = await callAnswered(`${deck.url}/records/history/accounts/1`, { headers: ada.bearer });
    expect(bad.status).toBe(422);
    expect(bad.body.problems[0].field).toBe('ledger');
  });

  it('is served over MCP too, scoped the same way', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, bob.bearer);
    const got = (await client.callTool({ name: 'history', arguments: { kind: 'grade' } })).structuredContent as { acts: { ledger: string; seq: number }[] };
    answered('history', got);
    expect(got.acts.length).toBeGreaterThan(0);
    const adaReceipt = (await callAnswered(`${deck.url}/records/history?kind=grade`, { headers: ada.bearer })).body.acts.find((a: { ledger: string }) => a.ledger === 'grades');
    const refused = await client.callTool({ name: 'history_entry', arguments: { ledger: 'grades', seq: adaReceipt.seq } });
    expect(refused.isError).toBe(true);
    expect(refusalIn(refused)).toMatchObject({ error: 'not_found', status: 404 });
    await client.close();
  });
});

describe('the registry, the ladder and the roadmap', () => {
  it('the registry lists the sellers and the public onboarded algorithms in one list; the house\'s own is sealed', async () => {
    const { status, body } = await callAnswered(`${deck.url}/records/registry`);
    expect(status).toBe(200);
    const entries = body.entries as { kind: string; id: string; card_url?: string; script_url?: string }[];
    expect(body.count).toBe(entries.length);
    expect(entries.filter((e) => e.kind === 'seller').map((e) => e.id)).toEqual(['studio', 'candles', 'copy']);
    expect(entries.find((e) => e.id === 'studio')!.card_url).toBe(`${deck.url}/cards/studio`);
    expect(entries.filter((e) => e.kind === 'algorithm').map((e) => e.id)).toEqual(['ema-cross', 'opening-range-breakout', 'rsi2-pullback', 'donchian-breakout']);
    const script = await callAnswered(entries.find((e) => e.id === 'ema-cross')!.script_url!, { headers: ada.bearer });
    expect(script.body).toMatchObject({ ok: true, name: 'ema-cross' });
    expect(JSON.stringify(body)).not.toContain('house-one');
  });

  it('the ladder is empty while no model has traded: nothing is ranked, nothing reads as zero', async () => {
    const { status, body } = await callAnswered(`${deck.url}/records/ladder`);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, min_trades: 30, ranked: [], unranked: [] });
  });

  it('the roadmap serves every tool of the registry once, and lists the README\'s "Not built yet" items as written', async () => {
    const { status, body } = await callAnswered(`${deck.url}/records/roadmap`);
    expect(status).toBe(200);
    const served = (body.serves as { area: string; tools: { name: string; route: string | null }[] }[]).flatMap((a) => a.tools.map((t) => t.name));
    expect([...served].sort()).toEqual(REGISTRY.map((t) => t.name).sort());
    for (const area of body.serves as { area: string; tools: { name: string }[] }[]) {
      for (const t of area.tools) {
        const tool = REGISTRY.find((r) => r.name === t.name)!;
        expect(tool.rest ? tool.toolset.id : 'mcp').toBe(area.area);
      }
    }
    // The README's list, read here on its own.
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.split('\n## Not built yet\n')[1]!.split('\n## ')[0]!;
    const items = section.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2).trim());
    expect(items.length).toBeGreaterThan(0);
    expect((body.not_built as { item: string }[]).map((n) => n.item)).toEqual(items);
  });

  it('cannot drift: nothing the "Not built yet" list names is served, and the tags built here are off it', async () => {
    const { body } = await callAnswered(`${deck.url}/records/roadmap`);
    const routes = new Set(REGISTRY.filter((t) => t.rest).map((t) => `${t.rest!.method} ${t.rest!.path}`));
    const paths = new Set(REGISTRY.filter((t) => t.rest).map((t) => t.rest!.path));
    for (const { item, names } of body.not_built as { item: string; names: string[] }[]) {
      for (const name of names) {
        expect(REGISTRY.map((t) => t.name), `${name} (from "${item}") is served`).not.toContain(name);
        expect(routes.has(name), `${name} is served`).toBe(false);
        if (name.startsWith('/')) expect([...paths].some((p) => p.startsWith(name.replace(/\.\.\.$/, ''))), `${name} is served`).toBe(false);
      }
      for (const tag of ['records', 'plane', 'chat']) expect(item).not.toMatch(new RegExp(`\\b${tag}\\b`));
    }
  });

  it('are tools on MCP as well', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, ada.bearer);
    for (const name of ['registry', 'ladder', 'lab', 'roadmap']) {
      const got = await client.callTool({ name, arguments: {} });
      expect(got.isError, name).toBeFalsy();
      expect((got.structuredContent as { ok: boolean }).ok).toBe(true);
    }
    await client.close();
  });
});

describe('the ladder over a tape that fails', () => {
  it('brings each live book up to now from the venue first: 502 when the venue answers nonsense, 503 with no venue', async () => {
    const btc = tuplesFromBars(sampleFile('BTC-1m'));
    const clock = movableClock(btc[100]![0] + 70);
    const tape = await startVenue({ 'BTC/1m': btc });
    tape.clock = clock;
    const dataDir = await mkdtemp(join(tmpdir(), 'deck-ladder-'));
    const env = { DECK_DATA: dataDir, DECK_LOOPBACK_TARGETS: '1' };
    let live: TestDeck | null = await testDeck({ ...env, DECK_TAPE_URL: tape.url }, clock);
    try {
      const op = await signedIn(live.url, 'ladder_op');
      expect((await callAnswered(`${live.url}/agent/models`, { body: { name: 'resting', decide_url: 'http://127.0.0.1:9/decide', market: 'BTC' }, headers: op.bearer })).status).toBe(201);
      // A limit far under the market: it rests, working, on the model's live book.
      const price = Math.floor(btc[100]![4] / 2);
      const placed = await callAnswered(`${live.url}/book/orders`, { body: { model: 'resting', market: 'BTC', side: 'buy', size: 0.01, type: 'limit', price }, headers: op.bearer });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      clock.advance(180);
      const up = await callAnswered(`${live.url}/records/ladder`);
      expect(up.status).toBe(200);
      expect(up.body.unranked).toMatchObject([{ model: 'ladder_op/resting', trades: 0 }]);

      tape.mode = 'garbage';
      clock.advance(180);
      const nonsense = await callAnswered(`${live.url}/records/ladder`);
      expect(nonsense.status).toBe(502);
      expect(nonsense.body).toMatchObject({ ok: false, error: 'upstream_refused' });
      await live.stop();
      live = null;

      // The same books on a deck with no venue: the order still works, and no tape can say what it met.
      const bare = await testDeck(env, clock);
      try {
        clock.advance(180);
        const none = await callAnswered(`${bare.url}/records/ladder`);
        expect(none.status).toBe(503);
        expect(none.body).toMatchObject({ ok: false, error: 'upstream_not_configured' });
        expect(none.body.message).toMatch(/DECK_TAPE_URL/);
        const doc = await (await fetch(`${bare.url}/openapi.json`)).json();
        expect(Object.keys(doc.paths['/records/ladder'].get.responses)).toEqual(expect.arrayContaining(['502', '503']));
      } finally {
        await bare.stop();
      }
    } finally {
      await live?.stop();
      await tape.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
