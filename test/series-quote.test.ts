import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LAYER_KEY } from './fixtures/layer.js';
import { testDeck } from './support/deck.js';
import { callAnswered } from './support/answers.js';
import { hireBody, seriesRig, type SeriesRig } from './support/series.js';
import { toolByName } from '../tools/registry.js';

// GET and POST /v1/series/quote over real HTTP against a deck whose coordination layer is the layer double: the
// venues and limits, the quote's terms from the pool, every refusal, and the layer failing every way it can.

let rig: SeriesRig;
let url: string;
beforeAll(async () => {
  rig = await seriesRig();
  url = `${rig.url}/v1/series/quote`;
});
afterAll(() => rig.stop());
beforeEach(() => {
  for (const r of ['venues', 'quote'] as const) delete rig.layer.fail[r];
  rig.layer.requests.length = 0;
});

const quote = (body: unknown) => callAnswered(url, { body });

describe('GET /v1/series/quote', () => {
  it('answers the venues by kind, the limits and the quote body\'s JSON Schema, without a key', async () => {
    const res = await callAnswered(url);
    expect(res.status).toBe(200);
    expect(res.body.venues.external).toEqual([expect.objectContaining({ venue: 'acct-external', class: 'trading.mandate.external.v1', checks: [1, 2, 3] })]);
    expect(res.body.venues.vault).toEqual([expect.objectContaining({ venue: 'vault-devnet', class: 'trading.mandate.v1', checks: [1, 2, 3, 4] })]);
    expect(res.body.limits).toMatchObject({
      epochs: { min: 1, max: 90 },
      epoch_s: { min: 3600, default: 86400 },
      price: { by_seller: { studio: { min: 0, max: 0 }, candles: { min: 0, max: 0 }, copy: { min: 0, max: 99 } } },
      markets: ['NQ', 'ES', 'YM', 'BTC', 'ETH', 'SOL'],
    });
    // The body's schema is the one series_quote validates with (and lists to agents).
    expect(res.body.body).toEqual(toolByName.get('series_quote')!.inputSchema);
    expect(res.body.body.required).toEqual(['agent', 'venue', 'epochs', 'price_usdc', 'caps', 'cover']);
    expect(res.body.venues_unknown).toBeNull();
    expect(rig.layer.requests.map((r) => [r.route, r.authorization])).toEqual([['venues', `Bearer ${LAYER_KEY}`]]);
  });
});

