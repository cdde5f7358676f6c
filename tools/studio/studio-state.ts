import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { StudioStateAnswer } from '../../services/studio/answers.js';
import { DEFAULT_STRATEGY, Strategy, stateOf } from '../../services/studio/studio-state.js';

export const studioState = defineTool({
  name: 'studio_state',
  title: 'Read the studio state',
  description:
    'Your strategy in the studio machine: { record, view, coverage }. record holds the words, the attached image ids, the reading, the forge seed, the rehearsal digest, the grade receipt and the state; ' +
    'view is { state, next, alt, done, why }: the awaited move, the other moves, the gates earned and why; coverage says for each gate (read, forge, rehearse, grade) whether it is earned and what it rests on. ' +
    'A strategy no move has touched reads blank. Move it with studio_act (POST /studio/state).',
  input: z.object({ strategy: Strategy }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: StudioStateAnswer,
  access: 'session',
  toolset: TOOLSETS.studio,
  rest: { method: 'GET', path: '/studio/state' },
  async run(ctx, { strategy }) {
    return { ok: true, ...stateOf(ctx, ctx.store.studio.get(ctx.principal.id, strategy ?? DEFAULT_STRATEGY)) };
  },
});
