import { z } from 'zod';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import { MandateEntry } from '../mandates/answers.js';
import { PlanClaimEntry } from '../plans/standing-schema.js';
import { ACT_LEDGERS, type ActLedger } from './acts.js';
import { answer } from '../schemas.js';
import { Hex32, IsoTime, Sha256Hex, UnixS } from '../../core/schemas.js';
import { Move } from '../series/answers.js';
import { Decision, GradeEntry, ScoreEntry } from '../studio/answers.js';

// The records' answers, each field as the tool answers it.

const Row = Move.shape.row;
const State = Move.shape.to;
const Score = ScoreEntry.shape.score;

/**
 * Each ledger that records a principal's acts: the kind its acts read as, what history shows of an entry (`what`),
 * and the whole entry as history_entry shows it (the ledger's own, without whose it is).
 */
const LEDGERS = {
  meter: {
    kind: z.string().describe("the price list's action"),
    what: z.strictObject({ units: z.number(), bars: z.number().int().nullable() }),
    entry: z.strictObject({ action: z.string(), units: z.number().describe('meter units spent'), bars: z.number().int().optional().describe('bars stepped over, for an action priced by the bar') }),
  },
  grades: {
    kind: z.literal('grade'),
    what: z.strictObject({ seed_hash: Sha256Hex, rubric: z.string(), decision: Decision, rehearsal_digest: Sha256Hex.nullable(), decision_digest: Sha256Hex }),
    entry: GradeEntry,
  },
  scores: {
    kind: z.literal('score'),
    what: z.strictObject({
      stage: ScoreEntry.shape.stage,
      seed_hash: Sha256Hex.nullable(),
      rehearsal_digest: Sha256Hex.nullable(),
      rubric: z.string(),
      score: Score,
      decision_digest: Sha256Hex,
    }),
    entry: ScoreEntry,
  },
  'plan-claims': {
    kind: z.literal('plan_claim'),
    what: z.strictObject({ chain: z.string(), tx_hash: z.string(), plan: z.string(), amount: z.string(), period: z.strictObject({ start: IsoTime, end: IsoTime }) }),
    entry: PlanClaimEntry,
  },
  'holder-links': {
    kind: z.literal('holder_link'),
    what: z.strictObject({ day: z.string(), wallet: z.string(), nfts: z.number().int(), block: z.number().int() }),
    entry: z.strictObject({ day: z.string(), wallet: z.string(), chain: z.string(), collection: z.string(), nfts: z.number().int(), block: z.number().int().describe('the block balanceOf was read at') }),
  },
  mandates: {
    kind: z.literal('mandate'),
    what: MandateEntry.pick({ eip712_hash: true, vault: true, vault_matches: true }),
    entry: MandateEntry,
  },
  series: {
    kind: z.literal('series_move'),
    what: z.strictObject({ series_id: z.string(), n: z.number().int(), row: Row, from: State.nullable(), to: State, epoch: z.number().int().nullable() }),
    entry: Move.extend({ series_id: z.string() }),
  },
} satisfies Record<ActLedger, { kind: z.ZodType; what: z.ZodObject; entry: z.ZodObject }>;
type LedgerName = keyof typeof LEDGERS;

/** The kinds of act the ledgers beside the meter record (the meter's kinds are the price list's actions). */
export const LEDGER_KINDS: readonly string[] = Object.values(LEDGERS).flatMap((l) => (l.kind instanceof z.ZodLiteral ? [String(l.kind.value)] : []));
const NAMES = ACT_LEDGERS;

/** An act, of its ledger's shape. */
const actOf = (ledger: LedgerName) =>
  z.strictObject({
    kind: LEDGERS[ledger].kind,
    ledger: z.literal(ledger),
    seq: z.number().int().min(1),
    hash: z.string(),
    at: IsoTime,
    what: LEDGERS[ledger].what.describe('what the entry recorded, in its own fields'),
  });
const Act = z.discriminatedUnion('ledger', NAMES.map(actOf) as unknown as [ReturnType<typeof actOf>, ...ReturnType<typeof actOf>[]]);

export const HistoryAnswer = answer({
  kinds: z.array(z.string()).describe('every kind of act history lists'),
  total: z.number().int().describe('acts of the kind asked'),
  cursor: z.number().int(),
  next: z.number().int().nullable().describe('the cursor of the next page; null on the last'),
  acts: z.array(Act),
});

