import { getAddress, isAddress } from 'ethers';
import { z } from 'zod';

export const NAME_RULE = '3 to 32 characters of a-z, 0-9, - and _ (lower-cased on input); house names are reserved';
export const WALLET_RULE = 'optional 0x-prefixed 20-byte address; becomes your operator';

export const Name = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.string().min(3, 'at least 3 characters').max(32, 'at most 32 characters').regex(/^[a-z0-9_-]+$/, 'only a-z, 0-9, - and _'));

/** An address, stored checksummed (EIP-55), so the same wallet always reads the same. */
export const Wallet = z
  .string()
  .refine((s) => /^0x[0-9a-fA-F]{40}$/.test(s) && isAddress(s), 'not a 0x-prefixed address with a valid checksum')
  .transform((s) => getAddress(s));
