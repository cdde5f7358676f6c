import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TypedDataEncoder, type Contract, type HDNodeWallet } from 'ethers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLedger } from '../store/file-ledger.js';
import { closedPort } from './fixtures/rpc.js';
import { CAIP2, CHAIN_ID, onlyChain, plansFile } from './support/chain.js';
import { chainDeck } from './support/chain-deck.js';
import { signedIn, testDeck } from './support/deck.js';
import { legacyClient, refusalIn } from './support/mcp.js';
import { answered, callAnswered, everyAct } from './support/answers.js';

// POST /me/mandates against a real local chain: EIP-712 mandates signed by real wallets, and a vault contract whose
// mandateHash() the deck reads. The house's spot chain is the local chain; its one spot administrator is `admin`.
let admin: HDNodeWallet;
let outsider: HDNodeWallet;
let vault: Contract;
let bearer: Record<string, string>;

const MANDATE_TYPES = {
  Mandate: [
    { name: 'vault', type: 'address' },
    { name: 'markets', type: 'string[]' },
    { name: 'max_notional', type: 'uint256' },
    { name: 'valid_until', type: 'uint256' },
  ],
};
const DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
];

/** A mandate as a wallet's eth_signTypedData_v4 takes it, and the signature it returned. */
async function mandate(signer: HDNodeWallet, o: { chainId?: number; vault?: string; extra?: Record<string, unknown> } = {}) {
  const domain = { name: 'the deck', version: '1', chainId: o.chainId ?? CHAIN_ID };
  const message = { vault: o.vault ?? (await vault.getAddress()), markets: ['BTC', 'ETH'], max_notional: '250000', valid_until: '1893456000' };
  const signature = await signer.signTypedData(domain, MANDATE_TYPES, message);
  const typed_data = { domain, types: { EIP712Domain: DOMAIN_TYPE, ...MANDATE_TYPES }, primaryType: 'Mandate', message: { ...message, ...o.extra }, signature };
  return { typed_data, hash: TypedDataEncoder.hash(domain, MANDATE_TYPES, message) };
}

/** The local chain, the house's spot chain here, read at `rpc`. */
const spotChain = (rpc: string | null) => ({ id: CAIP2, name: 'Local', token: 'USDC', token_address: '0x0000000000000000000000000000000000000001', rpc });

const on = chainDeck(async (local) => {
  admin = local.accounts[6]!;
  outsider = local.accounts[7]!;
  vault = await local.deploy('Vault', admin);
  return plansFile((p) => {
    onlyChain(p, spotChain(local.rpc));
    p.spot = { chain: CAIP2, administrators: [admin.address] };
  });
});
beforeEach(async () => {
  bearer = (await signedIn(on.deck.url, 'relay')).bearer;
});

const post = (body: unknown) => callAnswered(`${on.deck.url}/me/mandates`, { body, headers: bearer });

const recorded = async () => (await FileLedger.open(on.deck.dataDir, 'mandates')).all;

describe('POST /me/mandates', () => {
  it('records a spot administrator\'s mandate with its EIP-712 hash, matching the vault that holds it on chain', async () => {
    const { typed_data, hash } = await mandate(admin);
    await (await vault.getFunction('setMandateHash')(hash)).wait();
    const { status, body } = await post({ typed_data });
    expect(status).toBe(200);
    expect(body.mandate).toMatchObject({
      signer: admin.address,
      chain_id: CHAIN_ID,
      eip712_hash: hash,
      primary_type: 'Mandate',
      vault: await vault.getAddress(),
      vault_matches: true,
      vault_hash: hash,
      typed_data,
    });
    const [kept] = await recorded();
    expect(kept!.entry).toMatchObject({ eip712_hash: hash, vault_matches: true });
    expect(await everyAct(on.deck.url, bearer)).toContain('mandates');
  });

  it('records vault_matches false when the vault holds another hash, or is no vault at all', async () => {
    const { typed_data } = await mandate(admin);
    expect((await post({ typed_data })).body.mandate).toMatchObject({ vault_matches: false, vault_hash: `0x${'00'.repeat(32)}` });
    const atWallet = await mandate(admin, { vault: outsider.address });
    expect((await post({ typed_data: atWallet.typed_data })).body.mandate).toMatchObject({ vault_matches: false, vault_hash: null });
  });

  it('is served over MCP as mandate_add', async () => {
    const { typed_data, hash } = await mandate(admin);
    const client = await legacyClient(`${on.deck.url}/mcp`, bearer);
    const r = await client.callTool({ name: 'mandate_add', arguments: { typed_data } });
    answered('mandate_add', r.structuredContent);
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ ok: true, mandate: { eip712_hash: hash, signer: admin.address } });
    await client.close();
  });
});

