import type { Grant, PlansFile } from '../config/files.js';

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
  grants: readonly Grant[];
  sellers: readonly SellerListing[];
}
