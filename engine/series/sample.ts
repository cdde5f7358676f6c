import type { Quote, Terms } from './types.js';

/** A hire for the series' tests: three one-hour epochs of the copy seller at 25 USDC on an external venue. */
export const sampleQuote = (over: Partial<Quote> = {}): Quote => ({
  agent: { chainId: 8453, agentId: '42', seller: 'copy' },
  venue: 'acct-external',
  epochs: 3,
  epoch_s: 3_600,
  price_usdc: 25,
  caps: { markets: ['NQ', 'ES'], max_order_size: 2, max_notional: 50_000, max_position: 4, allow_short: false },
  cover: 500,
  ...over,
});

/** The layer's terms for a sample quote, as its pool would answer them. */
export const sampleTerms = (q: Quote, fee_usdc = 0.5): Terms => ({
  kind: 'external',
  class: 'trading.mandate.external.v1',
  checks: [1, 2, 3],
  evidence: "fills from the venue's account history",
  per_epoch: { price_usdc: q.price_usdc, fee_usdc, cover_usdc: q.cover, epoch_s: q.epoch_s, judge: { evaluator: `0x${'22'.repeat(20)}`, checks: [1, 2, 3] } },
  seller_deposit_usdc: 1000,
});
