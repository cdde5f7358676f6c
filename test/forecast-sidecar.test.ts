import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrate } from '../engine/forecast/index.js';
import { resample } from '../engine/resample.js';
import { SIDECAR_LENS, startSidecar, type SidecarFixture, type SidecarMode } from './fixtures/sidecar.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { sampleFile } from './support/tape-file.js';

const M5 = 300;
/** 6 April 2018, 09:02:41 UTC: the last of the shipped BTC days, every earlier one behind it. */
const T = Date.UTC(2018, 3, 6, 9, 2, 41) / 1000;
const BAR = Math.floor(T / M5) * M5;

let sidecar: SidecarFixture;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const get = (path: string) => call(`${deck.url}${path}`, { headers: me.bearer });

/** Asks with the sidecar in `mode`, and puts it back to proper envelopes. */
async function askWith(mode: SidecarMode, path: string) {
  sidecar.mode = mode;
  try {
    return await get(path);
  } finally {
    sidecar.mode = 'envelope';
  }
}

beforeAll(async () => {
  sidecar = await startSidecar({ 'BTC/5m': resample(sampleFile('BTC-1m'), 60, M5).bars });
  // The in-process forecaster is off: the sidecar alone answers.
  deck = await testDeck({ DECK_FORECAST_URL: sidecar.url, DECK_FORECASTER: 'off' });
  me = await signedIn(deck.url, 'sidecar-user');
});
afterAll(async () => {
  await deck.stop();
  await sidecar.close();
});

describe('the forecast through an HTTP sidecar', () => {
  it.each([
    ['median', 'median', '$.median'],
    ['side', 'side', '$.touch.4.side'],
    ['drift', 'drift', '$.band.drift'],
  ] as const)('refuses an envelope carrying a %s with 502 naming the field', async (mode, key, path) => {
    const { status, body } = await askWith(mode, `/forecast/BTC/5m?t=${T}`);
    expect(status).toBe(502);
    expect(body).toMatchObject({ ok: false, error: 'direction_refused', upstream: 'forecast sidecar', key, path });
  });

  it.each([
    ['garbage', 'not_an_envelope'],
    ['calibrated', 'not_an_envelope'],
    ['late', 'not_an_envelope'],
    ['not-json', 'upstream_silent'],
    ['down', 'upstream_silent'],
  ] as const)('answers 502 when the sidecar answers %s', async (mode, error) => {
    const { status, body } = await askWith(mode, `/forecast/BTC/5m?t=${T}`);
    expect(status).toBe(502);
    expect(body).toMatchObject({ ok: false, error, upstream: 'forecast sidecar' });
  });

  it('passes on 404 with the reason when the sidecar has nothing to issue', async () => {
    const { status, body } = await get(`/forecast/ETH/5m?t=${T}`);
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: 'no_envelope', reason: 'warming_up' });
  });

  it('serves a proper envelope, asked at the bar close, after the refusals recorded nothing', async () => {
    const asked = sidecar.asked.length;
    const { status, body } = await get(`/forecast/BTC/5m?t=${T}`);
    expect(status).toBe(200);
    expect(body.served).toMatchObject({ issued_now: true, recorded: true });
    const { calibration, ...issued } = body.envelope;
    expect(issued).toEqual(sidecar.envelope('BTC', '5m', BAR));
    expect(issued).toMatchObject({ issued_t: BAR, model: SIDECAR_LENS.model });
    expect(calibration).toEqual(calibrate([], { bar: M5 }));
    expect(sidecar.asked.slice(asked)).toEqual([BAR]);
    // Every request, refused or not, asked for that bar close.
    expect([...new Set(sidecar.asked)]).toEqual([BAR]);
    const history = await get(`/forecast/BTC/5m?t=${T}&history=1&from=0`);
    expect(history.body.issues.map((i: { issued_t: number }) => i.issued_t)).toEqual([BAR]);
  });

  it('states the sidecar\'s lens, and answers 502 when it answers something else or nothing', async () => {
    const { status, body } = await get('/forecast/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, ...SIDECAR_LENS, horizon: 24 });
    expect(body.rows).toHaveLength(12);
    expect(body.rows.find((r: { market: string; tf: string }) => r.market === 'BTC' && r.tf === '5m')).toMatchObject({ newest_issued_t: BAR, n: 0 });
    expect((await askWith('garbage', '/forecast/health')).body).toMatchObject({ error: 'not_a_lens', upstream: 'forecast sidecar' });
    expect((await askWith('down', '/forecast/health')).status).toBe(502);
  });
});

describe('no forecaster at all', () => {
  it('answers 503 naming how to configure one', async () => {
    const bare = await testDeck({ DECK_FORECASTER: 'off' });
    try {
      const who = await signedIn(bare.url, 'nobody-forecasts');
      for (const path of [`/forecast/BTC/5m?t=${T}`, '/forecast/health']) {
        const { status, body } = await call(`${bare.url}${path}`, { headers: who.bearer });
        expect(status).toBe(503);
        expect(body).toMatchObject({ ok: false, error: 'upstream_not_configured', upstream: 'the forecaster' });
        expect(body.message).toMatch(/DECK_FORECAST_URL/);
        expect(body.message).toMatch(/DECK_FORECASTER=in-process/);
      }
    } finally {
      await bare.stop();
    }
  });
});
