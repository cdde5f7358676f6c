import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCashSession } from '../engine/calendar.js';
import { RehearsalSchema } from '../engine/stepper/index.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, refusalIn } from './support/mcp.js';
import { answered, callAnswered } from './support/answers.js';

// The stepper in the deck: POST /forge/trial runs a script block, POST /studio/rehearse (and the rehearse tool) a
// forge, over the real tape: the archive filled by `npm run tape -- import` with the shipped BTC and ES 1m bars, and a
// venue that serves the shipped BTC, ETH and ES bars over HTTP.

const H = 3600;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BTC_END = sampleRows('BTC-1m').at(-1)![0] + 60;
/** The close of the newest ES bar outside a halt: the Friday close, 16:00 Chicago (the file's last 15 minutes are inside it). */
const ES_END = Date.UTC(2013, 9, 11, 21) / 1000;
/** The end of 5 April 2018, a day the shipped BTC minutes hold whole. */
const TO = Date.UTC(2018, 3, 6) / 1000;
const CASH = { kind: 'windows', zone: 'America/New_York', windows: [{ from: '09:30', to: '16:00' }] };

let data: string;
let grants: string;
let venue: VenueFixture;
let deck: TestDeck;
let house: Awaited<ReturnType<typeof signedIn>>;
let emaCross: { intent: string; script: Record<string, unknown> };
let seed: string;

/** Imports a shipped file into a data directory as an operator does: npm run tape -- import. */
async function importTape(dir: string, name: string, market: string): Promise<void> {
  const csv = join(ROOT, 'tape', 'sample', `${name}.csv`);
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/tape.ts', 'import', csv, '--market', market, '--tf', '1m'], {
    cwd: ROOT,
    env: { ...process.env, DECK_DATA: dir },
  });
}

const rehearse = (body: unknown, who = house) => callAnswered(`${deck.url}/studio/rehearse`, { body, headers: who.bearer });
const trial = (body: unknown, who = house) => callAnswered(`${deck.url}/forge/trial`, { body, headers: who.bearer });
const fields = (res: { body: { problems?: { field: string }[] } }) => (res.body.problems ?? []).map((p) => p.field);

