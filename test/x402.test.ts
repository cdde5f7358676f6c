import { Contract, HDNodeWallet, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFacilitator, type FacilitatorFixture } from './fixtures/facilitator.js';
import { CAIP2, type LocalChain } from './support/chain.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';
import { decoded, encoded, paymentFor, payingDeck, settlesOf, type PayingDeck, type Requirements } from './support/x402.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadPlans } from '../config/files.js';
import { REGISTRY } from '../tools/registry.js';
import { locksOf } from '../services/plans/locks.js';
import { perCallOf } from '../services/pay/per-call.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/experimental/tasks';

// Payment per call over REST (x402 v2, scheme exact): an agent with a funded wallet and no account forges and
// rehearses by paying each call, settled by a facilitator on the local chain with a real EIP-3009 transfer to the
// treasury; each wrong payment is refused by name with nothing settled or recorded; a settlement that fails leaves
// nothing recorded and nothing served; a signed-in principal's calls are as they were.

const RULE = 'ES on the 5 minute chart, long and short: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';

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

let paying: PayingDeck;

beforeAll(async () => {
  paying = await payingDeck();
  ({ chain, usdc, otherToken, payer, treasury, plans, facilitator, deck } = paying);
}, 120_000);

afterAll(() => paying?.stop());

/** What an unpaid call is asked: the 402, its PAYMENT-REQUIRED decoded and the one way to pay it lists. */
async function asked(path: string, body: unknown) {
  const unpaid = await call(`${deck.url}${path}`, { body });
  expect(unpaid.status).toBe(402);
  const required = decoded(unpaid.headers.get('payment-required'));
  return { unpaid, required, accepts: required.accepts[0] as Requirements };
}

const paid = (path: string, body: unknown, payment: unknown) => call(`${deck.url}${path}`, { body, headers: { 'payment-signature': encoded(payment) } });

