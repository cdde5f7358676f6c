import type { Grant } from '../../config/files.js';
import { holderAllowance, holderUse } from '../../engine/plans/holder.js';
import { runningAt } from '../../engine/plans/period.js';
import { utcDay } from '../../store/spend.js';
import type { Ctx } from '../context.js';
import { opens, type Tier } from '../../core/principal.js';

/** What a principal's standing is read from: the offer (grants, plans), the store (claims, links, spend) and the clock. */
type Reads = Pick<Ctx, 'offer' | 'clock' | 'store'>;
type Account = { id: string; name: string };

/** The grant a principal holds today (from the grants file), if any. */
export function grantOf(ctx: Pick<Ctx, 'offer' | 'clock'>, name: string): Grant | null {
  const today = utcDay(ctx.clock());
  return ctx.offer.grants.find((g) => g.name === name && (!g.until || g.until >= today)) ?? null;
}

/** The dearest plan paid on chain whose period runs now, with the end of its unbroken run (`until`). */
export function paidOf(ctx: Reads, principalId: string) {
  const periods = ctx.store.claims
    .mine(principalId)
    .map((c) => ({ plan: c.plan, tier: c.tier as Tier, price_usdc: c.price_usdc, start: Date.parse(c.period.start), end: Date.parse(c.period.end) }));
  return runningAt(periods, ctx.clock());
}

/** A principal's tier: the higher of its grant's and its running paid plan's; without either, free. */
export function tierOf(ctx: Reads, account: Account): Tier {
  const granted = grantOf(ctx, account.name)?.tier ?? 'free';
  const paid = paidOf(ctx, account.id)?.tier ?? 'free';
  return opens(granted, paid) ? granted : paid;
}

const planAllowance = (ctx: Pick<Ctx, 'offer'>, tier: Tier): number =>
  tier === 'house' ? ctx.offer.plans.house_allowance_per_day : (ctx.offer.plans.plans.find((p) => p.tier === tier)?.allowance_per_day ?? 0);

/**
 * Units a principal may spend per UTC day on its tier: a grant giving the tier brings its own figure (else the
 * tier's plan), a paid plan of the tier brings its plan's; when both give it, the larger.
 */
export function allowanceOf(ctx: Reads, account: Account, tier: Tier): number {
  const grant = grantOf(ctx, account.name);
  const paid = paidOf(ctx, account.id);
  const figures = [
    ...(grant?.tier === tier ? [grant.allowance_per_day ?? planAllowance(ctx, tier)] : []),
    ...(paid?.tier === tier ? [ctx.offer.plans.plans.find((p) => p.id === paid.plan)?.allowance_per_day ?? planAllowance(ctx, tier)] : []),
  ];
  return figures.length ? Math.max(...figures) : planAllowance(ctx, tier);
}

/** The wallet a principal linked on `day`, if any, and the allowance its NFTs add. */
function holderLink(ctx: Reads, principalId: string, day: string) {
  const link = ctx.store.holders.linkOf(principalId, day)?.entry ?? null;
  const rule = ctx.offer.plans.holder;
  return { link, allowance: link && rule ? holderAllowance(link.nfts, rule) : 0 };
}

/** Today's holder standing: the wallet linked today, its NFTs when linked, and the allowance they add. */
export function holderOf(ctx: Reads, principalId: string) {
  const day = utcDay(ctx.clock());
  const { link, allowance } = holderLink(ctx, principalId, day);
  return { day, wallet: link?.wallet ?? null, nfts: link?.nfts ?? 0, allowance, ...holderUse(allowance, ctx.store.spend.spentOn(principalId, day)) };
}

export interface MeterView {
  day: string;
  /** The tier's allowance plus what holder standing adds today (`holder`). */
  allowance: number;
  holder: number;
  spent: number;
  balance: number;
  /** ok while over a fifth is left, low below that, spent at or below zero: the meter reports, never refuses. */
  tone: 'ok' | 'low' | 'spent';
}

export function meterOf(ctx: Reads, principal: Account & { tier: Tier }): MeterView {
  const day = utcDay(ctx.clock());
  const holder = holderLink(ctx, principal.id, day).allowance;
  const allowance = allowanceOf(ctx, principal, principal.tier) + holder;
  const spent = ctx.store.spend.spentOn(principal.id, day);
  const balance = allowance - spent;
  const tone = balance <= 0 ? 'spent' : balance < allowance / 5 ? 'low' : 'ok';
  return { day, allowance, holder, spent, balance, tone };
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

/**
 * The plan a principal stands on and the period it runs in: a paid plan's unbroken run when one gives the tier,
 * else the tier's plan over the UTC day (free, granted and house standing renew daily).
 */
export function planOf(ctx: Reads, principal: Account & { tier: Tier }) {
  const paid = paidOf(ctx, principal.id);
  if (paid && paid.tier === principal.tier) {
    return { plan: paid.plan, period: { unit: 'paid' as const, start: new Date(paid.start).toISOString(), end: new Date(paid.until).toISOString() } };
  }
  const plan = ctx.offer.plans.plans.find((p) => p.tier === principal.tier) ?? null;
  return { plan: principal.tier === 'house' ? 'house' : (plan?.id ?? 'free'), period: dayPeriod(ctx.clock()) };
}
