import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress, Interface, keccak256, ZeroHash, type Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_ID, startChain, type LocalChain } from './support/chain.js';
import { runCli } from './support/cli.js';
import { call } from './support/http.js';
import { HOUR, hireBody, seriesRig, type SeriesRig } from './support/series.js';
import { proveWallet } from './support/deck.js';
import { legacyClient } from './support/mcp.js';
import { REPUTATION_ABI } from '../engine/erc8004/feedback.js';

// Reputation that follows finished work: once the layer ends an epoch with its verdict, the series read carries the
// ERC-8004 feedback the hirer may give the seller (unsigned), the records list the seller's finished epochs, and
// `npm run cards -- feedback` gives it on a reputation registry deployed on a local chain.

let chain: LocalChain;
let identity: Contract;
let reputation: Contract;
let rig: SeriesRig;
let dir: string;
const owner = () => chain.accounts[8]!;
const client = () => chain.accounts[2]!;

beforeAll(async () => {
  chain = await startChain();
  identity = await chain.deploy('IdentityRegistry');
  reputation = await chain.deploy('ReputationRegistry', chain.accounts[0], [await identity.getAddress()]);
  // The copy seller is agent 0, registered by the deck's owner.
  await (await (identity.connect(owner()) as Contract).getFunction('register')('https://deck.example/cards/copy')).wait();
  rig = await seriesRig({ DECK_ERC8004_CHAIN_ID: String(CHAIN_ID), DECK_ERC8004_REGISTRY: await identity.getAddress(), DECK_ERC8004_REPUTATION: await reputation.getAddress() });
  dir = await mkdtemp(join(tmpdir(), 'deck-feedback-'));
}, 60_000);
afterAll(async () => {
  await rig?.stop();
  await chain?.stop();
  await rm(dir, { recursive: true, force: true });
});

const hire = hireBody({ agent: { chainId: CHAIN_ID, agentId: 0, seller: 'copy' } });
const feedbackCli = (file: string, keyFile: string, registry?: string) =>
  runCli('cards', ['feedback', '--rpc', chain.rpc, '--registry', registry ?? (reputation.target as string), '--feedback', file, '--key-file', keyFile], dir);
const keyFileOf = async (name: string, key: string) => {
  const path = join(dir, name);
  await writeFile(path, key, { mode: 0o600 });
  return path;
};

