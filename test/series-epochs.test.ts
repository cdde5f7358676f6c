import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileLedger } from '../store/file-ledger.js';
import type { RecoveryEntry } from '../store/series.js';
import { LAYER_KEY, type Tamper } from './fixtures/layer.js';
import { testDeck } from './support/deck.js';
import { callAnswered } from './support/answers.js';
import { HOUR, hireBody, seriesRig, type SeriesRig } from './support/series.js';

// POST /v1/series/{id}/epochs refused every way the contract names: 409 for each reason no epoch may open (and for all
// but one of concurrent opens), 502 for each refusal or failure of the layer and for a plan that does not carry the
// epoch's paymentRef, 503 for a layer not configured and for a series that cannot be written after the layer opened
// the epoch (the handshake is kept and the next read adopts it).

let rig: SeriesRig;
beforeAll(async () => {
  rig = await seriesRig();
});
afterAll(() => rig.stop());
afterEach(() => {
  for (const r of ['handshake', 'settle', 'read'] as const) {
    delete rig.layer.fail[r];
    delete rig.layer.before[r];
  }
  rig.layer.tamper = null;
});

const handshakesOf = (seriesId: string) => [...rig.layer.handshakes.values()].filter((h) => h.series_id === seriesId);
const kept = async (dir: string) => (await FileLedger.open<RecoveryEntry>(dir, 'series-recovery')).all.map((e) => e.entry);

describe('409: no epoch may open now', () => {
  it('epoch_open while an epoch is open, saying which', async () => {
    const s = await rig.open();
    expect((await rig.epochs(s.id)).status).toBe(201);
    const again = await rig.epochs(s.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ ok: false, error: 'epoch_open', state: 'EPOCH_OPEN', message: 'epoch 1 is open: an epoch opens only from MANDATED or EPOCH_ENDED' });
    expect(handshakesOf(s.id)).toHaveLength(1);
  });

  it('stopped while its epoch is still open, then ended once the layer ends it (a stopped series with none open ends at once)', async () => {
    const s = await rig.open();
    const first = await rig.epochs(s.id);
    await rig.revoke(s.id);
    const stopped = await rig.epochs(s.id);
    expect(stopped.status).toBe(409);
    expect(stopped.body).toMatchObject({ error: 'stopped', state: 'STOPPED', message: 'the series is STOPPED: no new epoch opens' });
    rig.layer.endNow(first.body.handshake_id);
    const ended = await rig.epochs(s.id);
    expect(ended.status).toBe(409);
    expect(ended.body).toMatchObject({ error: 'ended', state: 'ENDED' });
    const idle = await rig.open();
    await rig.revoke(idle.id);
    expect((await rig.epochs(idle.id)).body).toMatchObject({ error: 'ended', state: 'ENDED' });
    expect(handshakesOf(idle.id)).toEqual([]);
  });

  it('ended, when validUntil passed: the route follows the series first, as a read does', async () => {
    const s = await rig.open(hireBody({ epochs: 1 }));
    rig.clock.advance(HOUR);
    const res = await rig.epochs(s.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'ended', state: 'ENDED' });
    expect((await rig.read(s.id)).body.series.ended).toMatchObject({ why: 'valid_until' });
  });

  it('window_not_begun before the first window, and after an epoch the layer ended early', async () => {
    const s = await rig.open(hireBody(), rig.clock.seconds() + 600);
    const early = await rig.epochs(s.id);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: 'window_not_begun', state: 'MANDATED' });
    expect(early.body.message).toContain("epoch 1's window begins at");
    rig.clock.advance(600);
    const first = await rig.epochs(s.id);
    expect(first.status).toBe(201);
    rig.layer.endNow(first.body.handshake_id);
    const next = await rig.epochs(s.id);
    expect(next.status).toBe(409);
    expect(next.body).toMatchObject({ error: 'window_not_begun', state: 'EPOCH_ENDED' });
    expect(next.body.message).toContain("epoch 2's window begins at");
    expect(handshakesOf(s.id)).toHaveLength(1);
  });

  it('of concurrent opens of one series exactly one reaches the layer and wins; the others are 409', async () => {
    const s = await rig.open();
    const N = 6;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    rig.layer.before.handshake = () => gate;
    let settled = 0;
    const all = Array.from({ length: N }, () => rig.epochs(s.id).finally(() => (settled += 1)));
    // The layer answers the one admitted only after every other open was answered.
    while (settled < N - 1) await new Promise((r) => setTimeout(r, 10));
    release();
    const answers = await Promise.all(all);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.error])).toEqual(Array(N - 1).fill([409, 'epoch_opening']));
    expect(handshakesOf(s.id)).toHaveLength(1);
    expect((await rig.read(s.id)).body.series.moves.filter((m: { what: string }) => m.what === 'epoch_opened')).toHaveLength(1);
  });
});

