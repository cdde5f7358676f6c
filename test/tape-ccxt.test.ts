import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandleRow } from '../core/tape-wire.js';
import { startExchange, type ExchangeFixture, type Wire } from './fixtures/exchange.js';
import { tapeRows } from './fixtures/venue.js';
import { runCli, sharedTape } from './support/cli.js';
import { movableClock, type MovableClock } from './support/clock.js';
import { signedIn, spawnDeck, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// DECK_TAPE_URL=ccxt:<exchange>: real candles from a crypto exchange through ccxt, here from local servers speaking
// Binance's and Kraken's public REST wire (DECK_CCXT_API_URL points ccxt at them), serving the real shared tape.

const M = 60;
const H = 3600;
const D = 86_400;
/** 2025-03-10T12:00:30Z: half a minute into a bar, inside the real BTC, ETH and SOL 1m month (Binance spot). */
const NOW = Date.UTC(2025, 2, 10, 12, 0, 30) / 1000;
const FORMING = NOW - 30;
const btc = tapeRows('BTC-1m');
const sol = tapeRows('SOL-1m');

const asBars = (rows: readonly CandleRow[]) => rows.map(([t, o, h, l, c, v]) => ({ t, o, h, l, c, v }));
const within = (rows: readonly CandleRow[], from: number, to: number) => rows.filter((r) => r[0] >= from && r[0] < to);

/**
 * A deck reading an exchange through ccxt (DECK_TAPE_URL=ccxt:<wire>), the exchange a local server of the shared tape
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
  const on = onExchange('binance', { 'BTC/1m': btc, 'ETH/1m': tapeRows('ETH-1m') }, clock);
  const klines = () => on.exchange.asked.filter((u) => u.pathname === '/api/v3/klines');

  it('serves the tape bar for bar from BTC/USDT, and its coverage names the exchange', async () => {
    const from = Date.UTC(2025, 2, 5) / 1000;
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
    const from = Date.UTC(2025, 2, 2) / 1000;
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
    const from = Date.UTC(2025, 2, 6) / 1000;
    const before = klines().length;
    on.exchange.failing = { status: 429, times: 1 };
    const { status, body } = await on.candles(`BTC/1m?from=${from}&to=${from + H}`);
    expect(status).toBe(200);
    expect(body.candles).toEqual(asBars(within(btc, from, from + H)));
    expect(klines().length - before).toBe(2);
  });

  it.each([429, 500] as const)('answers 502 naming the exchange and what failed when it answers %i after ccxt retried', async (failure) => {
    const from = Date.UTC(2025, 2, 7) / 1000 + (failure === 429 ? 0 : D);
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
    const from = Date.UTC(2025, 2, 8) / 1000;
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
    const from = Date.UTC(2025, 2, 1) / 1000;
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
    const from = Date.UTC(2025, 2, 9) / 1000;
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
    const { status, body } = await on.candles(`NQ/1m?from=${Date.UTC(2025, 2, 4, 14) / 1000}&to=${Date.UTC(2025, 2, 4, 15) / 1000}`);
    expect(status).toBe(422);
    expect(body.problems[0].field).toBe('market');
    expect(body.message).toMatch(/ccxt:binance cannot serve NQ \(E-mini Nasdaq-100 futures\): it is a CME futures contract, which no crypto exchange lists/);
    expect(on.exchange.asked.length).toBe(asked);
  });

  it('still serves CME bars an operator imported (from the archive), refusing only windows the archive knows nothing of', async () => {
    const imported = await runCli('tape', ['import', sharedTape('NQ-1m'), '--market', 'NQ', '--tf', '1m'], on.deck.dataDir);
    expect(imported.code).toBe(0);
    // 2023-12-04 21:30 to 23:30Z: the import's last half hour, the daily break, then half an hour it does not hold.
    const from = Date.UTC(2023, 11, 4, 21, 30) / 1000;
    const asked = on.exchange.asked.length;
    const kept = await on.candles(`NQ/1m?from=${from}&to=${from + 2 * H}`);
    expect(kept.status).toBe(200);
    expect(kept.body.candles).toEqual(asBars(within(tapeRows('NQ-1m'), from, from + 2 * H)));
    expect(kept.body.coverage).toMatchObject({ source: 'archive', bars: 30, unmeasured: { bars: 30 }, sealed: false });
    const tuesday = Date.UTC(2023, 10, 14, 15) / 1000; // before the import's first bar
    const before = await on.candles(`NQ/1m?from=${tuesday}&to=${tuesday + H}`);
    expect(before.status).toBe(422);
    expect(before.body.message).toContain('ccxt:binance cannot serve NQ');
    // A rehearsal without a window counts back from the newest bar imported (the exchange is not asked for NQ's latest).
    const words = (await call(`${on.deck.url}/forge?onboard=ema-cross`, { headers: on.me.bearer })).body.intent as string;
    const seed = (await call(`${on.deck.url}/forge`, { body: { intent: words }, headers: on.me.bearer })).body.seed_hash as string;
    const rehearsal = await call(`${on.deck.url}/studio/rehearse`, { body: { seed_hash: seed, market: 'NQ', hours: 24 }, headers: on.me.bearer });
    expect(rehearsal.status).toBe(200);
    expect(rehearsal.body).toMatchObject({ market: 'NQ', window: { to: Date.UTC(2023, 11, 4, 22) / 1000 } });
    expect(on.exchange.asked.length).toBe(asked);
  });

  it('refuses a market the exchange lists no USDT or USD pair for, and a timeframe it cannot build, naming the field', async () => {
    const from = Date.UTC(2025, 2, 4) / 1000;
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
    // The bar still forming opens inside the window: not served, it is unmeasured until it closes.
    expect(bitcoin.body.coverage).toMatchObject({ source: 'ccxt:kraken', bars: 180, unmeasured: { bars: 1, spans: [{ from: FORMING, to: FORMING + M }] } });
    expect(ohlc().at(-1)!.searchParams.get('pair')).toBe('XBTUSDT');
    const solana = await on.candles(`SOL/1m?from=${from}&to=${from + H}`);
    expect(solana.body.candles).toEqual(asBars(within(sol, from, from + H)));
    expect(ohlc().at(-1)!.searchParams.get('pair')).toBe('SOLUSD');
    expect(on.exchange.asked.filter((u) => u.pathname === '/0/public/AssetPairs')).toHaveLength(1);
  });

  it('reads a window older than the 720 bars Kraken keeps as unmeasured, never as missing', async () => {
    const from = NOW - 2 * D;
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
