import { z } from 'zod';
import { ScriptSchema } from '../../engine/decider/index.js';
import { ReviewSchema, ScanSchema } from '../../engine/forge/index.js';
import { ANSWERS, DECISIONS } from '../../engine/grade/index.js';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import { ClauseAccountSchema, PARTS, RuleReadingSchema, STATUSES } from '../../engine/reader/index.js';
import { RehearsalSchema } from '../../engine/stepper/index.js';
import { VerdictSchema } from '../../engine/verdict/index.js';
import { GATES, STUDIO_ACTIONS, STUDIO_STATES } from '../../engine/studio/machine.js';
import { STAGES } from '../../store/grades.js';
import { RehearsalDigestSchema, StudioRecordSchema } from '../../store/studio.js';
import { answer, keyed } from '../schemas.js';
import { IsoTime, Sha256Hex, UnixS } from '../../core/schemas.js';
import { TIERS } from '../../core/principal.js';
import { Warnings } from '../tape/held.js';

// The studio's and the forge's answers, each field as the tool answers it. Engine records (the script, the
// self-review, the scan, the reading, the rehearsal envelope) are the engine's own schemas.

const Market = z.enum(MARKETS);
const Timeframe = z.enum(TIMEFRAMES);
/** A grade's decision. */
export const Decision = z.enum(DECISIONS);

const Watermark = z.strictObject({ seed_hash: Sha256Hex, version: z.string() }).describe('the seed hash and version read back from the code');

export const ForgeAnswer = answer({
  seed_hash: Sha256Hex.describe('the hash of the canonical decider IR and the version: it names the forge'),
  version: z.string().describe("the decider's version"),
  code: z.string().describe('the TypeScript source of the pure decide function, watermarked'),
  watermark: Watermark,
  script: ScriptSchema,
  review: ReviewSchema.describe('the self-review: nine named classes, each passed or flagged with its lines'),
  scan: ScanSchema.describe('every number, indicator, market, time and side in the code traced to the words or the script, or flagged as invented'),
  warnings: Warnings,
});

export const ForgeReadAnswer = answer({
  seed_hash: Sha256Hex,
  version: z.string(),
  code: z.string(),
  review: ReviewSchema,
  scan: ScanSchema,
  expires_at: IsoTime.describe('when the forge is no longer kept'),
});

/** An onboarded algorithm as the register lists it. */
const Onboarded = {
  name: z.string(),
  title: z.string(),
  source: z.string().describe('where the algorithm is documented, and how this script adapts it'),
  intent: z.string().describe('the rule in words'),
};

export const ForgeOnboardAnswer = answer({ ...Onboarded, script: ScriptSchema });

export const StrategiesAnswer = answer({
  strategies: z.array(z.strictObject({ ...Onboarded, market: Market, timeframe: Timeframe })),
});

export const StrategyQuoteAnswer = answer({
  name: z.string(),
  market: Market,
  timeframe: Timeframe,
  window: z.strictObject({ hours: z.number().int(), bars_at_most: z.number().int().describe('the most bars the window can hold, warm-up included') }),
  unit: z.literal('meter unit'),
  meter: z.strictObject({ forge: z.number(), rehearse: z.number(), total: z.number() }).describe('meter units from the price list'),
});

const What = z.string().describe('what the lane reads, in words');
// A list of lanes, not a tuple: JSON Schema's tuple words differ between drafts, and MCP clients read the older one.
export const ForgeLanesAnswer = answer({
  lanes: z
    .array(
      z.union([
        z.strictObject({ id: z.literal('embedded'), kind: z.literal('grammar'), available: z.literal(true), what: What }),
        z.strictObject({ id: z.literal('model'), kind: z.literal('openai-compatible'), what: What, available: z.literal(false), reason: z.string().describe('why it is closed to you') }),
        z.strictObject({
          id: z.literal('model'),
          kind: z.literal('openai-compatible'),
          what: What,
          available: z.literal(true),
          model: z.string().describe("the lane's model"),
          funded: z.enum(['house', 'plan']).describe('who pays for a reading'),
        }),
      ]),
    )
    .describe('the embedded lane, then the model lane'),
});

