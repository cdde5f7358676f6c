/** Tiers in the order they open things: each opens everything the ones before it open. */
export const TIERS = ['free', 'plan', 'max', 'house'] as const;
export type Tier = (typeof TIERS)[number];

export const opens = (have: Tier, need: Tier): boolean => TIERS.indexOf(have) >= TIERS.indexOf(need);

/** The signed-in party every tool acts as. */
export interface Principal {
  id: string;
  name: string;
  agent_id: string;
  wallet: string | null;
  tier: Tier;
  /** How this call was signed in: the session (cookie or its value as bearer) or the key as bearer. */
  via: 'session' | 'key';
}
