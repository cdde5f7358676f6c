import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barsFromTuples, tuplesFromBars } from '../engine/bars.js';
import { issueEnvelope, scoreEnvelope, SUPERSEDED_WHY, type Envelope, type Pair, type Score } from '../engine/forecast/index.js';
import { resample } from '../engine/resample.js';
import { FileLedger } from '../store/file-ledger.js';
import { runCli, writeCsv } from './support/cli.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { stitchedMonth } from './support/tape-file.js';

const M = 60;
const M5 = 300;
const H = 3600;
const BTC_5M: Pair = { market: 'BTC', tf: '5m' };
const BTC_1H: Pair = { market: 'BTC', tf: '1h' };
/**
 * A month of BTC minutes stitched from the shipped days in which every minute traded (3 and 4 September and 17
 * December 2017, test/support/tape-file.ts): the hourly forecaster warms up on 372 hours, more than the shipped days
 * hold, and a month without a hole reads the same look-back however it is read. Its 21st day is a 17 December 2017.
 */
const minutes = tuplesFromBars(stitchedMonth('BTC-1m'));
/** 12:30 UTC of that day: past both forecasters' warm-up. */
const BAR_1230 = minutes[0]![0] + 20 * 86_400 + 12 * H + 30 * M;
const NOON = BAR_1230 - 30 * M;
/** The archive of the tests: the real minutes up to 12:31, two minutes into the 12:30 bar and 32 into the 12:00 hour. */
const morning = minutes.filter((r) => r[0] < BAR_1230 + 2 * M);
const afternoon = minutes.filter((r) => r[0] >= BAR_1230 + 2 * M);
const built = (rows: typeof minutes, len: number) => resample(barsFromTuples(rows), M, len).bars;
/** What the engine issues at a bar close from the whole month: what any honest issuance at it gives. */
const closedAt = (pair: Pair, t: number): Envelope => issueEnvelope(built(minutes, pair.tf === '5m' ? M5 : H), pair, t);
const issuedOf = (answer: { envelope: Envelope & { calibration?: unknown } }): Envelope => {
  const { calibration: _, ...issued } = answer.envelope;
  return issued;
};

describe('the forecaster on an archive that ends inside a bar', () => {
  let data: string;
  let deck: TestDeck;
  let me: Awaited<ReturnType<typeof signedIn>>;
  const forecast = (path: string) => call(`${deck.url}/forecast/${path}`, { headers: me.bearer });

  beforeAll(async () => {
    data = await mkdtemp(join(tmpdir(), 'deck-partial-'));
    expect((await runCli('tape', ['import', await writeCsv(data, 'morning.csv', morning), '--market', 'BTC', '--tf', '1m'], data)).code).toBe(0);
    deck = await testDeck({ DECK_DATA: data });
    me = await signedIn(deck.url, 'forecaster');
  });
  afterAll(async () => {
    await deck.stop();
  });

  it('issues 5m from the last closed bar, not from 12:30 built from 2 of 5 minutes', async () => {
    const { status, body } = await forecast(`BTC/5m?t=${BAR_1230 + 10 * M}`);
    expect(status).toBe(200);
    expect(body.envelope).toMatchObject({ issued_t: BAR_1230, last_bar_t: BAR_1230 - M5 });
    expect(issuedOf(body)).toEqual(closedAt(BTC_5M, BAR_1230));
    expect(body.served).toMatchObject({ issued_now: true, recorded: true });
  });

  it('issues 1h from the last closed hour, not from 12:00 built from 32 of 60 minutes', async () => {
    const { status, body } = await forecast(`BTC/1h?t=${NOON + H + 5 * M}`);
    expect(status).toBe(200);
    expect(body.envelope).toMatchObject({ issued_t: NOON, last_bar_t: NOON - H });
    expect(issuedOf(body)).toEqual(closedAt(BTC_1H, NOON));
  });

  it('issues from the bars imported while it runs, forward from what it issued', async () => {
    expect((await runCli('tape', ['import', await writeCsv(data, 'afternoon.csv', afternoon), '--market', 'BTC', '--tf', '1m'], data)).code).toBe(0);
    const { body } = await forecast(`BTC/5m?t=${BAR_1230 + 10 * M}`);
    expect(body.envelope).toMatchObject({ issued_t: BAR_1230 + 10 * M, last_bar_t: BAR_1230 + 5 * M });
    expect(issuedOf(body)).toEqual(closedAt(BTC_5M, BAR_1230 + 10 * M));
    const history = await forecast(`BTC/5m?t=${BAR_1230 + 10 * M}&history=1&from=0`);
    expect(history.body.issues.map((i: { issued_t: number }) => i.issued_t)).toEqual([BAR_1230, BAR_1230 + 10 * M]);
  });
});

