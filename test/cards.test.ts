import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spawnDeck, testDeck, type TestDeck } from './support/deck.js';
import { legacyClient, SELLER_IDS } from './support/mcp.js';
import { CardsSchema, DeckRegistrationSchema } from '../cards/schema.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

// The seller cards: one document read by two parties, the ERC-8004 identity registry (agentURI) and the
// coordination layer. Checked against the spec's seller table and the ERC-8004 registration-v1 shape.

/** The spec's seller table. */
const TABLE = {
  studio: {
    tools: ['workflow_read', 'forge', 'rehearse', 'skills', 'skill_read', 'catalogue', 'plans', 'account'],
    skills: ['strategy-compile', 'backtest', 'walk-forward', 'rule-parsing', 'trading-workflow'],
    proposed: ['strategy.rehearse'],
    max: 0,
  },
  candles: {
    tools: ['tape', 'catalogue', 'plans', 'account'],
    skills: ['market-data', 'ohlcv', 'candles', 'futures', 'crypto'],
    proposed: ['market.candles'],
    max: 0,
  },
  copy: {
    tools: ['models', 'model_record', 'follow_quote', 'catalogue', 'plans', 'account'],
    skills: ['copy-trading', 'track-record', 'position-sizing', 'risk-caps'],
    proposed: ['copy.follow_quote'],
    max: 99,
  },
} as const;

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/**
 * ERC-8004 registration-v1 (ERCS/erc-8004.md, "Token URI and Agent Registration File"): type, name,
 * description, image, services of { name, endpoint, version? } (version a SHOULD), x402Support, active,
 * registrations whose fields are all mandatory (agentId the ERC-721 token id, agentRegistry
 * {namespace}:{chainId}:{identityRegistry}), and supportedTrust from the named trust models.
 */
const Registration = z.object({
  type: z.literal('https://eips.ethereum.org/EIPS/eip-8004#registration-v1'),
  name: z.string().min(1),
  description: z.string().min(1),
  image: z.string().regex(/^(https?:\/\/|ipfs:\/\/|data:image\/)/, 'a URI an ERC-721 reader can show'),
  services: z.array(z.object({ name: z.string().min(1), endpoint: z.string().min(1), version: z.string().optional() }).passthrough()),
  x402Support: z.boolean(),
  active: z.boolean(),
  registrations: z.array(z.object({ agentId: z.number().int().nonnegative(), agentRegistry: z.string().regex(/^eip155:\d+:0x[0-9a-fA-F]{40}$/) })),
  supportedTrust: z.array(z.enum(['reputation', 'crypto-economic', 'tee-attestation'])),
});

/** The coordination layer's fields on the same document. */
const LayerFields = z.object({
  id: z.enum(SELLER_IDS),
  card_url: z.string().url(),
  address: address.nullable(),
  owner: address.nullable(),
  kind: z.literal('mcp'),
  endpoint: z.string().url(),
  skills: z.array(z.string()),
  tools: z.array(z.string()),
  tools_without_key: z.array(z.string()),
  price_usdc: z.object({ unit: z.string(), min: z.number(), max: z.number() }).strict(),
  price_basis: z.string().min(1),
  verify: z.string().min(1),
  classes: z.array(z.string()),
  proposed_classes: z.array(z.string()),
  access: z.object({ join_url: z.string().url() }).passthrough(),
  provider: z.object({ name: z.string().min(1), url: z.string().url() }).strict(),
  erc8004: z.object({ agentId: z.number().int().nonnegative().nullable(), tx: z.string().nullable(), block: z.number().int().nullable() }).strict(),
});

type Card = z.infer<typeof Registration> & z.infer<typeof LayerFields>;

