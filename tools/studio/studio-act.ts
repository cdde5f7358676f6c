import { z } from 'zod';
import { expectedBars } from '../../engine/calendar.js';
import { MARKETS, TIMEFRAME_SECONDS } from '../../engine/markets.js';
import { isSettled, PARTS } from '../../engine/reader/index.js';
import { MAX_FOLDS } from '../../engine/stepper/index.js';
import { arrive, isMove, machineMarkdown, STATES, STUDIO_ACTIONS, viewOf, type Gate, type Outcome, type StudioAction } from '../../engine/studio/machine.js';
import type { StudioRecord } from '../../store/studio.js';
import { GraderKey } from '../../upstream/grader/funding.js';
import type { SessionCtx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { unixTime } from '../../services/schemas.js';
import { forgeRule } from '../../services/studio/forge.js';
import { attachImage, IMAGE_BODY_CAP, ImageData } from '../../services/studio/image-attach.js';
import { Folds, rehearseForge } from '../../services/studio/rehearse.js';
import { DEFAULT_STRATEGY, stateOf, Strategy } from '../../services/studio/studio-state.js';
import { DEFAULT_HOURS, Hours } from '../../services/studio/window.js';
import { RuleWords, WORDS_CAP, withinWordsCap } from '../../services/studio/words.js';
import { readWorkflow } from '../../services/studio/workflow-read.js';
import { gradeForge } from '../../services/studio/grade.js';
import { StudioActAnswer } from '../../services/studio/answers.js';

/** The fields of the actions besides action and strategy. */
const FIELDS = ['text', 'data', 'market', 'hours', 'to', 'folds', 'grader_key'] as const;
type Field = (typeof FIELDS)[number];

/** The fields each action takes: the ones it needs, and the ones it may take. */
const FIELDS_OF: Readonly<Record<StudioAction, { needs: readonly Field[]; may: readonly Field[] }>> = {
  words: { needs: ['text'], may: [] },
  image: { needs: ['data'], may: [] },
  reset: { needs: [], may: [] },
  read: { needs: [], may: [] },
  forge: { needs: [], may: [] },
  rehearse: { needs: [], may: ['market', 'hours', 'to', 'folds'] },
  grade: { needs: [], may: ['grader_key'] },
};

const Move = z
  .object({
    action: z.enum(STUDIO_ACTIONS).describe('the move: words, image, reset, read, forge, rehearse or grade'),
    strategy: Strategy,
    text: RuleWords.optional().describe(`words: the rule in plain words, at most ${WORDS_CAP} characters (over it is 413)`),
    data: ImageData.optional().describe('image: base64 image bytes (a data: URL is accepted too), as POST /studio/image takes them'),
    market: z.enum(MARKETS).optional().describe('rehearse: the market to rehearse on (default: the one the rule named)'),
    hours: Hours.describe(`rehearse: hours of tape counted back from the window's end (default ${DEFAULT_HOURS})`),
    to: unixTime.optional().describe('rehearse: the window\'s end, unix seconds or ISO-8601 UTC (default: the newest bar the tape holds)'),
    folds: Folds.optional().describe(`rehearse: walk-forward folds to cut the window into (2 to ${MAX_FOLDS})`),
    grader_key: GraderKey.optional().describe('grade: your own grader key, as POST /studio/grade takes it; never kept'),
  })
  .strict()
  .superRefine((move, issues) => {
    const { needs, may } = FIELDS_OF[move.action];
    for (const field of FIELDS) {
      const given = move[field] !== undefined;
      if (!given && needs.includes(field)) issues.addIssue({ code: 'custom', path: [field], message: `${move.action} needs ${field}` });
      if (given && !needs.includes(field) && !may.includes(field)) issues.addIssue({ code: 'custom', path: [field], message: `not a field of ${move.action}` });
    }
  });
type MoveInput = z.output<typeof Move>;

/** What a move did: the record's new fields, the verdict that picks its row (read, grade) and the tool's answer. */
interface Moved {
  change: Partial<StudioRecord>;
  outcome?: Outcome;
  answer: unknown;
}

/** The record's field that holds each gate's evidence. */
const EVIDENCE: Readonly<Record<Gate, 'reading' | 'seed' | 'rehearsal' | 'grade'>> = { read: 'reading', forge: 'seed', rehearse: 'rehearsal', grade: 'grade' };

// Every state but blank holds words (only the words move leaves blank), forged and every later state hold the
// seed, and rehearsed the rehearsal: the table lets read and forge run only from the first, rehearse only from the
// second, grade only from rehearsed.
const wordsOf = (r: StudioRecord): string => r.words!;
const seedOf = (r: StudioRecord): string => r.seed!.seed_hash;
const rehearsalOf = (r: StudioRecord): string => r.rehearsal!.digest;

/** Each action: the work of the tool its REST route calls, done as the principal, so its refusals are that tool's own. */
const MOVES: Readonly<Record<StudioAction, (ctx: SessionCtx, r: StudioRecord, move: MoveInput) => Promise<Moved>>> = {
  async words(_ctx, _r, move) {
    return { change: { words: withinWordsCap(move.text!, 'text') }, answer: null };
  },
  async image(ctx, r, move) {
    const got = await attachImage(ctx, move.data!);
    return { change: { images: [...r.images, got.id] }, answer: got };
  },
  async reset() {
    return { change: { words: null, images: [] }, answer: null };
  },
  async read(ctx, r) {
    const got = await readWorkflow(ctx, wordsOf(r), 'embedded');
    const outcome = PARTS.every((p) => isSettled(got.parts[p].status)) ? 'all_read' : 'unclear';
    return { change: { reading: got.parts }, outcome, answer: got };
  },
  async forge(ctx, r) {
    const got = await forgeRule(ctx, { intent: wordsOf(r) });
    return { change: { seed: { seed_hash: got.seed_hash, version: got.version } }, answer: got };
  },
  async rehearse(ctx, r, move) {
    const { market, hours, to, folds } = move;
    const { answer: got, digest } = await rehearseForge(ctx, { seed_hash: seedOf(r), market, hours, to, folds });
    // The window asked ends at `to` on the bar grid, or (without it) at the newest bar, where the envelope's ends.
    const len = TIMEFRAME_SECONDS[got.timeframe];
    const end = to !== undefined ? Math.floor(to / len) * len : got.window.to;
    const span = (hours ?? DEFAULT_HOURS) * 3600;
    const rehearsal = {
      digest,
      market: got.market,
      timeframe: got.timeframe,
      asked: { from: end - span, to: end, hours: hours ?? DEFAULT_HOURS, folds: folds ?? null },
      // The bars the rule traded over, as the record has always kept them (the envelope says more: readiness, idle bars).
      window: { from: got.window.from, to: got.window.to, bars: got.window.bars, warm_up_bars: got.window.warm_up_bars },
      trades: got.trades.length,
      tape: { bars: got.window.bars, expected: expectedBars(got.market, len, end - span, end).length },
    };
    return { change: { rehearsal }, answer: got };
  },
  async grade(ctx, r, move) {
    // The grade judges the rehearsal the record holds, by its digest, whatever was rehearsed since outside the studio.
    const answer = await gradeForge(ctx, { seed_hash: seedOf(r), rehearsal_digest: rehearsalOf(r), grader_key: move.grader_key });
    const { decision } = answer;
    return { change: { grade: { decision, receipt: answer } }, outcome: decision === 'accept' ? 'accepted' : 'not_accepted', answer };
  },
};

/** 409 with the view: the action is not a move from the record's state (or the record moved while this move ran). */
function notTheMove(record: StudioRecord, action: StudioAction, moved: boolean): DeckError {
  const view = viewOf(record.state);
  const awaited = [view.next, ...view.alt].filter((a) => a !== null).join(', ');
  const why = moved ? `the strategy moved to ${record.state} while this move ran` : `${action} is not a move from ${record.state}`;
  return new DeckError(409, 'not_the_move', `${why}; the moves now are: ${awaited}`, { view });
}

/** The record in its new state, holding only the evidence of the gates that state holds: every later gate goes back. */
function settled(record: StudioRecord): StudioRecord {
  const next = { ...record };
  for (const [gate, field] of Object.entries(EVIDENCE) as [Gate, (typeof EVIDENCE)[Gate]][]) {
    if (!STATES[record.state].holds.includes(gate)) next[field] = null;
  }
  return next;
}

export const studioAct = defineTool({
  name: 'studio_act',
  title: 'Move the studio state',
  description:
    'Moves your strategy one step through the studio machine and answers { ok, record, view, coverage, answer } (answer: the called tool\'s own answer, null for words and reset). ' +
    'Gate order: read the rule into seven parts, forge, rehearse, grade; nothing is skipped. Actions: words { text } sets the words; image { data } attaches an image (image_attach); reset clears both; ' +
    'read reads the words (workflow_read); forge forges them (forge); rehearse { market?, hours?, to?, folds? } rehearses the seed (rehearse); grade { grader_key? } grades it (grade, by seed_hash): accept is graded, revise or reject is rejected. ' +
    'words, image and reset change what the rule says and send every later gate back. Any other action is taken only as view.next or one of view.alt, otherwise 409 with the view. ' +
    'Each action calls the deck\'s own tool as you, so its refusals are that tool\'s (413 over the words cap, 415, 429, 402, 404, 422, 503 ...); an action the machine does not have, or a field failing its shape, is 422 naming it. ' +
    'Every strategy (default main) has its own record.\n\nThe states, and the full transition table (a state and action not in it is 409):\n\n' +
    machineMarkdown(),
  input: Move,
  // The transition table is the OpenAPI document's and docs/studio.md's; over MCP the view names the moves open now.
  listed: {
    description:
      'Moves your strategy one step through the studio machine (read the rule into seven parts, forge, rehearse, grade; nothing skipped) and answers { ok, record, view, coverage, answer }. ' +
      'Actions: words { text }, image { data }, reset, read, forge, rehearse { market?, hours?, to?, folds? }, grade { grader_key? }. words, image and reset send every later gate back; any other action is taken only as view.next or one of view.alt (studio_state shows them), else 409 with the view. ' +
      'Each action calls the deck\'s own tool as you, with that tool\'s refusals. Every strategy (default main) has its own record; the full transition table is in POST /studio/state of GET /openapi.json.',
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: StudioActAnswer,
  access: 'session',
  // As POST /studio/image's cap, so the image move carries any image that route takes.
  toolset: TOOLSETS.studio,
  rest: { method: 'POST', path: '/studio/state', maxBody: IMAGE_BODY_CAP, errors: [402, 404, 409, 413, 415, 429, 500, 502, 503] },
  async run(ctx, move) {
    const p = ctx.principal;
    const record = ctx.store.studio.get(p.id, move.strategy ?? DEFAULT_STRATEGY);
    if (!isMove(record.state, move.action)) throw notTheMove(record, move.action, false);
    const { change, outcome, answer } = await MOVES[move.action](ctx, record, move);
    const next = settled({ ...record, ...change, state: arrive(record.state, move.action, outcome ?? null), updated_at: new Date(ctx.clock()).toISOString() });
    const written = await ctx.store.studio.move(p.id, next, record.rev, (now) => notTheMove(now, move.action, true));
    return { ok: true, ...stateOf(ctx, written), answer };
  },
});
