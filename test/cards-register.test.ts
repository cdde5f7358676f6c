import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress, ZeroAddress, type Contract, type Log, type LogDescription } from 'ethers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAIP2, CHAIN_ID, startChain, type LocalChain } from './support/chain.js';
import { testDeck } from './support/deck.js';
import { call } from './support/http.js';
import { runCli } from './support/cli.js';
import { agentWalletTypedData } from '../engine/erc8004/agent-wallet.js';

// `npm run cards -- register` against ERC-8004's identity registry on a real local chain: the card's URL is
// registered as the agentURI, the Registered event's agent id lands in the cards file, and the cards show it.
const ROOT = join(import.meta.dirname, '..');
const PUBLIC = 'https://deck.example';
let chain: LocalChain;
let registry: Contract;
let registryAddress: string;
let dir: string;
let cardsPath: string;
let keyFile: string;

/** The command as `npm run cards --` runs it, in its own process, with `env` on top of this one's. */
const cards = (args: string[], env: Record<string, string | undefined> = {}) => runCli('cards', args, dir, { DECK_CARDS: cardsPath, DECK_PUBLIC_URL: PUBLIC, ...env });
const register = (seller: string, extra: string[] = [], env: Record<string, string | undefined> = {}) =>
  cards(['register', '--seller', seller, '--rpc', chain.rpc, '--registry', registryAddress, ...extra], env);

beforeAll(async () => {
  chain = await startChain();
  registry = await chain.deploy('IdentityRegistry');
  registryAddress = await registry.getAddress();
  dir = await mkdtemp(join(tmpdir(), 'deck-cards-'));
  cardsPath = join(dir, 'cards.json');
  await copyFile(join(ROOT, 'config', 'cards.json'), cardsPath);
  keyFile = join(dir, 'owner.key');
  await writeFile(keyFile, `${chain.accounts[8]!.privateKey}\n`, { mode: 0o600 });
});
afterAll(async () => {
  await chain.stop();
  await rm(dir, { recursive: true, force: true });
});
let snapshot: string;
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(async () => {
  await chain.revert(snapshot);
});

