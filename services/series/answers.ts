import { z } from 'zod';
import { MARKETS } from '../../engine/markets.js';
import { EPOCH_STATES, ROW_IDS, SERIES_STATES, VENUE_KINDS } from '../../engine/series/index.js';
import { HandshakeAnswer, Venue } from '../../upstream/coord/wire.js';
import { answer, keyed } from '../schemas.js';
import { Address, Hex32, UnixS } from '../../core/schemas.js';

// The standing hire's answers, each field as the tool answers it. Times are unix seconds; addresses 0x-prefixed.

const Usdc = z.number().nonnegative();
const State = z.enum(SERIES_STATES);

/** A venue as the layer lists it. */
const VenueListed = z.strictObject(Venue.shape);

/** The quote body as the deck normalizes it (epoch_s and allow_short filled in). */
const Quote = z.strictObject({
  agent: z.strictObject({ chainId: z.number().int(), agentId: z.string().describe("the agent's ERC-8004 token id"), seller: z.string().describe('the deck seller hired') }),
  venue: z.string(),
  epochs: z.number().int(),
  epoch_s: z.number().int(),
  price_usdc: Usdc.describe('USDC for one epoch (one job)'),
  caps: z.strictObject({
    markets: z.array(z.enum(MARKETS)),
    max_order_size: z.number(),
    max_notional: z.number(),
    max_position: z.number(),
    allow_short: z.boolean(),
  }),
  cover: Usdc,
  vault: Address.optional(),
});

/** The layer's terms for one epoch, as its pool quote answers them. */
const PerEpoch = z.strictObject({
  price_usdc: Usdc,
  fee_usdc: Usdc,
  cover_usdc: Usdc,
  epoch_s: z.number().int(),
  judge: z.strictObject({ evaluator: Address, checks: z.array(z.number().int()) }).describe("who evaluates each epoch's job, and the checks it runs"),
});

const Terms = z.strictObject({
  kind: z.enum(VENUE_KINDS),
  class: z.string().describe('the job class'),
  checks: z.array(z.number().int()),
  evidence: z.string().describe("what the layer's judge reads at the venue"),
  per_epoch: PerEpoch,
  seller_deposit_usdc: Usdc,
});

/** The unsigned plan that opens an epoch's job: ERC-8183 createJob calldata, for the buyer's own wallet to sign. */
const UnsignedPlan = z.strictObject({ chainId: z.number().int(), to: Address, data: z.string().regex(/^0x([0-9a-fA-F]{2})*$/), value: z.literal('0') });

const Job = z.strictObject({ class: z.string(), provider: Address, evaluator: Address, expiredAt: UnixS, description: z.string(), hook: Address });

const Verdict = z.strictObject({ pass: z.boolean(), checks: z.array(z.strictObject({ n: z.number().int(), pass: z.boolean(), why: z.string() })) });

/** ERC-8004 feedback for an ended epoch: giveFeedback's arguments, the off-chain file and the unsigned call. */
const Feedback = z
  .strictObject({
    registry: z.string().describe('the reputation registry, eip155:<chainId>:<address>'),
    agentRegistry: z.string().describe('the identity registry the hired agent is on, eip155:<chainId>:<address>'),
    client: Address.nullable().describe('the wallet the file names as the client: your proven wallet; send from it. null when you have none (no file then)'),
    args: z
      .strictObject({
        agentId: z.string().describe('the hired agent, as the quote named it'),
        value: z.number().int().describe("the share of the class's checks the verdict passed, in percent with valueDecimals decimals"),
        valueDecimals: z.number().int(),
        tag1: z.string().describe('the job class'),
        tag2: z.enum(['pass', 'fail']).describe("the layer's verdict"),
        endpoint: z.string().describe("the seller's MCP endpoint"),
        feedbackURI: z.string().describe("the file as a data: URI (application/json, base64); empty without a file"),
        feedbackHash: Hex32.describe("keccak256 of the file's bytes; zero without a file"),
      })
      .describe("giveFeedback's arguments, in its order"),
    file: z
      .strictObject({
        agentRegistry: z.string(),
        agentId: z.union([z.number().int(), z.string()]).describe('a number; its decimal string past what JSON holds exactly'),
        clientAddress: z.string(),
        createdAt: z.string().describe('when the layer ended the epoch, ISO-8601 UTC'),
        value: z.number().int(),
        valueDecimals: z.number().int(),
        tag1: z.string(),
        tag2: z.string(),
        endpoint: z.string(),
        epoch: z.strictObject({ class: z.string(), index: z.number().int(), paymentRef: Hex32, window: z.strictObject({ from: UnixS, to: UnixS }), verdict: Verdict }),
      })
      .nullable()
      .describe('the off-chain feedback file feedbackURI carries; null without a proven wallet'),
    unsigned: UnsignedPlan.describe('giveFeedback on the reputation registry: yours to sign and send, from the client wallet'),
  })
  .describe("ERC-8004 feedback you may give the seller for this epoch, once the layer ended it with its verdict; null before, or when the deck names no reputation registry on the hired agent's chain");

