import { usdcTimes, type Quote, type Terms } from '../../engine/series/index.js';
import type { Ctx } from '../context.js';
import { pricesBySeller } from './quote-body.js';
import { badInput, DeckError } from '../../core/errors.js';

/** A quote confirmed by the layer: the body as normalized, the terms, and what the whole series costs. */
export interface Quoted {
  quote: Quote;
  terms: Terms;
  series_total_usdc: number;
}

/**
 * Quotes a series with the layer: the venue's kind and class from its venues, the terms from its pool quote. A vault
 * given for an external venue is bad input (`at` says the status and where the body sits); 422 no_lane for a venue the
 * layer does not list, or when no pool serves it; 422 external_no_cover when the cover is over the seller's deposit on an external
 * venue. Nothing is kept, here or at the layer.
 */
export async function quoteSeries(ctx: Ctx, q: Quote, at: { status: 400 | 422; prefix: string }): Promise<Quoted> {
  const { min, max } = pricesBySeller(ctx.offer.plans)[q.agent.seller]!;
  if (q.price_usdc < min || q.price_usdc > max)
    throw badInput([{ field: `${at.prefix}price_usdc`, message: `the ${q.agent.seller} seller's card prices an epoch (one job) from ${min} to ${max} USDC` }], undefined, at.status);
  const layer = ctx.upstreams.coord;
  const venues = await layer.venues();
  const venue = venues.find((v) => v.venue === q.venue);
  // A venue the layer does not list is a hire no lane serves: the contract's 422 no_lane, naming the ones it lists.
  if (!venue) {
    const listed = venues.map((v) => v.venue);
    throw new DeckError(422, 'no_lane', `no lane serves venue ${q.venue}: the layer lists ${listed.join(', ') || 'none'}`, { field: `${at.prefix}venue`, venues: listed });
  }
  if (q.vault && venue.kind !== 'vault') throw badInput([{ field: `${at.prefix}vault`, message: `${q.venue} is of ${venue.kind} kind: only a vault-kind venue takes a vault` }], undefined, at.status);
  const { per_epoch, seller_deposit_usdc } = await layer.poolQuote({
    class: venue.class,
    venue: q.venue,
    seller: q.agent,
    epochs: q.epochs,
    epoch_s: q.epoch_s,
    price_usdc: q.price_usdc,
    caps: q.caps,
    cover: q.cover,
  });
  if (venue.kind === 'external' && q.cover > seller_deposit_usdc)
    throw new DeckError(422, 'external_no_cover', `on an external venue the cover may not exceed the seller's deposit: ${q.cover} USDC asked, ${seller_deposit_usdc} USDC deposited`, {
      cover: q.cover,
      seller_deposit_usdc,
    });
  return {
    quote: q,
    terms: { kind: venue.kind, class: venue.class, checks: venue.checks, evidence: venue.evidence, per_epoch, seller_deposit_usdc },
    series_total_usdc: usdcTimes(per_epoch.price_usdc, q.epochs),
  };
}

/** Why a vault-kind series cannot open yet, in the words of the refusal it gets. */
export const VAULT_NOT_BUILT = 'a vault-kind series cannot open until the vault contract grants the mandate on chain; the vault is not built yet';
