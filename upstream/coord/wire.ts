import { z } from 'zod';
import { VENUE_KINDS } from '../../engine/series/index.js';

// The coordination layer's answers, as the deck reads them (the layer's wire, docs/series.md). Times are unix
// seconds; addresses 0x-prefixed. An answer of another shape is the layer answering nonsense: 502.

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address');
const int = z.number().int().nonnegative();
const usdc = z.number().nonnegative();
const ok = z.literal(true);

export const Venue = z.object({
  venue: z.string().min(1),
  kind: z.enum(VENUE_KINDS),
  class: z.string().min(1),
  checks: z.array(z.number().int().positive()).min(1),
  evidence: z.string(),
});
export type Venue = z.infer<typeof Venue>;

export const VenuesAnswer = z.object({ ok, venues: z.array(Venue) });

export const PoolQuoteAnswer = z.object({
  ok,
  class: z.string().min(1),
  kind: z.enum(VENUE_KINDS),
  per_epoch: z.object({
    price_usdc: usdc,
    fee_usdc: usdc,
    cover_usdc: usdc,
    epoch_s: z.number().int().positive(),
    judge: z.object({ evaluator: address, checks: z.array(z.number().int().positive()).min(1) }),
  }),
  seller_deposit_usdc: usdc,
});
export type PoolQuoteAnswer = z.infer<typeof PoolQuoteAnswer>;

const handshakeId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a handshake id');

export const HandshakeOpened = z.object({ ok, handshake_id: handshakeId, state: z.literal('open'), opened_at: int });
export type HandshakeOpened = z.infer<typeof HandshakeOpened>;

export const SettleAnswer = z.object({
  ok,
  handshake_id: handshakeId,
  unsigned: z.object({ chainId: z.number().int().positive(), to: address, data: z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'hex bytes'), value: z.string() }),
  job: z.object({ class: z.string(), provider: address, evaluator: address, expiredAt: int, description: z.string(), hook: address }),
});
export type SettleAnswer = z.infer<typeof SettleAnswer>;

export const HandshakeAnswer = z.object({
  ok,
  handshake_id: handshakeId,
  state: z.enum(['open', 'submitted', 'ended']),
  verdict: z.object({ pass: z.boolean(), checks: z.array(z.object({ n: z.number().int().positive(), pass: z.boolean(), why: z.string() })) }).optional(),
  ended_at: int.optional(),
});
export type HandshakeAnswer = z.infer<typeof HandshakeAnswer>;

/** What the deck sends the pool quote. */
export interface PoolQuoteRequest {
  class: string;
  venue: string;
  seller: { chainId: number; agentId: string; seller: string };
  epochs: number;
  epoch_s: number;
  price_usdc: number;
  caps: { markets: string[]; max_order_size: number; max_notional: number; max_position: number; allow_short: boolean };
  cover: number;
}

/** What the deck sends to open an epoch's handshake; `endpoint` is the seller's /mcp/{seller} URL. */
export interface HandshakeRequest {
  class: string;
  seller: { chainId: number; agentId: string; endpoint: string };
  series_id: string;
  epoch: number;
  paymentRef: string;
  opener: { agent_id: string; wallet: string | null };
  window: { from: number; to: number };
}