describe('502: the layer refused or failed', () => {
  it('answers each refusal of the handshake with the layer\'s answer under layer, keeping nothing', async () => {
    for (const [status, error] of [[409, 'epoch_open'], [422, 'seller_silent'], [422, 'bad_terms']] as const) {
      const s = await rig.open();
      rig.layer.fail.handshake = { status, error, message: `refused: ${error}` };
      const res = await rig.epochs(s.id);
      expect(res.status, error).toBe(502);
      expect(res.body).toMatchObject({ ok: false, error: 'upstream_refused', upstream: 'coordination layer', layer: { ok: false, error, message: `refused: ${error}` } });
      const after = (await rig.read(s.id)).body.series;
      expect(after.state).toBe('MANDATED');
      expect(after.moves).toHaveLength(1);
      expect((await kept(rig.deck.dataDir)).filter((k) => k.series_id === s.id)).toEqual([]);
    }
  });

  it('answers 502 seller_silent when the seller\'s endpoint the deck names does not answer the layer', async () => {
    // The deck's public address names a port where nothing listens: the layer's initialize finds no seller there.
    const silent = await seriesRig({ DECK_PUBLIC_URL: 'http://127.0.0.1:9' });
    try {
      const s = await silent.open();
      const res = await silent.epochs(s.id);
      expect(res.status).toBe(502);
      expect(res.body.layer).toMatchObject({ ok: false, error: 'seller_silent', message: 'http://127.0.0.1:9/mcp/copy did not answer initialize and tools/list' });
      expect(silent.layer.handshakes.size).toBe(0);
    } finally {
      await silent.stop();
    }
  });

  it('does not try a handshake twice: a 5xx, a dropped connection or an answer that is not JSON is 502 at once', async () => {
    for (const failure of [{ status: 503, error: 'busy' }, 'drop', 'garbage', 'nonsense'] as const) {
      const s = await rig.open();
      rig.layer.requests.length = 0;
      rig.layer.fail.handshake = failure;
      const res = await rig.epochs(s.id);
      expect(res.status, JSON.stringify(failure)).toBe(502);
      expect(res.body.error).toBe('upstream_silent');
      expect(rig.layer.requests.filter((r) => r.route === 'handshake')).toHaveLength(1);
    }
  });

  it('gives up on a layer that takes over five seconds', { timeout: 20_000 }, async () => {
    const s = await rig.open();
    rig.layer.fail.handshake = 'slow';
    const started = Date.now();
    const res = await rig.epochs(s.id);
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('upstream_silent');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  });

  it('answers 502 when the layer is down', async () => {
    const s = await rig.open();
    await rig.layer.close();
    try {
      const res = await rig.epochs(s.id);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ error: 'upstream_silent', upstream: 'coordination layer' });
    } finally {
      await rig.layer.start();
    }
    expect((await rig.read(s.id)).body.series.state).toBe('MANDATED');
  });

  it.each(['paymentRef', 'function', 'evaluator', 'expiry', 'value', 'job'] as Tamper[])(
    'answers 502 plan_refused when the settle plan is wrong (%s): the handshake is kept, and a read adopts it once a plan checks out',
    async (tamper) => {
      const s = await rig.open();
      rig.layer.tamper = tamper;
      const res = await rig.epochs(s.id);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ ok: false, error: 'plan_refused', handshake_id: expect.stringMatching(/^hs_/) });
      expect(res.body.problems.length).toBeGreaterThan(0);
      expect(res.body.layer).toMatchObject({ ok: true, handshake_id: res.body.handshake_id });
      expect(res.body.message).toContain('the next read of the series adopts it');
      if (tamper === 'paymentRef') expect(res.body.problems).toEqual([expect.stringContaining("this epoch's paymentRef")]);
      // While the plan is still wrong, a read adopts the open handshake and says why it has no plan.
      const read = await rig.read(s.id);
      expect(read.status).toBe(200);
      expect(read.body.series).toMatchObject({ state: 'EPOCH_OPEN' });
      expect(read.body.series.epochs[0]).toMatchObject({ state: 'open', handshake_id: res.body.handshake_id, unsigned: null });
      expect(read.body.layer).toMatchObject({ status: 502, error: 'plan_refused' });
      // The layer answered that the epoch is open, so opening again is the state's refusal, not the plan's.
      expect((await rig.epochs(s.id)).body).toMatchObject({ error: 'epoch_open', state: 'EPOCH_OPEN' });
      rig.layer.tamper = null;
      const fixed = (await rig.read(s.id)).body;
      expect(fixed.layer).toBeUndefined();
      expect(fixed.series.epochs[0].unsigned).toMatchObject({ to: rig.layer.contract, value: '0' });
      expect(fixed.series.moves.map((m: { row: string | null; what: string }) => [m.row, m.what])).toEqual([['R01', 'opened'], ['R02', 'epoch_adopted'], [null, 'plan_kept']]);
    },
  );

  it('answers 502 when the settle is refused; the next read adopts the handshake and settles again', async () => {
    const s = await rig.open();
    rig.layer.fail.settle = { status: 409, error: 'not_yet', message: 'the hook is busy' };
    const res = await rig.epochs(s.id);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: 'upstream_refused', layer: { error: 'not_yet' }, handshake_id: expect.stringMatching(/^hs_/) });
    delete rig.layer.fail.settle;
    const read = await rig.read(s.id);
    expect(read.body.series).toMatchObject({ state: 'EPOCH_OPEN' });
    expect(read.body.series.epochs[0]).toMatchObject({ handshake_id: res.body.handshake_id, unsigned: { value: '0' } });
    expect(read.body.hire).toMatchObject({ handshake_id: res.body.handshake_id, state: 'open' });
  });

  it('keeps an open epoch open when the layer cannot be read, saying why, and opens no other epoch meanwhile', async () => {
    const s = await rig.open();
    const first = await rig.epochs(s.id);
    rig.layer.endNow(first.body.handshake_id);
    rig.clock.advance(HOUR);
    rig.layer.fail.read = { status: 500, error: 'boom' };
    const read = await rig.read(s.id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ series: { state: 'EPOCH_OPEN' }, hire: null, layer: { status: 502, error: 'upstream_silent' } });
    const blocked = await rig.epochs(s.id);
    expect(blocked.status).toBe(502);
    delete rig.layer.fail.read;
    expect((await rig.epochs(s.id)).body).toMatchObject({ moved: { row: 'R03' }, epoch: 2 });
  });
});

