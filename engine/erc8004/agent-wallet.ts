import { getAddress, verifyTypedData, type TypedDataField } from 'ethers';

/**
 * ERC-8004's agentWallet proof: the identity registry sets an agent's wallet only with the wallet's own EIP-712
 * signature over AgentWalletSet(agentId, newWallet, owner, deadline), in the registry's domain, before a deadline at
 * most five minutes past the chain's time. The registry checks it on chain; the deck checks it first, so a signature
 * that cannot pass is refused by name before anything is sent.
 */
export const AGENT_WALLET_TYPES: Record<string, TypedDataField[]> = {
  AgentWalletSet: [
    { name: 'agentId', type: 'uint256' },
    { name: 'newWallet', type: 'address' },
    { name: 'owner', type: 'address' },
    { name: 'deadline', type: 'uint256' },
  ],
};

/** How far past the chain's time a deadline may lie (the registry's MAX_DEADLINE_DELAY). */
export const MAX_DEADLINE_S = 300;

export interface AgentWalletSet {
  agentId: bigint;
  newWallet: string;
  owner: string;
  deadline: bigint;
}

/** The typed data a wallet signs to become an agent's agentWallet, as eth_signTypedData_v4 takes it (integers as decimal strings). */
export function agentWalletTypedData(chainId: number, registry: string, set: AgentWalletSet) {
  return {
    domain: { name: 'ERC8004IdentityRegistry', version: '1', chainId, verifyingContract: getAddress(registry) },
    types: AGENT_WALLET_TYPES,
    primaryType: 'AgentWalletSet' as const,
    message: { agentId: set.agentId.toString(), newWallet: getAddress(set.newWallet), owner: getAddress(set.owner), deadline: set.deadline.toString() },
  };
}

export type AgentWalletTypedData = ReturnType<typeof agentWalletTypedData>;

/** Why the registry would refuse this signature at the chain's time `nowS`, by name and in words; null when it would pass. */
export function agentWalletRefusal(typed: AgentWalletTypedData, signature: string, nowS: bigint): { code: 'deadline_passed' | 'deadline_too_far' | 'wrong_signer'; message: string } | null {
  const deadline = BigInt(typed.message.deadline);
  if (deadline < nowS) return { code: 'deadline_passed', message: `the deadline ${deadline} has passed: the chain's time is ${nowS}; sign again with a later deadline` };
  if (deadline > nowS + BigInt(MAX_DEADLINE_S))
    return { code: 'deadline_too_far', message: `the deadline ${deadline} is more than ${MAX_DEADLINE_S} s past the chain's time ${nowS}, which the registry refuses` };
  let signer: string;
  try {
    signer = verifyTypedData(typed.domain, typed.types, typed.message, signature);
  } catch {
    return { code: 'wrong_signer', message: 'the signature is not a 65-byte ECDSA signature of the typed data' };
  }
  if (signer !== typed.message.newWallet)
    return { code: 'wrong_signer', message: `the signature is ${signer}'s, not the wallet ${typed.message.newWallet}'s: the wallet itself signs AgentWalletSet` };
  return null;
}
