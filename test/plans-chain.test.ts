import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseUnits, type Contract, type HDNodeWallet } from 'ethers';
import { beforeEach, describe, expect, it } from 'vitest';
import { planClaimMessage } from '../engine/plans/messages.js';
import { FileLedger } from '../store/file-ledger.js';
import { closedPort, RPC_REFUSAL, rpcServer } from './fixtures/rpc.js';
import { CAIP2, onlyChain, plansFile } from './support/chain.js';
import { chainDeck } from './support/chain-deck.js';
import { proveWallet, signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient, namesOf, refusalIn } from './support/mcp.js';
import { everyAct } from './support/answers.js';

// POST /plans against a real local chain: real transfers of a 6-decimal test USDC from funded accounts, each
// test on a snapshot of the chain (reverted after it) and a deck of its own.
let usdc: Contract;
let otherToken: Contract;
let payer: HDNodeWallet;
let stranger: HDNodeWallet;
let treasury: string;

const DAY = 86_400_000;

/** The chain entry a test deck pays on: the local chain's USDC, at the local RPC. */
const localChain = (token: string, rpc: string | null) => ({
  id: CAIP2,
  name: 'Local',
  token: 'USDC',
  token_address: token,
  token_decimals: 6,
  rpc,
  collection: null,
  min_confirmations: 2,
});

const on = chainDeck(async (local) => {
  [, payer, stranger] = local.accounts as [HDNodeWallet, HDNodeWallet, HDNodeWallet];
  treasury = local.accounts[9]!.address;
  usdc = await local.deploy('TestUSDC');
  otherToken = await local.deploy('TestUSDC');
  for (const token of [usdc, otherToken]) {
    for (const who of [payer, stranger]) await (await token.getFunction('mint')(who.address, parseUnits('1000', 6))).wait();
  }
  const tokenAddress = await usdc.getAddress();
  return plansFile((p) => {
    onlyChain(p, localChain(tokenAddress, local.rpc));
    p.treasury = treasury;
    // This operator sells the forecast on the plan tier (the shipped file opens it to every session).
    p.tier_tools = { plan: ['forecast', 'forecast_health'], max: ['follow_quote'] };
  });
});

/** Sends `amount` USDC (or another token) from `from` to the treasury (or `to`); answers the mined transaction's hash. */
async function pay(from: HDNodeWallet, amount: string, o: { to?: string; token?: Contract } = {}): Promise<string> {
  const token = (o.token ?? usdc).connect(from) as Contract;
  const tx = await token.getFunction('transfer')(o.to ?? treasury, parseUnits(amount, 6));
  await tx.wait();
  return tx.hash as string;
}

/** Pays and mines one block more, so the payment has the two confirmations a claim needs. */
const paid = async (from: HDNodeWallet, amount: string, o: Parameters<typeof pay>[2] = {}) => {
  const hash = await pay(from, amount, o);
  await on.chain.mine();
  return hash;
};

/** A principal signed in whose wallet is `wallet`, proven by its signature. */
const provenAs = async (name: string, wallet: HDNodeWallet) => {
  const who = await signedIn(on.deck.url, name);
  await proveWallet(on.deck.url, who.bearer, wallet);
  return who;
};

const claim = (bearer: Record<string, string>, body: Record<string, unknown>) => call(`${on.deck.url}/plans`, { body: { chain: CAIP2, ...body }, headers: bearer });
const blockTimeOf = async (hash: string) => {
  const receipt = (await on.chain.provider.getTransactionReceipt(hash))!;
  return (await on.chain.provider.getBlock(receipt.blockNumber))!.timestamp * 1000;
};