/** GET /.well-known/agent-registration.json: the schema the OpenAPI document states, strictly, and ERC-8004's shape. */
async function wellKnownOf(url: string) {
  const res = await fetch(`${url}/.well-known/agent-registration.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = DeckRegistrationSchema.parse(await res.json());
  Registration.parse(body);
  return body;
}

async function cardsOf(url: string): Promise<Card[]> {
  const res = await fetch(`${url}/cards`);
  expect(res.status).toBe(200);
  const body = await res.json();
  // The schema the OpenAPI document states for GET /cards, strictly.
  CardsSchema.parse(body);
  const { cards } = body as { cards: unknown[] };
  for (const c of cards) {
    Registration.parse(c);
    LayerFields.parse(c);
  }
  return cards as Card[];
}

describe('the cards of a deck on its defaults', () => {
  let deck: TestDeck;
  beforeAll(async () => {
    deck = await testDeck();
  });
  afterAll(() => deck.stop());

  it('GET /cards answers every seller card, each a valid ERC-8004 registration file', async () => {
    const cards = await cardsOf(deck.url);
    expect(cards.map((c) => c.id)).toEqual([...SELLER_IDS]);
  });

  it.each(SELLER_IDS)('GET /cards/%s follows the seller table and names its own endpoints', async (id) => {
    const res = await fetch(`${deck.url}/cards/${id}`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as Card;
    Registration.parse(card);
    LayerFields.parse(card);
    const row = TABLE[id];
    expect(card).toMatchObject({
      id,
      kind: 'mcp',
      x402Support: false,
      active: true,
      supportedTrust: ['reputation'],
      card_url: `${deck.url}/cards/${id}`,
      endpoint: `${deck.url}/mcp/${id}`,
      skills: [...row.skills],
      proposed_classes: [...row.proposed],
      classes: [],
      tools_without_key: ['catalogue', 'plans'],
      price_usdc: { unit: 'job', min: 0, max: row.max },
      provider: { url: deck.url },
      access: { join_url: `${deck.url}/join` },
      registrations: [],
      erc8004: { agentId: null, tx: null, block: null },
    });
    // The protocol the card advertises is the one an SDK client connecting to the endpoint negotiates.
    const client = await legacyClient(`${deck.url}/mcp/${id}`);
    const negotiated = (client.transport as StreamableHTTPClientTransport).protocolVersion;
    await client.close();
    expect(negotiated).toBe(LATEST_PROTOCOL_VERSION);
    expect(card.services).toContainEqual({ name: 'MCP', endpoint: `${deck.url}/mcp/${id}`, version: negotiated });
    // Only tools the table names, and always the three every seller carries.
    for (const tool of card.tools) expect(row.tools as readonly string[]).toContain(tool);
    expect(card.tools).toEqual(expect.arrayContaining(['catalogue', 'plans', 'account']));
    // Without a wallet in the cards file and without a treasury there is none to state.
    expect(card.address).toBeNull();
    expect(card.services.map((s) => s.name)).not.toContain('agentWallet');
  });

  it('serves /.well-known/agent-registration.json: the deck as a registration file, each seller an agent with no registration yet', async () => {
    const file = await wellKnownOf(deck.url);
    const cards = await cardsOf(deck.url);
    expect(file).toMatchObject({ x402Support: false, active: true, registrations: [], supportedTrust: ['reputation'] });
    expect(file.agents).toEqual(cards.map((c) => ({ id: c.id, card_url: `${deck.url}/cards/${c.id}`, agentId: null })));
    // The deck's own endpoint, then each seller's as its card states it; no wallet known, so no agentWallet.
    expect(file.services.map((s) => s.endpoint)).toEqual([`${deck.url}/mcp`, ...cards.map((c) => c.endpoint)]);
    for (const s of file.services) expect(s).toEqual({ name: 'MCP', endpoint: s.endpoint, version: LATEST_PROTOCOL_VERSION });
  });

  it('answers an unknown seller 404 with the seller ids', async () => {
    const res = await fetch(`${deck.url}/cards/nobody`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, sellers: [...SELLER_IDS] });
  });
});

describe('the cards of a deck registered on ERC-8004', () => {
  const CHAIN_ID = '84532';
  const REGISTRY = '0x8004A818BFB912233c491871b3d84c89A494BD9e';
  const WALLET = '0x1111111111111111111111111111111111111111';
  const OWNER = '0x2222222222222222222222222222222222222222';
  const AGENT_IDS = { studio: 11, candles: 12, copy: 13 } as const;
  let deck: TestDeck;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deck-cards-'));
    const file = join(dir, 'cards.json');
    await writeFile(
      file,
      JSON.stringify({
        provider: { name: 'the deck', url: 'https://deck.example' },
        image: 'https://deck.example/seller.png',
        owner: OWNER,
        agent_wallet: WALLET,
        // The environment's chain and registry win over the file's.
        erc8004: { chain_id: 1, registry: '0x3333333333333333333333333333333333333333' },
        sellers: Object.fromEntries(SELLER_IDS.map((id, i) => [id, { agent_id: AGENT_IDS[id], tx: `0x${'ab'.repeat(32)}`, block: 100 + i }])),
      }),
    );
    deck = await testDeck({
      DECK_CARDS: file,
      DECK_ERC8004_CHAIN_ID: CHAIN_ID,
      DECK_ERC8004_REGISTRY: REGISTRY,
      DECK_JOIN_URL: 'https://deck.example/join',
    });
  });
  afterAll(async () => {
    await deck.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('carries each agent id with agentRegistry eip155:<chainId>:<registry>, the wallet and the owner', async () => {
    for (const card of await cardsOf(deck.url)) {
      expect(card.registrations).toEqual([{ agentId: AGENT_IDS[card.id], agentRegistry: `eip155:${CHAIN_ID}:${REGISTRY}` }]);
      expect(card.erc8004).toEqual({ agentId: AGENT_IDS[card.id], tx: `0x${'ab'.repeat(32)}`, block: 100 + SELLER_IDS.indexOf(card.id) });
      expect(card.services).toContainEqual({ name: 'agentWallet', endpoint: `eip155:${CHAIN_ID}:${WALLET}`, version: 'v1', from: 'cards.agent_wallet' });
      expect(card).toMatchObject({
        address: WALLET,
        owner: OWNER,
        image: 'https://deck.example/seller.png',
        provider: { name: 'the deck', url: 'https://deck.example' },
        access: { join_url: 'https://deck.example/join' },
      });
    }
  });

  it('lists every seller\'s registration at /.well-known/agent-registration.json, as ERC-8004\'s endpoint-domain proof asks', async () => {
    const file = await wellKnownOf(deck.url);
    const cards = await cardsOf(deck.url);
    // A verifier holding any one seller's agent finds its agentRegistry and agentId here.
    for (const card of cards) expect(file.registrations).toContainEqual(card.registrations[0]);
    expect(file.registrations).toEqual(SELLER_IDS.map((id) => ({ agentId: AGENT_IDS[id], agentRegistry: `eip155:${CHAIN_ID}:${REGISTRY}` })));
    expect(file.agents).toEqual(SELLER_IDS.map((id) => ({ id, card_url: `${deck.url}/cards/${id}`, agentId: AGENT_IDS[id] })));
    expect(file).toMatchObject({ name: 'the deck', image: 'https://deck.example/seller.png' });
    expect(file.services).toContainEqual({ name: 'agentWallet', endpoint: `eip155:${CHAIN_ID}:${WALLET}`, version: 'v1', from: 'cards.agent_wallet' });
  });
});

describe('the agentWallet a deck derives', () => {
  const TREASURY = '0x4444444444444444444444444444444444444444';
  const OWNER = '0x2222222222222222222222222222222222222222';
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deck-wallet-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const walletOf = (card: Card) => card.services.find((s) => s.name === 'agentWallet');

  it('states the treasury on the chain plans are paid on when the cards file names no wallet, saying so', async () => {
    const deck = await testDeck({ DECK_TREASURY: TREASURY });
    try {
      for (const card of await cardsOf(deck.url)) {
        expect(walletOf(card)).toEqual({ name: 'agentWallet', endpoint: `eip155:8453:${TREASURY}`, version: 'v1', from: 'treasury' });
        expect(card.address).toBe(TREASURY);
      }
    } finally {
      await deck.stop();
    }
  });

  it("says x402Support at /.well-known/agent-registration.json as the cards do, with the deck's wallet", async () => {
    // A facilitator configured turns payment per call on; nothing asks it anything until a call is paid.
    const deck = await testDeck({ DECK_TREASURY: TREASURY, DECK_X402_FACILITATOR: 'http://127.0.0.1:9' });
    try {
      const cards = await cardsOf(deck.url);
      expect(cards.find((c) => c.id === 'studio')!.x402Support).toBe(true);
      const file = await wellKnownOf(deck.url);
      expect(file.x402Support).toBe(true);
      expect(file.services).toContainEqual({ name: 'agentWallet', endpoint: `eip155:8453:${TREASURY}`, version: 'v1', from: 'treasury' });
    } finally {
      await deck.stop();
    }
  });

  it("states the cards file's owner before the treasury when it names no agent_wallet", async () => {
    const file = join(dir, 'owner.json');
    const cards = JSON.parse(await readFile(new URL('../config/cards.json', import.meta.url), 'utf8'));
    await writeFile(file, JSON.stringify({ ...cards, owner: OWNER }));
    const deck = await testDeck({ DECK_CARDS: file, DECK_TREASURY: TREASURY });
    try {
      for (const card of await cardsOf(deck.url)) expect(walletOf(card)).toMatchObject({ endpoint: `eip155:8453:${OWNER}`, from: 'cards.owner' });
    } finally {
      await deck.stop();
    }
  });

  it('logs at start where the wallet came from, or that there is none and how to state one', async () => {
    const none = await spawnDeck({ DECK_DATA: join(dir, 'none') });
    const treasury = await spawnDeck({ DECK_DATA: join(dir, 'treasury'), DECK_TREASURY: TREASURY });
    try {
      expect(none.before).toContain('"event":"agent_wallet_none"');
      expect(none.before).toContain('DECK_TREASURY');
      expect(treasury.before).toMatch(new RegExp(`"event":"agent_wallet","address":"${TREASURY}","chain_id":8453,"from":"treasury"`));
    } finally {
      await none.stop();
      await treasury.stop();
    }
  }, 120_000);
});
