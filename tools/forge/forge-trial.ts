import { z } from 'zod';
import { ScriptSchema, trialSession } from '../../engine/decider/index.js';
import { MARKETS } from '../../engine/markets.js';
import { LONGEST_WARM_UP } from '../../engine/verdict/index.js';
import { MarketSchema, SessionSchema } from '../../engine/reader/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { deciderOf, fromScript } from '../../services/studio/cast.js';
import { SCRIPT_BOUNDS, SCRIPT_LISTED } from '../../services/studio/forge.js';
import { compiled, meterSteps, stepOver } from '../../services/studio/stepper.js';
import { MCP_TRADES, pagedTrades, TRADES_MCP_DEFAULTS, TradesPage } from '../../services/studio/trades-page.js';
import { DEFAULT_HOURS, Hours, windowBars, windowEnd } from '../../services/studio/window.js';
import { TrialAnswer } from '../../services/studio/answers.js';

/** The largest trial script, in bytes of JSON. */
export const TRIAL_SCRIPT_CAP = 64 * 1024;

/** A script block whose market and session may be left to the trial (its market, and that market's default session). */
const TrialScript = ScriptSchema.extend({ market: MarketSchema.optional(), session: SessionSchema.optional() });

const Label = z.string().min(1).max(120);

export const forgeTrial = defineTool({
  name: 'forge_trial',
  title: 'Trial a script',
  description:
    `Runs a script block (script.v1; market and session may be left out) over the last hours of the tape (default ${DEFAULT_HOURS}) ending at the newest bar the tape holds for the market, with the stepper: ` +
    'entries at the next bar\'s open, the stop first when stop and target are both touched in one bar, slippage and fees per market, results in R, against a seeded random null. ' +
    'market defaults to the script\'s, else NQ; a script without a session trades the cash session on NQ, ES and YM and around the clock on crypto. A session id reads the bars fresh from the venue. At most two trials run at once for you. ' +
    `Over MCP the first ${MCP_TRADES} trades come, with trades_page (trades_from and trades_limit page them).`,
  input: z
    .object({
      script: TrialScript.describe('the script block to run'),
      market: z.enum(MARKETS).optional().describe('the market to run it on (default: the script\'s, else NQ)'),
      hours: Hours,
      name: Label.optional().describe('a name for this trial, echoed'),
      tenant: Label.optional().describe('who the trial is for, echoed'),
      session: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 of A-Z a-z 0-9 _ -').optional().describe('a replay session id: the bars are read fresh from the venue'),
      ...TradesPage,
    })
    .strict(),
  mcpDefaults: TRADES_MCP_DEFAULTS,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: TrialAnswer,
  listed: { properties: { script: SCRIPT_LISTED } },
  access: 'session',
  guard: 'trial',
  toolset: TOOLSETS.forge,
  rest: { method: 'POST', path: '/forge/trial', maxBody: TRIAL_SCRIPT_CAP + 4096, bounds: SCRIPT_BOUNDS, errors: [413, 429, 500, 502, 503] },
  async run(ctx, input) {
    const bytes = Buffer.byteLength(JSON.stringify(input.script));
    if (bytes > TRIAL_SCRIPT_CAP) throw new DeckError(413, 'too_large', `the script is ${bytes} bytes; the cap is ${TRIAL_SCRIPT_CAP}`, { cap_bytes: TRIAL_SCRIPT_CAP });
    const market = input.market ?? input.script.market ?? 'NQ';
    const script = { ...input.script, market, session: input.script.session ?? trialSession(market) };
    const { ir, seed_hash } = deciderOf(script, fromScript);
    const to = await windowEnd(ctx, market, script.timeframe, undefined);
    ctx.progress?.(`reading the tape: ${market} ${script.timeframe}`);
    const w = await windowBars(ctx, { market, tf: script.timeframe, to, hours: input.hours ?? DEFAULT_HOURS, warmUpBars: ir.warm_up_bars * LONGEST_WARM_UP, session: input.session });
    compiled(ir, seed_hash);
    const rehearsal = await stepOver(ctx, script, ir, seed_hash, w);
    ctx.progress?.('recording the trial');
    await meterSteps(ctx, 'trial', rehearsal);
    return pagedTrades({ ok: true, name: input.name ?? null, tenant: input.tenant ?? null, seed_hash, script, ...rehearsal }, input);
  },
});
