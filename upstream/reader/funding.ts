import { DeckError, notConfigured } from '../../core/errors.js';
import { opens, type Tier } from '../../core/principal.js';
import type { ModelReader } from './model-reader.js';

/**
 * Who may read with the model lane. The lane is the house's (DECK_READER_URL, with DECK_READER_KEY when it needs a
 * key), and a reading costs the house a model call, so it is funded for the tiers that pay:
 *   house  a house-tier principal
 *   plan   a plan or max tier principal: the plan covers it
 * The free tier is not funded: 402 no_reader_funding naming the plans that would fund it. No lane (DECK_READER_URL
 * unset) is 503 before anything else. Every accepted reading is recorded on the meter as read_model.
 */
export type ReaderFunding = 'house' | 'plan';

export type ModelLane = { reader: ModelReader; funded: ReaderFunding } | { reason: string; refusal: DeckError };

export function modelLaneFor(reader: ModelReader | null, tier: Tier, plans: readonly string[]): ModelLane {
  if (!reader) return { reason: 'not configured: set DECK_READER_URL', refusal: notConfigured('the model reader lane', 'DECK_READER_URL') };
  if (tier === 'house') return { reader, funded: 'house' };
  if (opens(tier, 'plan')) return { reader, funded: 'plan' };
  const reason = `not funded on the ${tier} tier: take a plan (${plans.join(', ')})`;
  return {
    reason,
    refusal: new DeckError(402, 'no_reader_funding', `the model reader lane is ${reason}`, { fund: ['plan'], plans }),
  };
}
