import { irOf } from '../../engine/decider/index.js';
import { TIMEFRAME_SECONDS } from '../../engine/markets.js';
import { unitsFor } from '../meter/prices.js';
import type { Ctx } from '../context.js';
import { type Onboarded } from './register.js';
import { DEFAULT_HOURS } from './window.js';

/** One forge plus one rehearsal of a strategy over the default window, in meter units from the price list. */
export function quoteOf(ctx: Ctx, s: Onboarded) {
  const { market, timeframe } = s.script;
  const bars = (DEFAULT_HOURS * 3600) / TIMEFRAME_SECONDS[timeframe] + irOf(s.script).warm_up_bars;
  const forge = unitsFor(ctx.offer.plans, 'forge');
  const rehearse = unitsFor(ctx.offer.plans, 'rehearse', bars);
  return {
    name: s.name,
    market,
    timeframe,
    window: { hours: DEFAULT_HOURS, bars_at_most: bars },
    unit: 'meter unit',
    meter: { forge, rehearse, total: forge + rehearse },
  };
}