describe('POST /me/mandates refusals (nothing recorded)', () => {
  afterEach(async () => {
    expect(await recorded()).toEqual([]);
  });

  it('not_a_house_mandate: signed by someone who is not a spot administrator', async () => {
    const r = await post({ typed_data: (await mandate(outsider)).typed_data });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, error: 'not_a_house_mandate', signer: outsider.address });
  });

  it('not_a_house_mandate: signed by the administrator for another chain', async () => {
    const r = await post({ typed_data: (await mandate(admin, { chainId: 8453 })).typed_data });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: 'not_a_house_mandate' });
    expect(r.body.message).toContain(`spot chain ${CHAIN_ID}`);
  });

  it('refuses a message key the types do not declare, naming it', async () => {
    const r = await post({ typed_data: (await mandate(admin, { extra: { leverage: 50 } })).typed_data });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: 'bad_input', problems: [{ field: 'typed_data.message.leverage' }] });
  });

  it('refuses a message changed after it was signed: the signer it recovers is no administrator', async () => {
    const { typed_data } = await mandate(admin);
    const r = await post({ typed_data: { ...typed_data, message: { ...typed_data.message, max_notional: '99999999' } } });
    expect(r.body).toMatchObject({ error: 'not_a_house_mandate' });
  });

  it('refuses a mandate naming no vault, and a signature that is not one', async () => {
    const { typed_data } = await mandate(admin);
    const noVault = { ...typed_data, types: { ...typed_data.types, Mandate: MANDATE_TYPES.Mandate.slice(1) }, message: { ...typed_data.message, vault: undefined } };
    expect((await post({ typed_data: noVault })).body).toMatchObject({ error: 'bad_input', problems: [{ field: 'typed_data.message.vault' }] });
    const broken = await post({ typed_data: { ...typed_data, signature: `0x${'11'.repeat(65)}` } });
    expect(broken.body).toMatchObject({ error: 'bad_input', problems: [{ field: 'typed_data' }] });
  });

  it('is 413 over 16 KiB, over REST and over MCP', async () => {
    const { typed_data } = await mandate(admin);
    const big = { ...typed_data, message: { ...typed_data.message, markets: Array.from({ length: 4000 }, () => 'BTC') } };
    const r = await post({ typed_data: big });
    expect(r.status).toBe(413);
    const client = await legacyClient(`${on.deck.url}/mcp`, bearer);
    const m = await client.callTool({ name: 'mandate_add', arguments: { typed_data: big } });
    expect(m.isError).toBe(true);
    expect(refusalIn(m)).toMatchObject({ error: 'too_large', status: 413 });
    await client.close();
  });

  it('is 400 for a body that is not JSON, 401 without a session', async () => {
    expect((await callAnswered(`${on.deck.url}/me/mandates`, { raw: '{"typed_data":', headers: bearer })).status).toBe(400);
    expect((await callAnswered(`${on.deck.url}/me/mandates`, { body: { typed_data: {} } })).status).toBe(401);
  });
});

describe('POST /me/mandates when the spot chain cannot be read', () => {
  it('is 503 with nothing recorded', async () => {
    const file = await plansFile((p) => {
      onlyChain(p, spotChain(null));
      p.spot = { chain: CAIP2, administrators: [admin.address] };
    });
    const down = await testDeck({ DECK_PLANS: file, DECK_CHAIN_RPC: await closedPort() });
    const who = await signedIn(down.url, 'relay');
    const r = await callAnswered(`${down.url}/me/mandates`, { body: { typed_data: (await mandate(admin)).typed_data }, headers: who.bearer });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'upstream_unreachable' });
    await expect(readFile(join(down.dataDir, 'mandates.jsonl'), 'utf8').catch(() => '')).resolves.toBe('');
    await down.stop();
    await rm(dirname(file), { recursive: true, force: true });
  });
});