describe('npm run cards -- register', () => {
  it('registers each card URL, writes agent_id, tx and block to the cards file, and the cards carry them', async () => {
    const owner = chain.accounts[8]!;
    const studio = await register('studio', ['--key-file', keyFile]);
    expect(studio.code).toBe(0);
    const candles = await register('candles', [], { DECK_OWNER_KEY: owner.privateKey });
    expect(candles.code).toBe(0);
    for (const out of [studio, candles]) expect(out.stdout + out.stderr).not.toContain(owner.privateKey.slice(2));

    const file = JSON.parse(await readFile(cardsPath, 'utf8'));
    expect(file.erc8004).toEqual({ chain_id: CHAIN_ID, registry: registryAddress });
    expect(file.owner).toBe(owner.address);
    expect(file.sellers.copy).toEqual({ agent_id: null, tx: null, block: null });
    for (const [seller, agentId] of [['studio', 0], ['candles', 1]] as const) {
      const entry = file.sellers[seller];
      expect(entry.agent_id).toBe(agentId);
      const receipt = (await chain.provider.getTransactionReceipt(entry.tx))!;
      expect(receipt.blockNumber).toBe(entry.block);
      // On chain: the token is the owner's, and its URI is the card.
      expect(await registry.getFunction('ownerOf')(agentId)).toBe(owner.address);
      expect(await registry.getFunction('tokenURI')(agentId)).toBe(`${PUBLIC}/cards/${seller}`);
    }

    // With a wallet configured, the cards carry the agentWallet service too.
    const wallet = chain.accounts[9]!.address;
    await writeFile(cardsPath, JSON.stringify({ ...file, agent_wallet: wallet }));
    const deck = await testDeck({ DECK_CARDS: cardsPath });
    try {
      const studioCard = (await call(`${deck.url}/cards/studio`)).body;
      expect(studioCard.registrations).toEqual([{ agentId: 0, agentRegistry: `${CAIP2}:${registryAddress}` }]);
      expect(studioCard.erc8004).toEqual({ agentId: 0, tx: file.sellers.studio.tx, block: file.sellers.studio.block });
      expect(studioCard.services).toContainEqual({ name: 'agentWallet', endpoint: `${CAIP2}:${wallet}`, version: 'v1', from: 'cards.agent_wallet' });
      expect(studioCard.owner).toBe(owner.address);
      const candlesCard = (await call(`${deck.url}/cards/candles`)).body;
      expect(candlesCard.registrations).toEqual([{ agentId: 1, agentRegistry: `${CAIP2}:${registryAddress}` }]);
      const copyCard = (await call(`${deck.url}/cards/copy`)).body;
      expect(copyCard.registrations).toEqual([]);
      expect(copyCard.erc8004).toEqual({ agentId: null, tx: null, block: null });
    } finally {
      await deck.stop();
    }

    // A seller registered already is not registered twice.
    const again = await register('studio', ['--key-file', keyFile]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('studio is registered already, as agent 0');
  });

  it('never takes the key as an argument, and says where it is read from', async () => {
    const asArgument = await register('copy', ['--key', chain.accounts[8]!.privateKey]);
    expect(asArgument.code).toBe(2);
    expect(asArgument.stderr).toContain('never from an argument');
    const none = await register('copy', [], { DECK_OWNER_KEY: '' });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--key-file, or in DECK_OWNER_KEY');
  });

  it('refuses an unknown seller, and a deck without a public URL for the card', async () => {
    expect((await register('nobody', ['--key-file', keyFile])).code).toBe(2);
    const noUrl = await register('copy', ['--key-file', keyFile], { DECK_PUBLIC_URL: undefined });
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain('set DECK_PUBLIC_URL');
  });
});

// ERC-8004's agentWallet: set on the identity registry only with the wallet's EIP-712 signature over AgentWalletSet,
// under a deadline; the test registry does what the standard's does, and the CLI signs and sends it.
describe("the identity registry's agentWallet", () => {
  const owner = () => chain.accounts[8]!;
  const wallet = () => chain.accounts[9]!;
  const chainNow = async () => BigInt((await chain.provider.getBlock('latest'))!.timestamp);
  const registered = async () => {
    await (await (registry.connect(owner()) as Contract).getFunction('register')(`${PUBLIC}/cards/studio`)).wait();
  };
  const signed = async (agentId: bigint, deadline: bigint, by = wallet()) => {
    const typed = agentWalletTypedData(CHAIN_ID, registryAddress, { agentId, newWallet: wallet().address, owner: owner().address, deadline });
    return by.signTypedData(typed.domain, typed.types, typed.message);
  };
  const set = (agentId: bigint, deadline: bigint, signature: string, from = owner()) =>
    (registry.connect(from) as Contract).getFunction('setAgentWallet')(agentId, wallet().address, deadline, signature);

  it('starts as the owner, changes with the wallet\'s signature, refuses an expired, far or foreign one and a stranger, and clears on transfer', async () => {
    await registered();
    const agentId = 0n;
    expect(await registry.getFunction('getAgentWallet')(agentId)).toBe(owner().address);
    const now = await chainNow();
    await expect(set(agentId, now - 1n, await signed(agentId, now - 1n))).rejects.toThrow(/expired/);
    await expect(set(agentId, now + 600n, await signed(agentId, now + 600n))).rejects.toThrow(/deadline too far/);
    await expect(set(agentId, now + 60n, await signed(agentId, now + 60n, chain.accounts[7]!))).rejects.toThrow(/invalid wallet sig/);
    await expect(set(agentId, now + 60n, await signed(agentId, now + 60n), chain.accounts[7]!)).rejects.toThrow(/Not authorized/);
    expect(await registry.getFunction('getAgentWallet')(agentId)).toBe(owner().address);

    const receipt = await (await set(agentId, now + 60n, await signed(agentId, now + 60n))).wait();
    expect(await registry.getFunction('getAgentWallet')(agentId)).toBe(wallet().address);
    const event = receipt.logs.map((l: Log) => registry.interface.parseLog(l)).find((e: LogDescription | null) => e?.name === 'MetadataSet');
    expect(event.args.metadataKey).toBe('agentWallet');
    expect(getAddress(event.args.metadataValue)).toBe(wallet().address);

    await (await (registry.connect(owner()) as Contract).getFunction('transferFrom')(owner().address, chain.accounts[7]!.address, agentId)).wait();
    expect(await registry.getFunction('getAgentWallet')(agentId)).toBe(ZeroAddress);
  });
});

describe('npm run cards -- wallet', () => {
  let walletKeyFile: string;
  beforeAll(async () => {
    walletKeyFile = join(dir, 'wallet.key');
    await writeFile(walletKeyFile, `${chain.accounts[9]!.privateKey}\n`, { mode: 0o600 });
  });
  beforeEach(async () => {
    await copyFile(join(ROOT, 'config', 'cards.json'), cardsPath);
    expect((await register('studio', ['--key-file', keyFile])).code).toBe(0);
  });
  const walletCmd = (extra: string[], env: Record<string, string | undefined> = {}) =>
    cards(['wallet', '--seller', 'studio', '--rpc', chain.rpc, '--registry', registryAddress, '--key-file', keyFile, ...extra], env);
  const onChain = () => registry.getFunction('getAgentWallet')(0n) as Promise<string>;

  it("signs with the wallet's key, sends it as the owner, keeps the wallet in the cards file, and the card states it from the registry", async () => {
    const wallet = chain.accounts[9]!;
    const run = await walletCmd(['--wallet-key-file', walletKeyFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(wallet.privateKey.slice(2));
    expect(await onChain()).toBe(wallet.address);
    const file = JSON.parse(await readFile(cardsPath, 'utf8'));
    const entry = file.sellers.studio;
    expect(entry.wallet).toMatchObject({ address: wallet.address, tx: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await chain.provider.getTransactionReceipt(entry.wallet.tx))!.blockNumber).toBe(entry.wallet.block);

    const deck = await testDeck({ DECK_CARDS: cardsPath });
    try {
      const studio = (await call(`${deck.url}/cards/studio`)).body;
      expect(studio.services).toContainEqual({ name: 'agentWallet', endpoint: `${CAIP2}:${wallet.address}`, version: 'v1', from: 'erc8004', tx: entry.wallet.tx });
      expect(studio.address).toBe(wallet.address);
      // A seller whose wallet is not proven states the deck's (here the owner the register wrote).
      const candles = (await call(`${deck.url}/cards/candles`)).body;
      expect(candles.services).toContainEqual({ name: 'agentWallet', endpoint: `${CAIP2}:${chain.accounts[8]!.address}`, version: 'v1', from: 'cards.owner' });
    } finally {
      await deck.stop();
    }
  });

  it('prints the typed data for a wallet that signs elsewhere, and sends what it signed', async () => {
    const wallet = chain.accounts[9]!;
    const printed = await walletCmd(['--wallet', wallet.address, '--typed-data']);
    expect(printed.code).toBe(0);
    const typed = JSON.parse(printed.stdout);
    expect(typed).toMatchObject({ primaryType: 'AgentWalletSet', domain: { name: 'ERC8004IdentityRegistry', version: '1', chainId: CHAIN_ID, verifyingContract: registryAddress } });
    expect(typed.message).toMatchObject({ agentId: '0', newWallet: wallet.address, owner: chain.accounts[8]!.address });
    const signature = await wallet.signTypedData(typed.domain, typed.types, typed.message);
    const sent = await walletCmd(['--wallet', wallet.address, '--deadline', typed.message.deadline, '--signature', signature]);
    expect(sent.code).toBe(0);
    expect(await onChain()).toBe(wallet.address);
  });

  it('refuses by name, sending nothing, a passed deadline, another signer and a key that does not own the agent', async () => {
    const wallet = chain.accounts[9]!;
    const typed = JSON.parse((await walletCmd(['--wallet', wallet.address, '--typed-data'])).stdout);
    const before = await chain.provider.getBlockNumber();

    const stale = { ...typed.message, deadline: String(BigInt(typed.message.deadline) - 3600n) };
    const expired = await walletCmd(['--wallet', wallet.address, '--deadline', stale.deadline, '--signature', await wallet.signTypedData(typed.domain, typed.types, stale)]);
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain('deadline_passed');

    const foreign = await walletCmd(['--wallet', wallet.address, '--deadline', typed.message.deadline, '--signature', await chain.accounts[7]!.signTypedData(typed.domain, typed.types, typed.message)]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain(`wrong_signer: the signature is ${chain.accounts[7]!.address}'s, not the wallet ${wallet.address}'s`);

    const stranger = join(dir, 'stranger.key');
    await writeFile(stranger, chain.accounts[7]!.privateKey, { mode: 0o600 });
    const notOwner = await cards(['wallet', '--seller', 'studio', '--rpc', chain.rpc, '--registry', registryAddress, '--key-file', stranger, '--wallet-key-file', walletKeyFile]);
    expect(notOwner.code).toBe(1);
    expect(notOwner.stderr).toContain(`but agent 0 is ${chain.accounts[8]!.address}'s`);

    expect(await chain.provider.getBlockNumber()).toBe(before);
    expect(await onChain()).toBe(chain.accounts[8]!.address);
    expect(JSON.parse(await readFile(cardsPath, 'utf8')).sellers.studio.wallet).toBeUndefined();
  });

  it('takes no wallet key as an argument, and refuses a seller not registered yet', async () => {
    expect((await walletCmd(['--wallet-key', chain.accounts[9]!.privateKey])).code).toBe(2);
    const none = await walletCmd([], { DECK_AGENT_WALLET_KEY: '' });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--wallet-key-file or in DECK_AGENT_WALLET_KEY');
    const copy = await cards(['wallet', '--seller', 'copy', '--rpc', chain.rpc, '--registry', registryAddress, '--wallet-key-file', walletKeyFile]);
    expect(copy.code).toBe(1);
    expect(copy.stderr).toContain('copy is not registered');
  });
});
