import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

/** How long a sign-in code or link, an X sign-in waiting for X, and a door's proof live. */
export const ASK_TTL_MS = 15 * 60_000;
export const X_TTL_MS = 10 * 60_000;
export const PROOF_TTL_MS = 15 * 60_000;

/**
 * A keyed digest (HMAC-SHA256 under the store's secret salt) of a value that carries little randomness of its own (an
 * email address, a six-digit code, an X state): without the salt a digest in the store cannot be walked back.
 */
export const keyed = (salt: string, purpose: string, value: string): string => createHmac('sha256', salt).update(`${purpose}|${value}`).digest('hex');

/** An address as compared: trimmed and lower-cased. */
export const normalEmail = (address: string): string => address.trim().toLowerCase();

/** The door key of an address: its keyed digest (the deck keeps no address). */
export const emailKey = (salt: string, address: string): string => `email:${keyed(salt, 'email', normalEmail(address))}`;

/** An X account's door key: its user id, which X never reassigns. */
export const xKey = (id: string): string => `x:${id}`;

/** What a person sees of a linked address: its first character and its domain (a***@example.com). */
export const maskEmail = (address: string): string => {
  const [local = '', domain = ''] = normalEmail(address).split('@');
  return `${local.slice(0, 1)}***@${domain}`;
};

/** A six-digit sign-in code, uniformly drawn. */
export const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The link a sign-in mail carries, and a door's proof: 32 random bytes each, kept by the deck only as digests. */
export const newLinkToken = (): string => `dl_${randomBytes(32).toString('base64url')}`;
export const newProof = (): string => `dp_${randomBytes(32).toString('base64url')}`;
export const newState = (): string => randomBytes(32).toString('base64url');

/**
 * The PKCE verifier of an X sign-in, derived from its state under the store's salt rather than kept: any deck sharing
 * the store finds it again at the callback, and nothing the store holds gives it away. 43 characters of base64url.
 */
export const pkceVerifier = (salt: string, state: string): string => createHmac('sha256', salt).update(`x-pkce|${state}`).digest('base64url');

/** The S256 challenge of a verifier (RFC 7636). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');