describe('x402 on REST', () => {
  it('asks an unpaid call of a priced tool for its price with 402, PAYMENT-REQUIRED and a body a person reads', async () => {
    const { unpaid, required, accepts } = await asked('/forge', { intent: RULE });
    expect(required).toEqual({
      x402Version: 2,
      error: expect.stringMatching(/^payment_required: forge costs 0\.05 USDC a call/),
      resource: { url: `${deck.url}/forge`, description: 'forge, one call, 0.05 USDC', mimeType: 'application/json' },
      accepts: [{ scheme: 'exact', network: CAIP2, amount: '50000', asset: await usdc.getAddress(), payTo: treasury, maxTimeoutSeconds: 300, extra: { name: 'Test USDC', version: '2' } }],
    });
    expect(accepts.amount).toBe('50000');
    expect(unpaid.body).toMatchObject({ ok: false, error: 'payment_required', x402: required });
    // The studio's card says so, with each paid tool's price; a deck without a facilitator says x402Support: false.
    const card = (await call(`${deck.url}/cards/studio`)).body;
    expect(card.x402Support).toBe(true);
    expect(card.x402.prices).toEqual(
      expect.arrayContaining([
        { tool: 'forge', price_usdc: '0.05', ...accepts },
        expect.objectContaining({ tool: 'rehearse', price_usdc: '0.10', amount: '100000', network: CAIP2, payTo: treasury }),
      ]),
    );
    // A tool no price names is as it was: 401 without a key.
    expect((await call(`${deck.url}/me`)).status).toBe(401);
  });

  it('serves a paid forge and rehearsal to a wallet with no account, settled on chain and recorded with the transaction', async () => {
    const before = { payer: await balanceOf(payer.address), treasury: await balanceOf(treasury) };
    const forgeAsk = await asked('/forge', { intent: RULE });
    const forged = await paid('/forge', { intent: RULE }, await paymentFor(payer, forgeAsk.accepts));
    expect(forged.status).toBe(200);
    const forgeSettled = decoded(forged.headers.get('payment-response'));
    expect(forgeSettled).toEqual({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: CAIP2, payer: payer.address });

    const rehearsal = { seed_hash: forged.body.seed_hash, market: 'ES', hours: 24 };
    const rehearseAsk = await asked('/studio/rehearse', rehearsal);
    expect(rehearseAsk.accepts.amount).toBe('100000');
    const rehearsed = await paid('/studio/rehearse', rehearsal, await paymentFor(payer, rehearseAsk.accepts));
    expect(rehearsed.status).toBe(200);
    expect(rehearsed.body).toMatchObject({ market: 'ES' });
    const settled = decoded(rehearsed.headers.get('payment-response'));
    expect(settled.success).toBe(true);

    // A real transfer each: the receipt is on chain, the payer paid 0.15 and the treasury has it.
    const receipt = await chain.provider.getTransactionReceipt(settled.transaction);
    expect(receipt?.status).toBe(1);
    expect(await balanceOf(payer.address)).toBe(before.payer - 150_000n);
    expect(await balanceOf(treasury)).toBe(before.treasury + 150_000n);

    // The meter: each act bought, as the payer's own principal, with the settlement's transaction.
    const principal = `x402:${payer.address.toLowerCase()}`;
    expect(paidRows().map((e) => e.entry)).toEqual([
      { principal_id: principal, action: 'forge', units: 0, paid: { network: CAIP2, transaction: forgeSettled.transaction, payer: payer.address.toLowerCase(), asset: await usdc.getAddress(), amount: '50000', nonce: expect.any(String) } },
      { principal_id: principal, action: 'rehearse', units: 0, paid: expect.objectContaining({ transaction: settled.transaction, amount: '100000' }) },
    ]);
  }, 120_000);

  it('refuses a replayed, expired, underpaid, wrong-network and wrong-asset payment by name, settling and recording nothing', async () => {
    const { accepts } = await asked('/forge', { intent: RULE });
    const once = await paymentFor(payer, accepts);
    expect((await paid('/forge', { intent: RULE }, once)).status).toBe(200);
    const rows = paidRows().length;
    const balance = await balanceOf(payer.address);
    const settles = settlesOf(facilitator);
    const now = Math.floor(Date.now() / 1000);
    const wrong = {
      payment_replayed: once,
      payment_expired: await paymentFor(payer, accepts, { validBefore: now - 1 }),
      underpaid: await paymentFor(payer, accepts, { value: '49999' }),
      wrong_network: await paymentFor(payer, accepts, { network: 'eip155:8453' }),
      wrong_asset: await paymentFor(payer, accepts, { asset: await otherToken.getAddress() }),
    };
    for (const [name, payment] of Object.entries(wrong)) {
      const refused = await paid('/forge', { intent: RULE }, payment);
      expect(refused.status, name).toBe(402);
      expect(refused.body.error, name).toBe(name);
      expect(decoded(refused.headers.get('payment-required')).error, name).toMatch(new RegExp(`^${name}: `));
      expect(refused.headers.get('payment-response'), name).toBeNull();
    }
    // A payment that is not x402's at all is named too.
    const garbled = await call(`${deck.url}/forge`, { body: { intent: RULE }, headers: { 'payment-signature': 'not base64 json' } });
    expect(garbled.body).toMatchObject({ error: 'payment_invalid', field: 'PAYMENT-SIGNATURE' });
    expect(paidRows().length).toBe(rows);
    expect(await balanceOf(payer.address)).toBe(balance);
    expect(settlesOf(facilitator)).toBe(settles);
  }, 120_000);

  it('settles nothing for a call whose input is wrong: 422 first, the payment still unspent', async () => {
    const { accepts } = await asked('/forge', { intent: RULE });
    const payment = await paymentFor(payer, accepts);
    const balance = await balanceOf(payer.address);
    const wrong = await paid('/forge', { intent: 7 }, payment);
    expect(wrong.status).toBe(422);
    expect(await balanceOf(payer.address)).toBe(balance);
    // The same authorization then pays for a valid call.
    expect((await paid('/forge', { intent: RULE }, payment)).status).toBe(200);
    expect(await balanceOf(payer.address)).toBe(balance - 50_000n);
  }, 120_000);

  it('leaves a signed-in principal as it was: its key pays by plan or allowance, with no payment asked or answered', async () => {
    const me = await signedIn(deck.url, 'keyed_agent');
    const forged = await call(`${deck.url}/forge`, { body: { intent: RULE }, headers: me.bearer });
    expect(forged.status).toBe(200);
    expect(forged.headers.get('payment-response')).toBeNull();
  }, 120_000);
});

