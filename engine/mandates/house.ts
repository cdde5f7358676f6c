/** The house's spot chain and the administrators whose mandates the house operator runs. */
export interface Spot {
  chainId: number;
  administrators: readonly string[];
}

/**
 * Why a signed mandate is not one the house operator runs, or null when it is: only a spot administrator's
 * signature, over a domain on the house's spot chain, makes a house mandate.
 */
export function notHouseMandate(signer: string, chainId: number | null, spot: Spot): string | null {
  if (!spot.administrators.some((a) => a.toLowerCase() === signer.toLowerCase())) return `the signer ${signer} is not a spot administrator of the house`;
  if (chainId !== spot.chainId) return `domain.chainId ${chainId ?? 'is missing; it'} must be the house's spot chain ${spot.chainId}`;
  return null;
}
