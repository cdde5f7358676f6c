import type { SessionCtx } from '../context.js';
import { readWith, type LaneId } from './forge-lanes.js';
import { withinWordsCap } from './words.js';
import { accountClauses } from '../../engine/reader/index.js';
import { tapeWarnings } from '../tape/held.js';

/**
 * A rule's words read into its seven parts by the lane and the account of every clause: workflow_read's answer, with a
 * warning when the rule's market cannot be rehearsed here (no bars held and no venue that serves it), before a forge is
 * spent on it.
 */
export async function readWorkflow(ctx: SessionCtx, text: string, lane: LaneId) {
  const words = withinWordsCap(text, 'text');
  const parts = await readWith(ctx, words, lane);
  return { ok: true, parts, clauses: accountClauses(words, parts), ...(await tapeWarnings(ctx, parts.market.value, parts.timeframe.value)) };
}
