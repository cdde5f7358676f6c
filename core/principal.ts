/** Tiers in the order they open things: each opens everything the ones before it open. */
export const TIERS = ['free', 'plan', 'max', 'house'] as const;
export type Tier = (typeof TIERS)[number];

export const opens = (have: Tier, need: Tier): boolean => TIERS.indexOf(have) >= TIERS.indexOf(need);

/**
 * Where a principal's wallet stands: named (at join) but not proven, or proven by its own signature; null when it has
 * none. Only a proven wallet is the principal's for anything that counts (a plan claim's payer, a series' opener).
 */
export type WalletStatus = 'unproven' | 'proven' | null;

/** The signed-in party every tool acts as. */
export interface Principal {
  id: string;
  name: string;
  agent_id: string;
  wallet: string | null;
  wallet_status: WalletStatus;
  tier: Tier;
  /**
   * How this call was signed in: the session (cookie or its value as bearer), the key as bearer, or a payment per call
   * (x402), whose payer is the principal.
   */
  via: 'session' | 'key' | 'payment';
}

/** The principal's wallet when it is proven; a wallet only named proves nothing and counts for nothing. */
export const provenWallet = (p: Pick<Principal, 'wallet' | 'wallet_status'>): string | null => (p.wallet_status === 'proven' ? p.wallet : null);