describe('POST /v1/series/quote', () => {
  it('answers the layer\'s terms and the total, keyless, keeping nothing', async () => {
    const res = await quote(hireBody({ price_usdc: 0.1 }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      quote: { agent: { chainId: 8453, agentId: '42', seller: 'copy' }, venue: 'acct-external', epochs: 3, epoch_s: 3600, price_usdc: 0.1, caps: { allow_short: false }, cover: 500 },
      venue: { venue: 'acct-external', kind: 'external', class: 'trading.mandate.external.v1' },
      per_epoch: { price_usdc: 0.1, fee_usdc: 0.002, cover_usdc: 500, epoch_s: 3600, judge: { evaluator: rig.layer.evaluator, checks: [1, 2, 3] } },
      seller_deposit_usdc: 1000,
      series_total_usdc: 0.3,
      can_open: true,
    });
    expect(res.body.next).toContain('POST /v1/series');
    const pool = rig.layer.requests.find((r) => r.route === 'quote')!;
    expect(pool.authorization).toBe(`Bearer ${LAYER_KEY}`);
    expect(pool.body).toEqual({
      class: 'trading.mandate.external.v1',
      venue: 'acct-external',
      seller: { chainId: 8453, agentId: '42', seller: 'copy' },
      epochs: 3,
      epoch_s: 3600,
      price_usdc: 0.1,
      caps: { markets: ['NQ', 'ES'], max_order_size: 2, max_notional: 50000, max_position: 4, allow_short: false },
      cover: 500,
    });
    // Nothing is kept: no series, no move on the ledger, no handshake at the layer.
    expect((await readdir(rig.deck.dataDir)).filter((f) => f.startsWith('series'))).toEqual([]);
    expect((await callAnswered(`${rig.url}/v1/series`, { headers: rig.me.bearer })).body).toEqual({ ok: true, count: 0, series: [] });
    expect(rig.layer.handshakes.size).toBe(0);
  });

  it('answers a vault-kind quote, saying why it cannot open', async () => {
    const res = await quote(hireBody({ venue: 'vault-devnet', vault: `0x${'ab'.repeat(20)}` }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, venue: { kind: 'vault', class: 'trading.mandate.v1', checks: [1, 2, 3, 4] }, can_open: false });
    expect(res.body.why).toContain('vault contract grants the mandate on chain');
    expect(res.body.next).toContain('vault_not_built');
  });

  it('is 400 bad_input naming each field that fails its rule', async () => {
    const body = {
      agent: { chainId: 0, agentId: 'x', seller: 'nobody' },
      venue: 'Bad Venue',
      epochs: 91,
      epoch_s: 60,
      price_usdc: -1,
      caps: { markets: ['NQ', 'NQ', 'DOGE'], max_order_size: 0, max_notional: -5, max_position: 'four' },
      cover: 1.0000001,
      extra: true,
    };
    const wrong = ['agent.chainId', 'agent.agentId', 'agent.seller', 'venue', 'epochs', 'epoch_s', 'price_usdc', 'caps.markets.2', 'caps.max_order_size', 'caps.max_notional', 'caps.max_position', 'cover', '(body)'];
    const res = await quote(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_input');
    // A refusal names its first ten problems and how many there were in all.
    expect(res.body.problems_total).toBe(wrong.length);
    const fields = res.body.problems.map((p: { field: string }) => p.field);
    expect(fields).toHaveLength(10);
    for (const f of fields) expect(wrong, f).toContain(f);
    // With the first ones mended, the rest are named.
    const { agent: _agent, venue: _venue, epochs: _epochs, epoch_s: _epochS, price_usdc: _price, ...rest } = body;
    const named = (await quote(rest)).body.problems.map((p: { field: string }) => p.field);
    for (const f of ['caps.markets.2', 'caps.max_order_size', 'caps.max_notional', 'caps.max_position', 'cover', '(body)']) expect(named, f).toContain(f);
    expect(rig.layer.requests).toEqual([]);
  });

  it('is 400 naming the fields the whole body breaks: a span over a year, a price outside the seller\'s card, a repeated market', async () => {
    const long = await quote(hireBody({ epochs: 90, epoch_s: 5 * 86_400 }));
    expect(long.status).toBe(400);
    expect(long.body.problems).toEqual([{ field: 'epochs', message: expect.stringContaining('at most 366 days') }]);
    const dear = await quote(hireBody({ price_usdc: 100 }));
    expect(dear.body.problems).toEqual([{ field: 'price_usdc', message: "the copy seller's card prices an epoch (one job) from 0 to 99 USDC" }]);
    const studio = await quote(hireBody({ agent: { chainId: 8453, agentId: '7', seller: 'studio' }, price_usdc: 1 }));
    expect(studio.body.problems[0].field).toBe('price_usdc');
    const twice = await quote(hireBody({ caps: { markets: ['NQ', 'NQ'], max_order_size: 1, max_notional: 1, max_position: 1 } }));
    expect(twice.body.problems).toEqual([{ field: 'caps.markets', message: 'each market once' }]);
  });

  it('is 422 no_lane for a venue the layer does not list (naming the ones it does), and 400 for a vault on an external venue', async () => {
    const res = await quote(hireBody({ venue: 'nowhere' }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, error: 'no_lane', field: 'venue', venues: ['acct-external', 'vault-devnet'] });
    expect(res.body.message).toContain('nowhere');
    expect(rig.layer.requests.filter((r) => r.route === 'quote')).toEqual([]);
    const vault = await quote(hireBody({ vault: `0x${'ab'.repeat(20)}` }));
    expect(vault.status).toBe(400);
    expect(vault.body.problems[0].field).toBe('vault');
  });

  it('is 400 for a body that is not JSON', async () => {
    const res = await callAnswered(url, { raw: '{"agent":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('not_json');
  });

  it('is 422 no_lane when no pool serves the class at the venue for the seller', async () => {
    const lane = 'trading.mandate.external.v1|acct-external|copy';
    rig.layer.lanes.delete(lane);
    try {
      const res = await quote(hireBody());
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ ok: false, error: 'no_lane', layer: { ok: false, error: 'no_lane' } });
    } finally {
      rig.layer.lanes.add(lane);
    }
  });

  it('is 422 external_no_cover when the cover is over the seller\'s deposit on an external venue', async () => {
    const res = await quote(hireBody({ cover: 1000.5 }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'external_no_cover', cover: 1000.5, seller_deposit_usdc: 1000 });
    expect((await quote(hireBody({ cover: 1000 }))).status).toBe(200);
  });

  it('answers a refusal of the layer as 502 with the layer\'s answer under layer', async () => {
    rig.layer.fail.quote = { status: 422, error: 'bad_terms', message: 'caps.max_position: too large for this pool' };
    const res = await quote(hireBody());
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ ok: false, error: 'upstream_refused', layer: { ok: false, error: 'bad_terms', message: 'caps.max_position: too large for this pool' } });
  });

  it('tries a read three times when the layer fails, then answers 502', async () => {
    rig.layer.fail.venues = { status: 500, error: 'boom' };
    const res = await quote(hireBody());
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: 'upstream_silent', upstream: 'coordination layer' });
    expect(res.body.message).toContain('answered 500');
    expect(rig.layer.requests.filter((r) => r.route === 'venues')).toHaveLength(3);
  });

  it('asks the pool quote, a POST, once: a stalled layer answers 502 after one deadline, not three', async () => {
    rig.layer.fail.quote = 'slow';
    const res = await quote(hireBody());
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: 'upstream_silent', upstream: 'coordination layer' });
    expect(rig.layer.requests.filter((r) => r.route === 'quote')).toHaveLength(1);
  });

  it('answers 502 for an answer that is not JSON, one of the wrong shape, and a dropped connection', async () => {
    for (const failure of ['garbage', 'nonsense', 'drop'] as const) {
      rig.layer.fail.quote = failure;
      const res = await quote(hireBody());
      expect(res.status, failure).toBe(502);
      expect(res.body.error, failure).toBe('upstream_silent');
    }
  });

  it('answers a quote 502 when the layer is down, and the terms with the venues unknown', async () => {
    await rig.layer.close();
    try {
      const res = await quote(hireBody());
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ error: 'upstream_silent', upstream: 'coordination layer' });
      const terms = await callAnswered(url);
      expect(terms.status).toBe(200);
      expect(terms.body).toMatchObject({ ok: true, venues: null, venues_unknown: { status: 502, error: 'upstream_silent' } });
      expect(terms.body.limits.epochs).toEqual({ min: 1, max: 90 });
    } finally {
      await rig.layer.start();
    }
  });
});