describe('x402 on MCP', () => {
  it('serves a paid forge and rehearsal to a client with no key: PaymentRequired as the result, the payment in _meta, the settlement in the result\'s _meta', async () => {
    const client = await legacyClient(`${deck.url}/mcp/studio`);
    // The SDK's callTool holds structuredContent to the tool's outputSchema even on isError: read the result as MCP has it.
    const callTool = (params: Record<string, unknown>) => client.request({ method: 'tools/call', params }, CallToolResultSchema);
    try {
      const unpaid = await callTool({ name: 'forge', arguments: { intent: RULE } });
      expect(unpaid.isError).toBe(true);
      const required = unpaid.structuredContent as { accepts: Requirements[]; error: string };
      expect(required).toMatchObject({ x402Version: 2, error: expect.stringMatching(/^payment_required: /), accepts: [{ scheme: 'exact', network: CAIP2, amount: '50000', payTo: treasury }] });
      // The same object as the text, for a client that reads only content.
      expect(JSON.parse((unpaid.content[0] as { text: string }).text)).toEqual(required);

      const balance = await balanceOf(payer.address);
      const forged = await callTool({ name: 'forge', arguments: { intent: RULE }, _meta: { 'x402/payment': await paymentFor(payer, required.accepts[0]!) } });
      expect(forged.isError, JSON.stringify(forged)).toBeFalsy();
      const settled = forged._meta?.['x402/payment-response'] as { success: boolean; transaction: string };
      expect(settled).toMatchObject({ success: true, network: CAIP2, payer: payer.address });
      const seed = (forged.structuredContent as { seed_hash: string }).seed_hash;

      const rehearsal = { seed_hash: seed, market: 'ES', hours: 24 };
      const asked = (await callTool({ name: 'rehearse', arguments: rehearsal })).structuredContent as { accepts: Requirements[] };
      const rehearsed = await callTool({ name: 'rehearse', arguments: rehearsal, _meta: { 'x402/payment': await paymentFor(payer, asked.accepts[0]!) } });
      expect(rehearsed.isError).toBeFalsy();
      expect(rehearsed.structuredContent).toMatchObject({ market: 'ES' });
      const paidRehearsal = rehearsed._meta?.['x402/payment-response'] as { transaction: string };
      expect((await chain.provider.getTransactionReceipt(paidRehearsal.transaction))?.status).toBe(1);
      expect(await balanceOf(payer.address)).toBe(balance - 150_000n);
      expect(paidRows().at(-1)!.entry).toMatchObject({ action: 'rehearse', paid: { transaction: paidRehearsal.transaction } });

      // A replayed payment is refused by name, as PaymentRequired again.
      const replay = await callTool({ name: 'forge', arguments: { intent: RULE }, _meta: { 'x402/payment': (await paymentFor(payer, required.accepts[0]!, { nonce: (await lastNonce()) })) } });
      expect(replay.isError).toBe(true);
      expect((replay.structuredContent as { error: string }).error).toMatch(/^payment_replayed: /);
    } finally {
      await client.close();
    }
  }, 120_000);
});

const lastNonce = async () => paidRows().at(-1)!.entry.paid!.nonce;

describe('a settlement that fails', () => {
  it('leaves nothing recorded and nothing served: 402 settlement_failed with the facilitator\'s answer', async () => {
    // A relayer with no ether cannot send the transfer.
    const broke = await startFacilitator(chain, Wallet.createRandom().connect(chain.provider));
    const failing = await testDeck({ DECK_PLANS: plans, DECK_X402_FACILITATOR: broke.url });
    try {
      const unpaid = await call(`${failing.url}/forge`, { body: { intent: RULE } });
      const accepts = decoded(unpaid.headers.get('payment-required')).accepts[0] as Requirements;
      const balance = await balanceOf(payer.address);
      const refused = await call(`${failing.url}/forge`, { body: { intent: RULE }, headers: { 'payment-signature': encoded(await paymentFor(payer, accepts)) } });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ error: 'settlement_failed', reason: 'invalid_transaction_state' });
      expect(refused.body).not.toHaveProperty('seed_hash');
      expect(decoded(refused.headers.get('payment-response'))).toMatchObject({ success: false, errorReason: 'invalid_transaction_state' });
      expect(await balanceOf(payer.address)).toBe(balance);
      expect(failing.services.store.spend.entries).toEqual([]);
      // Without a facilitator, no x402: the card says false and a keyless call is asked for a key, as before.
      const off = await testDeck({ DECK_PLANS: plans });
      try {
        expect((await call(`${off.url}/cards/studio`)).body).toMatchObject({ x402Support: false });
        expect((await call(`${off.url}/cards/studio`)).body).not.toHaveProperty('x402');
        expect((await call(`${off.url}/forge`, { body: { intent: RULE } })).status).toBe(401);
      } finally {
        await off.stop();
      }
    } finally {
      await failing.stop();
      await broke.stop();
    }
  }, 120_000);
});