const Epoch = z.strictObject({
  index: z.number().int().min(1),
  window: z.strictObject({ from: UnixS, to: UnixS }),
  paymentRef: Hex32.describe('sha256 of the text {series_id}:{index}, 0x-prefixed'),
  state: z.enum(EPOCH_STATES),
  handshake_id: z.string().nullable(),
  opened_at: UnixS.nullable(),
  ended_at: UnixS.nullable(),
  verdict: Verdict.nullable(),
  unsigned: UnsignedPlan.nullable(),
  job: Job.nullable(),
  feedback: Feedback.nullable(),
});

/** One move of a series, as its record lists it and the series ledger chains it. */
export const Move = z.strictObject({
  n: z.number().int().min(1).describe("the move's number within its series"),
  row: z.enum(ROW_IDS).nullable().describe("the state table's row; null for a plan kept on an epoch already open"),
  what: z.enum(['opened', 'epoch_opened', 'epoch_adopted', 'epoch_submitted', 'epoch_ended', 'plan_kept', 'revoked', 'ended']),
  from: State.nullable(),
  to: State,
  at: UnixS,
  epoch: z.number().int().optional(),
  handshake_id: z.string().optional(),
  why: z.string().optional(),
});

/** A series as every route answers it: the record and the move that follows. */
const SeriesView = z.strictObject({
  id: z.string().regex(/^sr_[0-9a-f]{24}$/),
  state: State,
  created_at: UnixS,
  from: UnixS.describe("when the first epoch's window begins"),
  validUntil: UnixS.describe("the end of the series: the last epoch's window ends here"),
  quote: Quote,
  terms: Terms,
  series_total_usdc: Usdc,
  mandate: z.string().describe('the mandate said in words'),
  epochs: z.array(Epoch),
  stopped: z.strictObject({ at: UnixS, why: z.string() }).nullable(),
  ended: z.strictObject({ at: UnixS, why: z.enum(['last_epoch', 'valid_until', 'stopped']) }).nullable(),
  moves: z.array(Move),
  next: z.string().describe('the move that follows, in words'),
});

const Moved = z.strictObject({ row: z.enum(ROW_IDS).nullable(), from: State.nullable(), to: State }).describe('the state table row the call moved');
const Next = z.string().describe('the move that follows, in words');

export const TermsAnswer = answer({
  venues: keyed(VENUE_KINDS, z.array(VenueListed)).nullable().describe('the venues the layer lists, by kind; null when they are unknown (venues_unknown says why)'),
  venues_unknown: z
    .strictObject({ status: z.union([z.literal(502), z.literal(503)]), error: z.string(), message: z.string().describe('what went wrong, and how to configure the layer when it is not') })
    .nullable()
    .describe('why the venues are unknown: the layer is not configured (503) or did not answer (502); null when they are known'),
  limits: z.strictObject({
    epochs: z.strictObject({ min: z.number().int(), max: z.number().int() }),
    epoch_s: z.strictObject({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
    span_s: z.strictObject({ max: z.number().int() }).describe('epochs x epoch_s at most'),
    price: z.strictObject({ unit: z.string(), decimals: z.number().int(), by_seller: z.record(z.string(), z.strictObject({ min: Usdc, max: Usdc })) }),
    markets: z.array(z.enum(MARKETS)),
    cover: z.strictObject({ unit: z.string(), external: z.string() }),
  }),
  body: z.record(z.string(), z.unknown()).describe("the quote body's JSON Schema"),
});

export const QuoteAnswer = answer({
  quote: Quote.describe('the quote body as normalized: pass it to series_open as quote'),
  venue: z.strictObject({ venue: z.string(), kind: z.enum(VENUE_KINDS), class: z.string(), checks: z.array(z.number().int()), evidence: z.string() }),
  per_epoch: PerEpoch,
  seller_deposit_usdc: Usdc,
  series_total_usdc: Usdc.describe('epochs x the per-epoch price'),
  can_open: z.boolean(),
  why: z.string().optional().describe('why it cannot open (can_open false)'),
  next: Next,
});

export const SeriesOpenAnswer = answer({ series: SeriesView, next: Next });

export const SeriesListAnswer = answer({ count: z.number().int(), series: z.array(SeriesView).describe('newest first') });

export const SeriesReadAnswer = answer({
  series: SeriesView,
  hire: z.strictObject(HandshakeAnswer.shape).nullable().describe("the open epoch's handshake as the layer reports it; null when no epoch is open"),
  layer: z
    .looseObject({ status: z.number().int(), ok: z.literal(false), error: z.string(), message: z.string() })
    .optional()
    .describe('why the layer could not answer (the series is as kept): its refusal'),
});

export const RevokeAnswer = answer({ moved: Moved, series: SeriesView });

export const EpochOpenAnswer = answer({
  moved: Moved,
  epoch: z.number().int().min(1),
  paymentRef: Hex32,
  handshake_id: z.string(),
  unsigned: UnsignedPlan.describe('the unsigned settle plan: yours to sign and send'),
  series: SeriesView,
  next: Next,
});
