import { verifyMessage } from 'ethers';

/**
 * The exact texts a wallet signs (EIP-191 personal signatures). They name the principal's agent_id so a
 * signature made for one principal proves nothing for another.
 */

/**
 * WALLET_MESSAGE: signed by a wallet to prove it is the principal's. It names the deck's host (a signature made for
 * one deck proves nothing at another), the principal's agent_id, and a nonce the deck issued and takes once, with
 * the moment it stops being taken.
 */
export const walletMessage = (host: string, agentId: string, nonce: string, expires: string): string =>
  `the deck: wallet proof\nhost: ${host}\nagent_id: ${agentId}\nnonce: ${nonce}\nexpires: ${expires}`;

/** Signed by a payer that is not a proven wallet of the principal, to bind its payment to the principal. */
export const planClaimMessage = (agentId: string, chain: string, txHash: string): string =>
  `the deck: plan claim\nagent_id: ${agentId}\nchain: ${chain}\ntx: ${txHash.toLowerCase()}`;

/** HOLDER_MESSAGE: signed by a collection holder's wallet, valid on the UTC day it names. */
export const holderMessage = (agentId: string, day: string): string => `the deck: holder standing\nagent_id: ${agentId}\nday: ${day}`;

/** The address whose EIP-191 personal signature `signature` is over `message`; null when it does not parse. */
export function signerOf(message: string, signature: string): string | null {
  try {
    return verifyMessage(message, signature);
  } catch {
    return null;
  }
}
