import { z } from 'zod';
import { keptOf, sha256 } from '../../engine/grade/index.js';
import { type Market } from '../../engine/markets.js';
import { MAX_FOLDS } from '../../engine/stepper/index.js';
import { LONGEST_WARM_UP } from '../../engine/verdict/index.js';
import { jsonOf } from '../../core/json.js';
import type { SessionCtx } from '../context.js';
import { drawRehearsalPlate, plateId } from '../plates/draw.js';
import { refuseSealsUsed, sealPlate } from '../plates/seal.js';
import { int } from '../schemas.js';
import { deciderOf } from './cast.js';
import { myForge } from './forge-read.js';
import { compiled, meterSteps, stepOver } from './stepper.js';
import { DEFAULT_HOURS, windowBars, windowEnd } from './window.js';

/**
 * A rehearsal's name: sha256 of its JSON answer, the very bytes POST /studio/rehearse answers for it. Grades and
 * scores name the rehearsal they judge by it, and the studio record keeps it. The answer is frozen, so the JSON
 * written for its name is the one its answer sends (jsonOf keeps it): a month's answer is written once.
 */
const rehearsalDigest = (answer: Readonly<object>): string => sha256(jsonOf(answer));

export const RehearsalDigest = z.string().regex(/^[0-9a-f]{64}$/, 'a rehearsal digest: 64 lowercase hex digits, sha256 of the rehearsal\'s JSON answer');

export const Folds = int.refine((k) => k >= 2 && k <= MAX_FOLDS, `2 to ${MAX_FOLDS}`);

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
export async function foreseeRehearsal(ctx: SessionCtx, input: RehearsalAsk) {
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

export async function rehearsed(ctx: SessionCtx, input: RehearsalAsk, { forge, script, ir, w }: Foreseen) {
  const rehearsal = await stepOver(ctx, script, ir, forge.id, w, input.folds);
  if (input.plate) ctx.progress?.('drawing and sealing the plate');
  // Drawn and sealed before the meter counts the rehearsal, so a refused seal (the day's seals used) costs nothing.
  const drawn = input.plate ? await drawRehearsalPlate(ctx, { rehearsal, ir, bars: w.bars }) : null;
  const stateJson = drawn && JSON.stringify(drawn.state);
  const plate = drawn && stateJson && (await sealPlate(ctx, plateId(drawn.png, stateJson), drawn.png, stateJson));
  ctx.progress?.('recording the rehearsal');
  await meterSteps(ctx, 'rehearse', rehearsal);
  // A plate sealed before says fresh false: the answer names it without that, so the same rehearsal answers the same bytes.
  const answer = Object.freeze({ ok: true, seed_hash: forge.id, ...rehearsal, ...(plate ? { plate: { id: plate.id, path: plate.path, png: plate.png, json: plate.json } } : {}) });
  const digest = rehearsalDigest(answer);
  // Grading judges a kept rehearsal by its digest: its trades against the rule's stop, side and ways out.
  // Its plate's id is kept with it, so the plate is read as one of the rehearsal's parts by its principal alone.
  const kept = { ...keptOf(forge.id, digest, rehearsal, w.bars), ...(plate ? { plate: plate.id } : {}) };
  await ctx.store.grades.keepRehearsal(ctx.principal.id, kept, ctx.clock(), forge.expires_at);
  return { answer, digest };
}
