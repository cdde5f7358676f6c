import { z } from 'zod';
import { calibrationOf, RUBRIC_VERSION, Z95 } from '../../engine/grade/index.js';
import { STAGES } from '../../store/grades.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ScoreReadAnswer } from '../../services/studio/answers.js';

export const scoreRead = defineTool({
  name: 'score_read',
  title: 'Score calibration',
  description:
    'The calibration of a stage from every score recorded: k closed questions held of n asked (a question holds at 0.7 or more on yes), with the rate and the lower end of its 95% Wilson interval (null before any question), house-wide and yours.',
  input: z.object({ stage: z.enum(STAGES).describe('the stage: parts (or rehearsed)') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ScoreReadAnswer,
  access: 'session',
  toolset: TOOLSETS.studio,
  rest: { method: 'GET', path: '/studio/score' },
  async run(ctx, { stage }) {
    const side = (principalId: string | null) => {
      const t = ctx.store.grades.tally(stage, principalId);
      return { ...calibrationOf(t.k, t.n), scores: t.scores };
    };
    return { ok: true, stage, rubric: RUBRIC_VERSION, z: Z95, house: side(null), mine: side(ctx.principal.id) };
  },
});
