import type { PlansFile } from './files.js';

/**
 * A seller is a name, a card's worth of words and a filter over the registry. The deck's own /mcp
 * serves every tool; /mcp/{seller} serves the seller's tools plus the house tools every seller carries.
 */
export interface Seller<Tool extends string = string> {
  id: 'studio' | 'candles' | 'copy';
  name: string;
  description: string;
  /** The tools the seller offers, as its card names them (only those the registry holds are served). */
  tools: readonly Tool[];
  skills: readonly string[];
  proposed_classes: readonly string[];
  /** USDC per job: fixed, or at most the price of a plan of the plans file (max_plan). */
  price_usdc: { unit: string; min: number; max: number } | { unit: string; min: number; max_plan: string };
  price_basis: string;
  verify: string;
}

/** Every seller endpoint also serves these, so an agent can always read the offer and its own account. */
export const HOUSE_TOOLS = ['catalogue', 'plans', 'account'] as const;

export const SELLERS = [
  {
    id: 'studio',
    name: 'the deck: studio',
    description:
      "Reads a trader's own rule into seven parts, forges it into a deterministic watermarked state machine and " +
      'rehearses it over the real tape against a random null. A rehearsal is evidence about the past, never a forecast. ' +
      "Grading a forge's fidelity to the words is not served here: grade is on the deck's /mcp.",
    tools: ['workflow_read', 'forge', 'rehearse', 'skills', 'skill_read'],
    skills: ['strategy-compile', 'backtest', 'walk-forward', 'rule-parsing', 'trading-workflow'],
    proposed_classes: ['strategy.rehearse'],
    price_usdc: { unit: 'job', min: 0, max: 0 },
    price_basis: 'free inside the plan allowance; free tier 3 forges a day',
    verify: 'the same seed and window give the same envelope, byte for byte: re-run the rehearsal and compare digests',
  },
  {
    id: 'candles',
    name: 'the deck: candles',
    description:
      'Real OHLCV for NQ, ES, YM, BTC, ETH and SOL at 15s, 1m, 5m and 1h, for a past window only. Past windows ' +
      'are sealed, so the same request returns the same bars. NQ, ES and YM follow the CME session ' +
      '(weekend halt, daily break at 21:00 UTC).',
    tools: ['tape'],
    skills: ['market-data', 'ohlcv', 'candles', 'futures', 'crypto'],
    proposed_classes: ['market.candles'],
    price_usdc: { unit: 'job', min: 0, max: 0 },
    price_basis: 'free',
    verify: 'a sealed window answers the same bars byte for byte on every request',
  },
  {
    id: 'copy',
    name: 'the deck: copy',
    description:
      'Lists live trading models with realized PnL, drawdown and win rate from paired closes; synthetic book ' +
      "actors are never listed. A record is past fills, never a forecast. follow_quote quotes following at the " +
      "follower's own size inside the follower's own caps.",
    tools: ['models', 'model_record', 'follow_quote'],
    skills: ['copy-trading', 'track-record', 'position-sizing', 'risk-caps'],
    proposed_classes: ['copy.follow_quote'],
    price_usdc: { unit: 'job', min: 0, max_plan: 'premium-99' },
    price_basis: 'models and records free; following needs the max plan, premium-99 per 30 days',
    verify: 'every figure in a record is recomputed from the paired fills it lists',
  },
] as const satisfies readonly Seller[];

/** A seller's price per job, read from the plans file where it names a plan (so the card cannot disagree with it). */
export function priceOf(seller: Seller, plans: PlansFile): { unit: string; min: number; max: number } {
  const p = seller.price_usdc;
  if ('max' in p) return p;
  const plan = plans.plans.find((x) => x.id === p.max_plan);
  if (!plan) throw new Error(`the plans file has no plan ${p.max_plan}, which prices the ${seller.id} seller`);
  return { unit: p.unit, min: p.min, max: plan.price_usdc };
}

export const sellerById = (id: string): Seller | null => SELLERS.find((s) => s.id === id) ?? null;
export const SELLER_IDS = SELLERS.map((s) => s.id);
