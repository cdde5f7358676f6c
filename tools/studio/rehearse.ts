import { z } from 'zod';
import { keptOf, sha256 } from '../../engine/grade/index.js';
import { MARKETS, type Market } from '../../engine/markets.js';
import { renderRehearsalPlate } from '../../engine/plate/index.js';
import { MAX_FOLDS } from '../../engine/stepper/index.js';
import { LONGEST_WARM_UP } from '../../engine/verdict/index.js';
import type { SessionCtx } from '../context.js';
import { defineTool, WithLinks } from '../define.js';
import { drawing, plateId } from '../plates/lib/draw.js';
import { refuseSealsUsed, sealPlate } from '../plates/plate-seal.js';
import { int, unixTime } from '../schemas.js';
import { deciderOf } from './lib/cast.js';
import { myForge, SeedHash } from './forge-read.js';
import { compiled, meterSteps, stepOver } from './lib/stepper.js';
import { MCP_TRADES, pagedTrades, TRADES_MCP_DEFAULTS, TradesPage } from './lib/trades-page.js';
import { DEFAULT_HOURS, Hours, windowBars, windowEnd } from './lib/window.js';
import { RehearseAnswer } from './lib/answers.js';
import { rehearsalLinks } from './lib/rehearsal-links.js';

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
  rest: { method: 'POST', path: '/studio/rehearse', errors: [404, 429, 500, 502, 503], tag: 'studio' },
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
 * Rehearses your forge and keeps the rehearsal for grading under its digest, with its plate's id when one was asked:
 * the whole answer and its digest (the rehearse tool pages the answer; the studio's rehearse move keeps its digest).
 */
export const rehearseForge = async (ctx: SessionCtx, input: RehearsalAsk) => rehearsed(ctx, input, await foreseeRehearsal(ctx, input));

type Foreseen = Awaited<ReturnType<typeof foreseeRehearsal>>;

/**
 * What a rehearsal is refused for, found before it is paid for or run: no forge of yours by that seed (404), a market
 * the rule cannot be moved to or the tape cannot serve, a window in the future or holding too few bars (422), a rule
 * the decider compiler refuses, a plate asked for with the day's seals used (429). Answers the forge, the rule and the
 * window's bars, which the rehearsal steps over.
 */
async function foreseeRehearsal(ctx: SessionCtx, input: RehearsalAsk) {
  const forge = myForge(ctx, input.seed_hash);
  const market = input.market ?? forge.script.market;
  const script = { ...forge.script, market };
  const { ir } = deciderOf(script, () => 'market');
  compiled(ir, forge.id);
  if (input.plate) refuseSealsUsed(ctx);
  const to = await windowEnd(ctx, market, ir.timeframe, input.to);
  ctx.progress?.(`reading the tape: ${market} ${ir.timeframe}`);
  const w = await windowBars(ctx, { market, tf: ir.timeframe, to, hours: input.hours ?? DEFAULT_HOURS, warmUpBars: ir.warm_up_bars * LONGEST_WARM_UP });
  return { forge, script, ir, w };
}

async function rehearsed(ctx: SessionCtx, input: RehearsalAsk, { forge, script, ir, w }: Foreseen) {
  const rehearsal = await stepOver(ctx, script, ir, forge.id, w, input.folds);
  if (input.plate) ctx.progress?.('drawing and sealing the plate');
  // Drawn and sealed before the meter counts the rehearsal, so a refused seal (the day's seals used) costs nothing.
  const drawn = input.plate ? drawing(() => renderRehearsalPlate({ rehearsal, ir, bars: w.bars })) : null;
  const stateJson = drawn && JSON.stringify(drawn.state);
  const plate = drawn && stateJson && (await sealPlate(ctx, plateId(drawn.png, stateJson), drawn.png, stateJson));
  ctx.progress?.('recording the rehearsal');
  await meterSteps(ctx, 'rehearse', rehearsal);
  // A plate sealed before says fresh false: the answer names it without that, so the same rehearsal answers the same bytes.
  const answer = { ok: true, seed_hash: forge.id, ...rehearsal, ...(plate ? { plate: { id: plate.id, path: plate.path, png: plate.png, json: plate.json } } : {}) };
  const digest = rehearsalDigest(answer);
  // Grading judges a kept rehearsal by its digest: its trades against the rule's stop, side and ways out.
  // Its plate's id is kept with it, so the plate is read as one of the rehearsal's parts by its principal alone.
  const kept = { ...keptOf(forge.id, digest, rehearsal, w.bars), ...(plate ? { plate: plate.id } : {}) };
  await ctx.store.grades.keepRehearsal(ctx.principal.id, kept, ctx.clock(), forge.expires_at);
  return { answer, digest };
}