describe("an epoch's ERC-8004 feedback", () => {
  it('is prepared once the layer ends the epoch, listed in the records, and given on the reputation registry by the CLI', { timeout: 120_000 }, async () => {
    await proveWallet(rig.url, rig.me.bearer, client());
    const series = await rig.open(hire);
    const opened = await rig.epochs(series.id);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    // Open, no verdict yet: nothing to give.
    expect(opened.body.series.epochs[0].feedback).toBeNull();

    rig.clock.advance(HOUR);
    const read = await rig.read(series.id);
    expect(read.body.series.state).toBe('EPOCH_ENDED');
    const epoch = read.body.series.epochs[0];
    const { verdict } = epoch;
    expect(verdict).not.toBeNull();
    const passed = verdict.checks.filter((c: { pass: boolean }) => c.pass).length;
    const value = Math.round((passed * 10_000) / verdict.checks.length);
    const registryId = `eip155:${CHAIN_ID}:${getAddress(reputation.target as string)}`;
    const agentRegistry = `eip155:${CHAIN_ID}:${getAddress(identity.target as string)}`;
    const fb = epoch.feedback;
    expect(fb).toMatchObject({
      registry: registryId,
      agentRegistry,
      client: client().address,
      args: { agentId: '0', value, valueDecimals: 2, tag1: 'trading.mandate.external.v1', tag2: verdict.pass ? 'pass' : 'fail', endpoint: `${rig.deck.url}/mcp/copy` },
    });
    // The file is ERC-8004's off-chain feedback file, carried whole in the data: URI whose keccak256 is the hash.
    const bytes = Buffer.from(fb.args.feedbackURI.replace(/^data:application\/json;base64,/, ''), 'base64');
    expect(keccak256(bytes)).toBe(fb.args.feedbackHash);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(fb.file);
    expect(fb.file).toEqual({
      agentRegistry,
      agentId: 0,
      clientAddress: `eip155:${CHAIN_ID}:${client().address}`,
      createdAt: new Date(epoch.ended_at * 1000).toISOString(),
      value,
      valueDecimals: 2,
      tag1: 'trading.mandate.external.v1',
      tag2: fb.args.tag2,
      endpoint: fb.args.endpoint,
      epoch: { class: 'trading.mandate.external.v1', index: 1, paymentRef: epoch.paymentRef, window: epoch.window, verdict },
    });
    // The unsigned call is giveFeedback with exactly those arguments, to the reputation registry.
    const iface = new Interface(REPUTATION_ABI);
    expect(fb.unsigned).toMatchObject({ chainId: CHAIN_ID, to: getAddress(reputation.target as string), value: '0' });
    const decoded = iface.decodeFunctionData('giveFeedback', fb.unsigned.data);
    expect([...decoded].map(String)).toEqual(['0', String(value), '2', fb.args.tag1, fb.args.tag2, fb.args.endpoint, fb.args.feedbackURI, fb.args.feedbackHash]);
    // The same bytes at every read.
    expect((await rig.read(series.id)).body.series.epochs[0].feedback).toEqual(fb);

    // The records show the seller's finished epoch and its verdict, naming no one.
    const records = await call(`${rig.url}/records/epochs?seller=copy`);
    expect(records.status).toBe(200);
    expect(records.body.epochs).toContainEqual({
      seller: 'copy',
      agent: { chainId: CHAIN_ID, agentId: '0' },
      class: 'trading.mandate.external.v1',
      index: 1,
      paymentRef: epoch.paymentRef,
      window: epoch.window,
      ended_at: epoch.ended_at,
      verdict: { pass: verdict.pass, checks: verdict.checks.map(({ n, pass }: { n: number; pass: boolean }) => ({ n, pass })) },
      feedback: { value, valueDecimals: 2, tag1: fb.args.tag1, tag2: fb.args.tag2 },
    });
    expect(JSON.stringify(records.body)).not.toContain(series.id);
    for (const check of verdict.checks) if (check.why) expect(JSON.stringify(records.body)).not.toContain(check.why);
    expect((await call(`${rig.url}/records/epochs?seller=studio`)).body).toMatchObject({ count: 0, epochs: [] });
    expect((await call(`${rig.url}/records/epochs?seller=nobody`)).status).toBe(422);

    // Over MCP, with the SDK's client: the same feedback on series_read, the same records from epochs.
    const client0 = await legacyClient(`${rig.url}/mcp?toolsets=all`, rig.me.bearer);
    try {
      const viaMcp = (await client0.callTool({ name: 'series_read', arguments: { id: series.id } })).structuredContent as { series: { epochs: { feedback: unknown }[] } };
      expect(viaMcp.series.epochs[0]!.feedback).toEqual(fb);
      expect((await client0.callTool({ name: 'epochs', arguments: { seller: 'copy' } })).structuredContent).toEqual(records.body);
    } finally {
      await client0.close();
    }

    // Given for real: the client's wallet sends it, the registry keeps value, decimals and tags, and emits the rest.
    const file = join(dir, 'feedback.json');
    await writeFile(file, JSON.stringify(fb));
    const given = await feedbackCli(file, await keyFileOf('client.key', client().privateKey));
    expect(given.stderr).toBe('');
    expect(given.code).toBe(0);
    expect(given.stdout).toContain(`feedback 1 of ${client().address} for agent 0`);
    expect(given.stdout).not.toContain(client().privateKey.slice(2));
    const kept = await reputation.getFunction('readFeedback')(0n, client().address, 1n);
    expect([kept[0], kept[1], kept[2], kept[3], kept[4]]).toEqual([BigInt(value), 2n, fb.args.tag1, fb.args.tag2, false]);
    const [event] = await reputation.queryFilter(reputation.filters.NewFeedback!(0n, client().address));
    const args = iface.parseLog(event!)!.args;
    expect([args.endpoint, args.feedbackURI, args.feedbackHash]).toEqual([fb.args.endpoint, fb.args.feedbackURI, fb.args.feedbackHash]);
  });

  it('is refused by name before anything is sent: another client, another registry, a file that is not its hash; and the owner by the registry', { timeout: 120_000 }, async () => {
    await proveWallet(rig.url, rig.me.bearer, client());
    const series = await rig.open(hire);
    expect((await rig.epochs(series.id)).status).toBe(201);
    rig.clock.advance(HOUR);
    const fb = (await rig.read(series.id)).body.series.epochs[0].feedback;
    const file = join(dir, 'refused.json');
    const before = await chain.provider.getBlockNumber();

    await writeFile(file, JSON.stringify(fb));
    const ownerKey = await keyFileOf('owner.key', owner().privateKey);
    const notClient = await feedbackCli(file, ownerKey);
    expect(notClient.code).toBe(1);
    expect(notClient.stderr).toContain(`names the client ${client().address}, but the key is ${owner().address}'s`);
    const elsewhere = await feedbackCli(file, ownerKey, identity.target as string);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('prepared for the reputation registry');
    await writeFile(file, JSON.stringify({ ...fb, args: { ...fb.args, feedbackHash: ZeroHash.replace(/0$/, '1') } }));
    const tampered = await feedbackCli(file, await keyFileOf('client.key', client().privateKey));
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain("the feedback file's keccak256 is");
    expect(await chain.provider.getBlockNumber()).toBe(before);

    // Without a file (no client named), the agent's owner may not rate itself: the registry says so.
    await writeFile(file, JSON.stringify({ ...fb, client: null, args: { ...fb.args, feedbackURI: '', feedbackHash: ZeroHash } }));
    const self = await feedbackCli(file, ownerKey);
    expect(self.code).toBe(1);
    expect(self.stderr).toContain('Self-feedback not allowed');
  });
});