describe('POST /plans with a confirmed payment', () => {
  it('claims plan-29 for 30 days from the block time, and the tier, tools/list and meter follow at once', async () => {
    const alice = await provenAs('alice', payer);
    const mcp = await legacyClient(`${on.deck.url}/mcp`, alice.bearer);
    expect(namesOf((await mcp.listTools()).tools)).not.toContain('forecast');
    expect((await mcp.callTool({ name: 'meter', arguments: {} })).structuredContent).toMatchObject({ allowance: 100 });

    const hash = await paid(payer, '29');
    const r = await mcp.callTool({ name: 'plan_claim', arguments: { chain: CAIP2, tx_hash: hash.toUpperCase().replace('0X', '0x') } });
    expect(r.isError).toBeFalsy();
    const at = await blockTimeOf(hash);
    expect(r.structuredContent).toMatchObject({
      ok: true,
      claim: {
        chain: CAIP2,
        tx_hash: hash.toLowerCase(),
        plan: 'plan-29',
        tier: 'plan',
        amount: '29.0',
        payer: payer.address,
        proof: 'proven_wallet',
        block_time: new Date(at).toISOString(),
        period: { start: new Date(at).toISOString(), end: new Date(at + 30 * DAY).toISOString() },
      },
      mine: { plan: 'plan-29', tier: 'plan', usage: { allowance: 1000 } },
    });

    // The same MCP client, the next calls: the forecast is listed and opens, the meter has the plan's allowance.
    expect(namesOf((await mcp.listTools()).tools)).toContain('forecast');
    const health = await mcp.callTool({ name: 'forecast_health', arguments: {} });
    expect((health.isError ? refusalIn(health) : (health.structuredContent as { error?: string })).error).not.toBe('upgrade_required');
    expect((await mcp.callTool({ name: 'meter', arguments: {} })).structuredContent).toMatchObject({ allowance: 1000, tone: 'ok' });
    await mcp.close();

    const { body } = await call(`${on.deck.url}/plans`, { headers: alice.bearer });
    expect(body.principal).toMatchObject({ name: 'alice', tier: 'plan' });
    expect(body.mine).toMatchObject({ plan: 'plan-29', tier: 'plan', period: { unit: 'paid', start: new Date(at).toISOString(), end: new Date(at + 30 * DAY).toISOString() } });
    expect(body.chains[0]).not.toHaveProperty('rpc');
    expect(await everyAct(on.deck.url, alice.bearer)).toContain('plan-claims');
  });

  it('buys the dearest plan the amount covers: 99 USDC is premium-99, the max tier', async () => {
    const alice = await provenAs('alice', payer);
    const { status, body } = await claim(alice.bearer, { tx_hash: await paid(payer, '150') });
    expect(status).toBe(200);
    expect(body.claim).toMatchObject({ plan: 'premium-99', tier: 'max', amount: '150.0' });
    expect((await call(`${on.deck.url}/meter`, { headers: alice.bearer })).body.allowance).toBe(5000);
  });

  it('stacks a second payment after the period still running', async () => {
    const alice = await provenAs('alice', payer);
    const first = (await claim(alice.bearer, { tx_hash: await paid(payer, '29') })).body.claim;
    const second = (await claim(alice.bearer, { tx_hash: await paid(payer, '29') })).body;
    expect(second.claim.period).toEqual({ start: first.period.end, end: new Date(Date.parse(first.period.end) + 30 * DAY).toISOString() });
    expect(second.mine.period).toEqual({ unit: 'paid', start: first.period.start, end: second.claim.period.end });
  });

  it('answers the same principal asking again with the same record, and refuses anyone else', async () => {
    const alice = await provenAs('alice', payer);
    const bob = await signedIn(on.deck.url, 'bob');
    const hash = await paid(payer, '29');
    const once = await claim(alice.bearer, { tx_hash: hash });
    const again = await claim(alice.bearer, { tx_hash: hash.toUpperCase().replace('0X', '0x') });
    expect(again.status).toBe(200);
    expect(again.body.claim).toEqual(once.body.claim);
    // Even with the payer's own signature for bob, the transaction is spent.
    const signature = await payer.signMessage(planClaimMessage((await call(`${on.deck.url}/me`, { headers: bob.bearer })).body.principal.agent_id, CAIP2, hash));
    const replay = await claim(bob.bearer, { tx_hash: hash, payer_signature_hex: signature });
    expect(replay.status).toBe(422);
    expect(replay.body).toMatchObject({ ok: false, error: 'already_claimed' });
    expect((await call(`${on.deck.url}/plans`, { headers: bob.bearer })).body.mine.plan).toBe('free');
  });

  it('binds a payment from another wallet with the payer\'s signature of the claim message', async () => {
    const bob = await signedIn(on.deck.url, 'bob');
    const agentId = (await call(`${on.deck.url}/me`, { headers: bob.bearer })).body.principal.agent_id as string;
    const hash = await paid(stranger, '29');

    const unsigned = await claim(bob.bearer, { tx_hash: hash });
    expect(unsigned.status).toBe(422);
    expect(unsigned.body).toMatchObject({ error: 'payer_unproven', payer: stranger.address, sign: planClaimMessage(agentId, CAIP2, hash) });

    const byAnother = await claim(bob.bearer, { tx_hash: hash, payer_signature_hex: await payer.signMessage(planClaimMessage(agentId, CAIP2, hash)) });
    expect(byAnother.status).toBe(422);
    expect(byAnother.body).toMatchObject({ error: 'payer_unproven' });
    expect(byAnother.body.message).toContain(payer.address);

    const forAnotherAgent = await claim(bob.bearer, { tx_hash: hash, payer_signature_hex: await stranger.signMessage(planClaimMessage('agent_0000000000000000', CAIP2, hash)) });
    expect(forAnotherAgent.body).toMatchObject({ error: 'payer_unproven' });

    const signed = await claim(bob.bearer, { tx_hash: hash, payer_signature_hex: await stranger.signMessage(planClaimMessage(agentId, CAIP2, hash)) });
    expect(signed.status).toBe(200);
    expect(signed.body.claim).toMatchObject({ plan: 'plan-29', payer: stranger.address, proof: 'payer_signature' });
  });

  it('keeps every claim in a hash-chained ledger that a restarted deck reads back', async () => {
    const alice = await provenAs('alice', payer);
    await claim(alice.bearer, { tx_hash: await paid(payer, '29') });
    await claim(alice.bearer, { tx_hash: await paid(payer, '99') });
    const ledger = await FileLedger.open(on.deck.dataDir, 'plan-claims');
    expect(ledger.all.map((e) => (e.entry as { plan: string }).plan)).toEqual(['plan-29', 'premium-99']);
    expect(ledger.verify()).toBeNull();

    const again = await testDeck({ DECK_PLANS: on.plans, DECK_DATA: on.deck.dataDir });
    try {
      expect((await call(`${again.url}/plans`, { headers: alice.bearer })).body.mine).toMatchObject({ plan: 'premium-99', tier: 'max' });
    } finally {
      await again.stop();
    }
  });
});

