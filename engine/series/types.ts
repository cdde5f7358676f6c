/** A series of epoch jobs under one mandate, as the deck keeps it. Times are unix seconds. */

export const SERIES_STATES = ['MANDATED', 'EPOCH_OPEN', 'EPOCH_ENDED', 'STOPPED', 'ENDED'] as const;
export type SeriesState = (typeof SERIES_STATES)[number];

/** An epoch's own course: pending until opened, then as the layer reports its handshake; skipped if never opened. */
export const EPOCH_STATES = ['pending', 'open', 'submitted', 'ended', 'skipped'] as const;
export type EpochState = (typeof EPOCH_STATES)[number];

export const VENUE_KINDS = ['vault', 'external'] as const;
export type VenueKind = (typeof VENUE_KINDS)[number];

/** The agent hired: its ERC-8004 identity and the deck seller it is. */
export interface Agent {
  chainId: number;
  agentId: string;
  seller: string;
}

export interface Caps {
  markets: string[];
  max_order_size: number;
  max_notional: number;
  max_position: number;
  allow_short: boolean;
}

/** The quote body as the deck normalizes it (epoch_s and allow_short filled in). */
export interface Quote {
  agent: Agent;
  venue: string;
  epochs: number;
  epoch_s: number;
  price_usdc: number;
  caps: Caps;
  cover: number;
  vault?: string;
}

/** The layer's terms for one epoch, as its pool quote answers them. */
export interface PerEpoch {
  price_usdc: number;
  fee_usdc: number;
  cover_usdc: number;
  epoch_s: number;
  /** Who evaluates each epoch's job, and the checks it runs. */
  judge: { evaluator: string; checks: number[] };
}

/** What the layer said of the venue and the hire when the series was quoted. */
export interface Terms {
  kind: VenueKind;
  class: string;
  checks: number[];
  evidence: string;
  per_epoch: PerEpoch;
  seller_deposit_usdc: number;
}

export interface Verdict {
  pass: boolean;
  checks: { n: number; pass: boolean; why: string }[];
}

/** The unsigned plan that opens an epoch's job: ERC-8183 createJob calldata, for the buyer's own wallet to sign. */
export interface UnsignedPlan {
  chainId: number;
  to: string;
  data: string;
  value: '0';
}

/** The job the plan creates, as the layer states it (the deck checks it against the calldata). */
export interface Job {
  class: string;
  provider: string;
  evaluator: string;
  expiredAt: number;
  description: string;
  hook: string;
}

export interface Epoch {
  index: number;
  window: { from: number; to: number };
  /** sha256 of the text `{series_id}:{index}`, 0x-prefixed. */
  paymentRef: string;
  state: EpochState;
  handshake_id: string | null;
  opened_at: number | null;
  ended_at: number | null;
  verdict: Verdict | null;
  unsigned: UnsignedPlan | null;
  job: Job | null;
}

/** The rows of the state table (docs/series.md), numbered as the interface document numbers them. */
export const ROW_IDS = ['R01', 'R02', 'R03', 'R04', 'R05', 'R06', 'R07', 'R08', 'R09', 'R10', 'R11', 'R12', 'R13', 'R14'] as const;
export type RowId = (typeof ROW_IDS)[number];

export type MoveWhat = 'opened' | 'epoch_opened' | 'epoch_adopted' | 'epoch_submitted' | 'epoch_ended' | 'plan_kept' | 'revoked' | 'ended';

/** One move of a series, as its record lists it and the series ledger chains it. */
export interface Move {
  /** The move's number within its series, from 1. */
  n: number;
  /** The state table's row; null for a plan kept on an epoch already open (no state moves). */
  row: RowId | null;
  what: MoveWhat;
  from: SeriesState | null;
  to: SeriesState;
  at: number;
  epoch?: number;
  handshake_id?: string;
  why?: string;
}

export type EndWhy = 'last_epoch' | 'valid_until' | 'stopped';

export interface SeriesRecord {
  id: string;
  state: SeriesState;
  created_at: number;
  /** When the first epoch's window begins. */
  from: number;
  /** The end of the series: the last epoch's window ends here. */
  validUntil: number;
  quote: Quote;
  terms: Terms;
  series_total_usdc: number;
  /** The mandate said in words. */
  mandate: string;
  epochs: Epoch[];
  stopped: { at: number; why: string } | null;
  ended: { at: number; why: EndWhy } | null;
  moves: Move[];
}
