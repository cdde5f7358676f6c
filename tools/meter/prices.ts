import type { PlansFile } from '../../config/files.js';
import { badInput } from '../errors.js';

/** The price-list entry of an action; an action the list does not name is bad input on `field`. */
export function priceEntry(plans: PlansFile, action: string, field = 'action') {
  const entry = plans.prices.find((p) => p.action === action);
  if (!entry) throw badInput([{ field, message: `unknown action; one of ${plans.prices.map((p) => p.action).join(', ')}` }]);
  return entry;
}

/** Units an action costs: its flat units plus its per-1,000-bars rate, rounded up to whole units. */
export function unitsFor(plans: PlansFile, action: string, bars = 0): number {
  const entry = priceEntry(plans, action);
  return entry.units + Math.ceil(((entry.per_1000_bars ?? 0) * bars) / 1000);
}
