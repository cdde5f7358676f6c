import { z } from 'zod';
import {
  RUBRIC_VERSION,
} from '../../engine/grade/index.js';
import { GraderKey } from '../../upstream/grader/funding.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { SeedHash } from '../../services/studio/forge-read.js';
import { RehearsalToJudge } from '../../services/studio/judging.js';
import { GradeAnswer } from '../../services/studio/answers.js';
import { gradeForge } from '../../services/studio/grade.js';

export const grade = defineTool({
  name: 'grade',
  title: 'Grade a forge',
  description:
    `Grades your forge's fidelity to your words under ${RUBRIC_VERSION}, never its profitability. Facts first, by code: the seven parts, a stop, a clean self-review and scan, an intact watermark, a rehearsal of this seed whose trades obey its stop, sides and ways out ` +
    '(the rehearsal named by rehearsal_digest, else the latest of this seed on the rule\'s own market; the receipt names it); ' +
    'a failed fact is a reject receipt and the grader is never asked (nothing spent). Otherwise one grader decision is spent: eight closed questions (yes / partly / no) about the words against the forged rule (its script and its code in plain words), each answered as a distribution, and code composes accept, revise or reject. ' +
    'Funded by your own grader key (grader_key), the house, your plan, or a trial ping on the free tier; 402 names what would fund it; 503 when no grader lane is configured, nothing spent. ' +
    'The receipt: the rehearsal judged, every fact and distribution, what the grader was shown (its digest and the code in plain words), the reasons, the decision digest and the receipt hash, chained in the grade ledger.',
  input: z
    .object({
      seed_hash: SeedHash.describe('the seed_hash your forge returned'),
      rehearsal_digest: RehearsalToJudge,
      grader_key: GraderKey.optional(),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: GradeAnswer,
  access: 'session',
  toolset: TOOLSETS.studio,
  rest: { method: 'POST', path: '/studio/grade', errors: [402, 404, 502, 503] },
  run: (ctx, input) => gradeForge(ctx, input),
});
