import { z } from 'zod';
import { noteUnsaid } from '../../engine/decider/index.js';
import { withDefaults, withHints, type RuleReading } from '../../engine/reader/index.js';
import { modelLaneFor } from '../../upstream/reader/funding.js';
import type { SessionCtx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { recordSpend } from '../../services/meter/spend.js';
import { opens } from '../../core/principal.js';
import { readOnPool } from '../../services/studio/cast.js';
import { ForgeLanesAnswer } from '../../services/studio/answers.js';

/** The readers of the studio: the embedded one, always there, and the model lane when configured and funded. */
export const LANES = ['embedded', 'model'] as const;
export type LaneId = (typeof LANES)[number];
export const LaneInput = z
  .enum(LANES)
  .optional()
  .describe('the reader: embedded (the default; deterministic, the controlled vocabulary) or model (an OpenAI-compatible reader; see forge_lanes)');

/** The model lane as this principal stands: open with its funding, or closed with the reason and the refusal. */
const modelLane = (ctx: SessionCtx) =>
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

export const forgeLanes = defineTool({
  name: 'forge_lanes',
  title: 'Reader lanes',
  description:
    'The readers this session may use to read a rule into its seven parts (workflow_read and forge take lane: embedded or model): the embedded lane (a deterministic reader of a documented controlled vocabulary, always available) and the model lane (an OpenAI-compatible reader whose reading must pass the same schema and cite words present in the text, or it is refused whole), ' +
    'each with available and, when unavailable, the reason (not configured, or not funded on your tier and what would fund it).',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ForgeLanesAnswer,
  access: 'session',
  rest: { method: 'GET', path: '/forge/lanes', tag: 'forge' },
  async run(ctx) {
    const model = modelLane(ctx);
    return {
      ok: true,
      lanes: [
        {
          id: 'embedded',
          kind: 'grammar',
          available: true,
          what: 'a deterministic reader of the controlled vocabulary (indicators, comparisons and crosses, sessions, stops and targets): the same words give the same parts',
        },
        {
          id: 'model',
          kind: 'openai-compatible',
          what: 'an OpenAI-compatible reader for what the grammar cannot read: its reading must pass the same schema and every span must quote the text, or it is refused whole',
          ...('refusal' in model
            ? { available: false, reason: model.reason }
            : { available: true, model: model.reader.lane.model, funded: model.funded }),
        },
      ],
    };
  },
});
