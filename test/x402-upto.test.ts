import { createServer, type Server } from 'node:http';
import { Contract, HDNodeWallet, MaxUint256, Wallet, parseUnits } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { startFacilitator, type FacilitatorFixture } from './fixtures/facilitator.js';
import { CAIP2, type LocalChain } from './support/chain.js';
import { testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';
import { decoded, encoded, paymentFor, payingDeck, settlesOf, uptoPaymentFor, type PayingDeck, type Requirements } from './support/x402.js';
import { loadPlans } from '../config/files.js';
import { REGISTRY } from '../tools/registry.js';
import { locksOf } from '../services/plans/locks.js';
import { perCallOf } from '../services/pay/per-call.js';

// Payment per call by the bars a call serves (x402 v2, scheme upto): an agent with a funded wallet, Permit2 approved
// and no account reads tape windows over REST and MCP, signing for the most a call may cost and charged on chain
// through the upto proxy for exactly the bars served; each wrong payment is refused by name with nothing settled or
// recorded; a settlement that fails leaves nothing recorded and nothing served.

const at = (iso: string) => Date.parse(iso) / 1000;
/** One hour of ES minutes on Tuesday 8 October 2013, in the sample tape. */
const HOUR = `/timetravel/candles/ES/1m?from=${at('2013-10-08T14:00:00Z')}&to=${at('2013-10-08T15:00:00Z')}`;
/** A bar's price in USDC's smallest unit, as the repository's plans file prices the tape (0.00001 USDC). */
const PER_BAR = 10n;

let chain: LocalChain;
let usdc: Contract;
let otherToken: Contract;
let payer: HDNodeWallet;
let treasury: string;
let plans: string;
let facilitator: FacilitatorFixture;
let deck: TestDeck;

const balanceOf = async (who: string): Promise<bigint> => usdc.getFunction('balanceOf')(who);
const paidRows = () => deck.services.store.spend.entries.filter((e) => e.entry.paid);
const settles = (f: FacilitatorFixture = facilitator) => settlesOf(f);
/** A payer's approval of a Permit2 on the test USDC: the one-time step the upto scheme asks of it. */
const approve = async (token: Contract, who: HDNodeWallet, permit2: string) => (await (token.connect(who) as Contract).getFunction('approve')(permit2, MaxUint256)).wait();

let paying: PayingDeck;

beforeAll(async () => {
  paying = await payingDeck((p, f) => approve(p.usdc, p.payer, f.permit2));
  ({ chain, usdc, otherToken, payer, treasury, plans, facilitator, deck } = paying);
}, 120_000);

afterAll(() => paying?.stop());

/** What an unpaid read is asked: its PAYMENT-REQUIRED decoded and the one way to pay it lists. */
async function asked(base: string, path: string) {
  const unpaid = await call(`${base}${path}`);
  expect(unpaid.status).toBe(402);
  const required = decoded(unpaid.headers.get('payment-required'));
  return { unpaid, required, accepts: required.accepts[0] as Requirements };
}

const paid = (path: string, payment: unknown, base = deck.url) => call(`${base}${path}`, { headers: { 'payment-signature': encoded(payment) } });

describe('upto on REST', () => {
  it('asks an unpaid tape read for the most a call costs, with the facilitator its witness names; the card states a bar\'s price and the most', async () => {
    const { unpaid, required, accepts } = await asked(deck.url, HOUR);
    expect(required).toEqual({
      x402Version: 2,
      error: expect.stringMatching(/^payment_required: tape costs 0\.00001 USDC a bar served, at most 0\.20 USDC a call without a key: pay it with x402 \(scheme upto\)/),
      resource: { url: `${deck.url}${HOUR}`, description: 'tape, one call, 0.00001 USDC a bar served, at most 0.20 USDC', mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'upto',
          network: CAIP2,
          amount: '200000',
          asset: await usdc.getAddress(),
          payTo: treasury,
          maxTimeoutSeconds: 300,
          extra: { name: 'Test USDC', version: '2', facilitatorAddress: facilitator.address },
        },
      ],
    });
    expect(unpaid.body).toMatchObject({ ok: false, error: 'payment_required' });
    const card = (await call(`${deck.url}/cards/candles`)).body;
    // The card's requirements are the deck's own: the facilitator's address is the facilitator's, which the 402 carries.
    expect(card.x402.prices).toContainEqual({ tool: 'tape', per_bar_usdc: '0.00001', max_usdc: '0.20', ...accepts, extra: { name: 'Test USDC', version: '2' } });
  });

  it('serves a paid window to a wallet with no account, settled on chain for exactly its bars, not the maximum, and recorded with the amount', async () => {
    const before = { payer: await balanceOf(payer.address), treasury: await balanceOf(treasury) };
    const { accepts } = await asked(deck.url, HOUR);
    const read = await paid(HOUR, await uptoPaymentFor(payer, accepts, facilitator));
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const bars = read.body.candles.length as number;
    expect(bars).toBe(60);
    expect(read.body.coverage).toMatchObject({ bars: 60 });
    const cost = BigInt(bars) * PER_BAR;
    const settled = decoded(read.headers.get('payment-response'));
    expect(settled).toEqual({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: CAIP2, payer: payer.address, amount: String(cost) });
    // A real transfer through Permit2: the payer paid 600 of the 200000 it signed for, and the treasury has it.
    expect((await chain.provider.getTransactionReceipt(settled.transaction))?.status).toBe(1);
    expect(await balanceOf(payer.address)).toBe(before.payer - cost);
    expect(await balanceOf(treasury)).toBe(before.treasury + cost);
    expect(paidRows().at(-1)!.entry).toEqual({
      principal_id: `x402:${payer.address.toLowerCase()}`,
      action: 'tape',
      units: 0,
      paid: { network: CAIP2, transaction: settled.transaction, payer: payer.address.toLowerCase(), asset: await usdc.getAddress(), amount: '600', nonce: expect.any(String) },
    });
  }, 120_000);

  it('charges a window with no bars nothing: no transaction, the payment spent on the deck', async () => {
    const empty = `/timetravel/candles/ES/1m?from=${at('2013-10-08T14:00:10Z')}&to=${at('2013-10-08T14:00:50Z')}`;
    const { accepts } = await asked(deck.url, empty);
    const balance = await balanceOf(payer.address);
    const before = settles();
    const payment = await uptoPaymentFor(payer, accepts, facilitator, { nonce: '7' });
    const read = await paid(empty, payment);
    expect(read.status).toBe(200);
    expect(read.body.candles).toEqual([]);
    expect(decoded(read.headers.get('payment-response'))).toEqual({ success: true, transaction: '', network: CAIP2, payer: payer.address, amount: '0' });
    expect(await balanceOf(payer.address)).toBe(balance);
    expect(settles()).toBe(before);
    expect((await paid(empty, payment)).body.error).toBe('payment_replayed');
    // The same nonce written another way is the same Permit2 nonce: still spent.
    const again = await uptoPaymentFor(payer, accepts, facilitator, { nonce: '007' });
    expect((await paid(empty, again)).body.error).toBe('payment_replayed');
  }, 120_000);

  it('refuses by name a maximum under the window\'s cost, a wrong network, asset, scheme or facilitator, an expired and a replayed payment, settling and recording nothing', async () => {
    const { accepts } = await asked(deck.url, HOUR);
    const once = await uptoPaymentFor(payer, accepts, facilitator);
    expect((await paid(HOUR, once)).status).toBe(200);
    const rows = paidRows().length;
    const balance = await balanceOf(payer.address);
    const before = settles();
    const now = Math.floor(Date.now() / 1000);
    const wrong = {
      // 59 bars' worth for a window of 60.
      underpaid: await uptoPaymentFor(payer, accepts, facilitator, { maximum: String(59n * PER_BAR) }),
      overpaid: await uptoPaymentFor(payer, accepts, facilitator, { maximum: '200001' }),
      wrong_network: await uptoPaymentFor(payer, accepts, facilitator, { network: 'eip155:8453' }),
      wrong_asset: await uptoPaymentFor(payer, accepts, facilitator, { asset: await otherToken.getAddress() }),
      wrong_scheme: await paymentFor(payer, { ...accepts, scheme: 'exact' }),
      wrong_facilitator: await uptoPaymentFor(payer, { ...accepts, extra: { ...accepts.extra, facilitatorAddress: chain.accounts[4]!.address } }, facilitator),
      payment_expired: await uptoPaymentFor(payer, accepts, facilitator, { deadline: now - 1 }),
      payment_replayed: once,
    };
    for (const [name, payment] of Object.entries(wrong)) {
      const refused = await paid(HOUR, payment);
      expect(refused.status, name).toBe(402);
      expect(refused.body.error, name).toBe(name);
      expect(decoded(refused.headers.get('payment-required')).error, name).toMatch(new RegExp(`^${name}: `));
      expect(refused.headers.get('payment-response'), name).toBeNull();
      expect(refused.body, name).not.toHaveProperty('candles');
    }
    expect((await paid(HOUR, wrong.underpaid)).body).toMatchObject({ paid: '590', price: '600', bars: 60, message: expect.stringMatching(/the 60 bars tape would serve cost 0\.0006 USDC; the payment authorizes at most 0\.00059/) });
    // A payload of another shape is named, as is a window the tape does not hold (before anything is settled).
    expect((await paid(HOUR, { ...once, payload: { signature: '0x00' } })).body.error).toBe('payment_invalid');
    const future = `/timetravel/candles/ES/1m?from=${now + 3600}&to=${now + 7200}`;
    expect((await paid(future, await uptoPaymentFor(payer, accepts, facilitator))).status).toBe(422);
    expect(paidRows().length).toBe(rows);
    expect(await balanceOf(payer.address)).toBe(balance);
    expect(settles()).toBe(before);
  }, 120_000);

  it('passes on the facilitator\'s refusal of a payer that has not approved Permit2, charging nothing', async () => {
    const stranger = chain.accounts[2]!;
    await (await usdc.getFunction('mint')(stranger.address, parseUnits('1', 6))).wait();
    const { accepts } = await asked(deck.url, HOUR);
    const refused = await paid(HOUR, await uptoPaymentFor(stranger, accepts, facilitator));
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ error: 'payment_refused', reason: 'permit2_allowance_required' });
    expect(await balanceOf(stranger.address)).toBe(parseUnits('1', 6));
  }, 120_000);
});

