import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TIERS } from '../core/principal.js';
import { Address } from '../core/schemas.js';

/** A chain as CAIP-2 names an EVM chain: eip155:<chain id>. */
const chainId = z.string().regex(/^eip155:[1-9]\d*$/, 'eip155:<chain id>');
const usdcPrice = z.string().regex(/^\d{1,6}(\.\d{1,6})?$/, 'a USDC price as a decimal string, up to 6 decimals ("0.10")');

export const Chain = z.object({
  id: chainId,
  name: z.string(),
  token: z.string(),
  token_address: Address,
  token_decimals: z.number().int().min(0).max(36).default(6),
  /** JSON-RPC URL; DECK_CHAIN_RPC overrides it when the file lists one chain. Never shown: it may carry a key. */
  rpc: z.string().url().nullable().default(null),
  /** The operator's ERC-721 collection whose holders gain a daily allowance. */
  collection: Address.nullable().default(null),
  min_confirmations: z.number().int().min(1).default(2),
  /**
   * The token's EIP-712 domain (name and version), which an EIP-3009 authorization is signed under: a payment per call
   * (x402's exact scheme) on this chain needs it. Base's USDC: { "name": "USD Coin", "version": "2" }.
   */
  eip712: z.object({ name: z.string().min(1), version: z.string().min(1) }).nullable().default(null),
});
export type Chain = z.infer<typeof Chain>;

export const Plan = z.object({
  id: z.string(),
  tier: z.enum(TIERS),
  name: z.string(),
  price_usdc: z.number().nonnegative(),
  period_days: z.number().int().positive().nullable(),
  allowance_per_day: z.number().int().nonnegative(),
  opens: z.string(),
});

/** One action of the price list: its flat units, its rate per 1,000 bars where bars are priced, and what it is. */
export const PriceEntry = z.object({ action: z.string(), units: z.number().nonnegative(), per_1000_bars: z.number().nonnegative().optional(), what: z.string() });

const PlansFile = z.object({
  currency: z.literal('USDC'),
  plans: z.array(Plan),
  house_allowance_per_day: z.number().int().nonnegative(),
  chains: z.array(Chain),
  treasury: Address.nullable(),
  prices: z.array(PriceEntry),
  /** Holder standing: each NFT of the collection held today adds this many units, up to max_nfts of them. */
  holder: z.object({ allowance_per_nft: z.number().int().nonnegative(), max_nfts: z.number().int().positive() }).nullable().default(null),
  /** The house's spot chain (one of chains) and its spot administrators, who alone sign mandates the house runs. */
  spot: z.object({ chain: chainId, administrators: z.array(Address) }).nullable().default(null),
  /**
   * The tools each tier opens beyond the tiers below it (tier locks, by tool name): a tool no tier names opens to every
   * session. The names are held to the registry at start.
   */
  tier_tools: z.partialRecord(z.enum(TIERS), z.array(z.string().min(1))).default({}),
  /**
   * Payment per call (x402), taken once DECK_X402_FACILITATOR is set: the chain it is paid on (one of chains, with its
   * token's eip712 domain), how long an authorization may take to settle, and each priced tool's price in USDC as a
   * decimal string: a fixed price a call (scheme exact), or a price a bar read and the most a call may cost (scheme
   * upto, settled for the bars the call serves). The names are held to the registry at start.
   */
  per_call: z
    .object({
      chain: chainId,
      max_timeout_s: z.number().int().min(10).max(3600).default(300),
      tools: z.record(z.string().min(1), z.union([usdcPrice, z.strictObject({ per_bar: usdcPrice, max: usdcPrice })])),
    })
    .nullable()
    .default(null),
})
  .refine((f) => !f.per_call || f.chains.some((c) => c.id === f.per_call!.chain), { path: ['per_call', 'chain'], message: 'must be one of chains[].id' })
  .refine((f) => !f.spot || f.chains.some((c) => c.id === f.spot!.chain), { path: ['spot', 'chain'], message: 'must be one of chains[].id' })
  .refine((f) => new Set(Object.values(f.tier_tools).flat()).size === Object.values(f.tier_tools).flat().length, {
    path: ['tier_tools'],
    message: 'a tool is locked on one tier at most',
  });
export type PlansFile = z.infer<typeof PlansFile>;

export const Grant = z.object({
  name: z.string(),
  tier: z.enum(TIERS),
  allowance_per_day: z.number().int().nonnegative().nullable().optional(),
  until: z.string().date().nullable().optional(),
  why: z.string(),
});
export type Grant = z.infer<typeof Grant>;

const GrantsFile = z.object({ grants: z.array(Grant) });

const CardsFile = z.object({
  /** url null: the deck's own public base URL. */
  provider: z.object({ name: z.string(), url: z.string().url().nullable() }),
  image: z.string().url().nullable(),
  /** The wallet that owns the sellers' ERC-8004 entries and receives agent payments. */
  owner: Address.nullable(),
  agent_wallet: Address.nullable(),
  erc8004: z.object({ chain_id: z.number().int().positive().nullable(), registry: Address.nullable() }),
  sellers: z.record(
    z.string(),
    // agent_id is the ERC-721 token id the registry minted: a number, as ERC-8004 registrations carry it.
    z.object({
      agent_id: z.number().int().nonnegative().nullable(),
      tx: z.string().nullable(),
      block: z.number().int().nullable(),
      // The agentWallet set on the registry with the wallet's EIP-712 signature (npm run cards -- wallet), and where.
      wallet: z.object({ address: Address, tx: z.string(), block: z.number().int() }).nullable().optional(),
    }),
  ),
});
export type CardsFile = z.infer<typeof CardsFile>;

/** Reads one configuration file under version control, failing start-up with every problem named. */
function load<T>(path: string, schema: z.ZodType<T, unknown>): T {
  const r = schema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!r.success) throw new Error(`${path}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

export const loadPlans = (path: string) => load(path, PlansFile);
export const loadGrants = (path: string) => load(path, GrantsFile).grants;
export const loadCards = (path: string) => load(path, CardsFile);
