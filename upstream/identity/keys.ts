import { hash, randomBytes } from 'node:crypto';

/** A fresh key: the fixed prefix and 32 random bytes. */
export const newKey = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

/** Keys and session tokens are kept only as this digest (they carry 256 random bits, so no salt is needed). */
export const digest = (secret: string): string => hash('sha256', secret, 'hex');