export const WorkflowReadAnswer = answer({
  parts: RuleReadingSchema.describe('the seven parts, each with its status, value and spans, and a hint on a part missing or ambiguous'),
  clauses: z
    .array(ClauseAccountSchema)
    .describe('every clause of the words, in order: the parts it lands in, and its words that carry a meaning no part took, each with why and the words that would read'),
  warnings: Warnings,
});

const TradesPageShown = z
  .strictObject({
    from: z.number().int(),
    shown: z.number().int(),
    total: z.number().int(),
    next: z.number().int().nullable().describe('trades_from of the next page; null on the last'),
  })
  .describe('the page of trades shown (only when trades_from or trades_limit was given)');

/** Every rehearsal the deck answers is weighed for luck and overfitting. */
const Verdict = VerdictSchema.describe('how likely the result is to be luck or overfitting, each figure with its method and inputs (docs/studio.md)');

export const TrialAnswer = RehearsalSchema.extend({
  ok: z.literal(true),
  verdict: Verdict,
  name: z.string().nullable(),
  tenant: z.string().nullable(),
  seed_hash: Sha256Hex,
  script: ScriptSchema.describe('the script run, with its market and session filled in'),
  trades_page: TradesPageShown.optional(),
});

const Plate = z.strictObject({ id: Sha256Hex, path: z.string(), png: z.url(), json: z.url() });

export const RehearseAnswer = RehearsalSchema.extend({
  ok: z.literal(true),
  verdict: Verdict,
  seed_hash: Sha256Hex,
  plate: Plate.optional().describe('the sealed plate of the rehearsal (with plate: true)'),
  trades_page: TradesPageShown.optional(),
  rehearsal_digest: Sha256Hex.optional().describe('a page of trades names the whole answer by its digest, which grade and score take'),
});

/** One fact code checked before any grader was asked. */
const Fact = z.strictObject({ name: z.string(), held: z.boolean(), detail: z.string() });

const Answered = z.strictObject({
  id: z.string(),
  question: z.string(),
  distribution: keyed(ANSWERS, z.number().min(0).max(1)),
  source: z.enum(['logprobs', 'samples']),
  samples: z.number().int().nullable().describe('samples counted (samples only)'),
  verdict: z.enum(['holds', 'unsure', 'fails']),
});

const GraderPart = z
  .strictObject({ model: z.string(), funded: z.string().describe('how the decision was paid: own key, house, plan or trial'), answers: z.array(Answered) })
  .describe("the grader's part: null when it was not asked");

const JudgedRehearsal = z.strictObject({
  digest: Sha256Hex,
  chosen: z.enum(['named', 'latest_on_rule_market']),
  market: Market,
  timeframe: Timeframe,
  from: UnixS,
  to: UnixS,
  trades: z.number().int(),
});

const Shown = z
  .strictObject({ digest: Sha256Hex.describe("sha256 of the context the grader was shown"), code_in_words: z.string() })
  .describe('what the grader was shown; null when it was not asked');

/** Where a receipt sits in its ledger. */
const Receipt = {
  receipt_hash: Sha256Hex,
  prev_hash: z.string().describe('the hash of the entry before it in the ledger'),
  seq: z.number().int().min(1),
  at: IsoTime,
  trial_pings_left: z.number().int().optional().describe('trial pings left on the free tier, when one was spent'),
};

/** A grade receipt as the grade ledger keeps it (without whose it is). */
export const GradeEntry = z.strictObject({
  rubric: z.string(),
  seed_hash: Sha256Hex,
  version: z.string(),
  words_sha256: Sha256Hex.describe('the words are kept only as their digest'),
  decision: Decision,
  rehearsal: JudgedRehearsal.nullable().describe('the rehearsal judged; null when none was kept'),
  facts: z.array(Fact),
  grader: GraderPart.nullable(),
  shown: Shown.nullable(),
  reasons: z.array(z.string()),
  decision_digest: Sha256Hex,
});

