import type { CardsFile } from '../config/files.js';
import { DECK_ENDPOINT } from '../sellers/endpoints.js';
import { ERC8004_TYPE, MCP_PROTOCOL_ON_CARDS, walletService, type SellerCard } from './card.js';
import type { AgentWallet } from './wallet.js';
import { badge } from './image.js';

/**
 * The deck's `/.well-known/agent-registration.json`: ERC-8004's endpoint-domain proof for a domain that hosts several
 * agents. A verifier holding one agent's registration looks here for a `registrations` entry matching its agentRegistry
 * and agentId, so the file lists every seller's registrations; the rest is the deck as a whole in the registration-v1
 * shape (its own /mcp beside each seller's endpoint), and `agents` says which card each registration belongs to. Built
 * from the seller cards, so it cannot disagree with them.
 */
export function deckRegistration(cards: readonly SellerCard[], file: Pick<CardsFile, 'image' | 'provider'>, base: string, wallet: AgentWallet | null) {
  return {
    type: ERC8004_TYPE,
    name: file.provider.name,
    description:
      'A trading-rule workbench served to agents over MCP: read a rule, forge it, rehearse it on real candles, grade its fidelity; real candles; live models with their records. ' +
      `Its sellers (${cards.map((c) => c.id).join(', ')}) are registered one by one, each with its own card.`,
    image: file.image ?? badge('deck'),
    services: [
      { name: 'MCP', endpoint: `${base}${DECK_ENDPOINT.path}`, version: MCP_PROTOCOL_ON_CARDS },
      ...cards.map((c) => ({ name: 'MCP', endpoint: c.endpoint, version: MCP_PROTOCOL_ON_CARDS })),
      // The deck's own wallet: a seller's proven one is on its card.
      ...walletService(wallet),
    ],
    x402Support: cards.some((c) => c.x402Support),
    active: true,
    registrations: cards.flatMap((c) => c.registrations),
    supportedTrust: ['reputation'],
    agents: cards.map((c) => ({ id: c.id, card_url: c.card_url, agentId: c.erc8004.agentId })),
  };
}