/** An object without some of its fields. */
const without = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
/** The envelope without the route's own fields, as the stepper's schema states it. */
const envelopeOf = (body: Record<string, unknown>) => without(body, ['ok', 'seed_hash', 'name', 'tenant', 'script']);

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'deck-studio-'));
  await importTape(data, 'BTC-1m', 'BTC');
  await importTape(data, 'ES-1m', 'ES');
  grants = await grantsFile([{ name: 'rehearse_house', tier: 'house' }]);
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m'), 'ETH/1m': sampleRows('ETH-1m'), 'ES/1m': sampleRows('ES-1m') });
  deck = await testDeck({ DECK_DATA: data, DECK_TAPE_URL: venue.url, DECK_GRANTS: grants });
  house = await signedIn(deck.url, 'rehearse_house');
  emaCross = (await callAnswered(`${deck.url}/forge?onboard=ema-cross`, { headers: house.bearer })).body;
  seed = (await callAnswered(`${deck.url}/forge`, { body: { intent: emaCross.intent }, headers: house.bearer })).body.seed_hash;
}, 60_000);
afterAll(async () => {
  await deck.stop();
  await venue.close();
  await rm(data, { recursive: true, force: true });
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('POST /studio/rehearse', () => {
  it('needs a session', async () => {
    expect((await callAnswered(`${deck.url}/studio/rehearse`, { body: { seed_hash: seed, to: TO } })).status).toBe(401);
  });

  it('rehearses a forge over the hours before to: trades, R, the random null and a summary of the past', async () => {
    // The 24 hours of 6 April 2018, warmed up on the day before (the shipped days hold no whole week).
    const to = TO + 24 * H;
    const { status, body } = await rehearse({ seed_hash: seed, to, hours: 24 });
    answered('rehearse', body);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, seed_hash: seed, market: 'BTC', timeframe: '1m' });
    const envelope = RehearsalSchema.parse(envelopeOf(body));
    expect(envelope.window).toMatchObject({ from: to - 24 * H, to, bars: 24 * 60 });
    expect(envelope.window.warm_up_bars).toBeGreaterThanOrEqual(64);
    expect(envelope.trades.length).toBeGreaterThan(10);
    expect(envelope.trades.every((t) => t.entry_t >= to - 24 * H && t.exit_t <= to)).toBe(true);
    expect(envelope.stats.n).toBe(envelope.trades.length);
    expect(envelope.null).toMatchObject({ runs: 1000, seed, matched: { trades: envelope.stats.n } });
    expect(envelope.null.p).toBe(Math.round(((envelope.null.k + 1) / 1001) * 1e4) / 1e4);
    expect(envelope.folds).toBeNull();
    expect(envelope.summary).toContain('never a forecast');
  });

  it('gives the same envelope, byte for byte, for the same seed and window', async () => {
    const once = await fetch(`${deck.url}/studio/rehearse`, { method: 'POST', headers: { ...house.bearer, 'content-type': 'application/json' }, body: JSON.stringify({ seed_hash: seed, to: TO, hours: 48 }) });
    const twice = await fetch(`${deck.url}/studio/rehearse`, { method: 'POST', headers: { ...house.bearer, 'content-type': 'application/json' }, body: JSON.stringify({ seed_hash: seed, to: TO + 59, hours: 48 }) });
    const a = Buffer.from(await once.arrayBuffer());
    expect(once.status).toBe(200);
    expect(a.equals(Buffer.from(await twice.arrayBuffer()))).toBe(true);
    const other = await rehearse({ seed_hash: seed, to: TO - H, hours: 48 });
    expect(other.body.window.to).toBe(TO - H);
  });

  it('is the rehearse tool on /mcp/studio, answering the same envelope', async () => {
    const rest = await fetch(`${deck.url}/studio/rehearse`, { method: 'POST', headers: { ...house.bearer, 'content-type': 'application/json' }, body: JSON.stringify({ seed_hash: seed, to: TO, hours: 24 }) });
    const text = await rest.text();
    const client = await legacyClient(`${deck.url}/mcp/studio`, house.bearer);
    try {
      // Asked for every trade, MCP answers REST's envelope whole, with its page and the digest that names it.
      const whole = await client.callTool({ name: 'rehearse', arguments: { seed_hash: seed, to: TO, hours: 24, trades_limit: 100_000 } });
      answered('rehearse', whole.structuredContent);
      expect(whole.isError).toBeFalsy();
      const envelope = JSON.parse(text) as { trades: unknown[] };
      expect(whole.structuredContent).toEqual({ ...envelope, trades_page: { from: 0, shown: envelope.trades.length, total: envelope.trades.length, next: null }, rehearsal_digest: createHash('sha256').update(text).digest('hex') });
      // Left to its default, the first 50 trades come with where the next page starts and the whole answer's digest.
      const first = (await client.callTool({ name: 'rehearse', arguments: { seed_hash: seed, to: TO, hours: 24 } })).structuredContent as Record<string, unknown>;
      answered('rehearse', first);
      const shown = Math.min(50, envelope.trades.length);
      expect(first).toEqual({
        ...envelope,
        trades: envelope.trades.slice(0, 50),
        trades_page: { from: 0, shown, total: envelope.trades.length, next: envelope.trades.length > 50 ? 50 : null },
        rehearsal_digest: createHash('sha256').update(text).digest('hex'),
      });
      const later = (await client.callTool({ name: 'rehearse', arguments: { seed_hash: seed, to: TO, hours: 24, trades_from: 1, trades_limit: 2 } })).structuredContent as { trades: unknown[] };
      expect(later.trades).toEqual(envelope.trades.slice(1, 3));
      const missing = await client.callTool({ name: 'rehearse', arguments: { seed_hash: '0'.repeat(64), to: TO } });
      expect(refusalIn(missing)).toMatchObject({ status: 404 });
    } finally {
      await client.close();
    }
  });

  it('without to, counts back from the newest bar the tape holds for the market (archived history)', async () => {
    const { status, body } = await rehearse({ seed_hash: seed, hours: 24 });
    expect(status).toBe(200);
    expect(body.window).toMatchObject({ from: BTC_END - 24 * H, to: BTC_END });
    const explicit = await rehearse({ seed_hash: seed, hours: 24, to: BTC_END });
    expect(explicit.body).toEqual(body);
  });

  it('cuts walk-forward folds when asked', async () => {
    const { body } = await rehearse({ seed_hash: seed, to: TO, folds: 4 });
    answered('rehearse', body);
    expect(body.folds).toHaveLength(4);
    expect(body.folds.reduce((n: number, f: { bars: number }) => n + f.bars, 0)).toBe(body.window.bars);
    expect(body.folds.reduce((n: number, f: { stats: { n: number } }) => n + f.stats.n, 0)).toBe(body.stats.n);
    expect(fields(await rehearse({ seed_hash: seed, to: TO, folds: 21 }))).toEqual(['folds']);
  });

  it('rehearses on another market when asked, reading its bars from the venue', async () => {
    const before = venue.hits.get('ETH/1m') ?? 0;
    const { status, body } = await rehearse({ seed_hash: seed, market: 'ETH', to: TO, hours: 24 });
    answered('rehearse', body);
    expect(status).toBe(200);
    expect(body).toMatchObject({ market: 'ETH', window: { to: TO } });
    expect(venue.hits.get('ETH/1m')!).toBeGreaterThan(before);
  });

  it('answers 404 for a seed that is not yours', async () => {
    const stranger = await signedIn(deck.url, 'rehearse_stranger');
    expect((await rehearse({ seed_hash: seed, to: TO }, stranger)).status).toBe(404);
    expect((await rehearse({ seed_hash: 'f'.repeat(64), to: TO })).status).toBe(404);
  });

  it.each([
    [{ market: 'XAU', to: TO }, 'market'],
    [{ to: Math.floor(Date.now() / 1000) + 3600 }, 'to'],
    [{ hours: 0, to: TO }, 'hours'],
    [{ hours: 745, to: TO }, 'hours'],
    [{ to: Date.UTC(2020, 0, 10) / 1000 }, 'hours'],
    [{ market: 'SOL' }, 'market'],
  ])('refuses %j with 422 naming %s (a window without bars names hours; a market the tape lacks, market)', async (extra, field) => {
    const res = await rehearse({ seed_hash: seed, ...extra });
    expect(res.status).toBe(422);
    expect(fields(res)).toContain(field);
  });

  it('records the rehearsal on the meter: its units plus the bars it stepped over', async () => {
    const before = (await callAnswered(`${deck.url}/meter`, { headers: house.bearer })).body;
    const price = before.prices.find((p: { action: string }) => p.action === 'rehearse');
    const { body } = await rehearse({ seed_hash: seed, to: TO, hours: 12 });
    const after = (await callAnswered(`${deck.url}/meter`, { headers: house.bearer })).body;
    const bars = body.window.bars + body.window.warm_up_bars;
    expect(after.spent - before.spent).toBe(price.units + Math.ceil((price.per_1000_bars * bars) / 1000));
  });
});

