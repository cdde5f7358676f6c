import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandleRow } from '../core/tape-wire.js';
import { startExchange, type ExchangeFixture, type Wire } from './fixtures/exchange.js';
import { sampleRows } from './fixtures/venue.js';
import { runCli, samplePath } from './support/cli.js';
import { movableClock, type MovableClock } from './support/clock.js';
import { signedIn, spawnDeck, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// DECK_TAPE_URL=ccxt:<exchange>: real candles from a crypto exchange through ccxt, here from local servers speaking
// Binance's and Kraken's public REST wire (DECK_CCXT_API_URL points ccxt at them), serving the shipped sample.

const M = 60;
const H = 3600;
const D = 86_400;
/** 2018-04-05T12:00:30Z: half a minute into a bar, in a day the shipped BTC and ETH minutes hold whole. */
const NOW = Date.UTC(2018, 3, 5, 12, 0, 30) / 1000;
const FORMING = NOW - 30;
/** Days before NOW the shipped BTC minutes hold whole: 3 and 4 September and 17 December 2017. */
const SEP3 = Date.UTC(2017, 8, 3) / 1000;
const DEC17 = Date.UTC(2017, 11, 17) / 1000;
const btc = sampleRows('BTC-1m');
/** The sample holds no SOL: ETH's minutes stand in for them, since what is asked is which pair the exchange is read from. */
const sol = sampleRows('ETH-1m');

const asBars = (rows: readonly CandleRow[]) => rows.map(([t, o, h, l, c, v]) => ({ t, o, h, l, c, v }));
const within = (rows: readonly CandleRow[], from: number, to: number) => rows.filter((r) => r[0] >= from && r[0] < to);

/**
 * A deck reading an exchange through ccxt (DECK_TAPE_URL=ccxt:<wire>), the exchange a local server of the shipped sample
 * speaking its wire (DECK_CCXT_API_URL); both keep `clock`'s time. Started before the block's tests, stopped after.
 */
function onExchange(wire: Wire, series: Record<string, CandleRow[]>, clock: MovableClock) {
  const on = {} as { exchange: ExchangeFixture; deck: TestDeck; me: Awaited<ReturnType<typeof signedIn>>; candles: (path: string) => ReturnType<typeof call> };
  beforeAll(async () => {
    on.exchange = await startExchange(wire, series, clock);
    on.deck = await testDeck({ DECK_TAPE_URL: `ccxt:${wire}`, DECK_CCXT_API_URL: on.exchange.url }, clock);
    on.me = await signedIn(on.deck.url, `${wire}-trader`);
    on.candles = (path) => call(`${on.deck.url}/timetravel/candles/${path}`, { headers: on.me.bearer });
  });
  afterAll(async () => {
    await on.deck.stop();
    await on.exchange.close();
  });
  return on;
}

describe('DECK_TAPE_URL=ccxt:binance (Binance spot wire)', () => {
  const clock = movableClock(NOW);
  const on = onExchange('binance', { 'BTC/1m': btc, 'ETH/1m': sampleRows('ETH-1m') }, clock);
  const klines = () => on.exchange.asked.filter((u) => u.pathname === '/api/v3/klines');

  it('serves the tape bar for bar from BTC/USDT, and its coverage names the exchange', async () => {
    const from = DEC17;
    const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + 6 * H}`);
    expect(status).toBe(200);
    expect(body.candles).toEqual(asBars(within(btc, from, from + 6 * H)));
    expect(body.candles).toHaveLength(360);
    expect(body.coverage).toMatchObject({ source: 'ccxt:binance', measured: true, complete: true, bars: 360, expected: 360, sealed: true });
    // Only spot markets were loaded, once; the pair is Binance's BTCUSDT.
    expect(on.exchange.asked.filter((u) => u.pathname === '/api/v3/exchangeInfo')).toHaveLength(1);
    expect(on.exchange.asked.some((u) => u.pathname.startsWith('/fapi') || u.pathname.startsWith('/dapi'))).toBe(false);
    expect(klines().at(-1)!.searchParams.get('symbol')).toBe('BTCUSDT');
  });

  it('pages a window longer than one answer through the exchange limit (1,000 klines)', async () => {
    const from = SEP3;
    const before = klines().length;
    const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + 2 * D}`);
    expect(status).toBe(200);
    expect(body.candles).toEqual(asBars(within(btc, from, from + 2 * D)));
    expect(body.coverage).toMatchObject({ source: 'ccxt:binance', bars: 2880, complete: true });
    const pages = klines().slice(before);
    expect(pages.map((u) => [Number(u.searchParams.get('startTime')) / 1000, Number(u.searchParams.get('limit'))])).toEqual([
      [from, 1000],
      [from + 1000 * M, 1000],
      [from + 2000 * M, 880],
    ]);
  });

  it('never serves the bar still forming, though the exchange sends it; serves it once it has closed', async () => {
    const from = FORMING - H;
    const sent = (await call(`${on.exchange.url}/api/v3/klines?symbol=BTCUSDT&interval=1m&startTime=${from * 1000}&limit=1000`)).body as unknown[][];
    expect(sent.at(-1)![0]).toBe(FORMING * 1000);
    const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${NOW}`);
    expect(status).toBe(200);
    expect(body.candles.at(-1).t).toBe(FORMING - M);
    expect(body.candles.map((c: { t: number }) => c.t)).not.toContain(FORMING);
    clock.advance(M);
    try {
      const closed = await on.candles(`BTC/1m?from=${FORMING - 10 * M}&to=${FORMING + M}`);
      expect(closed.body.candles.at(-1)).toEqual(asBars(within(btc, FORMING, FORMING + M))[0]);
    } finally {
      clock.set(NOW);
    }
  });

  it('is retried as ccxt retries: a 429 once is answered, the exchange asked again', async () => {
    const from = DEC17 + 6 * H;
    const before = klines().length;
    on.exchange.failing = { status: 429, times: 1 };
    const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + H}`);
    expect(status).toBe(200);
    expect(body.candles).toEqual(asBars(within(btc, from, from + H)));
    expect(klines().length - before).toBe(2);
  });

  it.each([429, 500] as const)('answers 502 naming the exchange and what failed when it answers %i after ccxt retried', async (failure) => {
    const from = DEC17 + (failure === 429 ? 8 : 10) * H;
    const before = klines().length;
    on.exchange.failing = { status: failure, times: 3 };
    try {
      const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + H}`);
      expect(status).toBe(502);
      expect(body).toMatchObject({ ok: false, error: 'upstream_silent', upstream: 'ccxt:binance' });
      expect(body.message).toContain('ccxt:binance did not answer: fetchOHLCV BTC/USDT 1m: binance');
      expect(body.message).toContain('(tried 3 times)');
      // Binance's own words: its 429 names the limit, its 500 carries error -1000.
      expect(body.message).toContain(failure === 429 ? '429 Too Many Requests {"code":-1003' : '{"code":-1000,"msg":"An unknown error occurred while processing the request."}');
      expect(klines().length - before).toBe(3);
    } finally {
      on.exchange.failing = null;
    }
    // Nothing was kept of the failure: the exchange answering again, so does the on.deck.
    expect((await on.candles(`BTC/1m?from=${from}&to=${from + H}`)).body.candles).toHaveLength(60);
  });

  it("counts its calls as the venue tape's: GET /ready gives the exchange's last answer, unreachable after ccxt's retries failed", async () => {
    const last = async () => ((await call(`${on.deck.url}/ready`)).body.upstreams as { upstream: string; last: { outcome: string } | null }[]).find((u) => u.upstream === 'venue_tape')!.last;
    const from = DEC17 + 12 * H;
    expect((await on.candles(`BTC/1m?from=${from}&to=${from + H}`)).status).toBe(200);
    expect(await last()).toMatchObject({ outcome: 'ok', status: null });
    on.exchange.failing = { status: 500, times: 3 };
    try {
      expect((await on.candles(`BTC/1m?from=${from + H}&to=${from + 2 * H}`)).status).toBe(502);
    } finally {
      on.exchange.failing = null;
    }
    expect(await last()).toMatchObject({ outcome: 'unreachable', status: null });
  });

  it('answers 502 at 10 s when the exchange feeds its answer a byte a second: the deadline is for the whole exchange', async () => {
    const from = DEC17 + 16 * H;
    on.exchange.drip = true;
    const started = Date.now();
    try {
      const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + H}`);
      expect(status).toBe(502);
      expect(body).toMatchObject({ ok: false, error: 'upstream_silent', upstream: 'ccxt:binance' });
      expect(body.message).toContain('no whole answer within 10 s');
    } finally {
      on.exchange.drip = false;
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
    expect(Date.now() - started).toBeLessThan(14_000);
  }, 20_000);

  it('answers 502 naming the exchange when it answers a bar that is not a candle, and keeps nothing of it', async () => {
    const from = DEC17 + 14 * H;
    on.exchange.tamper = ([t, o, h, l, c, v]) => [t, o, l, h, c, v];
    try {
      const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + H}`);
      expect(status).toBe(502);
      expect(body).toMatchObject({ ok: false, error: 'upstream_refused', upstream: 'ccxt:binance' });
      expect(body.message).toBe('ccxt:binance answered fetchOHLCV BTC/USDT 1m with a bar that is not a candle: needs l <= min(o, c) <= max(o, c) <= h');
    } finally {
      on.exchange.tamper = null;
    }
    expect((await on.candles(`BTC/1m?from=${from}&to=${from + H}`)).body.candles).toEqual(asBars(within(btc, from, from + H)));
  });

  it('refuses CME futures with 422 naming market and why, without asking the exchange', async () => {
    const asked = on.exchange.asked.length;
    // Thursday morning: the CME is open.
    const { status, body } = await on.candles(`NQ/1m?from=${NOW - 3 * H - 30}&to=${NOW - 2 * H - 30}`);
    expect(status).toBe(422);
    expect(body.problems[0].field).toBe('market');
    expect(body.message).toMatch(/ccxt:binance cannot serve NQ \(E-mini Nasdaq-100 futures\): it is a CME futures contract, which no crypto exchange lists/);
    expect(on.exchange.asked.length).toBe(asked);
  });

  it('still serves CME bars an operator imported (from the archive), refusing only windows the archive knows nothing of', async () => {
    const imported = await runCli('tape', ['import', samplePath('ES-1m'), '--market', 'ES', '--tf', '1m'], on.deck.dataDir);
    expect(imported.code).toBe(0);
    // 2013-10-08 20:30 to 22:30Z: the cash session's last half hour, the daily break, the evening's first half hour.
    const from = Date.UTC(2013, 9, 8, 20, 30) / 1000;
    const asked = on.exchange.asked.length;
    const kept = await on.candles(`ES/1m?from=${from}&to=${from + 2 * H}`);
    expect(kept.status).toBe(200);
    expect(kept.body.candles).toEqual(asBars(within(sampleRows('ES-1m'), from, from + 2 * H).filter(([t]) => t < from + 30 * M || t >= from + 90 * M)));
    expect(kept.body.coverage).toMatchObject({ source: 'archive', bars: 60, unmeasured: { bars: 0 }, sealed: true });
    const monday = Date.UTC(2013, 9, 14, 15) / 1000; // after the import's last bar
    const after = await on.candles(`ES/1m?from=${monday}&to=${monday + H}`);
    expect(after.status).toBe(422);
    expect(after.body.message).toContain('ccxt:binance cannot serve ES');
    // A rehearsal without a window counts back from the newest bar imported (the exchange is not asked for ES's latest).
    const words = (await call(`${on.deck.url}/forge?onboard=ema-cross`, { headers: on.me.bearer })).body.intent as string;
    const seed = (await call(`${on.deck.url}/forge`, { body: { intent: words }, headers: on.me.bearer })).body.seed_hash as string;
    const rehearsal = await call(`${on.deck.url}/studio/rehearse`, { body: { seed_hash: seed, market: 'ES', hours: 24 }, headers: on.me.bearer });
    expect(rehearsal.status).toBe(200);
    // The Friday close, 16:00 Chicago: the newest imported bar outside a halt.
    expect(rehearsal.body).toMatchObject({ market: 'ES', window: { to: Date.UTC(2013, 9, 11, 21) / 1000 } });
    expect(on.exchange.asked.length).toBe(asked);
  });

  it('refuses a market the exchange lists no USDT or USD pair for, and a timeframe it cannot build, naming the field', async () => {
    const from = DEC17 + 16 * H;
    const solana = await on.candles(`SOL/1m?from=${from}&to=${from + H}`);
    expect(solana.status).toBe(422);
    expect(solana.body.message).toContain('ccxt:binance lists neither SOL/USDT nor SOL/USD among its active spot markets');
    const seconds = await on.candles(`BTC/15s?from=${from}&to=${from + H}`);
    expect(seconds.status).toBe(422);
    expect(seconds.body.problems[0]).toMatchObject({ field: 'tf', message: 'ccxt:binance offers no 15s bars, nor finer ones to build them from; it serves 1m, 5m, 1h' });
  });
});

describe('DECK_TAPE_URL=ccxt:kraken (Kraken spot wire)', () => {
  const clock = movableClock(NOW);
  const on = onExchange('kraken', { 'BTC/1m': btc, 'SOL/1m': sol }, clock);
  const ohlc = () => on.exchange.asked.filter((u) => u.pathname === '/0/public/OHLC');

  it('serves BTC from XBT/USDT and SOL from SOL/USD (Kraken lists no SOL/USDT), bar for bar, the forming bar left out', async () => {
    const from = FORMING - 3 * H;
    const bitcoin = await on.candles(`BTC/1m?from=${from}&to=${NOW}`);
    expect(bitcoin.status).toBe(200);
    expect(bitcoin.body.candles).toEqual(asBars(within(btc, from, FORMING)));
    // The bar still forming at `to` has not closed by it: it is not in the window, neither served nor expected.
    expect(bitcoin.body.coverage).toMatchObject({ source: 'ccxt:kraken', bars: 180, expected: 180, unmeasured: { bars: 0, spans: [] } });
    expect(ohlc().at(-1)!.searchParams.get('pair')).toBe('XBTUSDT');
    const solana = await on.candles(`SOL/1m?from=${from}&to=${from + H}`);
    expect(solana.body.candles).toEqual(asBars(within(sol, from, from + H)));
    expect(ohlc().at(-1)!.searchParams.get('pair')).toBe('SOLUSD');
    expect(on.exchange.asked.filter((u) => u.pathname === '/0/public/AssetPairs')).toHaveLength(1);
  });

  it('reads a window older than the 720 bars Kraken keeps as unmeasured, never as missing', async () => {
    const from = FORMING - 2 * D;
    const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + H}`);
    expect(status).toBe(200);
    expect(body.candles).toEqual([]);
    expect(body.coverage).toMatchObject({ source: 'ccxt:kraken', measured: false, sealed: false, unmeasured: { bars: 60 } });
  });

  it('answers 502 naming the exchange when Kraken says it is unavailable', async () => {
    on.exchange.failing = { status: 500, times: 3 };
    try {
      const { status, body } = await on.candles(`BTC/1m?from=${NOW - 8 * H}&to=${NOW - 7 * H}`);
      expect(status).toBe(502);
      expect(body.upstream).toBe('ccxt:kraken');
      expect(body.message).toContain('fetchOHLCV BTC/USDT 1m');
    } finally {
      on.exchange.failing = null;
    }
  });
});

describe('an exchange ccxt does not know', () => {
  it('stops the deck at start, saying how to configure DECK_TAPE_URL', async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-ccxt-'));
    const started = spawnDeck({ DECK_TAPE_URL: 'ccxt:nosuchexchange', DECK_DATA: data });
    const refused = await started.then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/exited with 1/);
    expect(refused).toContain('DECK_TAPE_URL=ccxt:nosuchexchange: ccxt');
    expect(refused).toContain('knows no exchange "nosuchexchange". Set DECK_TAPE_URL=ccxt:<exchange> with one of ccxt\'s exchanges (');
    expect(refused).toMatch(/\bbinance\b.*\bkraken\b/);
    await rm(data, { recursive: true, force: true });
  });
});
