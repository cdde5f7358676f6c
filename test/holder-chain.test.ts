import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Contract, HDNodeWallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { holderMessage } from '../engine/plans/messages.js';
import { closedPort } from './fixtures/rpc.js';
import { CAIP2, onlyChain, plansFile } from './support/chain.js';
import { chainDeck } from './support/chain-deck.js';
import { signedIn, testDeck } from './support/deck.js';
import { call } from './support/http.js';
import { everyAct } from './support/answers.js';

// Holder standing against a real local chain: an ERC-721 pass minted to real wallets, counted with balanceOf,
// and HOLDER_MESSAGE signed by them. The plans file's holder rule: 200 units a day per NFT, up to 5 NFTs.
let pass: Contract;
let holder: HDNodeWallet;
let whale: HDNodeWallet;
let nobody: HDNodeWallet;

const today = () => new Date().toISOString().slice(0, 10);
const entry = (collection: string | null, rpc: string) => ({
  id: CAIP2,
  name: 'Local',
  token: 'USDC',
  token_address: '0x0000000000000000000000000000000000000001',
  rpc,
  collection,
});

const on = chainDeck(async (local) => {
  [, , , holder, whale, nobody] = local.accounts as [HDNodeWallet, HDNodeWallet, HDNodeWallet, HDNodeWallet, HDNodeWallet, HDNodeWallet];
  pass = await local.deploy('Pass');
  for (const [to, n] of [[holder, 2], [whale, 7]] as const) for (let i = 0; i < n; i++) await (await pass.getFunction('mint')(to.address)).wait();
  const collection = await pass.getAddress();
  return plansFile((p) => {
    onlyChain(p, entry(collection, local.rpc));
    p.holder = { allowance_per_nft: 200, max_nfts: 5 };
  });
});

/** A principal signed in, with its agent_id. */
async function principal(name: string) {
  const who = await signedIn(on.deck.url, name);
  const agentId = (await call(`${on.deck.url}/me`, { headers: who.bearer })).body.principal.agent_id as string;
  return { ...who, agentId };
}

/** POST /plans/holder for `wallet`, signed by `signer` (the wallet itself unless told) over `day` (today unless told). */
async function link(who: { bearer: Record<string, string>; agentId: string }, wallet: HDNodeWallet, o: { signer?: HDNodeWallet; day?: string } = {}) {
  const day = o.day ?? today();
  const signature_hex = await (o.signer ?? wallet).signMessage(holderMessage(who.agentId, day));
  return call(`${on.deck.url}/plans/holder`, { body: { wallet_hex: wallet.address, day, signature_hex }, headers: who.bearer });
}

