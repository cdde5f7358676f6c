import { z } from 'zod';
import { MARKETS } from '../../engine/markets.js';
import { defineTool, WithLinks } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { unixTime } from '../../services/schemas.js';
import { SeedHash } from '../../services/studio/forge-read.js';
import { MCP_TRADES, pagedTrades, TRADES_MCP_DEFAULTS, TradesPage } from '../../services/studio/trades-page.js';
import { DEFAULT_HOURS, Hours } from '../../services/studio/window.js';
import { RehearseAnswer } from '../../services/studio/answers.js';
import { rehearsalLinks } from '../../services/studio/rehearsal-links.js';
import { Folds, foreseeRehearsal, rehearsed } from '../../services/studio/rehearse.js';

export const rehearseTool = defineTool({
  name: 'rehearse',
  title: 'Rehearse a forge',
  description:
    `Rehearses your forge (by seed_hash, within its two hours) over the tape: hours (default ${DEFAULT_HOURS}) counted back from to (unix seconds) or, without it, from the newest bar the tape holds for the market, so archived history can be rehearsed. ` +
    'The envelope: every trade ({ side, entry_t, entry, stop, target, exit_t, exit, r, why }), where the rule could first decide and why bars could not trade (window.ready_at, window.idle), R statistics (n, win rate, expectancy, total R, max drawdown in R, profit factor), a seeded random-entry null (the rule\'s percentile, p = (k+1)/(N+1)), walk-forward folds when asked, a verdict on luck and overfitting (deflated Sharpe after your trials, neighbours\' PBO, SPA, Monte Carlo, break-even cost, bias checks) and a summary: evidence about the past, never a forecast. ' +
    'The same seed and window give the same bytes; the answer\'s sha256 names it: grade and score take it as rehearsal_digest. ' +
      `Over MCP the first ${MCP_TRADES} trades come, with trades_page and the rehearsal_digest (trades_from and trades_limit page them), and resource links to every trade and the plate. ` +
    'With plate: true it also answers its plate, sealed like POST /plates: price with the rule\'s own indicators, session, stops and targets and every entry and exit, equity in R, the null\'s totals with the rule\'s marked; plate names it ({ id, path, png, json }). The same rehearsal draws the same bytes.',
  input: z
    .object({
      seed_hash: SeedHash.describe('the seed_hash your forge returned'),
      market: z.enum(MARKETS).optional().describe('the market to rehearse on (default: the one the rule named)'),
      hours: Hours,
      to: unixTime.optional().describe('the window\'s end, unix seconds or ISO-8601 UTC, not in the future (floored to the bar); default: the newest bar the tape holds'),
      folds: Folds.optional().describe('walk-forward folds to cut the window into'),
      ...TradesPage,
      plate: z.boolean().optional().describe('true: answer a sealed plate of the rehearsal too (price with the rule\'s indicators, session, stops, targets, entries and exits, equity in R, where the rule falls in the random null)'),
    })
    .strict(),
  mcpDefaults: TRADES_MCP_DEFAULTS,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: RehearseAnswer,
  access: 'session',
  toolset: TOOLSETS.studio,
  rest: { method: 'POST', path: '/studio/rehearse', errors: [404, 429, 500, 502, 503] },
  foresee: (ctx, input) => foreseeRehearsal(ctx, input),
  async run(ctx, input, foreseen) {
    const { answer, digest } = await rehearsed(ctx, input, foreseen);
    const paged = pagedTrades(answer, input);
    // A page is not the whole answer, so it names the whole one's digest, which grade and score take.
    const shown = paged === answer ? answer : { ...paged, rehearsal_digest: digest };
    const links = rehearsalLinks(digest, answer.plate !== undefined);
    return new WithLinks(shown, summaryText(answer, digest, paged.trades.length, links), links);
  },
});

/** The words an MCP answer carries as its text: what the rehearsal found, its name, and where its parts are read. */
function summaryText(answer: { summary: string; trades: readonly unknown[] }, digest: string, shown: number, links: readonly { uri: string; name: string }[]): string {
  const where = links.map((l) => `${l.name} ${l.uri}`).join(', ');
  return `${answer.summary}\nrehearsal_digest ${digest} (grade and score take it). structuredContent holds the answer with ${shown} of its ${answer.trades.length} trade${answer.trades.length === 1 ? '' : 's'}; read the rest with resources/read: ${where}.`;
}
