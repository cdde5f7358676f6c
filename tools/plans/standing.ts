import type { Grant } from '../../config/files.js';
import { utcDay } from '../../store/spend.js';
import type { Ctx } from '../context.js';
import type { Tier } from '../principal.js';

/** The grant a principal holds today (from the grants file), if any. */
export function grantOf(ctx: Pick<Ctx, 'offer' | 'clock'>, name: string): Grant | null {
  const today = utcDay(ctx.clock());
  return ctx.offer.grants.find((g) => g.name === name && (!g.until || g.until >= today)) ?? null;
}

/** A principal's tier: a grant decides it; without one, the free tier. */
export const tierOf = (ctx: Pick<Ctx, 'offer' | 'clock'>, name: string): Tier => grantOf(ctx, name)?.tier ?? 'free';

/** Units a principal may spend per UTC day: the grant's own figure, else its tier's plan. */
export function allowanceOf(ctx: Pick<Ctx, 'offer' | 'clock'>, name: string, tier: Tier): number {
  const own = grantOf(ctx, name)?.allowance_per_day;
  if (own !== undefined && own !== null) return own;
  if (tier === 'house') return ctx.offer.plans.house_allowance_per_day;
  return ctx.offer.plans.plans.find((p) => p.tier === tier)?.allowance_per_day ?? 0;
}

export interface MeterView {
  day: string;
  allowance: number;
  spent: number;
  balance: number;
  /** ok while over a fifth is left, low below that, spent at or below zero: the meter reports, never refuses. */
  tone: 'ok' | 'low' | 'spent';
}

export function meterOf(ctx: Ctx, principal: { id: string; name: string; tier: Tier }): MeterView {
  const day = utcDay(ctx.clock());
  const allowance = allowanceOf(ctx, principal.name, principal.tier);
  const spent = ctx.store.spend.spentOn(principal.id, day);
  const balance = allowance - spent;
  const tone = balance <= 0 ? 'spent' : balance < allowance / 5 ? 'low' : 'ok';
  return { day, allowance, spent, balance, tone };
}

const DAY_MS = 86_400_000;

interface DayPeriod {
  unit: 'utc_day';
  start: string;
  end: string;
}

/** The UTC day a moment falls in, as a period; kept, frozen, since it changes once a day. */
let today: { n: number; period: Readonly<DayPeriod> } = { n: NaN, period: { unit: 'utc_day', start: '', end: '' } };

function dayPeriod(now: number): Readonly<DayPeriod> {
  const n = Math.floor(now / DAY_MS);
  if (n !== today.n) today = { n, period: Object.freeze({ unit: 'utc_day', start: new Date(n * DAY_MS).toISOString(), end: new Date((n + 1) * DAY_MS).toISOString() }) };
  return today.period;
}

/** The plan a tier stands on, with the period it runs in (a UTC day for free and house). */
export function planOf(ctx: Ctx, tier: Tier) {
  const plan = ctx.offer.plans.plans.find((p) => p.tier === tier) ?? null;
  return { plan: tier === 'house' ? 'house' : (plan?.id ?? 'free'), period: dayPeriod(ctx.clock()) };
}
