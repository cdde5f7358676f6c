import type { PlansFile } from '../../config/files.js';
import { badInput } from '../../core/errors.js';

export type PriceEntry = PlansFile['prices'][number];

/** The price-list entry of an action; an action the list does not name is bad input on `field`. */
export function priceEntry(plans: PlansFile, action: string, field = 'action'): PriceEntry {
  const entry = plans.prices.find((p) => p.action === action);
  if (!entry) throw badInput([{ field, message: `unknown action; one of ${plans.prices.map((p) => p.action).join(', ')}` }]);
  return entry;
}

/** Units an entry costs: its flat units plus its per-1,000-bars rate, rounded up to whole units. */
export const unitsOf = (entry: PriceEntry, bars = 0): number => entry.units + Math.ceil(((entry.per_1000_bars ?? 0) * bars) / 1000);

/** Units an action costs (bad input when the price list does not name it). */
export const unitsFor = (plans: PlansFile, action: string, bars = 0): number => unitsOf(priceEntry(plans, action), bars);
