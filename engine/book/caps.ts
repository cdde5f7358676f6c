import { z } from 'zod';
import { MARKETS, type Market } from '../markets.js';
import { notionalOf, onStep } from './contracts.js';
import { dirOf, type Side } from './order.js';

/**
 * Caps, in the words of the interface's caps object: the markets one may trade, the largest order, the largest
 * order in dollars, the largest position (each in the market's own units: contracts, or coins) and whether a
 * position may be short. Every field is optional: what is left out is the house's limit.
 */
export const CapsSchema = z.strictObject({
  markets: z.array(z.enum(MARKETS)).min(1).optional().describe('the markets that may be traded (all six when left out)'),
  max_order_size: z.number().finite().positive().optional().describe("the largest order, in the market's units (contracts, or coins)"),
  max_notional: z.number().finite().positive().optional().describe('the largest order in US dollars: size x price x dollars a point'),
  max_position: z.number().finite().positive().optional().describe("the largest position either way, in the market's units"),
  allow_short: z.boolean().optional().describe('whether a position may be short (default true)'),
});
export type Caps = z.infer<typeof CapsSchema>;

/**
 * The house's limits on every book, whoever trades: about $3.5 million of NQ in one order at 17,500, and
 * comparable sizes elsewhere. Caps only ever tighten them.
 */
export const HOUSE_LIMITS: Readonly<Record<Market, { max_order_size: number; max_position: number }>> = {
  NQ: { max_order_size: 10, max_position: 20 },
  ES: { max_order_size: 10, max_position: 20 },
  YM: { max_order_size: 10, max_position: 20 },
  BTC: { max_order_size: 5, max_position: 10 },
  ETH: { max_order_size: 100, max_position: 200 },
  SOL: { max_order_size: 2_000, max_position: 4_000 },
};
export const HOUSE_MAX_NOTIONAL_USD = 5_000_000;

/** The limits caps make on one market, inside the house's: what an order there meets. */
export const LimitsSchema = z.strictObject({
  traded: z.boolean().describe('whether the market may be traded'),
  max_order_size: z.number().describe("the largest order, in the market's units"),
  max_notional: z.number().describe('the largest order in US dollars'),
  max_position: z.number().describe("the largest position either way, in the market's units"),
  allow_short: z.boolean(),
});
export type Limits = z.infer<typeof LimitsSchema>;

export function limitsFor(caps: Caps, market: Market): Limits {
  const house = HOUSE_LIMITS[market];
  return {
    traded: !caps.markets || caps.markets.includes(market),
    max_order_size: Math.min(caps.max_order_size ?? Infinity, house.max_order_size),
    max_notional: Math.min(caps.max_notional ?? Infinity, HOUSE_MAX_NOTIONAL_USD),
    max_position: Math.min(caps.max_position ?? Infinity, house.max_position),
    allow_short: caps.allow_short ?? true,
  };
}

/** Caps inside other caps: each field the tighter of the two. */
export function within(inner: Caps, outer: Caps): Caps {
  const min = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
  const markets = inner.markets && outer.markets ? inner.markets.filter((m) => outer.markets!.includes(m)) : (inner.markets ?? outer.markets);
  const out: Caps = {};
  if (markets) out.markets = markets;
  const size = min(inner.max_order_size, outer.max_order_size);
  if (size !== undefined) out.max_order_size = size;
  const notional = min(inner.max_notional, outer.max_notional);
  if (notional !== undefined) out.max_notional = notional;
  const position = min(inner.max_position, outer.max_position);
  if (position !== undefined) out.max_position = position;
  if (inner.allow_short === false || outer.allow_short === false) out.allow_short = false;
  else if (inner.allow_short !== undefined || outer.allow_short !== undefined) out.allow_short = true;
  return out;
}

/** The caps one limit names, as a refusal or a cut says it: the caps' own fields, in their order. */
export const CAP_NAMES = CapsSchema.keyof().options;
export type CapName = (typeof CAP_NAMES)[number];

export interface CapBreach {
  cap: CapName;
  limit: number | boolean | readonly Market[];
  message: string;
}

/**
 * What the book could hold each way if every working order on one side filled and none on the other: long is the
 * position plus the working buys, short the working sells less the position (a negative reach holds none that way).
 */
export interface Exposure {
  long: number;
  short: number;
}

export function exposureOf(position: number, working: readonly { side: Side; size: number }[]): Exposure {
  let buys = 0;
  let sells = 0;
  for (const o of working) {
    if (o.side === 'buy') buys += o.size;
    else sells += o.size;
  }
  return { long: position + buys, short: sells - position };
}

/** What an order of `size` at `price` breaks, on a book of that exposure. */
export function breaches(limits: Limits, market: Market, side: Side, size: number, price: number, exposure: Exposure): CapBreach[] {
  const out: CapBreach[] = [];
  if (!limits.traded) out.push({ cap: 'markets', limit: false, message: `${market} is not among the markets your caps allow` });
  if (size > limits.max_order_size) out.push({ cap: 'max_order_size', limit: limits.max_order_size, message: `over the largest order of ${limits.max_order_size}` });
  const notional = notionalOf(market, size, price);
  if (notional > limits.max_notional) {
    out.push({ cap: 'max_notional', limit: limits.max_notional, message: `$${Math.round(notional)} is over the largest order of $${limits.max_notional}` });
  }
  const d = dirOf(side);
  const reach = onStep(market, (d > 0 ? exposure.long : exposure.short) + size);
  if (reach > limits.max_position) out.push({ cap: 'max_position', limit: limits.max_position, message: `the position could reach ${reach}, over the largest of ${limits.max_position}` });
  if (d < 0 && !limits.allow_short && reach > 0) out.push({ cap: 'allow_short', limit: false, message: 'your caps allow no short position' });
  return out;
}