describe('where the registries come from', () => {
  /** Ends epoch 1 of a new series on `r` for a principal with a proven wallet; answers the epoch as read. */
  const endedEpoch = async (r: SeriesRig) => {
    await proveWallet(r.url, r.me.bearer, client());
    const series = await r.open(hire);
    expect((await r.epochs(series.id)).status).toBe(201);
    r.clock.advance(HOUR);
    return (await r.read(series.id)).body.series.epochs[0];
  };

  it('takes the identity registry from the cards file npm run cards -- register wrote, beside DECK_ERC8004_REPUTATION', { timeout: 120_000 }, async () => {
    const cardsFile = join(dir, 'cards.json');
    const shipped = JSON.parse(await readFile(join(import.meta.dirname, '..', 'config', 'cards.json'), 'utf8'));
    await writeFile(cardsFile, JSON.stringify({ ...shipped, erc8004: { chain_id: CHAIN_ID, registry: identity.target } }));
    const other = await seriesRig({ DECK_CARDS: cardsFile, DECK_ERC8004_REPUTATION: reputation.target as string });
    try {
      const epoch = await endedEpoch(other);
      expect(epoch.feedback).toMatchObject({ agentRegistry: `eip155:${CHAIN_ID}:${getAddress(identity.target as string)}`, client: client().address });
    } finally {
      await other.stop();
    }
  });

  it('prepares none without a reputation registry, and the records still list the verdict', { timeout: 120_000 }, async () => {
    const other = await seriesRig({ DECK_ERC8004_CHAIN_ID: String(CHAIN_ID), DECK_ERC8004_REGISTRY: identity.target as string });
    try {
      const epoch = await endedEpoch(other);
      expect(epoch.verdict).not.toBeNull();
      expect(epoch.feedback).toBeNull();
      const records = await call(`${other.url}/records/epochs`);
      expect(records.body.epochs).toEqual([expect.objectContaining({ paymentRef: epoch.paymentRef, verdict: expect.objectContaining({ pass: epoch.verdict.pass }), feedback: null })]);
    } finally {
      await other.stop();
    }
  });
});