describe('GET and POST /plans/holder', () => {
  it('reads no standing before a link, with the exact message to sign today', async () => {
    const alice = await principal('alice');
    const { status, body } = await call(`${on.deck.url}/plans/holder`, { headers: alice.bearer });
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      holder: { day: today(), wallet: null, nfts: 0, allowance: 0, used: 0, remaining: 0 },
      message: `the deck: holder standing\nagent_id: ${alice.agentId}\nday: ${today()}`,
    });
    expect((await call(`${on.deck.url}/plans/holder`)).status).toBe(401);
  });

  it('gives a wallet named at join no standing: only the holder\'s signature of the day\'s message links it', async () => {
    const named = await signedIn(on.deck.url, 'named-holder', holder.address);
    const standing = (await call(`${on.deck.url}/plans/holder`, { headers: named.bearer })).body.holder;
    expect(standing).toMatchObject({ wallet: null, nfts: 0, allowance: 0 });
    expect((await call(`${on.deck.url}/meter`, { headers: named.bearer })).body).toMatchObject({ holder: 0, allowance: 100 });
  });

  it('links a holder for today: its NFTs add allowance_per_nft each to the meter, spent first', async () => {
    const alice = await principal('alice');
    const { status, body } = await link(alice, holder);
    expect(status).toBe(200);
    const head = await on.chain.provider.getBlockNumber();
    expect(body.link).toMatchObject({ day: today(), wallet: holder.address, chain: CAIP2, collection: await pass.getAddress(), nfts: 2, block: head });
    expect(body.holder).toEqual({ day: today(), wallet: holder.address, nfts: 2, allowance: 400, used: 0, remaining: 400 });
    expect(await everyAct(on.deck.url, alice.bearer)).toContain('holder-links');
    expect((await call(`${on.deck.url}/meter`, { headers: alice.bearer })).body).toMatchObject({ allowance: 500, holder: 400, balance: 500 });

    await call(`${on.deck.url}/meter`, { body: { action: 'forge' }, headers: alice.bearer });
    expect((await call(`${on.deck.url}/plans/holder`, { headers: alice.bearer })).body.holder).toMatchObject({ allowance: 400, used: 10, remaining: 390 });
    expect((await call(`${on.deck.url}/plans`, { headers: alice.bearer })).body.mine.usage).toMatchObject({ allowance: 500, spent: 10, balance: 490 });
  });

  it('counts at most max_nfts of them', async () => {
    const alice = await principal('alice');
    expect((await link(alice, whale)).body.holder).toMatchObject({ nfts: 7, allowance: 1000 });
  });

  it('counts the NFTs held at the latest block each time the wallet links', async () => {
    const alice = await principal('alice');
    expect((await link(alice, holder)).body.holder.nfts).toBe(2);
    await (await pass.getFunction('mint')(holder.address)).wait();
    expect((await link(alice, holder)).body.holder).toMatchObject({ nfts: 3, allowance: 600 });
  });

  it('links a wallet to one principal a day: wallet_linked_elsewhere', async () => {
    const alice = await principal('alice');
    const bob = await principal('bob');
    expect((await link(alice, holder)).status).toBe(200);
    const r = await link(bob, holder);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, error: 'wallet_linked_elsewhere' });
    expect((await call(`${on.deck.url}/plans/holder`, { headers: bob.bearer })).body.holder.allowance).toBe(0);
  });

  it('refuses a stale day, naming day', async () => {
    const alice = await principal('alice');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const r = await link(alice, holder, { day: yesterday });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: 'bad_input', problems: [{ field: 'day' }] });
  });

  it('refuses a signature by another wallet, or for another principal: wallet_unproven', async () => {
    const alice = await principal('alice');
    const wrong = await link(alice, holder, { signer: whale });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error: 'wallet_unproven', sign: holderMessage(alice.agentId, today()) });
    const forBob = await link({ ...alice, agentId: (await principal('bob')).agentId }, holder);
    expect(forBob.body).toMatchObject({ error: 'wallet_unproven' });
  });

  it('refuses a wallet that holds none: not_a_holder', async () => {
    const alice = await principal('alice');
    const r = await link(alice, nobody);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: 'not_a_holder' });
    expect((await call(`${on.deck.url}/meter`, { headers: alice.bearer })).body.allowance).toBe(100);
  });
});

describe('POST /plans/holder without a collection to read', () => {
  const deckWith = async (collection: string | null, rpc: string) => {
    const file = await plansFile((p) => onlyChain(p, entry(collection, rpc)));
    const d = await testDeck({ DECK_PLANS: file });
    const who = await signedIn(d.url, 'carol');
    const agentId = (await call(`${d.url}/me`, { headers: who.bearer })).body.principal.agent_id as string;
    const body = { wallet_hex: holder.address, day: today(), signature_hex: await holder.signMessage(holderMessage(agentId, today())) };
    const r = await call(`${d.url}/plans/holder`, { body, headers: who.bearer });
    await d.stop();
    await rm(dirname(file), { recursive: true, force: true });
    return r;
  };

  it('is 503 naming chains[].collection when no chain names one', async () => {
    const r = await deckWith(null, on.chain.rpc);
    expect(r.status).toBe(503);
    expect(r.body.message).toContain('chains[].collection');
  });

  it('is 503 when the chain cannot be reached', async () => {
    const r = await deckWith(await pass.getAddress(), await closedPort());
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'upstream_unreachable' });
  });
});
