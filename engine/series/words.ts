import type { Quote, Terms } from './types.js';

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** A length in seconds in the largest unit that divides it whole: 1 day, 6 hours, 90 minutes, 4000 seconds. */
export function durationWords(s: number): string {
  if (s % 86_400 === 0) return plural(s / 86_400, 'day');
  if (s % 3_600 === 0) return plural(s / 3_600, 'hour');
  if (s % 60 === 0) return plural(s / 60, 'minute');
  return plural(s, 'second');
}

/** NQ; NQ and ES; NQ, ES and YM. */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const iso = (t: number): string => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The mandate said in words: who is hired, where, for how long, at what price, and the caps the judge holds the fills
 * to. Built from the numbers alone, so the same series says the same sentence.
 */
export function mandateWords(a: { quote: Quote; terms: Terms; from: number; validUntil: number; total: number }): string {
  const { quote: q, terms: t } = a;
  const fee = t.per_epoch.fee_usdc > 0 ? `, plus the layer's fee of ${t.per_epoch.fee_usdc} USDC an epoch` : '';
  const side = q.caps.allow_short ? 'long or short' : 'long only';
  return (
    `Hire the ${q.agent.seller} seller (agent ${q.agent.agentId} on chain ${q.agent.chainId}) at venue ${q.venue} (${t.kind}, ${t.class}) ` +
    `for ${plural(q.epochs, 'epoch')} of ${durationWords(q.epoch_s)} each, from ${iso(a.from)} to ${iso(a.validUntil)}, ` +
    `at ${q.price_usdc} USDC an epoch (${a.total} USDC in all${fee}), to trade ${listWords(q.caps.markets)} only: ` +
    `each order at most ${q.caps.max_order_size} in size and ${q.caps.max_notional} in notional, a position at most ${q.caps.max_position} (${side}); ` +
    `cover ${q.cover} USDC; the judge runs checks ${listWords(t.checks.map(String))} on every epoch.`
  );
}