export const GradeAnswer = GradeEntry.extend({ ok: z.literal(true), ...Receipt });

/** A score as the score ledger keeps it (without whose it is). */
export const ScoreEntry = z.strictObject({
  rubric: z.string(),
  stage: z.enum(STAGES),
  subject: z.strictObject({ seed_hash: Sha256Hex.optional(), rehearsal_digest: Sha256Hex.optional(), words_sha256: Sha256Hex }),
  rehearsal: JudgedRehearsal.optional().describe('stage rehearsed: the rehearsal judged'),
  facts: z.array(Fact),
  grader: GraderPart.nullable(),
  shown: Shown.nullable().optional(),
  score: z.strictObject({ k: z.number().int(), n: z.number().int(), value: z.number().min(0).max(1) }).describe('k points of n'),
  reasons: z.array(z.string()),
  decision_digest: Sha256Hex,
});

export const ScoreAnswer = ScoreEntry.extend({ ok: z.literal(true), ...Receipt });

const Calibration = z.strictObject({
  k: z.number().int().describe('closed questions that held'),
  n: z.number().int().describe('closed questions asked'),
  rate: z.number().nullable(),
  wilson_lower: z.number().nullable().describe('the lower end of the 95% Wilson interval; null before any question'),
  scores: z.number().int().describe('scores recorded'),
});

export const ScoreReadAnswer = answer({
  stage: z.enum(STAGES),
  rubric: z.string(),
  z: z.number(),
  house: Calibration,
  mine: Calibration,
});

export const ImageAttachAnswer = answer({
  id: z.string().regex(/^im_[0-9a-f]{16}$/),
  tier: z.enum(TIERS),
  left_today: z.number().int().describe('attachments left today on your tier'),
});

/** The studio record, its grade receipt being the grade tool's answer as it came. */
const StudioRecord = StudioRecordSchema.extend({
  grade: z.strictObject({ decision: Decision, receipt: GradeAnswer.describe("the grade tool's answer as it came") }).nullable(),
});

const Action = z.enum(STUDIO_ACTIONS);
const StudioView = z.strictObject({
  state: z.enum(STUDIO_STATES),
  next: Action.nullable().describe('the awaited move'),
  alt: z.array(Action).describe('the other moves'),
  done: z.array(z.enum(GATES)).describe('the gates earned'),
  why: z.string(),
});

const Gate = <R extends z.ZodType>(restsOn: R) => z.strictObject({ earned: z.boolean(), rests_on: restsOn.nullable() });
const Coverage = z.strictObject({
  read: Gate(
    z.strictObject({
      words_sha256: Sha256Hex,
      chars: z.number().int(),
      parts: keyed(PARTS, z.enum(STATUSES)),
    }),
  ),
  forge: Gate(z.strictObject({ seed_hash: Sha256Hex, version: z.string(), kept: z.boolean(), expires_at: IsoTime.nullable() })),
  rehearse: Gate(RehearsalDigestSchema.extend({ seed_hash: Sha256Hex })),
  grade: Gate(z.strictObject({ seed_hash: Sha256Hex, rehearsal_digest: Sha256Hex, decision: Decision })),
});

const StudioStateShape = { record: StudioRecord, view: StudioView, coverage: Coverage.describe('each gate: earned, and what it rests on') };

export const StudioStateAnswer = answer(StudioStateShape);

export const StudioActAnswer = answer({
  ...StudioStateShape,
  answer: z
    .union([z.null(), ImageAttachAnswer, WorkflowReadAnswer, ForgeAnswer, RehearseAnswer, GradeAnswer])
    .describe("the called tool's own answer; null for words and reset"),
});
