import { z } from 'zod';
import type { Config } from '../../config/env.js';
import { DeckError, notConfigured } from '../../core/errors.js';
import { opens, type Tier } from '../../core/principal.js';
import type { GraderLane } from './chat.js';

/**
 * Who pays for a grader decision: the one way every grader door (grade, score) is funded, in this order:
 *   own_key  the caller brought a grader key (grader_key): the decision is asked with it; nothing of the house,
 *            the plan or the trial pings is used
 *   house    a house-tier principal, on the house key (DECK_GRADER_KEY)
 *   plan     a plan or max tier principal: the plan covers it, on the house key
 *   trial    a free-tier principal with trial pings left (DECK_GRADER_TRIAL_PINGS in all, default 3), on the house key
 * No lane (DECK_GRADER_URL unset) is 503 before anything else; otherwise no way is 402 naming what would fund it.
 */
export type Funding = 'own_key' | 'house' | 'plan' | 'trial';

/** An OpenAI-style secret key: sk-, then 20 to 200 letters, digits, _ or - (sk-proj-..., sk-ant-... fit). */
export const GRADER_KEY_SHAPE = /^sk-[A-Za-z0-9_-]{20,200}$/;
export const GraderKey = z
  .string()
  .regex(GRADER_KEY_SHAPE, 'not shaped like a grader key: sk- then 20 to 200 letters, digits, _ or -')
  .describe('your own key for the grader lane (sk-...): the decision is asked with it and your trial pings and plan are not used; never kept');

export interface FundingAsk {
  grader: Config['grader'];
  tier: Tier;
  ownKey: string | null;
  trial: { limit: number; used: number };
  /** The plans that open the plan tier, named when one would fund the decision. */
  plans: readonly string[];
}

const noFunding = (message: string, fund: string[], ask: Pick<FundingAsk, 'trial' | 'plans'>): DeckError =>
  new DeckError(402, 'no_grader_funding', message, {
    fund,
    ...(fund.includes('plan') ? { plans: ask.plans } : {}),
    trial_pings: { limit: ask.trial.limit, used: ask.trial.used },
  });

export function fundingOf(ask: FundingAsk): { lane: GraderLane; funded: Funding } {
  const g = ask.grader;
  if (!g) throw notConfigured('the grader lane', 'DECK_GRADER_URL (an OpenAI-compatible chat-completions endpoint)');
  if (ask.ownKey) return { lane: { url: g.url, key: ask.ownKey, model: g.model }, funded: 'own_key' };
  if (!g.key) throw noFunding('the deck holds no grader key of its own: bring yours as grader_key', ['grader_key'], ask);
  const lane = { url: g.url, key: g.key, model: g.model };
  if (ask.tier === 'house') return { lane, funded: 'house' };
  if (opens(ask.tier, 'plan')) return { lane, funded: 'plan' };
  if (ask.trial.used < ask.trial.limit) return { lane, funded: 'trial' };
  throw pingsSpent(ask);
}

/** 402 for a free-tier principal whose trial pings are used: a key of its own or a plan would fund it. */
export const pingsSpent = (ask: Pick<FundingAsk, 'trial' | 'plans'>): DeckError =>
  noFunding(
    `your ${ask.trial.limit} trial pings of the grader are used: bring your own grader key as grader_key, or take a plan (${ask.plans.join(', ')})`,
    ['grader_key', 'plan'],
    ask,
  );
