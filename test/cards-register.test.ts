import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Contract } from 'ethers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAIP2, CHAIN_ID, startChain, type LocalChain } from './support/chain.js';
import { testDeck } from './support/deck.js';
import { call } from './support/http.js';

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

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command as `npm run cards --` runs it, in its own process, with `env` on top of this one's. */
const cards = (args: string[], env: Record<string, string | undefined> = {}): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'cli/cards.ts', ...args], { cwd: ROOT, env: { ...process.env, DECK_CARDS: cardsPath, DECK_PUBLIC_URL: PUBLIC, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
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
