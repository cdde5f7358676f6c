import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { CardsFile, PlansFile } from '../config/files.js';
import { SELLER_ENDPOINTS } from '../sellers/endpoints.js';
import { priceOf, type Seller } from '../config/sellers.js';
import { badge } from './image.js';
import { sellerWalletOf, type AgentWallet } from './wallet.js';
import type { PerCall, Price } from '../services/pay/per-call.js';

export const ERC8004_TYPE = 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1';
/** The MCP protocol a card advertises: the newest the endpoint negotiates in the 2025 era (sellers/legacy-server.ts). */
export const MCP_PROTOCOL_ON_CARDS = LATEST_PROTOCOL_VERSION;

/**
 * The agentWallet service: the wallet in CAIP-10 form, saying where it came from (and, proven on the registry, the
 * transaction that set it). With no wallet anywhere there is none to state, and ERC-8004 wants every endpoint to be a
 * string, so the entry waits for one.
 */
export const walletService = (wallet: AgentWallet | null) =>
  wallet ? [{ name: 'agentWallet', endpoint: `eip155:${wallet.chainId}:${wallet.address}`, version: 'v1', from: wallet.from, ...(wallet.tx ? { tx: wallet.tx } : {}) }] : [];

/**
 * A seller's card: an ERC-8004 registration file that also carries the coordination layer's fields.
 * Its tools are read from the seller's endpoint, so the card cannot disagree with what is served.
 */
export function sellerCard(
  seller: Seller,
  cards: CardsFile,
  chain: { chainId: number | null; registry: string | null },
  urls: { base: string; join: string },
  plans: PlansFile,
  wallet: AgentWallet | null,
  perCall: PerCall | null,
) {
  const endpoint = SELLER_ENDPOINTS.get(seller.id)!;
  const entry = cards.sellers[seller.id] ?? { agent_id: null, tx: null, block: null };
  const mcpUrl = `${urls.base}${endpoint.path}`;
  const chainId = chain.chainId ?? cards.erc8004.chain_id;
  const registry = chain.registry ?? cards.erc8004.registry;
  const agentId = entry.agent_id;
  const own = sellerWalletOf(entry, chainId, wallet);
  const keyless = endpoint.tools.filter((t) => t.access !== 'session').map((t) => t.name);
  // x402 is the operator's choice: a deck with a facilitator states it, and each of this seller's tools it prices per call.
  const priced = perCall ? endpoint.tools.filter((t) => perCall.requirements.has(t.name)) : [];
  return {
    type: ERC8004_TYPE,
    name: seller.name,
    description: seller.description,
    image: cards.image ?? badge(seller.id),
    services: [
      { name: 'MCP', endpoint: mcpUrl, version: MCP_PROTOCOL_ON_CARDS },
      ...walletService(own),
    ],
    x402Support: perCall !== null,
    ...(perCall
      ? {
          x402: {
            version: 2,
            prices: priced.map((t) => ({ tool: t.name, ...cardPrice(perCall.prices.get(t.name)!), ...perCall.requirements.get(t.name)! })),
          },
        }
      : {}),
    active: true,
    registrations: chainId !== null && registry !== null && agentId !== null ? [{ agentId, agentRegistry: `eip155:${chainId}:${registry}` }] : [],
    supportedTrust: ['reputation'],
    id: seller.id,
    card_url: `${urls.base}/cards/${seller.id}`,
    address: own?.address ?? null,
    owner: cards.owner,
    kind: 'mcp',
    endpoint: mcpUrl,
    skills: seller.skills,
    tools: endpoint.tools.map((t) => t.name),
    tools_without_key: keyless,
    price_usdc: priceOf(seller, plans),
    price_basis: seller.price_basis,
    verify: seller.verify,
    classes: [],
    proposed_classes: seller.proposed_classes,
    access: { auth: 'bearer', join_url: urls.join, keyless },
    provider: { name: cards.provider.name, url: cards.provider.url ?? urls.base },
    erc8004: { agentId, tx: entry.tx, block: entry.block },
  };
}

export type SellerCard = ReturnType<typeof sellerCard>;

/** A price as a card states it: a call's price (exact), or a bar's and the most a call costs (upto). */
function cardPrice(price: Price) {
  return price.scheme === 'exact' ? { price_usdc: price.usdc } : { per_bar_usdc: price.per_bar_usdc, max_usdc: price.max_usdc };
}
