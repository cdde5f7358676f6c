import { z } from 'zod';
import { defineTool } from '../define.js';

/** The readers of the studio. The embedded one is always there; the model lane is described but not built yet. */
export const forgeLanes = defineTool({
  name: 'forge_lanes',
  title: 'Reader lanes',
  description:
    'The readers this session may use to read a rule into its seven parts: the embedded lane (a deterministic reader of a documented controlled vocabulary, always available) and the model lane (an OpenAI-compatible reader), each with available and, when unavailable, the reason.',
  input: z.object({}).strict(),
  access: 'session',
  rest: { method: 'GET', path: '/forge/lanes' },
  async run() {
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
          available: false,
          what: 'an OpenAI-compatible reader for what the grammar cannot read; its parts would pass the same schema and cite words present in the text',
          reason: 'not built: this deck serves no model reader yet (it will be configured by DECK_READER_URL)',
        },
      ],
    };
  },
});