describe('a tape with nothing in it', () => {
  it('refuses a rehearsal with 422 naming the market: nothing held and no venue to ask', async () => {
    const bare = await testDeck();
    try {
      const who = await signedIn(bare.url, 'bare_rehearser');
      const forged = await callAnswered(`${bare.url}/forge`, { body: { intent: emaCross.intent }, headers: who.bearer });
      for (const body of [{ seed_hash: forged.body.seed_hash }, { seed_hash: forged.body.seed_hash, to: TO }]) {
        const res = await callAnswered(`${bare.url}/studio/rehearse`, { body, headers: who.bearer });
        expect(res.status).toBe(422);
        expect(fields(res)).toEqual(['market']);
        expect(res.body.message).toMatch(/no 1m bars of BTC, .*no venue is configured \(DECK_TAPE_URL\): it holds nothing/);
      }
    } finally {
      await bare.stop();
    }
  });
});

describe('POST /forge/trial', () => {
  it('needs a session', async () => {
    expect((await callAnswered(`${deck.url}/forge/trial`, { body: { script: emaCross.script } })).status).toBe(401);
  });

  it('runs a script block over the newest hours of the tape, seeded as its forge is', async () => {
    const { status, body } = await trial({ script: emaCross.script, hours: 24, name: 'cross', tenant: 'desk-1' });
    answered('forge_trial', body);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, name: 'cross', tenant: 'desk-1', seed_hash: seed, market: 'BTC', script: emaCross.script });
    const envelope = RehearsalSchema.parse(envelopeOf(body));
    expect(envelope.window).toMatchObject({ from: BTC_END - 24 * H, to: BTC_END });
    expect(envelope.null.seed).toBe(seed);
    const same = await rehearse({ seed_hash: seed, hours: 24 });
    expect(envelopeOf(same.body)).toEqual(envelopeOf(body));
  });

  it('defaults to NQ and, on NQ, ES and YM, to the cash session', async () => {
    const bare = without(emaCross.script, ['market', 'session']);
    // NQ is the default: the tape here holds none, and the trial says so of NQ.
    const nq = await trial({ script: bare });
    expect(nq.status).toBe(422);
    expect(nq.body.message).toContain('NQ');
    const { status, body } = await trial({ script: bare, market: 'ES' });
    answered('forge_trial', body);
    expect(status).toBe(200);
    expect(body.script).toMatchObject({ market: 'ES', session: CASH });
    // The window ends at the newest ES bar the archive holds outside a halt; it opens at the first bar after 168
    // hours before, the Sunday open that begins the shipped week.
    expect(body.window.to).toBe(ES_END);
    expect(body.window.from).toBe(sampleRows('ES-1m')[0]![0]);
    expect(body.trades.length).toBeGreaterThan(10);
    expect(body.trades.every((t: { entry_t: number }) => inCashSession('ES', t.entry_t))).toBe(true);
    expect(body.trades.some((t: { why: string }) => t.why === 'session_end')).toBe(true);
    const onBtc = await trial({ script: bare, market: 'BTC', hours: 6 });
    expect(onBtc.body.script.session).toEqual({ kind: 'always' });
  });

  it('refuses a script over 64 KiB with 413 (and a body over the route\'s cap in the body parser)', async () => {
    const cond = { op: 'above', left: { kind: 'ema', n: 9 }, right: { kind: 'constant', value: 1 } };
    const padded = (n: number) => ({ ...emaCross.script, entry: { triggers: [{ side: 'long', when: { op: 'and', args: Array(n).fill(cond) } }] } });
    const size = (n: number) => Buffer.byteLength(JSON.stringify(padded(n)));
    // The first n whose script is over 64 KiB: its body is still under the route's cap, so the tool measures it.
    let n = Math.floor((64 * 1024 - size(0)) / (size(1) - size(0) + 1));
    while (size(n) <= 64 * 1024) n++;
    expect(size(n - 1)).toBeLessThanOrEqual(64 * 1024);
    const over = await trial({ script: padded(n) });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ error: 'too_large', cap_bytes: 65_536 });
    expect((await trial({ script: padded(n * 2) })).status).toBe(413);
  });

  it.each([
    ['no script', () => ({ hours: 6 }), 'script'],
    ['an unknown market', () => ({ script: emaCross.script, market: 'XAU' }), 'market'],
    ['a script without its parts', () => ({ script: { version: 'script.v1' } }), 'script.timeframe'],
    ['too many hours', () => ({ script: emaCross.script, hours: 10_000 }), 'hours'],
  ])('refuses %s with 422 naming %s', async (_, body, field) => {
    const res = await trial(body());
    expect(res.status).toBe(422);
    expect(fields(res)).toContain(field);
  });

  it('refuses a market the tape does not serve with 422', async () => {
    const res = await trial({ script: emaCross.script, market: 'SOL' });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['market']);
  });

  it('runs two trials at once for a principal and refuses a third with 429', async () => {
    // Three month-long trials sent together: each reads its window through the tape in sealed parts and weighs it
    // against 1,000 random runs, so the first two are still running when the third is admitted or not.
    const runner = await signedIn(deck.url, 'trial_runner');
    const answers = await Promise.all([0, 1, 2].map(() => trial({ script: emaCross.script, hours: 744 }, runner)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 429]);
    const busy = answers.find((a) => a.status === 429)!;
    expect(busy.body).toMatchObject({ error: 'busy', guard: 'trial', retry_after_s: 1 });
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await trial({ script: emaCross.script, hours: 6 }, runner)).status).toBe(200);
  });

  it('records each trial on the meter', async () => {
    const spender = await signedIn(deck.url, 'trial_spender');
    const before = (await callAnswered(`${deck.url}/meter`, { headers: spender.bearer })).body;
    const price = before.prices.find((p: { action: string }) => p.action === 'trial');
    await trial({ script: emaCross.script, hours: 6 }, spender);
    const after = (await callAnswered(`${deck.url}/meter`, { headers: spender.bearer })).body;
    expect(after.spent - before.spent).toBe(price.units);
  });
});
