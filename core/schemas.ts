import { z } from 'zod';

// Wire primitives every layer's schemas share (the store's records, the tools' answers).

/** sha256, as 64 lowercase hex digits. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** A moment as an ISO 8601 UTC timestamp. */
export const IsoTime = z.iso.datetime();

/** A moment in unix seconds. */
export const UnixS = z.number().int();

/** 32 bytes as 0x and 64 lowercase hex digits: a hash as a chain carries it (an EIP-712 hash, a payment reference). */
export const Hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

/** An EVM address, 0x-prefixed. */
export const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