describe('503', () => {
  it('when the layer is not configured: DECK_COORD_KEY missing, then DECK_COORD_URL missing; reads still answer', async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-series-'));
    const withKey = await testDeck({ DECK_DATA: data, DECK_COORD_URL: rig.layer.url, DECK_COORD_KEY: LAYER_KEY });
    let open: { id: string; openId: string };
    try {
      const { signedIn } = await import('./support/deck.js');
      const me = await signedIn(withKey.url, 'keyless_later');
      const a = await callAnswered(`${withKey.url}/v1/series`, { body: { quote: hireBody() }, headers: me.bearer });
      const b = await callAnswered(`${withKey.url}/v1/series`, { body: { quote: hireBody() }, headers: me.bearer });
      expect((await callAnswered(`${withKey.url}/v1/series/${b.body.series.id}/epochs`, { method: 'POST', headers: me.bearer })).status).toBe(201);
      open = { id: a.body.series.id, openId: b.body.series.id };
      await withKey.stop();
      for (const [env, variable] of [[{ DECK_COORD_URL: rig.layer.url }, 'DECK_COORD_KEY'], [{}, 'DECK_COORD_URL']] as const) {
        const deck = await testDeck({ DECK_DATA: data, ...env });
        try {
          const before = rig.layer.requests.length;
          const res = await callAnswered(`${deck.url}/v1/series/${open.id}/epochs`, { method: 'POST', headers: me.bearer });
          expect(res.status, variable).toBe(503);
          expect(res.body).toMatchObject({ error: 'upstream_not_configured', upstream: 'coordination layer' });
          expect(res.body.message).toContain(variable);
          expect(rig.layer.requests.length).toBe(before);
          expect((await callAnswered(`${deck.url}/v1/series/${open.id}`, { headers: me.bearer })).body).toMatchObject({ ok: true, series: { state: 'MANDATED' }, hire: null });
          const held = await callAnswered(`${deck.url}/v1/series/${open.openId}`, { headers: me.bearer });
          expect(held.body).toMatchObject({ series: { state: 'EPOCH_OPEN' }, hire: null, layer: { status: 503, error: 'upstream_not_configured' } });
          const blocked = await callAnswered(`${deck.url}/v1/series/${open.openId}/epochs`, { method: 'POST', headers: me.bearer });
          expect(blocked.status).toBe(503);
        } finally {
          await deck.stop();
        }
      }
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });

  it('when the series cannot be kept at open: nothing is opened', async () => {
    const block = join(rig.deck.dataDir, '.series.json.tmp');
    const before = (await callAnswered(`${rig.url}/v1/series`, { headers: rig.me.bearer })).body.count;
    await mkdir(block);
    try {
      const res = await callAnswered(`${rig.url}/v1/series`, { body: { quote: hireBody() }, headers: rig.me.bearer });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ ok: false, error: 'series_not_written', message: 'the series could not be kept: nothing is opened' });
      expect(JSON.stringify(res.body)).not.toContain(rig.deck.dataDir);
    } finally {
      await rm(block, { recursive: true });
    }
    expect((await callAnswered(`${rig.url}/v1/series`, { headers: rig.me.bearer })).body.count).toBe(before);
  });

  it('when the series cannot be written after the layer opened the epoch: the handshake is kept and the next read adopts it', async () => {
    const s = await rig.open();
    const block = join(rig.deck.dataDir, '.series.json.tmp');
    await mkdir(block);
    let handshakeId: string;
    try {
      const res = await rig.epochs(s.id);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ ok: false, error: 'series_not_written' });
      handshakeId = res.body.handshake_id;
      expect(res.body.message).toContain(`handshake ${handshakeId} is kept, and the next read of the series adopts it`);
      expect(rig.layer.handshakes.get(handshakeId)).toMatchObject({ series_id: s.id, epoch: 1 });
      expect((await kept(rig.deck.dataDir)).find((k) => k.handshake_id === handshakeId)).toMatchObject({ series_id: s.id, epoch: 1, paymentRef: s.epochs[0].paymentRef });
    } finally {
      await rm(block, { recursive: true });
    }
    const read = await rig.read(s.id);
    expect(read.body.series).toMatchObject({ state: 'EPOCH_OPEN' });
    expect(read.body.series.epochs[0]).toMatchObject({ state: 'open', handshake_id: handshakeId!, unsigned: { value: '0' } });
    expect(read.body.hire).toMatchObject({ handshake_id: handshakeId!, state: 'open' });
    expect(read.body.series.moves.map((m: { row: string | null; what: string }) => [m.row, m.what])).toEqual([['R01', 'opened'], ['R02', 'epoch_adopted'], [null, 'plan_kept']]);
    expect((await rig.epochs(s.id)).body.error).toBe('epoch_open');
  });
});
