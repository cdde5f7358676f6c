/** The operator's holder rule: units a day per NFT held, counted up to max_nfts. */
export interface HolderRule {
  allowance_per_nft: number;
  max_nfts: number;
}

/** The units a day a holder of `nfts` gains. */
export const holderAllowance = (nfts: number, rule: HolderRule): number => rule.allowance_per_nft * Math.min(nfts, rule.max_nfts);

/**
 * How much of the holder allowance today's spend used. The holder's units are spent first, so what a holder
 * gains shows at once; the plan's allowance covers the rest.
 */
export function holderUse(allowance: number, spentToday: number) {
  const used = Math.min(Math.max(spentToday, 0), allowance);
  return { used, remaining: allowance - used };
}
