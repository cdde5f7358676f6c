import { describe, expect, it } from 'vitest';
import { durationWords, listWords, mandateWords } from './words.js';
import { sampleQuote, sampleTerms } from './sample.js';

describe('the mandate in words', () => {
  it('says lengths in the largest whole unit and lists with "and"', () => {
    expect([86_400, 172_800, 3_600, 21_600, 5_400, 4_000].map(durationWords)).toEqual(['1 day', '2 days', '1 hour', '6 hours', '90 minutes', '4000 seconds']);
    expect([[], ['NQ'], ['NQ', 'ES'], ['NQ', 'ES', 'YM']].map(listWords)).toEqual(['', 'NQ', 'NQ and ES', 'NQ, ES and YM']);
  });

  it('builds one sentence from the caps, venue, epochs and price, the same every time', () => {
    const quote = sampleQuote({
      epochs: 4,
      epoch_s: 86_400,
      price_usdc: 12.5,
      caps: { markets: ['BTC', 'ETH'], max_order_size: 0.5, max_notional: 40_000, max_position: 1, allow_short: true },
      cover: 0,
    });
    const terms = sampleTerms(quote, 0);
    const words = mandateWords({ quote, terms, from: 1_893_974_400, validUntil: 1_893_974_400 + 4 * 86_400, total: 50 });
    expect(words).toBe(
      'Hire the copy seller (agent 42 on chain 8453) at venue acct-external (external, trading.mandate.external.v1) for 4 epochs of 1 day each, ' +
        'from 2030-01-07T00:00:00Z to 2030-01-11T00:00:00Z, at 12.5 USDC an epoch (50 USDC in all), to trade BTC and ETH only: ' +
        'each order at most 0.5 in size and 40000 in notional, a position at most 1 (long or short); cover 0 USDC; the judge runs checks 1, 2 and 3 on every epoch.',
    );
  });
});
