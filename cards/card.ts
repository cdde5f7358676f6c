import type { CardsFile } from '../config/files.js';
import { SELLER_ENDPOINTS } from '../sellers/endpoints.js';
import type { Seller } from '../sellers/sellers.js';

export const ERC8004_TYPE = 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1';
export const MCP_PROTOCOL_ON_CARDS = '2025-06-18';

/**
 * A seller's card: an ERC-8004 registration file that also carries the coordination layer's fields.
 * Its tools are read from the seller's endpoint, so the card cannot disagree with what is served.
 */
export function sellerCard(seller: Seller, cards: CardsFile, chain: { chainId: number | null; registry: string | null }, base: string) {
  const endpoint = SELLER_ENDPOINTS.get(seller.id)!;
  const entry = cards.sellers[seller.id] ?? { agent_id: null, tx: null, block: null };
  const mcpUrl = `${base}${endpoint.path}`;
  const chainId = chain.chainId ?? cards.erc8004.chain_id;
  const registry = chain.registry ?? cards.erc8004.registry;
  const agentWallet = cards.agent_wallet;
  const registered = chainId !== null && registry !== null && entry.agent_id !== null;
  return {
    type: ERC8004_TYPE,
    name: seller.name,
    description: seller.description,
    image: cards.image,
    services: [
      { name: 'MCP', endpoint: mcpUrl, version: MCP_PROTOCOL_ON_CARDS },
      // The agentWallet entry names the wallet in CAIP-10 form once one is configured.
      { name: 'agentWallet', endpoint: agentWallet && chainId !== null ? `eip155:${chainId}:${agentWallet}` : null, version: 'v1' },
    ],
    x402Support: false,
    active: true,
    registrations: registered ? [{ agentId: Number(entry.agent_id), agentRegistry: `eip155:${chainId}:${registry}` }] : [],
    supportedTrust: ['reputation'],
    id: seller.id,
    card_url: `${base}/cards/${seller.id}`,
    address: agentWallet,
    owner: cards.owner,
    kind: 'mcp',
    endpoint: mcpUrl,
    skills: seller.skills,
    tools: endpoint.tools.map((t) => t.name),
    tools_without_key: endpoint.tools.filter((t) => t.access !== 'session').map((t) => t.name),
    price_usdc: seller.price_usdc,
    price_basis: seller.price_basis,
    verify: seller.verify,
    classes: [],
    proposed_classes: seller.proposed_classes,
    access: { auth: 'bearer', join_url: `${base}/join`, keyless: endpoint.tools.filter((t) => t.access !== 'session').map((t) => t.name) },
    provider: { name: cards.provider.name, url: cards.provider.url ?? base },
    erc8004: { agentId: entry.agent_id, tx: entry.tx, block: entry.block },
  };
}
