import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { LaneInput } from '../../services/studio/forge-lanes.js';
import { RuleWords, WORDS_CAP } from '../../services/studio/words.js';
import { WorkflowReadAnswer } from '../../services/studio/answers.js';
import { readWorkflow } from '../../services/studio/workflow-read.js';

export const workflowRead = defineTool({
  name: 'workflow_read',
  title: 'Read a rule into seven parts',
  description:
    `Reads a trader's rule in plain words (at most ${WORDS_CAP} characters) into its seven parts: market (NQ, ES, YM, BTC, ETH, SOL), timeframe (15s, 1m, 5m, 1h), session (when the rule may act), side (long, short, both), entry (the trigger), stop (where the rule is wrong) and exit (target, trailing or time exit). ` +
    'Each part is { status: read | defaulted | missing | ambiguous, value, spans }: spans are the [from, to) character ranges the value came from; an ambiguous part lists its readings. Nothing unstated is filled in but by a documented default, named in defaults ({ path, rule }) and the note: the market\'s own session (session_crypto, session_futures), ATR(14), swings of 2 bars a side, Bollinger 20 and 2. ' +
    'A part missing or ambiguous, or lacking a length the forge needs, carries a hint: words that would read. ' +
    'clauses accounts for every clause: the parts it lands in, and any meaning no part took, with why and a hint; none is dropped in silence. ' +
    'The embedded reader (lane embedded, the default) is deterministic: the same words give the same parts. Lane model asks an OpenAI-compatible reader; its reading is refused whole (502) unless it passes the same schema and every span quotes the text (forge_lanes says whether it is open to you).',
  input: z.object({ text: RuleWords, lane: LaneInput }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: WorkflowReadAnswer,
  access: 'session',
  // A person with curl reads words as an agent does: words over the cap are 413, the model lane's refusals 402 (not funded) and 503 (not configured).
  toolset: TOOLSETS.studio,
  rest: { method: 'POST', path: '/studio/read', errors: [402, 413, 500, 502, 503] },
  run: (ctx, { text, lane }) => readWorkflow(ctx, text, lane ?? 'embedded'),
});
