import { z } from 'zod';
import { noteUnsaid } from '../../engine/decider/index.js';
import { withDefaults, withHints, type RuleReading } from '../../engine/reader/index.js';
import { modelLaneFor } from '../../upstream/reader/funding.js';
import type { SessionCtx } from '../context.js';
import { recordSpend } from '../meter/spend.js';
import { opens } from '../../core/principal.js';
import { readOnPool } from './cast.js';

/** The readers of the studio: the embedded one, always there, and the model lane when configured and funded. */
export const LANES = ['embedded', 'model'] as const;

export type LaneId = (typeof LANES)[number];

export const LaneInput = z
  .enum(LANES)
  .optional()
  .describe('the reader: embedded (the default; deterministic, the controlled vocabulary) or model (an OpenAI-compatible reader; see forge_lanes)');

/** The model lane as this principal stands: open with its funding, or closed with the reason and the refusal. */
export const modelLane = (ctx: SessionCtx) =>
  modelLaneFor(
    ctx.upstreams.reader,
    ctx.principal.tier,
    ctx.offer.plans.plans.filter((x) => opens(x.tier, 'plan')).map((x) => x.id),
  );

/**
 * Reads the words with the chosen lane. The embedded lane is the engine's reader; the model lane's reading is
 * accepted whole (schema, citations and any defaults it claims) or refused, an accepted one takes the documented
 * defaults and hints as the embedded reader's does, and is recorded on the meter as read_model. Either reading carries the notes
 * of what the forge would add that the words leave unsaid (noteUnsaid).
 */
export async function readWith(ctx: SessionCtx, text: string, lane: LaneId): Promise<RuleReading> {
  if (lane === 'embedded') return noteUnsaid(await readOnPool(ctx, text));
  const open = modelLane(ctx);
  if ('refusal' in open) throw open.refusal;
  const reading = await open.reader.read(text, ctx.ended());
  await recordSpend(ctx, 'read_model');
  return noteUnsaid(withHints(withDefaults(reading)));
}
