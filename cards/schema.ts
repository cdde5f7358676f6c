import { z } from 'zod';

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

const Service = z.strictObject({
  name: z.string().describe('MCP, or agentWallet'),
  endpoint: z.string().describe("an MCP endpoint, or the wallet in CAIP-10 form (eip155:<chainId>:<address>)"),
  version: z.string(),
  from: z
    .enum(['erc8004', 'cards.agent_wallet', 'cards.owner', 'treasury'])
    .optional()
    .describe('agentWallet: where the wallet came from (erc8004: set on the identity registry with the wallet\'s EIP-712 signature)'),
  tx: z.string().optional().describe('agentWallet from erc8004: the transaction that set it on the registry'),
});

const Registrations = z.array(z.strictObject({ agentId: z.number().int(), agentRegistry: z.string() }));

/** What every ERC-8004 registration file opens with: its type, and the fields an ERC-721 reader shows. */
const REGISTRATION_HEAD = {
  type: z.literal('https://eips.ethereum.org/EIPS/eip-8004#registration-v1'),
  name: z.string(),
  description: z.string(),
  image: z.string().describe('a URI an ERC-721 reader can show'),
};

/** A seller card as GET /cards/{seller} answers it: an ERC-8004 registration file carrying the layer's fields. */
export const SellerCardSchema = z.strictObject({
  ...REGISTRATION_HEAD,
  services: z.array(Service).describe('an MCP entry and, when the deck knows a wallet, an agentWallet entry'),
  x402Support: z.boolean().describe('true when the deck takes payment per call (x402 v2): a facilitator is configured'),
  x402: z
    .strictObject({
      version: z.literal(2),
      prices: z.array(
        z.strictObject({
          tool: z.string(),
          price_usdc: z.string().optional().describe('scheme exact: the price of a call'),
          per_bar_usdc: z.string().optional().describe('scheme upto: the price of a bar served, settled for the bars a call serves'),
          max_usdc: z.string().optional().describe('scheme upto: the most a call costs, the amount a payer signs for'),
          scheme: z.string(),
          network: z.string(),
          amount: z.string(),
          asset: Address,
          payTo: Address,
          maxTimeoutSeconds: z.number().int(),
          extra: z.record(z.string(), z.unknown()).optional(),
        }),
      ),
    })
    .optional()
    .describe('with x402Support: each of the seller\'s tools paid per call, its price in USDC (a call\'s, or a bar\'s and a call\'s most) and the x402 PaymentRequirements a call answers (upto\'s without the facilitatorAddress its 402 adds, the facilitator\'s own)'),
  active: z.boolean(),
  registrations: Registrations,
  supportedTrust: z.array(z.string()),
  id: z.string(),
  card_url: z.string(),
  address: Address.nullable().describe('the agentWallet address; null when the deck knows none'),
  owner: Address.nullable(),
  kind: z.literal('mcp'),
  endpoint: z.string(),
  skills: z.array(z.string()),
  tools: z.array(z.string()),
  tools_without_key: z.array(z.string()),
  price_usdc: z.strictObject({ unit: z.string(), min: z.number(), max: z.number() }),
  price_basis: z.string(),
  verify: z.string(),
  classes: z.array(z.string()),
  proposed_classes: z.array(z.string()),
  access: z.strictObject({ auth: z.literal('bearer'), join_url: z.string(), keyless: z.array(z.string()) }),
  provider: z.strictObject({ name: z.string(), url: z.string() }),
  erc8004: z.strictObject({ agentId: z.number().int().nullable(), tx: z.string().nullable(), block: z.number().int().nullable() }),
});

/** GET /cards. */
export const CardsSchema = z.strictObject({ ok: z.literal(true), cards: z.array(SellerCardSchema) });

/**
 * GET /.well-known/agent-registration.json: ERC-8004's endpoint-domain proof for the deck's domain, which hosts one agent
 * per seller: the deck in the registration-v1 shape with every seller's registrations, and which card each belongs to.
 */
export const DeckRegistrationSchema = z.strictObject({
  ...REGISTRATION_HEAD,
  services: z.array(Service).describe("the deck's own MCP endpoint, each seller's, and the deck's agentWallet when it knows one"),
  x402Support: z.boolean(),
  active: z.boolean(),
  registrations: Registrations.describe("every seller's registrations: a verifier of one seller's agent finds its agentRegistry and agentId here"),
  supportedTrust: z.array(z.string()),
  agents: z
    .array(z.strictObject({ id: z.string(), card_url: z.string(), agentId: z.number().int().nullable() }))
    .describe("each seller's card and agent id (null until it is registered)"),
});