describe('a wallet named at join proves nothing', () => {
  it('refuses a claim of another\'s payment by one who joined naming the payer\'s address, and the payer claims it', async () => {
    // The victim pays for the max tier; the attacker joins naming the victim's address and claims the transfer.
    const hash = await paid(payer, '99');
    const thief = await signedIn(on.deck.url, 'thief', payer.address);
    const theft = await claim(thief.bearer, { tx_hash: hash });
    expect(theft.status).toBe(422);
    expect(theft.body).toMatchObject({ ok: false, error: 'payer_unproven', payer: payer.address });
    const me = (await call(`${on.deck.url}/me`, { headers: thief.bearer })).body;
    expect(me.principal).toMatchObject({ wallet: payer.address, wallet_status: 'unproven', tier: 'free' });
    // Nor can the thief prove the address: only the wallet's own signature does.
    const challenge = (await call(`${on.deck.url}/me/wallet`, { headers: thief.bearer })).body.challenge;
    const forged = await call(`${on.deck.url}/me/wallet`, {
      body: { wallet_hex: payer.address, nonce: challenge.nonce, signature_hex: await stranger.signMessage(challenge.message) },
      headers: thief.bearer,
    });
    expect(forged.status).toBe(422);
    expect(forged.body).toMatchObject({ error: 'wallet_unproven' });
    expect((await claim(thief.bearer, { tx_hash: hash })).body).toMatchObject({ error: 'payer_unproven' });

    // The payer, proving its wallet, claims its own payment.
    const victim = await signedIn(on.deck.url, 'victim');
    await proveWallet(on.deck.url, victim.bearer, payer);
    const own = await claim(victim.bearer, { tx_hash: hash });
    expect(own.status).toBe(200);
    expect(own.body.claim).toMatchObject({ plan: 'premium-99', tier: 'max', payer: payer.address, proof: 'proven_wallet' });
    expect((await call(`${on.deck.url}/plans`, { headers: thief.bearer })).body.mine.plan).toBe('free');
  });
});

