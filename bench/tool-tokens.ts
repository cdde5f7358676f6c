import { DECK_ENDPOINT, listingOf, SELLER_ENDPOINTS } from '../sellers/endpoints.js';
import { listTokens, tokenGoal } from '../test/support/tokens.js';
import type { BenchRow } from './indicators.js';

/**
 * What each MCP endpoint's tools/list costs a model, in tokens (o200k_base) of the tools array a bare URL lists to the
 * house tier (the longest default list): counted, so the same code gives the same figure on any machine.
 */
export function benchToolTokens(): BenchRow[] {
  return [DECK_ENDPOINT, ...SELLER_ENDPOINTS.values()].map((e) => {
    const tools = listingOf(e, 'house');
    const tokens = listTokens(tools);
    const goal = tokenGoal(e.path);
    return { name: `tools/list of ${e.path}: ${tools.length} tools, house tier`, value: tokens, unit: 'tokens', goal: `< ${goal}`, met: tokens < goal };
  });
}