describe('a refusal foreseen before the payment settles', () => {
  const principal = () => `x402:${payer.address.toLowerCase()}`;
  const payerRows = () => deck.services.store.spend.entries.filter((e) => e.entry.principal_id === principal()).length;
  const settles = () => settlesOf(facilitator);
  /** Where the payer stands: its USDC on chain, its rows on the meter and the settlements asked. */
  const standing = async () => ({ balance: await balanceOf(payer.address), rows: payerRows(), settles: settles() });
  /** The payer's own forge, paid for: what its rehearsals name. */
  let seed: string;

  beforeAll(async () => {
    const { accepts } = await asked('/forge', { intent: RULE });
    seed = (await paid('/forge', { intent: RULE }, await paymentFor(payer, accepts))).body.seed_hash;
  }, 120_000);

  /** A paid call that is refused with `status` and `error`, settling, charging and recording nothing. */
  async function refusedUnpaid(path: string, body: Record<string, unknown>, status: number, error: string) {
    const { accepts } = await asked(path, body);
    const before = await standing();
    const refused = await paid(path, body, await paymentFor(payer, accepts));
    expect([refused.status, refused.body.error], JSON.stringify(refused.body)).toEqual([status, error]);
    expect(refused.headers.get('payment-response')).toBeNull();
    expect(refused.body).not.toHaveProperty('refund_due');
    expect(await standing()).toEqual(before);
  }

  it('holds a price per call to a tool that foresees its refusals: one that does not fails start-up naming it', async () => {
    const priced = (tools: Record<string, string>) => async () => {
      const file = await loadPlans(plans);
      return perCallOf({ ...file, per_call: { ...file.per_call!, tools } }, treasury, facilitator.url, REGISTRY, locksOf(file, REGISTRY));
    };
    expect((await priced({ forge: '0.05', rehearse: '0.10' })())?.requirements.size).toBe(2);
    await expect(priced({ forge_trial: '0.01' })()).rejects.toThrow(/per_call.tools names forge_trial, which does not foresee its refusals/);
  });

  it('over REST: a rehearsal of a forge the payer does not hold, a market or window the tape does not hold, words that read as no rule', async () => {
    await refusedUnpaid('/studio/rehearse', { seed_hash: 'ab'.repeat(32), market: 'ES', hours: 24 }, 404, 'not_found');
    await refusedUnpaid('/studio/rehearse', { seed_hash: seed, market: 'NQ', hours: 24 }, 422, 'bad_input');
    // Saturday 12 October 2013: the CME is shut, the window holds no bar.
    await refusedUnpaid('/studio/rehearse', { seed_hash: seed, hours: 1, to: '2013-10-12T12:00:00Z' }, 422, 'bad_window');
    await refusedUnpaid('/studio/rehearse', { seed_hash: seed, hours: 24, to: Math.floor(Date.now() / 1000) + 86_400 }, 422, 'bad_input');
    await refusedUnpaid('/forge', { intent: 'buy low and sell high' }, 422, 'bad_input');
  }, 120_000);

  it('over REST: a rehearsal asking for a plate when the day\'s seals are used', async () => {
    const day = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 40; i++) await deck.services.store.plateSeals.add(principal(), { id: `used-${i}`, day });
    try {
      await refusedUnpaid('/studio/rehearse', { seed_hash: seed, market: 'ES', hours: 24, plate: true }, 429, 'seals_used');
    } finally {
      for (let i = 0; i < 40; i++) await deck.services.store.plateSeals.remove(principal(), `used-${i}`);
    }
  }, 120_000);

  it('over REST: a second forge while the payer\'s first is cast is busy (429) and only the first is paid', async () => {
    const { accepts } = await asked('/forge', { intent: RULE });
    const before = await standing();
    const both = await Promise.all([paid('/forge', { intent: RULE }, await paymentFor(payer, accepts)), paid('/forge', { intent: RULE }, await paymentFor(payer, accepts))]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 429]);
    const busy = both.find((r) => r.status === 429)!;
    expect(busy.body.error).toBe('busy');
    expect(busy.headers.get('payment-response')).toBeNull();
    expect(await standing()).toEqual({ balance: before.balance - 50_000n, rows: before.rows + 2, settles: before.settles + 1 });
  }, 120_000);

  it('over MCP with the SDK client: the same refusals as tool results, nothing settled or recorded', async () => {
    const client = await legacyClient(`${deck.url}/mcp/studio`);
    const callTool = (params: Record<string, unknown>) => client.request({ method: 'tools/call', params }, CallToolResultSchema);
    try {
      const cases: [string, Record<string, unknown>, number, string][] = [
        ['rehearse', { seed_hash: 'cd'.repeat(32), market: 'ES', hours: 24 }, 404, 'not_found'],
        ['rehearse', { seed_hash: seed, market: 'NQ', hours: 24 }, 422, 'bad_input'],
        ['rehearse', { seed_hash: seed, hours: 1, to: '2013-10-12T12:00:00Z' }, 422, 'bad_window'],
        ['forge', { intent: 'buy low and sell high' }, 422, 'bad_input'],
      ];
      for (const [name, args, status, error] of cases) {
        const required = (await callTool({ name, arguments: args })).structuredContent as { accepts: Requirements[] };
        const before = await standing();
        const refused = await callTool({ name, arguments: args, _meta: { 'x402/payment': await paymentFor(payer, required.accepts[0]!) } });
        expect(refused.isError, name).toBe(true);
        expect(JSON.parse((refused.content[0] as { text: string }).text), name).toMatchObject({ error, status });
        expect(refused._meta?.['x402/payment-response'], name).toBeUndefined();
        expect(await standing(), name).toEqual(before);
      }
    } finally {
      await client.close();
    }
  }, 120_000);

  it('a call that fails after its payment settled says so: the settlement, the refund due, and a meter row the operator refunds by', async () => {
    // 39 seals used: two rehearsals asking for plates both foresee a seal left, both settle, one takes the last seal.
    const day = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 39; i++) await deck.services.store.plateSeals.add(principal(), { id: `used-${i}`, day });
    try {
      const asks = [24, 48].map((hours) => ({ seed_hash: seed, market: 'ES', hours, plate: true }));
      const { accepts } = await asked('/studio/rehearse', asks[0]);
      const before = await standing();
      const both = await Promise.all(asks.map(async (body) => paid('/studio/rehearse', body, await paymentFor(payer, accepts))));
      expect(both.map((r) => r.status).sort()).toEqual([200, 429]);
      const refused = both.find((r) => r.status === 429)!;
      const settlement = decoded(refused.headers.get('payment-response'));
      expect(settlement).toMatchObject({ success: true, network: CAIP2, payer: payer.address });
      expect(refused.body).toMatchObject({
        error: 'seals_used',
        message: expect.stringContaining(`the payment settled (transaction ${settlement.transaction}) and is due back`),
        settlement,
        refund_due: { network: CAIP2, transaction: settlement.transaction, payer: payer.address.toLowerCase(), asset: await usdc.getAddress(), amount: '100000' },
      });
      expect(await balanceOf(payer.address)).toBe(before.balance - 200_000n);
      const refund = deck.services.store.spend.entries.find((e) => e.entry.refund_due?.transaction === settlement.transaction)!.entry;
      expect(refund).toEqual({
        principal_id: principal(),
        action: 'rehearse',
        units: 0,
        refund_due: { network: CAIP2, transaction: settlement.transaction, payer: payer.address.toLowerCase(), asset: await usdc.getAddress(), amount: '100000', nonce: expect.any(String), status: 429, error: 'seals_used' },
      });
    } finally {
      for (const s of deck.services.store.plateSeals.list(principal())) await deck.services.store.plateSeals.remove(principal(), s.id);
    }
  }, 120_000);
});