describe('a backfill over a ledger holding an envelope issued from a bar that had not closed', () => {
  const stale = issueEnvelope(built(morning, M5), BTC_5M, BAR_1230 + M5);
  const closed = closedAt(BTC_5M, BAR_1230 + M5);
  let data: string;
  let staleScore: Score;

  beforeAll(async () => {
    data = await mkdtemp(join(tmpdir(), 'deck-supersede-'));
    // As a deck that took the 12:30 bar for closed recorded it, and scored it once its 24 bars had closed.
    expect(stale).toMatchObject({ issued_t: BAR_1230 + M5, last_bar_t: BAR_1230 });
    expect(stale.close).not.toBe(closed.close);
    staleScore = scoreEnvelope(stale, built(minutes, M5))!;
    await (await FileLedger.open<{ envelopes: Envelope[] }>(data, 'forecast-BTC-5m')).append({ envelopes: [stale] }, Date.now());
    await (await FileLedger.open<{ scores: Score[] }>(data, 'forecast-scores-BTC-5m')).append({ scores: [staleScore] }, Date.now());
    expect((await runCli('tape', ['import', await writeCsv(data, 'month.csv', minutes), '--market', 'BTC', '--tf', '1m'], data)).code).toBe(0);
  });

  it('replaces it with what the closed bars give, appending to the chain, and scores the replacement', async () => {
    const iso = (t: number) => new Date(t * 1000).toISOString();
    const args = ['backfill', '--market', 'BTC', '--tf', '5m', '--from', iso(NOON), '--to', iso(NOON + H)];
    const { code, stdout } = await runCli('forecast', args, data);
    expect(code).toBe(0);
    expect(stdout).toContain('12 envelopes issued walk-forward, 11 new, 0 already there; 0 bars with none (warming up or flat); 1 replaced (issued from a bar that had not closed); 12 newly scored');

    const issued = await FileLedger.open<{ envelopes: Envelope[]; replaces?: string }>(data, 'forecast-BTC-5m');
    expect(issued.verify()).toBeNull();
    expect(issued.all[0]!.entry).toEqual({ envelopes: [stale] });
    expect(issued.all.at(-1)!.entry).toEqual({ envelopes: [closed], replaces: SUPERSEDED_WHY });
    const scores = await FileLedger.open<{ scores: Score[]; withdrawn?: number[] }>(data, 'forecast-scores-BTC-5m');
    expect(scores.verify()).toBeNull();
    expect(scores.all[1]!.entry).toEqual({ scores: [], withdrawn: [BAR_1230 + M5] });
    const rescored = scores.all.flatMap((e) => e.entry.scores).filter((s) => s.issued_t === BAR_1230 + M5);
    expect(rescored).toEqual([staleScore, scoreEnvelope(closed, built(minutes, M5))]);

    const again = await runCli('forecast', args, data);
    expect(again.stdout).toContain('0 new, 12 already there; 0 bars with none (warming up or flat); 0 replaced');
  });

  it('a deck on that ledger discloses the replacement', async () => {
    const deck = await testDeck({ DECK_DATA: data });
    try {
      const who = await signedIn(deck.url, 'reader');
      const { status, body } = await call(`${deck.url}/forecast/BTC/5m?t=${BAR_1230 + M5 + 30}`, { headers: who.bearer });
      expect(status).toBe(200);
      expect(issuedOf(body)).toEqual(closed);
      expect(body.served).toMatchObject({ issued_now: false, recorded: true });
    } finally {
      await deck.stop();
    }
  });
});
