import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { epochOpened, epochToOpen, follow, nextOf, openSeries, revoke, ROWS, seriesMarkdown, type Changed, type Facts, type Opening } from './machine.js';
import { sampleQuote, sampleTerms } from './sample.js';
import { ROW_IDS, type SeriesRecord } from './types.js';

const FROM = 1_900_000_000;
const HOUR = 3_600;

const quote = sampleQuote();
const terms = sampleTerms(quote);

const fresh = (): SeriesRecord => openSeries({ id: 'sr_000000000000000000000001', quote, terms, series_total_usdc: 75, from: FROM, now: FROM - 60 });
const opening = (epoch: number, handshake_id = `hs_${epoch}`, o: Partial<Opening> = {}): Opening => ({
  epoch,
  handshake_id,
  opened_at: FROM,
  unsigned: { chainId: 31337, to: `0x${'11'.repeat(20)}`, data: '0x41528812', value: '0' },
  job: null,
  adopted: false,
  ...o,
});
const none: Facts = { adopt: [], handshake: null, plan: null };
const ended = (epoch: number, handshake_id = `hs_${epoch}`): Facts => ({
  ...none,
  handshake: { epoch, handshake_id, state: 'ended', verdict: { pass: true, checks: [{ n: 1, pass: true, why: 'ok' }] }, ended_at: FROM + epoch * HOUR },
});
const rowsOf = (c: Changed) => c.moves.map((m) => m.row);

/** A series with epoch `epoch` open, as the epochs route leaves it. */
const withOpen = (r: SeriesRecord, epoch: number, now = FROM + (epoch - 1) * HOUR) => epochOpened(r, opening(epoch), now).record;

