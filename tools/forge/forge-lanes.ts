import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ForgeLanesAnswer } from '../../services/studio/answers.js';
import { modelLane } from '../../services/studio/forge-lanes.js';

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
  toolset: TOOLSETS.forge,
  rest: { method: 'GET', path: '/forge/lanes' },
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
