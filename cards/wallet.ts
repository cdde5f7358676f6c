import type { CardsFile, PlansFile } from '../config/files.js';

/**
 * Where the cards' agentWallet came from: the identity registry (set there with the wallet's EIP-712 signature), the
 * cards file's agent_wallet or owner, or the plans' treasury.
 */
export type WalletSource = 'erc8004' | 'cards.agent_wallet' | 'cards.owner' | 'treasury';

/** The wallet the cards state as agentWallet, the chain it is stated on, and where it came from. */
export interface AgentWallet {
  address: string;
  /** The EVM chain id of its CAIP-10 form (eip155:<chainId>:<address>). */
  chainId: number;
  from: WalletSource;
  /** erc8004: the transaction that set it on the registry. */
  tx?: string;
}

/**
 * The cards' agentWallet, derived from what the deck knows: the operator's wallet in the cards file (agent_wallet, else
 * the owner, which receives agent payments), else the treasury plans are paid to. It is stated on the chain the cards
 * are registered on, else the first chain plans are paid on. null when there is no wallet, or no chain to state it on.
 */
export function agentWalletOf(
  cards: Pick<CardsFile, 'agent_wallet' | 'owner' | 'erc8004'>,
  erc8004ChainId: number | null,
  treasury: string | null,
  plans: Pick<PlansFile, 'chains'>,
): AgentWallet | null {
  const found: [string | null, WalletSource][] = [
    [cards.agent_wallet, 'cards.agent_wallet'],
    [cards.owner, 'cards.owner'],
    [treasury, 'treasury'],
  ];
  const [address, from] = found.find(([a]) => a !== null) ?? [null, null];
  const paidOn = plans.chains[0] ? Number(plans.chains[0].id.slice('eip155:'.length)) : null;
  const chainId = erc8004ChainId ?? cards.erc8004.chain_id ?? paidOn;
  return address && from && chainId !== null ? { address, chainId, from } : null;
}

/**
 * A seller's agentWallet: the one its registry entry holds, proven by the wallet's EIP-712 signature (the cards file's
 * `sellers.<id>.wallet`, written by `npm run cards -- wallet`), stated on the chain it is registered on; else the deck's.
 */
export function sellerWalletOf(entry: CardsFile['sellers'][string] | undefined, chainId: number | null, deck: AgentWallet | null): AgentWallet | null {
  if (!entry?.wallet || chainId === null) return deck;
  return { address: entry.wallet.address, chainId, from: 'erc8004', tx: entry.wallet.tx };
}