describe('the series machine', () => {
  it('R01: opens MANDATED with the epochs cut, each window after the last and each paymentRef the sha256 of "{id}:{index}"', () => {
    const r = fresh();
    expect(r.state).toBe('MANDATED');
    expect(r.validUntil).toBe(FROM + 3 * HOUR);
    expect(r.epochs.map((e) => e.window)).toEqual([
      { from: FROM, to: FROM + HOUR },
      { from: FROM + HOUR, to: FROM + 2 * HOUR },
      { from: FROM + 2 * HOUR, to: FROM + 3 * HOUR },
    ]);
    for (const e of r.epochs) expect(e.paymentRef).toBe(`0x${createHash('sha256').update(`${r.id}:${e.index}`).digest('hex')}`);
    expect(r.moves).toEqual([{ n: 1, row: 'R01', what: 'opened', from: null, to: 'MANDATED', at: FROM - 60 }]);
  });

  it('opens an epoch only once its window has begun, the one whose window holds the clock, never one already used', () => {
    const r = fresh();
    expect(epochToOpen(r, FROM - 1)).toMatchObject({ ok: false, code: 'window_not_begun' });
    expect(epochToOpen(r, FROM)).toEqual({ ok: true, epoch: 1 });
    expect(epochToOpen(r, FROM + 2 * HOUR + 5)).toEqual({ ok: true, epoch: 3 });
    // Epoch 1 opened and ended early, inside its own window: epoch 2 waits for its window.
    const early = follow(withOpen(r, 1), ended(1), FROM + 600).record;
    expect(early.state).toBe('EPOCH_ENDED');
    const wait = epochToOpen(early, FROM + 601);
    expect(wait).toMatchObject({ ok: false, code: 'window_not_begun' });
    expect((wait as { message: string }).message).toContain("epoch 2's window begins at");
    expect(epochToOpen(early, FROM + HOUR)).toEqual({ ok: true, epoch: 2 });
  });

  it('refuses an epoch while one is open, on a stopped or ended series, and once validUntil is reached', () => {
    const r = fresh();
    expect(epochToOpen(withOpen(r, 1), FROM + 1)).toMatchObject({ ok: false, code: 'epoch_open' });
    const stopped = revoke(r, 'done', FROM) as Changed;
    expect(epochToOpen(stopped.record, FROM + 1)).toMatchObject({ ok: false, code: 'stopped' });
    const over = follow(stopped.record, none, FROM + 2).record;
    expect(epochToOpen(over, FROM + 3)).toMatchObject({ ok: false, code: 'ended' });
    expect(epochToOpen(r, FROM + 3 * HOUR)).toMatchObject({ ok: false, code: 'mandate_expired' });
  });

  it('R02 and R03: an epoch opens from MANDATED and from EPOCH_ENDED; epochs passed unopened are skipped', () => {
    const r = fresh();
    const first = epochOpened(r, opening(1), FROM);
    expect(rowsOf(first)).toEqual(['R02']);
    expect(first.record.state).toBe('EPOCH_OPEN');
    expect(first.record.epochs[0]).toMatchObject({ state: 'open', handshake_id: 'hs_1', opened_at: FROM });
    const done = follow(first.record, ended(1), FROM + HOUR).record;
    const third = epochOpened(done, opening(3), FROM + 2 * HOUR);
    expect(rowsOf(third)).toEqual(['R03']);
    expect(third.record.epochs.map((e) => e.state)).toEqual(['ended', 'skipped', 'open']);
    // The input is never changed.
    expect(r.state).toBe('MANDATED');
    expect(r.epochs[0]!.state).toBe('pending');
  });

  it('R04: a read ends the open epoch when the layer ended its handshake, keeping the verdict', () => {
    const c = follow(withOpen(fresh(), 1), ended(1), FROM + HOUR);
    expect(rowsOf(c)).toEqual(['R04']);
    expect(c.record.state).toBe('EPOCH_ENDED');
    expect(c.record.epochs[0]).toMatchObject({ state: 'ended', verdict: { pass: true }, ended_at: FROM + HOUR });
  });

  it('R05: a read marks the open epoch submitted when the layer says so, and moves nothing else', () => {
    const facts: Facts = { ...none, handshake: { epoch: 1, handshake_id: 'hs_1', state: 'submitted', verdict: null, ended_at: null } };
    const c = follow(withOpen(fresh(), 1), facts, FROM + 10);
    expect(rowsOf(c)).toEqual(['R05']);
    expect(c.record.state).toBe('EPOCH_OPEN');
    expect(c.record.epochs[0]!.state).toBe('submitted');
    expect(follow(c.record, facts, FROM + 20).moves).toEqual([]);
  });

  it('R06: the series ends when its last epoch ended, or when validUntil is reached, from any state but ENDED', () => {
    let r = withOpen(fresh(), 3, FROM + 2 * HOUR);
    const last = follow(r, ended(3), FROM + 2 * HOUR + 10);
    expect(rowsOf(last)).toEqual(['R04', 'R06']);
    expect(last.record.ended).toEqual({ at: FROM + 2 * HOUR + 10, why: 'last_epoch' });
    expect(last.record.epochs.map((e) => e.state)).toEqual(['skipped', 'skipped', 'ended']);
    r = fresh();
    expect(follow(r, none, FROM + 3 * HOUR - 1).moves).toEqual([]);
    const late = follow(r, none, FROM + 3 * HOUR);
    expect(rowsOf(late)).toEqual(['R06']);
    expect(late.record).toMatchObject({ state: 'ENDED', ended: { why: 'valid_until' } });
    // An epoch still open at validUntil is followed after the series ends (R13).
    const open = follow(withOpen(fresh(), 3, FROM + 2 * HOUR), none, FROM + 3 * HOUR);
    expect(rowsOf(open)).toEqual(['R06']);
    expect(rowsOf(follow(open.record, ended(3), FROM + 3 * HOUR + 5))).toEqual(['R13']);
  });

  it('R07, R08, R09: a revoke stops the series from MANDATED, EPOCH_OPEN and EPOCH_ENDED', () => {
    const r = fresh();
    const open = withOpen(r, 1);
    const done = follow(open, ended(1), FROM + 100).record;
    for (const [from, row] of [[r, 'R07'], [open, 'R08'], [done, 'R09']] as const) {
      const c = revoke(from, 'changed my mind', FROM + 200) as Changed;
      expect(rowsOf(c)).toEqual([row]);
      expect(c.record).toMatchObject({ state: 'STOPPED', stopped: { at: FROM + 200, why: 'changed my mind' } });
      expect(c.moves[0]).toMatchObject({ from: from.state, to: 'STOPPED', why: 'changed my mind' });
    }
  });

  it('R10: a read ends a stopped series with no epoch open; with one open it waits for the layer (R13)', () => {
    const stopped = (revoke(fresh(), 'x', FROM) as Changed).record;
    expect(rowsOf(follow(stopped, none, FROM + 1))).toEqual(['R10']);
    const openStopped = (revoke(withOpen(fresh(), 1), 'x', FROM + 5) as Changed).record;
    expect(follow(openStopped, none, FROM + 6).moves).toEqual([]);
    const c = follow(openStopped, ended(1), FROM + 7);
    expect(rowsOf(c)).toEqual(['R13', 'R10']);
    expect(c.record).toMatchObject({ state: 'ENDED', ended: { why: 'stopped' } });
    expect(c.record.epochs[0]!.state).toBe('ended');
  });

  it('R11: a revoke of a stopped or ended series is refused and changes nothing', () => {
    const stopped = (revoke(fresh(), 'x', FROM) as Changed).record;
    expect(revoke(stopped, 'again', FROM + 1)).toMatchObject({ ok: false, code: 'already_stopped' });
    const over = follow(stopped, none, FROM + 2).record;
    expect(revoke(over, 'again', FROM + 3)).toMatchObject({ ok: false, code: 'already_ended' });
  });

  it('R13: a read follows an epoch left open on a stopped series: submitted, then ended', () => {
    const s = (revoke(withOpen(fresh(), 1), 'x', FROM + 5) as Changed).record;
    const sub = follow(s, { ...none, handshake: { epoch: 1, handshake_id: 'hs_1', state: 'submitted', verdict: null, ended_at: null } }, FROM + 6);
    expect(rowsOf(sub)).toEqual(['R13']);
    expect(sub.record).toMatchObject({ state: 'STOPPED' });
    expect(sub.record.epochs[0]!.state).toBe('submitted');
  });

  it('R14: the layer opening an epoch of a series stopped meanwhile keeps STOPPED with the epoch open', () => {
    const stopped = (revoke(fresh(), 'x', FROM) as Changed).record;
    const c = epochOpened(stopped, opening(1), FROM + 1);
    expect(rowsOf(c)).toEqual(['R14']);
    expect(c.record.state).toBe('STOPPED');
    expect(c.record.epochs[0]!.state).toBe('open');
    // The next read follows it and does not end the series while it is open.
    expect(follow(c.record, none, FROM + 2).moves).toEqual([]);
  });

  it('adopts a handshake the recovery ledger kept, once, and keeps its plan when a read settles it', () => {
    const adopted: Opening = { ...opening(1), unsigned: null, job: null, adopted: true };
    const c = follow(fresh(), { ...none, adopt: [adopted] }, FROM + 30);
    expect(c.moves.map((m) => [m.row, m.what])).toEqual([['R02', 'epoch_adopted']]);
    expect(c.record.epochs[0]).toMatchObject({ state: 'open', handshake_id: 'hs_1', unsigned: null });
    expect(follow(c.record, { ...none, adopt: [adopted] }, FROM + 31).moves).toEqual([]);
    const plan = { epoch: 1, handshake_id: 'hs_1', unsigned: opening(1).unsigned!, job: { class: 'c', provider: 'p', evaluator: 'e', expiredAt: 1, description: 'd', hook: 'h' } };
    const planned = follow(c.record, { ...none, plan }, FROM + 32);
    expect(planned.moves.map((m) => [m.row, m.what])).toEqual([[null, 'plan_kept']]);
    expect(planned.record.epochs[0]!.unsigned).toEqual(plan.unsigned);
    // The epochs route writing the same handshake after the read adopted it moves nothing.
    expect(epochOpened(planned.record, opening(1), FROM + 33).moves).toEqual([]);
  });

  it('numbers every move in its series', () => {
    let r = withOpen(fresh(), 1);
    r = follow(r, ended(1), FROM + HOUR).record;
    r = (revoke(r, 'x', FROM + HOUR) as Changed).record;
    r = follow(r, none, FROM + HOUR).record;
    expect(r.moves.map((m) => [m.n, m.row, m.from, m.to])).toEqual([
      [1, 'R01', null, 'MANDATED'],
      [2, 'R02', 'MANDATED', 'EPOCH_OPEN'],
      [3, 'R04', 'EPOCH_OPEN', 'EPOCH_ENDED'],
      [4, 'R09', 'EPOCH_ENDED', 'STOPPED'],
      [5, 'R10', 'STOPPED', 'ENDED'],
    ]);
  });

  it('says the next move in every state', () => {
    const r = fresh();
    expect(nextOf(r, FROM - 10)).toContain('once its window begins');
    expect(nextOf(r, FROM)).toContain(`open epoch 1 now with POST /v1/series/${r.id}/epochs`);
    expect(nextOf(withOpen(r, 1), FROM)).toContain('sign and send its unsigned createJob from your own wallet');
    const stopped = (revoke(r, 'x', FROM) as Changed).record;
    expect(nextOf(stopped, FROM)).toContain('the next read');
    expect(nextOf(follow(stopped, none, FROM).record, FROM)).toBe('the series has ended: nothing more moves');
  });

  it('states the whole table, one row per id, in Markdown', () => {
    expect(ROWS.map((r) => r.id)).toEqual([...ROW_IDS]);
    const md = seriesMarkdown();
    for (const r of ROWS) expect(md).toContain(`| ${r.id} | ${r.from} |`);
    for (const s of ['MANDATED', 'EPOCH_OPEN', 'EPOCH_ENDED', 'STOPPED', 'ENDED']) expect(md).toContain(`- \`${s}\`: `);
  });
});
