import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Interface, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriesMarkdown } from '../engine/series/index.js';
import { FileLedger } from '../store/file-ledger.js';
import type { SeriesLedgerEntry } from '../store/series.js';
import { LAYER_KEY } from './fixtures/layer.js';
import { proveWallet, signedIn } from './support/deck.js';
import { callAnswered } from './support/answers.js';
import { call } from './support/http.js';
import { HOUR, hireBody, seriesRig, type SeriesRig } from './support/series.js';

// One test per row of the series state table, over real HTTP, against a deck and a layer double that read one clock
// the test moves. The layer double calls the deck's own /mcp/{seller} at every handshake.

let rig: SeriesRig;
beforeAll(async () => {
  rig = await seriesRig();
});
afterAll(() => rig.stop());

const CREATE_JOB = new Interface(['function createJob(address provider, address evaluator, uint256 expiredAt, string description, address hook)']);
const rowsOf = (series: { moves: { row: string | null }[] }) => series.moves.map((m) => m.row);

/** Opens a series and its first epoch; answers both answers' bodies. */
async function withEpochOpen(body = hireBody()) {
  const series = await rig.open(body);
  const opened = await rig.epochs(series.id);
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  return { series, opened: opened.body };
}

describe('the series state table, row by row', () => {
  it('R01: POST /v1/series with a confirmed external quote keeps the series MANDATED with its epochs cut', async () => {
    const before = rig.layer.requests.filter((r) => r.route === 'quote').length;
    const from = rig.clock.seconds() + 120;
    const res = await callAnswered(`${rig.url}/v1/series`, { body: { quote: hireBody(), from }, headers: rig.me.bearer });
    expect(res.status).toBe(201);
    const s = res.body.series;
    expect(s.id).toMatch(/^sr_[0-9a-f]{24}$/);
    expect(s).toMatchObject({ state: 'MANDATED', from, validUntil: from + 3 * HOUR, series_total_usdc: 75, terms: { kind: 'external', class: 'trading.mandate.external.v1' } });
    expect(s.mandate).toContain('Hire the copy seller (agent 42 on chain 8453) at venue acct-external');
    expect(s.mandate).toContain('to trade NQ and ES only: each order at most 2 in size and 50000 in notional, a position at most 4 (long only)');
    expect(s.epochs.map((e: { index: number; window: unknown; state: string }) => [e.index, e.window, e.state])).toEqual([
      [1, { from, to: from + HOUR }, 'pending'],
      [2, { from: from + HOUR, to: from + 2 * HOUR }, 'pending'],
      [3, { from: from + 2 * HOUR, to: from + 3 * HOUR }, 'pending'],
    ]);
    for (const e of s.epochs) expect(e.paymentRef).toBe(`0x${createHash('sha256').update(`${s.id}:${e.index}`).digest('hex')}`);
    expect(rowsOf(s)).toEqual(['R01']);
    expect(res.body.next).toBe(s.next);
    expect(s.next).toContain('once its window begins');
    // Quoted again at open: terms can move.
    expect(rig.layer.requests.filter((r) => r.route === 'quote').length).toBe(before + 1);
  });

  it('R12: a vault-kind quote is refused 422 vault_not_built and nothing is kept', async () => {
    const count = (await callAnswered(`${rig.url}/v1/series`, { headers: rig.me.bearer })).body.count;
    const res = await callAnswered(`${rig.url}/v1/series`, { body: { quote: hireBody({ venue: 'vault-devnet' }) }, headers: rig.me.bearer });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, error: 'vault_not_built', venue: 'vault-devnet' });
    expect(res.body.message).toContain('until the vault contract grants the mandate on chain');
    expect((await callAnswered(`${rig.url}/v1/series`, { headers: rig.me.bearer })).body.count).toBe(count);
  });

  it('R02: epochs from MANDATED handshakes with the seller, settles, and answers the unsigned createJob with this epoch\'s paymentRef', async () => {
    const { series, opened } = await withEpochOpen();
    const e1 = series.epochs[0];
    expect(opened).toMatchObject({ ok: true, moved: { row: 'R02', from: 'MANDATED', to: 'EPOCH_OPEN' }, epoch: 1, paymentRef: e1.paymentRef, series: { state: 'EPOCH_OPEN' } });
    expect(opened.handshake_id).toMatch(/^hs_/);
    expect(opened.next).toBe(opened.series.next);
    expect(opened.next).toContain('sign and send its unsigned createJob from your own wallet');
    // The plan: createJob on the layer's contract, carrying "{class} {paymentRef}", moving nothing. The deck signs nothing.
    expect(opened.unsigned).toMatchObject({ chainId: 31337, to: rig.layer.contract, value: '0' });
    const call_ = CREATE_JOB.parseTransaction({ data: opened.unsigned.data })!;
    expect(call_.name).toBe('createJob');
    expect(call_.args.description).toBe(`trading.mandate.external.v1 ${e1.paymentRef}`);
    expect(call_.args.evaluator).toBe(rig.layer.evaluator);
    expect(Number(call_.args.expiredAt)).toBeGreaterThanOrEqual(e1.window.to);
    // The layer really called the deck's /mcp/copy (initialize, tools/list) and recorded the principal as the opener.
    const held = rig.layer.handshakes.get(opened.handshake_id)!;
    // It lists keyless, so it sees every tool but those locked to a tier (follow_quote, on the max tier).
    const mcp = (await callAnswered(`${rig.url}/mcp/copy`)).body as { tools: string[]; tier_locked: Record<string, string> };
    expect(held.seen).toEqual({ server: 'the deck: copy', tools: mcp.tools.filter((t) => !(t in mcp.tier_locked)).sort() });
    const { principal } = (await callAnswered(`${rig.url}/plans`, { headers: rig.me.bearer })).body;
    expect(held).toMatchObject({
      series_id: series.id,
      epoch: 1,
      paymentRef: e1.paymentRef,
      class: 'trading.mandate.external.v1',
      opener: { agent_id: principal.agent_id, wallet: null },
      seller: { chainId: 8453, agentId: '42', endpoint: `${rig.url}/mcp/copy` },
      window: e1.window,
    });
    const sent = rig.layer.requests.filter((r) => r.route === 'handshake' || r.route === 'settle');
    expect(sent.every((r) => r.authorization === `Bearer ${LAYER_KEY}`)).toBe(true);
    // The epoch keeps its handshake and plan.
    expect(opened.series.epochs[0]).toMatchObject({ state: 'open', handshake_id: opened.handshake_id, unsigned: opened.unsigned, job: { description: call_.args.description } });
  });

  it('R02: the opener the layer records carries a wallet only once it is proven: one named at join goes as null', async () => {
    const w = Wallet.createRandom();
    const named = await signedIn(rig.url, 'named-opener', w.address);
    const first = await rig.open(hireBody(), undefined, named);
    const unproven = await rig.epochs(first.id, named);
    expect(unproven.status, JSON.stringify(unproven.body)).toBe(201);
    expect(rig.layer.handshakes.get(unproven.body.handshake_id)!.opener.wallet).toBeNull();

    await proveWallet(rig.url, named.bearer, w);
    const second = await rig.open(hireBody(), undefined, named);
    const proven = await rig.epochs(second.id, named);
    expect(rig.layer.handshakes.get(proven.body.handshake_id)!.opener.wallet).toBe(w.address);
  });

  it('R03: epochs from EPOCH_ENDED opens the epoch whose window holds the clock', async () => {
    const { series } = await withEpochOpen();
    rig.clock.advance(HOUR);
    expect((await rig.read(series.id)).body.series.state).toBe('EPOCH_ENDED');
    const second = await rig.epochs(series.id);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ moved: { row: 'R03', from: 'EPOCH_ENDED', to: 'EPOCH_OPEN' }, epoch: 2, paymentRef: series.epochs[1].paymentRef });
    expect(rig.layer.handshakes.get(second.body.handshake_id)!.epoch).toBe(2);
  });

  it('R04: a read ends the open epoch once the layer ended its handshake, keeping the judge\'s verdict', async () => {
    const { series, opened } = await withEpochOpen();
    const t = rig.clock.seconds();
    rig.layer.submit(opened.handshake_id, {
      caps: { ...series.quote.caps },
      fills: [
        { t: t + 60, market: 'NQ', side: 'buy', size: 2, price: 21_000 },
        { t: t + 120, market: 'ES', side: 'buy', size: 1, price: 6_000 },
        { t: t + 600, market: 'NQ', side: 'sell', size: 2, price: 21_050 },
      ],
    });
    rig.clock.advance(HOUR);
    const res = await rig.read(series.id);
    expect(res.status).toBe(200);
    expect(res.body.series.state).toBe('EPOCH_ENDED');
    expect(res.body.hire).toMatchObject({ ok: true, handshake_id: opened.handshake_id, state: 'ended', verdict: { pass: true }, ended_at: series.epochs[0].window.to });
    expect(res.body.series.epochs[0]).toMatchObject({ state: 'ended', verdict: { pass: true, checks: [{ n: 1, pass: true }, { n: 2, pass: true }, { n: 3, pass: true }] } });
    expect(rowsOf(res.body.series)).toEqual(['R01', 'R02', 'R04']);
  });

  it('R04 with a failing verdict: fills outside the caps are judged so, and the epoch ends all the same', async () => {
    const { series, opened } = await withEpochOpen();
    const t = rig.clock.seconds();
    rig.layer.submit(opened.handshake_id, { caps: { ...series.quote.caps }, fills: [{ t: t + 60, market: 'NQ', side: 'sell', size: 1, price: 21_000 }] });
    rig.layer.endNow(opened.handshake_id);
    const res = await rig.read(series.id);
    expect(res.body.series.state).toBe('EPOCH_ENDED');
    expect(res.body.series.epochs[0].verdict).toEqual({
      pass: false,
      checks: [
        { n: 1, pass: true, why: 'every order at most 2 in size and 50000 in notional' },
        { n: 2, pass: true, why: 'every fill on NQ, ES' },
        { n: 3, pass: false, why: 'fill 1: NQ position -1 is short, and the caps allow no short' },
      ],
    });
  });

  it('R05: a read marks the open epoch submitted when the layer says so', async () => {
    const { series, opened } = await withEpochOpen();
    rig.layer.submit(opened.handshake_id, { caps: { ...series.quote.caps }, fills: [] });
    const res = await rig.read(series.id);
    expect(res.body.hire).toMatchObject({ state: 'submitted' });
    expect(res.body.series).toMatchObject({ state: 'EPOCH_OPEN' });
    expect(res.body.series.epochs[0].state).toBe('submitted');
    expect(rowsOf(res.body.series)).toEqual(['R01', 'R02', 'R05']);
    // A read that finds nothing new writes no move.
    expect(rowsOf((await rig.read(series.id)).body.series)).toEqual(['R01', 'R02', 'R05']);
  });

  it('R06: a read ends the series when its last epoch ended', async () => {
    const { series, opened } = await withEpochOpen(hireBody({ epochs: 1 }));
    rig.layer.endNow(opened.handshake_id);
    const res = await rig.read(series.id);
    expect(res.body.series).toMatchObject({ state: 'ENDED', ended: { why: 'last_epoch' } });
    expect(rowsOf(res.body.series)).toEqual(['R01', 'R02', 'R04', 'R06']);
    expect(res.body.series.next).toBe('the series has ended: nothing more moves');
  });

  it('R06: a read ends the series once validUntil is reached, skipping the epochs never opened', async () => {
    const series = await rig.open(hireBody({ epochs: 2 }));
    rig.clock.advance(2 * HOUR);
    const res = await rig.read(series.id);
    expect(res.body.series).toMatchObject({ state: 'ENDED', ended: { why: 'valid_until', at: series.validUntil } });
    expect(res.body.series.epochs.map((e: { state: string }) => e.state)).toEqual(['skipped', 'skipped']);
    expect(res.body.hire).toBeNull();
    expect(rowsOf(res.body.series)).toEqual(['R01', 'R06']);
  });

  it('R07: revoke from MANDATED stops the series', async () => {
    const series = await rig.open();
    const res = await rig.revoke(series.id, 'changed my mind');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, moved: { row: 'R07', from: 'MANDATED', to: 'STOPPED' }, series: { state: 'STOPPED', stopped: { why: 'changed my mind' } } });
    expect(res.body.series.next).toContain('the next read');
  });

  it('R08: revoke from EPOCH_OPEN stops the series; the open epoch still submits and is graded', async () => {
    const { series, opened } = await withEpochOpen();
    const res = await rig.revoke(series.id);
    expect(res.body).toMatchObject({ moved: { row: 'R08', from: 'EPOCH_OPEN', to: 'STOPPED' } });
    expect(res.body.series.next).toContain('still submits and is graded');
    rig.layer.submit(opened.handshake_id, { caps: { ...series.quote.caps }, fills: [] });
    const read = await rig.read(series.id);
    expect(read.body.series.state).toBe('STOPPED');
    expect(read.body.series.epochs[0].state).toBe('submitted');
  });

  it('R09: revoke from EPOCH_ENDED stops the series', async () => {
    const { series, opened } = await withEpochOpen();
    rig.layer.endNow(opened.handshake_id);
    expect((await rig.read(series.id)).body.series.state).toBe('EPOCH_ENDED');
    const res = await rig.revoke(series.id);
    expect(res.body).toMatchObject({ moved: { row: 'R09', from: 'EPOCH_ENDED', to: 'STOPPED' } });
  });

  it('R10: a read ends a stopped series with no epoch open', async () => {
    const series = await rig.open();
    await rig.revoke(series.id);
    const res = await rig.read(series.id);
    expect(res.body.series).toMatchObject({ state: 'ENDED', ended: { why: 'stopped' } });
    expect(rowsOf(res.body.series)).toEqual(['R01', 'R07', 'R10']);
  });

  it('R11: revoke of a stopped or ended series is 409 and changes nothing', async () => {
    const series = await rig.open();
    await rig.revoke(series.id);
    const again = await rig.revoke(series.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ ok: false, error: 'already_stopped', state: 'STOPPED' });
    await rig.read(series.id);
    const ended = await rig.revoke(series.id);
    expect(ended.status).toBe(409);
    expect(ended.body).toMatchObject({ error: 'already_ended', state: 'ENDED' });
    expect(rowsOf((await rig.read(series.id)).body.series)).toEqual(['R01', 'R07', 'R10']);
  });

  it('R13: a read follows an epoch left open on a stopped series, then ends the series (R10)', async () => {
    const { series, opened } = await withEpochOpen();
    await rig.revoke(series.id);
    expect((await rig.read(series.id)).body.series.state).toBe('STOPPED');
    rig.layer.endNow(opened.handshake_id);
    const res = await rig.read(series.id);
    expect(res.body.series).toMatchObject({ state: 'ENDED', ended: { why: 'stopped' } });
    expect(rowsOf(res.body.series)).toEqual(['R01', 'R02', 'R08', 'R13', 'R10']);
  });

  it('R14: an epoch the layer opens while the series is being revoked is kept open on the STOPPED series', async () => {
    const series = await rig.open();
    let revoked: Awaited<ReturnType<SeriesRig['revoke']>> | null = null;
    rig.layer.before.handshake = async () => {
      revoked = await rig.revoke(series.id, 'revoked while the layer was answering');
    };
    try {
      const res = await rig.epochs(series.id);
      expect(revoked!.body.moved).toMatchObject({ row: 'R07' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ moved: { row: 'R14', from: 'STOPPED', to: 'STOPPED' }, epoch: 1, series: { state: 'STOPPED' } });
      expect(res.body.series.epochs[0].state).toBe('open');
    } finally {
      delete rig.layer.before.handshake;
    }
  });
});

