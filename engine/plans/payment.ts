import { formatUnits, parseUnits } from 'ethers';

/** An ERC-20 Transfer as a receipt's log carries it. */
export interface Transfer {
  token: string;
  from: string;
  to: string;
  amount: bigint;
}

/** A plan as the catalogue lists it (only what buying one reads). */
export interface PricedPlan {
  id: string;
  price_usdc: number;
  period_days: number | null;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * What a receipt paid the treasury in the chain's token: the payer is the `from` of the first such Transfer,
 * and every Transfer of that payer to the treasury in the same transaction counts. null: none went there.
 */
export function paymentOf(transfers: readonly Transfer[], token: string, treasury: string): { payer: string; amount: bigint } | null {
  const paid = transfers.filter((t) => same(t.token, token) && same(t.to, treasury));
  const payer = paid[0]?.from;
  if (!payer) return null;
  return { payer, amount: paid.filter((t) => same(t.from, payer)).reduce((sum, t) => sum + t.amount, 0n) };
}

/** A plan's price in the token's smallest units (prices are decimal USDC figures in the catalogue). */
export const priceUnits = (plan: PricedPlan, decimals: number): bigint => parseUnits(String(plan.price_usdc), decimals);

/** What an amount buys; `paid` is the amount in whole tokens, as a decimal string (no float rounds it). */
export type Purchase<P extends PricedPlan> = { ok: true; plan: P; paid: string } | { ok: false; paid: string; cheapest: number };

/**
 * The dearest plan whose price the amount covers. Only plans with a price and a period are for sale (free
 * is not bought); an amount under the cheapest of them buys nothing.
 */
export function planBought<P extends PricedPlan>(plans: readonly P[], amount: bigint, decimals: number): Purchase<P> {
  const forSale = plans.filter((p) => p.price_usdc > 0 && p.period_days !== null).sort((a, b) => b.price_usdc - a.price_usdc);
  const plan = forSale.find((p) => amount >= priceUnits(p, decimals));
  const paid = formatUnits(amount, decimals);
  if (plan) return { ok: true, plan, paid };
  return { ok: false, paid, cheapest: forSale[forSale.length - 1]?.price_usdc ?? 0 };
}