describe('a deck whose layer is not configured', () => {
  it('answers a quote 503 naming DECK_COORD_URL, and DECK_COORD_KEY when only the key is missing; the terms with the venues unknown', async () => {
    const none = await testDeck();
    const keyless = await testDeck({ DECK_COORD_URL: rig.layer.url });
    try {
      for (const [deck, variable] of [[none, 'DECK_COORD_URL'], [keyless, 'DECK_COORD_KEY']] as const) {
        const res = await callAnswered(`${deck.url}/v1/series/quote`, { body: hireBody() });
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ ok: false, error: 'upstream_not_configured', upstream: 'coordination layer' });
        expect(res.body.message).toContain(variable);
        // The limits and the body are the deck's own: served whole, the venues marked unknown with the same reason.
        const terms = await callAnswered(`${deck.url}/v1/series/quote`);
        expect(terms.status).toBe(200);
        expect(terms.body).toMatchObject({ ok: true, venues: null, venues_unknown: { status: 503, error: 'upstream_not_configured' } });
        expect(terms.body.venues_unknown.message).toContain(variable);
        expect(terms.body.body).toEqual(toolByName.get('series_quote')!.inputSchema);
        expect(terms.body.limits.markets).toEqual(['NQ', 'ES', 'YM', 'BTC', 'ETH', 'SOL']);
      }
      expect(rig.layer.requests).toEqual([]);
    } finally {
      await none.stop();
      await keyless.stop();
    }
  });
});
