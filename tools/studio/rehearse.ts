import { z } from 'zod';
import { keptOf, sha256 } from '../../engine/grade/index.js';
import { MARKETS, type Market } from '../../engine/markets.js';
import { renderRehearsalPlate } from '../../engine/plate/index.js';
import { MAX_FOLDS } from '../../engine/stepper/index.js';
import { LONGEST_WARM_UP } from '../../engine/verdict/index.js';
import type { SessionCtx } from '../context.js';
import { defineTool, WithImage } from '../define.js';
import { drawing, plateId } from '../plates/lib/draw.js';
import { sealPlate } from '../plates/plate-seal.js';
import { int, unixTime } from '../schemas.js';
import { deciderOf } from './lib/cast.js';
import { myForge, SeedHash } from './forge-read.js';
import { meterSteps, stepOver } from './lib/stepper.js';
import { MCP_TRADES, pagedTrades, TRADES_MCP_DEFAULTS, TradesPage } from './lib/trades-page.js';
import { DEFAULT_HOURS, Hours, windowBars, windowEnd } from './lib/window.js';
import { RehearseAnswer } from './lib/answers.js';

/**
 * A rehearsal's name: sha256 of its JSON answer, the very bytes POST /studio/rehearse answers for it. Grades and
 * scores name the rehearsal they judge by it, and the studio record keeps it.
 */
export const rehearsalDigest = (answer: unknown): string => sha256(JSON.stringify(answer));
export const RehearsalDigest = z.string().regex(/^[0-9a-f]{64}$/, 'a rehearsal digest: 64 lowercase hex digits, sha256 of the rehearsal\'s JSON answer');

export const Folds = int.refine((k) => k >= 2 && k <= MAX_FOLDS, `2 to ${MAX_FOLDS}`);

export const rehearseTool = defineTool({
  name: 'rehearse',
  title: 'Rehearse a forge',
  description:
    `Rehearses your forge (by seed_hash, within its two hours) over the tape: hours (default ${DEFAULT_HOURS}) counted back from to (unix seconds) or, without it, from the newest bar the tape holds for the market, so archived history can be rehearsed. ` +
    'The envelope: every trade ({ side, entry_t, entry, stop, target, exit_t, exit, r, why }), where the rule could first decide and why bars could not trade (window.ready_at, window.idle), R statistics (n, win rate, expectancy, total R, max drawdown in R, profit factor), a seeded random-entry null (the rule\'s percentile, p = (k+1)/(N+1)), walk-forward folds when asked, a verdict on luck and overfitting (deflated Sharpe after your trials, neighbours\' PBO, SPA, Monte Carlo, break-even cost, bias checks) and a summary: evidence about the past, never a forecast. ' +
    'The same seed and window give the same bytes; the answer\'s sha256 names it: grade and score take it as rehearsal_digest. ' +
      `Over MCP the first ${MCP_TRADES} trades come, with trades_page and the rehearsal_digest (trades_from and trades_limit page them). ` +
    'With plate: true it also answers its plate, sealed like POST /plates: price with the rule\'s own indicators, session, stops and targets and every entry and exit, equity in R, the null\'s totals with the rule\'s marked; plate names it ({ id, path, png, json }) and MCP carries the PNG. The same rehearsal draws the same bytes.',
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
  rest: { method: 'POST', path: '/studio/rehearse', errors: [404, 429, 500, 502, 503], tag: 'studio' },
  async run(ctx, input) {
    const { answer, digest, png } = await rehearseForge(ctx, input);
    const paged = pagedTrades(answer, input);
    // A page is not the whole answer, so it names the whole one's digest, which grade and score take.
    const shown = paged === answer ? answer : { ...paged, rehearsal_digest: digest };
    return png ? new WithImage(shown, png) : shown;
  },
});

/** What a rehearsal is asked: the forge by its seed, the market, the window and folds, and whether to draw its plate. */
interface RehearsalAsk {
  seed_hash: string;
  market?: Market | undefined;
  hours?: number | undefined;
  to?: number | undefined;
  folds?: number | undefined;
  plate?: boolean | undefined;
}

/**
 * Rehearses your forge and keeps the rehearsal for grading under its digest: the whole answer, its digest and the
 * plate's PNG when one was asked (the rehearse tool pages the answer; the studio's rehearse move keeps its digest).
 */
export async function rehearseForge(ctx: SessionCtx, input: RehearsalAsk) {
  const forge = myForge(ctx, input.seed_hash);
  const market = input.market ?? forge.script.market;
  const script = { ...forge.script, market };
  const { ir } = deciderOf(script, () => 'market');
  const to = await windowEnd(ctx, market, ir.timeframe, input.to);
  const w = await windowBars(ctx, { market, tf: ir.timeframe, to, hours: input.hours ?? DEFAULT_HOURS, warmUpBars: ir.warm_up_bars * LONGEST_WARM_UP });
  const rehearsal = await stepOver(ctx, script, ir, forge.id, w, input.folds);
  // Drawn and sealed before the meter counts the rehearsal, so a refused seal (the day's seals used) costs nothing.
  const drawn = input.plate ? drawing(() => renderRehearsalPlate({ rehearsal, ir, bars: w.bars })) : null;
  const stateJson = drawn && JSON.stringify(drawn.state);
  const plate = drawn && stateJson && (await sealPlate(ctx, plateId(drawn.png, stateJson), drawn.png, stateJson));
  await meterSteps(ctx, 'rehearse', rehearsal);
  // A plate sealed before says fresh false: the answer names it without that, so the same rehearsal answers the same bytes.
  const answer = { ok: true, seed_hash: forge.id, ...rehearsal, ...(plate ? { plate: { id: plate.id, path: plate.path, png: plate.png, json: plate.json } } : {}) };
  const digest = rehearsalDigest(answer);
  // Grading judges a kept rehearsal by its digest: its trades against the rule's stop, side and ways out.
  await ctx.store.grades.keepRehearsal(ctx.principal.id, keptOf(forge.id, digest, rehearsal, w.bars), ctx.clock(), forge.expires_at);
  return { answer, digest, png: drawn ? drawn.png : null };
}