describe('series are the principal\'s own, listed newest first, every move on the chained ledger', () => {
  it('answers 404 to another principal reading, revoking or opening an epoch of a series', async () => {
    const series = await rig.open();
    const other = await signedIn(rig.url, 'someone_else');
    for (const res of [await rig.read(series.id, other), await rig.revoke(series.id, 'mine now', other), await rig.epochs(series.id, other)]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ ok: false, error: 'not_found' });
    }
    expect((await callAnswered(`${rig.url}/v1/series`, { headers: other.bearer })).body).toEqual({ ok: true, count: 0, series: [] });
    expect((await rig.read(series.id)).body.series.state).toBe('MANDATED');
  });

  it('answers 401 without a session and 422 for a malformed id', async () => {
    for (const [method, path] of [['GET', '/v1/series'], ['POST', '/v1/series'], ['GET', '/v1/series/sr_000000000000000000000000'], ['POST', '/v1/series/sr_000000000000000000000000/epochs']] as const) {
      const res = await callAnswered(`${rig.url}${path}`, { method, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status, path).toBe(401);
    }
    const bad = await callAnswered(`${rig.url}/v1/series/not-an-id`, { headers: rig.me.bearer });
    expect(bad.status).toBe(422);
    expect(bad.body.problems[0].field).toBe('id');
  });

  it('lists the series newest first, each with its next move', async () => {
    const who = await signedIn(rig.url, 'lister');
    const a = await rig.open(hireBody(), undefined, who);
    const b = await rig.open(hireBody({ epochs: 2 }), undefined, who);
    const res = await callAnswered(`${rig.url}/v1/series`, { headers: who.bearer });
    expect(res.body.count).toBe(2);
    expect(res.body.series.map((s: { id: string }) => s.id)).toEqual([b.id, a.id]);
    for (const s of res.body.series) expect(s.next).toContain(`/v1/series/${s.id}/epochs`);
  });

  it('lists each move in the principal\'s history with the series ledger entry that proves it, and none of another\'s', async () => {
    const who = await signedIn(rig.url, 'historian');
    const opened = await rig.open(hireBody(), undefined, who);
    const ledger = await FileLedger.open<SeriesLedgerEntry>(rig.deck.dataDir, 'series');
    const chained = ledger.all.filter((e) => e.entry.series_id === opened.id);
    const history = (await callAnswered(`${rig.url}/records/history?kind=series_move`, { headers: who.bearer })).body;
    expect(history.acts.map((a: { ledger: string; seq: number; hash: string }) => [a.ledger, a.seq, a.hash])).toEqual(chained.map((e) => ['series', e.seq, e.hash]));
    expect(history.acts[0].what).toMatchObject({ series_id: opened.id, to: 'MANDATED' });
    const others = (await callAnswered(`${rig.url}/records/history?kind=series_move`, { headers: rig.me.bearer })).body.acts as { what: { series_id: string } }[];
    expect(others.some((a) => a.what.series_id === opened.id)).toBe(false);
  });

  it('chains every move of every series in series.jsonl, verifiable from the first entry', async () => {
    const ledger = await FileLedger.open<SeriesLedgerEntry>(rig.deck.dataDir, 'series');
    expect(ledger.verify()).toBeNull();
    const byId = new Map<string, SeriesLedgerEntry[]>();
    for (const e of ledger.all) byId.set(e.entry.series_id, [...(byId.get(e.entry.series_id) ?? []), e.entry]);
    const mine = (await callAnswered(`${rig.url}/v1/series`, { headers: rig.me.bearer })).body.series as { id: string; moves: unknown[] }[];
    expect(mine.length).toBeGreaterThan(10);
    for (const s of mine) expect(byId.get(s.id)!.map(({ series_id: _s, principal_id: _p, ...move }) => move)).toEqual(s.moves);
  });
});

describe('the table in words', () => {
  it('is carried whole by docs/series.md and by the OpenAPI description of GET /v1/series/{id}, from the machine itself', async () => {
    const doc = (await call(`${rig.url}/openapi.json`)).body;
    expect(doc.paths['/v1/series/{id}'].get.description).toContain(seriesMarkdown());
    expect(await readFile(new URL('../docs/series.md', import.meta.url), 'utf8')).toContain(seriesMarkdown());
  });
});