describe('POST /plans refusals (422, nothing recorded)', () => {
  let alice: Awaited<ReturnType<typeof signedIn>>;
  beforeEach(async () => {
    alice = await provenAs('alice', payer);
  });
  const refused = async (body: Record<string, unknown>, error: string) => {
    const r = await claim(alice.bearer, body);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, error });
    expect((await call(`${on.deck.url}/plans`, { headers: alice.bearer })).body.mine.plan).toBe('free');
    return r.body;
  };

  it('tx_not_found: no such transaction (unpaid)', async () => {
    await refused({ tx_hash: `0x${'ab'.repeat(32)}` }, 'tx_not_found');
  });

  it('underpaid: under the cheapest plan, with paid and the cheapest price', async () => {
    expect(await refused({ tx_hash: await paid(payer, '28.99') }, 'underpaid')).toMatchObject({ paid: '28.99', cheapest: 29 });
  });

  it('no_transfer: another token, or another recipient', async () => {
    await refused({ tx_hash: await paid(payer, '99', { token: otherToken }) }, 'no_transfer');
    await refused({ tx_hash: await paid(payer, '99', { to: stranger.address }) }, 'no_transfer');
  });

  it('tx_failed: a reverted transfer', async () => {
    // More than the payer holds: mined, reverted (the gas limit is given, so nothing estimates it first).
    const tx = await (usdc.connect(payer) as Contract).getFunction('transfer')(treasury, parseUnits('5000', 6), { gasLimit: 100_000 });
    await expect(tx.wait()).rejects.toThrow();
    await on.chain.mine();
    await refused({ tx_hash: tx.hash }, 'tx_failed');
  });

  it('not_confirmed: none while the transaction waits to be mined, then one of the two a claim needs', async () => {
    // Blocks are mined by hand here, so the transaction waits in the pool until the first one.
    await on.chain.provider.send('evm_setAutomine', [false]);
    try {
      const pending = await (usdc.connect(payer) as Contract).getFunction('transfer')(treasury, parseUnits('29', 6), { gasLimit: 100_000 });
      const hash = pending.hash as string;
      expect(await refused({ tx_hash: hash }, 'not_confirmed')).toMatchObject({ seen: 0, needed: 2 });
      await on.chain.mine();
      expect(await refused({ tx_hash: hash }, 'not_confirmed')).toMatchObject({ seen: 1, needed: 2 });
      await on.chain.mine();
      expect((await claim(alice.bearer, { tx_hash: hash })).body.claim).toMatchObject({ plan: 'plan-29', tx_hash: hash.toLowerCase() });
    } finally {
      await on.chain.provider.send('evm_setAutomine', [true]);
    }
  });

  it('bad_input: an unlisted chain or a malformed hash or signature, each named', async () => {
    const r = await claim(alice.bearer, { chain: 'eip155:1', tx_hash: `0x${'ab'.repeat(32)}` });
    expect(r.status).toBe(422);
    expect(r.body.problems).toEqual([{ field: 'chain', message: `not a listed chain; one of ${CAIP2}` }]);
    const shapes = await claim(alice.bearer, { tx_hash: '0x1234', payer_signature_hex: '0xdead' });
    expect(shapes.body.problems.map((p: { field: string }) => p.field).sort()).toEqual(['payer_signature_hex', 'tx_hash']);
  });

  it('needs a session', async () => {
    expect((await call(`${on.deck.url}/plans`, { body: { chain: CAIP2, tx_hash: `0x${'ab'.repeat(32)}` } })).status).toBe(401);
  });
});