describe('upto on MCP', () => {
  it('serves a paid tape read to a client with no key, charged for the bars shown (the first 500 of a day), the settlement in the result\'s _meta', async () => {
    const client = await legacyClient(`${deck.url}/mcp/candles`);
    const callTool = (params: Record<string, unknown>) => client.request({ method: 'tools/call', params }, CallToolResultSchema);
    const day = { market: 'ES', tf: '1m', from: at('2013-10-08T00:00:00Z'), to: at('2013-10-09T00:00:00Z') };
    try {
      const unpaid = await callTool({ name: 'tape', arguments: day });
      expect(unpaid.isError).toBe(true);
      const required = unpaid.structuredContent as { accepts: Requirements[] };
      expect(required.accepts[0]).toMatchObject({ scheme: 'upto', amount: '200000', extra: { facilitatorAddress: facilitator.address } });
      const balance = await balanceOf(payer.address);
      const read = await callTool({ name: 'tape', arguments: day, _meta: { 'x402/payment': await uptoPaymentFor(payer, required.accepts[0]!, facilitator) } });
      expect(read.isError, JSON.stringify(read)).toBeFalsy();
      const answer = read.structuredContent as { candles: unknown[]; summary: { bars: number; shown: number } };
      expect(answer.summary.shown).toBe(500);
      expect(answer.summary.bars).toBeGreaterThan(500);
      const settled = read._meta?.['x402/payment-response'] as { transaction: string; amount: string };
      expect(settled).toMatchObject({ success: true, network: CAIP2, payer: payer.address, amount: String(500n * PER_BAR) });
      expect((await chain.provider.getTransactionReceipt(settled.transaction))?.status).toBe(1);
      expect(await balanceOf(payer.address)).toBe(balance - 500n * PER_BAR);
      expect(paidRows().at(-1)!.entry).toMatchObject({ action: 'tape', paid: { transaction: settled.transaction, amount: '5000' } });

      // The whole day (limit) costs more than a maximum signed for 500 bars: refused by name, nothing charged.
      const whole = { ...day, limit: 20_000 };
      const short = await callTool({ name: 'tape', arguments: whole, _meta: { 'x402/payment': await uptoPaymentFor(payer, required.accepts[0]!, facilitator, { maximum: '5000' }) } });
      expect(short.isError).toBe(true);
      expect((short.structuredContent as { error: string }).error).toMatch(new RegExp(`^underpaid: the ${answer.summary.bars} bars tape would serve cost `));
      expect(await balanceOf(payer.address)).toBe(balance - 500n * PER_BAR);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('an upto settlement that fails', () => {
  it('leaves nothing recorded and nothing served: 402 settlement_failed with the facilitator\'s answer', async () => {
    // A relayer with no ether cannot send the proxy's settle.
    const broke = await startFacilitator(chain, Wallet.createRandom().connect(chain.provider));
    await approve(usdc, payer, broke.permit2);
    const failing = await testDeck({ DECK_PLANS: plans, DECK_X402_FACILITATOR: broke.url, DECK_SAMPLE_TAPE: 'on' });
    try {
      const { accepts } = await asked(failing.url, HOUR);
      expect(accepts.extra.facilitatorAddress).toBe(broke.address);
      const balance = await balanceOf(payer.address);
      const refused = await paid(HOUR, await uptoPaymentFor(payer, accepts, broke), failing.url);
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ error: 'settlement_failed', reason: 'invalid_transaction_state' });
      expect(refused.body).not.toHaveProperty('candles');
      expect(decoded(refused.headers.get('payment-response'))).toMatchObject({ success: false, errorReason: 'invalid_transaction_state' });
      expect(await balanceOf(payer.address)).toBe(balance);
      expect(failing.services.store.spend.entries).toEqual([]);
    } finally {
      await failing.stop();
      await broke.stop();
    }
  }, 120_000);
});

describe('a price by bars, held at start-up and to the facilitator', () => {
  const priced = async (tools: Record<string, string | { per_bar: string; max: string }>) => {
    const file = await loadPlans(plans);
    return perCallOf({ ...file, per_call: { ...file.per_call!, tools } }, treasury, facilitator.url, REGISTRY, locksOf(file, REGISTRY));
  };

  it('is held to a tool whose foresight counts its bars and a maximum of a bar at least', async () => {
    const perCall = (await priced({ tape: { per_bar: '0.001', max: '1' } }))!;
    expect(perCall.requirements.get('tape')).toMatchObject({ scheme: 'upto', amount: '1000000' });
    expect(await perCall.settler()).toBe(facilitator.address);
    await expect(priced({ forge: { per_bar: '0.001', max: '1' } })).rejects.toThrow(/prices forge by bars, which its foresight does not count/);
    await expect(priced({ tape: { per_bar: '0.01', max: '0.001' } })).rejects.toThrow(/max at least one bar's price/);
  });

  it('answers 502 saying how to configure it when the facilitator settles no upto; a price a call is asked as before', async () => {
    // A facilitator whose /supported lists exact only.
    const exactOnly: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ kinds: [{ x402Version: 2, scheme: 'exact', network: CAIP2 }] })));
    await new Promise<void>((resolve) => exactOnly.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(exactOnly.address() as { port: number }).port}`;
    const other = await testDeck({ DECK_PLANS: plans, DECK_X402_FACILITATOR: url, DECK_SAMPLE_TAPE: 'on' });
    try {
      const read = await call(`${other.url}${HOUR}`);
      expect(read.status).toBe(502);
      expect(read.body).toMatchObject({ error: 'upstream_refused', message: expect.stringMatching(/lists no upto scheme on eip155:31337 with a facilitatorAddress in \/supported: set DECK_X402_FACILITATOR/) });
      const forge = await call(`${other.url}/forge`, { body: { intent: 'ES, go long on a 9/21 EMA cross up' } });
      expect([forge.status, decoded(forge.headers.get('payment-required')).accepts[0].scheme]).toEqual([402, 'exact']);
    } finally {
      await other.stop();
      await new Promise((resolve) => exactOnly.close(resolve));
    }
  }, 120_000);
});