const Entries = NAMES.map((ledger) => LEDGERS[ledger].entry) as unknown as [z.ZodObject, ...z.ZodObject[]];

/** One entry as its ledger keeps it; the entry is the one of its ledger's shape (an answer is an object, for MCP's outputSchema). */
export const HistoryEntryAnswer = answer({
  ledger: z.enum(ACT_LEDGERS),
  seq: z.number().int().min(1),
  at: IsoTime,
  prev: z.string().describe('the hash of the entry before it'),
  hash: z.string(),
  entry: z.union(Entries).describe("the whole entry as the ledger keeps it, of that ledger's shape"),
}).superRefine((a, issues) => {
  const own = LEDGERS[a.ledger].entry.safeParse(a.entry);
  if (!own.success) issues.addIssue({ code: 'custom', path: ['entry'], message: `not an entry of the ${a.ledger} ledger: ${own.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
});

export const LabAnswer = answer({
  count: z.number().int(),
  concluded: z.array(
    z.strictObject({
      seed_hash: Sha256Hex,
      receipt_hash: Sha256Hex,
      decision: Decision,
      rubric: z.string(),
      rehearsal_digest: Sha256Hex.nullable(),
      concluded_at: IsoTime.nullable(),
    }),
  ),
});

export const EpochsAnswer = answer({
  count: z.number().int(),
  epochs: z
    .array(
      z.strictObject({
        seller: z.string().describe('the seller hired'),
        agent: z.strictObject({ chainId: z.number().int(), agentId: z.string() }).describe('the ERC-8004 agent the hire named'),
        class: z.string().describe('the job class'),
        index: z.number().int().describe("the epoch's index in its series"),
        paymentRef: Hex32.describe("the epoch's payment reference, as its job on chain carries it"),
        window: z.strictObject({ from: UnixS, to: UnixS }),
        ended_at: UnixS,
        verdict: z
          .strictObject({ pass: z.boolean(), checks: z.array(z.strictObject({ n: z.number().int(), pass: z.boolean() })) })
          .describe("the layer's verdict: whether it passed, and each of the class's checks"),
        feedback: z
          .strictObject({ value: z.number().int(), valueDecimals: z.number().int(), tag1: z.string(), tag2: z.string() })
          .nullable()
          .describe("the ERC-8004 feedback's value and tags for this verdict; null when the deck names no reputation registry on the agent's chain"),
      }),
    )
    .describe('oldest ended first'),
});

const LadderRow = z.strictObject({
  model: z.string().describe('owner/name'),
  standing: z.enum(['ranked', 'unranked']),
  rank: z.number().int().min(1).nullable().describe('1 for the most realized R; null while unranked'),
  trades: z.number().int().describe('closed trades the figures rest on'),
  realized_r: z.number().nullable().describe('the sum of R over the closed trades; null with no close'),
  max_drawdown_r: z.number().nullable(),
  win_rate: z.number().nullable(),
  last_close_at: z.number().int().nullable().describe('unix milliseconds'),
});

export const LadderAnswer = answer({
  min_trades: z.number().int().describe('closed trades a model needs to be ranked'),
  ranked: z.array(LadderRow),
  unranked: z.array(LadderRow),
});

export const RegistryAnswer = answer({
  count: z.number().int(),
  entries: z.array(
    z.discriminatedUnion('kind', [
      z.strictObject({
        kind: z.literal('seller'),
        id: z.string(),
        name: z.string(),
        description: z.string(),
        endpoint: z.url().describe('its MCP endpoint'),
        card_url: z.url(),
        tools: z.array(z.string()),
      }),
      z.strictObject({
        kind: z.literal('algorithm'),
        id: z.string(),
        name: z.string(),
        source: z.string().describe('where it is documented'),
        market: z.enum(MARKETS),
        timeframe: z.enum(TIMEFRAMES),
        script_url: z.url().describe('where its exact script is read'),
      }),
    ]),
  ),
});

export const RoadmapAnswer = answer({
  serves: z.array(
    z.strictObject({
      area: z.string().describe("the REST route's tag, or mcp"),
      tools: z.array(z.strictObject({ name: z.string(), title: z.string(), route: z.string().nullable(), mcp: z.boolean().describe('whether agents reach it over MCP') })),
    }),
  ),
  not_built: z.array(z.strictObject({ item: z.string(), names: z.array(z.string()).describe('the names it gives in backticks') })),
});
