import { digest } from '../../upstream/identity/keys.js';
import type { Caller } from '../context.js';

/** What per-client limits count by (joins a day, refused keys): the client's address salted and hashed, never the address. */
export const clientOf = (s: { store: { salt: string } }, caller: Caller): string => digest(`${s.store.salt}|${caller.address}`);
