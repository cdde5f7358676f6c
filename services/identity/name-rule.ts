import { getAddress, isAddress } from 'ethers/address';
import { z } from 'zod';

export const NAME_RULE = '3 to 32 characters of a-z, 0-9, - and _ (lower-cased on input); house names are reserved';
export const WALLET_RULE = 'optional 0x-prefixed 20-byte address; becomes your operator, unproven: it counts (plan claims, series) only once its own signature proves it (GET /me/wallet)';

export const Name = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.string().min(3, 'at least 3 characters').max(32, 'at most 32 characters').regex(/^[a-z0-9_-]+$/, 'only a-z, 0-9, - and _'));

/**
 * An address, stored checksummed (EIP-55), so the same wallet always reads the same. A mixed-case address
 * must carry a checksum that holds; one case throughout carries none.
 */
export const Wallet = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'not an address: 0x and 40 hex digits', abort: true })
  .refine(isAddress, 'its mixed-case checksum (EIP-55) does not hold: check the address, or send it in lower case')
  .transform((s) => getAddress(s));
