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

/** A tool as the roadmap lists it: its area (its REST route's tag, or mcp for a tool served to agents only). */
export interface ToolListing {
  area: string;
  name: string;
  title: string;
  /** Its REST route, as `METHOD /path`; null for a tool served over MCP only. */
  route: string | null;
  /** Whether agents reach it over MCP. */
  mcp: boolean;
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
  /** Every tool of the registry, in its order. */
  tools: readonly ToolListing[];
}
