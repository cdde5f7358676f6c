import type { Grant, PlansFile } from '../config/files.js';
import type { Locks } from './plans/locks.js';
import type { PerCall } from './pay/per-call.js';

/** A seller as the catalogue lists it: where to reach it and what it serves. */
export interface SellerListing {
  id: string;
  name: string;
  description: string;
  endpoint: string;
  card_url: string;
  tools: string[];
}

/** What the deck offers, read from configuration under version control and the registry at start. */
export interface Offer {
  plans: PlansFile;
  /** The tier locks of the plans file: the lowest tier that opens each locked tool. */
  locks: Locks;
  grants: readonly Grant[];
  /** Payment per call (x402): the priced tools and where payments settle; null when no facilitator is configured. */
  perCall: PerCall | null;
  sellers: readonly SellerListing[];
}