describe('x402 on MCP tasks', () => {
  /** A keyless client that declares tasks, as the SDK's tasks stream needs. */
  async function taskClient(): Promise<Client> {
    const client = new Client({ name: 'deck-test-paid-tasks', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${deck.url}/mcp/studio`)));
    return client;
  }
  /** A rehearsal's task call with the payment it is asked for (asked first, unpaid, as a task call). */
  async function paidTaskCall(client: Client, rehearsal: Record<string, unknown>) {
    const unpaid = await client.request({ method: 'tools/call', params: { name: 'rehearse', arguments: rehearsal, task: {} } }, CallToolResultSchema);
    const accepts = (unpaid.structuredContent as { accepts: Requirements[] }).accepts[0]!;
    return { name: 'rehearse', arguments: rehearsal, task: {}, _meta: { 'x402/payment': await paymentFor(payer, accepts) } };
  }
  let seed: string;

  beforeAll(async () => {
    const { accepts } = await asked('/forge', { intent: RULE });
    seed = (await paid('/forge', { intent: RULE }, await paymentFor(payer, accepts))).body.seed_hash;
  }, 120_000);

  it('asks a keyless task call of a priced tool for its payment as tools/call does, and runs the paid one as the payer\'s task, settled before it works', async () => {
    const client = await taskClient();
    const rehearsal = { seed_hash: seed, market: 'ES', hours: 24 };
    try {
      // Unpaid: the PaymentRequired, as the call's result; no task is made.
      const unpaid = await client.request({ method: 'tools/call', params: { name: 'rehearse', arguments: rehearsal, task: { ttl: 60_000 } } }, CallToolResultSchema);
      expect(unpaid.isError).toBe(true);
      const required = unpaid.structuredContent as { accepts: Requirements[]; error: string };
      expect(required).toMatchObject({ x402Version: 2, error: expect.stringMatching(/^payment_required: rehearse costs 0\.10 USDC/), accepts: [{ scheme: 'exact', amount: '100000' }] });

      const before = await balanceOf(payer.address);
      const seen: string[] = [];
      let result: { structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown>; isError?: boolean } | undefined;
      const params = { name: 'rehearse', arguments: rehearsal, _meta: { 'x402/payment': await paymentFor(payer, required.accepts[0]!) } };
      for await (const m of client.experimental.tasks.callToolStream(params, CallToolResultSchema, { task: { ttl: 60_000 } })) {
        if (m.type === 'taskCreated') {
          seen.push('created');
          // Made only once the payment settled: the transfer is on chain and the act on the meter before the work answers.
          expect(await balanceOf(payer.address)).toBe(before - 100_000n);
        }
        if (m.type === 'result') result = m.result as typeof result;
        if (m.type === 'error') throw m.error;
      }
      expect(seen).toEqual(['created']);
      expect(result!.isError).toBeFalsy();
      expect(result!.structuredContent).toMatchObject({ ok: true, market: 'ES' });
      const settled = result!._meta!['x402/payment-response'] as { success: boolean; transaction: string };
      expect(settled).toMatchObject({ success: true, network: CAIP2, payer: payer.address });
      expect((await chain.provider.getTransactionReceipt(settled.transaction))?.status).toBe(1);
      expect(paidRows().at(-1)!.entry).toMatchObject({ principal_id: `x402:${payer.address.toLowerCase()}`, action: 'rehearse', paid: { transaction: settled.transaction } });
      // The payer has no key: the task is found by its id alone, and listing is for principals with one.
      const taskId = (result!._meta!['io.modelcontextprotocol/related-task'] as { taskId: string }).taskId;
      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed' });
      await expect(client.experimental.tasks.listTasks()).rejects.toThrow(/tasks belong to a principal/);
      expect(await balanceOf(payer.address)).toBe(before - 100_000n);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('records a paid task cancelled after its settlement as a refund due, with the transaction', async () => {
    const client = await taskClient();
    try {
      const params = await paidTaskCall(client, { seed_hash: seed, market: 'ES', folds: 4 });
      const { task } = await client.request({ method: 'tools/call', params }, CreateTaskResultSchema);
      const settled = paidRows().at(-1)!.entry.paid!;
      await client.experimental.tasks.cancelTask(task.taskId);
      let refund = null;
      for (let i = 0; i < 200 && !refund; i++) {
        refund = deck.services.store.spend.entries.find((e) => e.entry.refund_due?.transaction === settled.transaction)?.entry ?? null;
        if (!refund) await new Promise((r) => setTimeout(r, 50));
      }
      expect(refund).toEqual({ principal_id: `x402:${payer.address.toLowerCase()}`, action: 'rehearse', units: 0, refund_due: { ...settled, status: 503, error: 'cancelled' } });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('answers a paid task call the tool foresees refusing as tools/call does: no task, nothing settled or recorded', async () => {
    const client = await taskClient();
    try {
      const params = await paidTaskCall(client, { seed_hash: 'ef'.repeat(32), market: 'ES', hours: 24 });
      const before = { balance: await balanceOf(payer.address), rows: deck.services.store.spend.entries.length };
      const refused = await client.request({ method: 'tools/call', params }, CallToolResultSchema);
      expect(refused.isError).toBe(true);
      expect(JSON.parse((refused.content[0] as { text: string }).text)).toMatchObject({ error: 'not_found', status: 404 });
      expect(refused._meta?.['x402/payment-response']).toBeUndefined();
      expect({ balance: await balanceOf(payer.address), rows: deck.services.store.spend.entries.length }).toEqual(before);
    } finally {
      await client.close();
    }
  }, 120_000);
});