describe('POST /plans when the chain cannot be read', () => {
  const TX = `0x${'cd'.repeat(32)}`;
  /** A deck whose chain reads at `rpc` (null: no RPC configured). */
  const deckAt = async (rpc: string | null, env: Record<string, string> = {}) => {
    const file = await plansFile((p) => {
      onlyChain(p, localChain('0x0000000000000000000000000000000000000001', rpc));
      p.treasury = treasury;
    });
    const d = await testDeck({ DECK_PLANS: file, ...env });
    return { d, who: await signedIn(d.url, 'carol'), done: () => Promise.all([d.stop(), rm(dirname(file), { recursive: true, force: true })]) };
  };
  const nothingRecorded = async (d: TestDeck, bearer: Record<string, string>) => {
    expect((await call(`${d.url}/plans`, { headers: bearer })).body.mine.plan).toBe('free');
    await expect(readFile(join(d.dataDir, 'plan-claims.jsonl'), 'utf8').catch(() => '')).resolves.toBe('');
  };

  it('is 503 naming what to set when the chain has no RPC', async () => {
    const { d, who, done } = await deckAt(null);
    const r = await call(`${d.url}/plans`, { body: { chain: CAIP2, tx_hash: TX }, headers: who.bearer });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'upstream_not_configured' });
    expect(r.body.message).toContain('DECK_CHAIN_RPC');
    await done();
  });

  it('reads DECK_CHAIN_RPC for a deployment with one chain', async () => {
    const { d, who, done } = await deckAt(null, { DECK_CHAIN_RPC: on.chain.rpc });
    const r = await call(`${d.url}/plans`, { body: { chain: CAIP2, tx_hash: TX }, headers: who.bearer });
    expect(r.body).toMatchObject({ error: 'tx_not_found' });
    await done();
  });

  it('refuses to start with DECK_CHAIN_RPC when the plans file lists several chains', async () => {
    const file = await plansFile((p) => {
      p.chains = [localChain('0x0000000000000000000000000000000000000001', null), { ...localChain('0x0000000000000000000000000000000000000002', null), id: 'eip155:8453' }];
      p.spot = null;
    });
    await expect(testDeck({ DECK_PLANS: file, DECK_CHAIN_RPC: on.chain.rpc })).rejects.toThrow('set chains[].rpc instead');
    await rm(dirname(file), { recursive: true, force: true });
  });

  it('is 503 with nothing recorded when the RPC refuses connections', async () => {
    const { d, who, done } = await deckAt(await closedPort());
    const r = await call(`${d.url}/plans`, { body: { chain: CAIP2, tx_hash: TX }, headers: who.bearer });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'upstream_unreachable', upstream: `the chain ${CAIP2}` });
    await nothingRecorded(d, who.bearer);
    await done();
  });

  it.each([
    ['does not answer in 5 s', 'silent'],
    ['feeds its answer a byte a second: 5 s is for the whole exchange', 'drip'],
  ] as const)('is 503 with nothing recorded when the RPC %s', async (_, mode) => {
    const rpc = await rpcServer(mode);
    const { d, who, done } = await deckAt(rpc.url);
    const started = Date.now();
    const r = await call(`${d.url}/plans`, { body: { chain: CAIP2, tx_hash: TX }, headers: who.bearer });
    expect(r.status).toBe(503);
    expect(r.body.message).toContain('no answer in 5 s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
    expect(Date.now() - started).toBeLessThan(8000);
    await nothingRecorded(d, who.bearer);
    await done();
    await rpc.close();
  });

  it('is 502 carrying the RPC\'s answer when it answers with an error', async () => {
    const refusing = await rpcServer('refuse');
    const { d, who, done } = await deckAt(refusing.url);
    const r = await call(`${d.url}/plans`, { body: { chain: CAIP2, tx_hash: TX }, headers: who.bearer });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ error: 'upstream_refused', upstream: `the chain ${CAIP2}`, layer: RPC_REFUSAL });
    await nothingRecorded(d, who.bearer);
    await done();
    await refusing.close();
  });

  it('is 503 when no treasury is configured to pay', async () => {
    const file = await plansFile((p) => {
      onlyChain(p, localChain('0x0000000000000000000000000000000000000001', on.chain.rpc));
      p.treasury = null;
    });
    const d = await testDeck({ DECK_PLANS: file });
    const who = await signedIn(d.url, 'dave');
    const r = await call(`${d.url}/plans`, { body: { chain: CAIP2, tx_hash: TX }, headers: who.bearer });
    expect(r.status).toBe(503);
    expect(r.body.message).toContain('DECK_TREASURY');
    await d.stop();
    await rm(dirname(file), { recursive: true, force: true });
  });
});
