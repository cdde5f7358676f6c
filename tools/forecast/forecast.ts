import { z } from 'zod';
import { compactOf, drawOf, EnvelopeSchema, FORECAST_TIMEFRAMES, ForecastError, HORIZON, type Envelope, type Pair } from '../../engine/forecast/index.js';
import { MARKETS, TIMEFRAME_SECONDS } from '../../engine/markets.js';
import type { ForecastBook } from '../../store/forecasts.js';
import { noForecaster, type Forecaster } from '../../upstream/forecast/forecaster.js';
import { workAsk, type SessionCtx } from '../../services/context.js';
import { recordSpend } from '../../services/meter/spend.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput, DeckError, type Problem } from '../../core/errors.js';
import { answer, flag, unixTime } from '../../services/schemas.js';
import { TapeRequest } from '../../services/tape/candle-window.js';
import { ageBars } from '../../services/forecast/age.js';
import { Calibration, Drawn } from '../../services/forecast/answer-schema.js';
import { scoreDue } from '../../services/forecast/scoring.js';

/** The most issues one history answer carries; `truncated` says more are left (ask again from the last one + 1). */
export const MAX_HISTORY = 2000;

/** What happened when a read at t could issue: the envelope, whether it is new in the ledger, or why none. */
interface Issuing {
  issued: Envelope | null;
  recordedNow: boolean;
  unissued: ForecastError | null;
}

/**
 * Issues on demand, forward only: when t's bar closes after the newest envelope of the pair, the forecaster
 * issues as of that bar close. A read at an earlier t is a look back and issues nothing (the past is filled by a
 * backfill). A replay session's envelope is issued from the venue as it answers now and is not recorded, and a
 * session scores nothing: the ledgers hold only what the deck issued from the tape it keeps.
 */
async function issueAt(ctx: SessionCtx, forecaster: Forecaster, book: ForecastBook, bar: number, fresh: boolean): Promise<Issuing> {
  return book.exclusive(async () => {
    const out: Issuing = { issued: null, recordedNow: false, unissued: null };
    const newest = book.newest();
    if (!newest || bar > newest.issued_t) {
      try {
        out.issued = await forecaster.issue(book.pair, bar, fresh, workAsk(ctx));
      } catch (error) {
        if (!(error instanceof ForecastError)) throw error;
        out.unissued = error;
      }
      if (out.issued && !fresh) out.recordedNow = (await book.append([out.issued], ctx.clock())) > 0;
    }
    if (!fresh) await scoreDue(ctx, book);
    return out;
  });
}

function queryProblems(input: { t?: number; history?: boolean; from?: number }, t: number, now: number): Problem[] {
  const problems: Problem[] = [];
  if (t < 0) problems.push({ field: 't', message: 'must not be negative' });
  if (t > now) problems.push({ field: 't', message: 'must not be in the future: what is disclosed is what was issued by t' });
  if (input.history && input.from === undefined) problems.push({ field: 'from', message: 'history=1 needs from (unix seconds)' });
  if (!input.history && input.from !== undefined) problems.push({ field: 'from', message: 'from goes with history=1' });
  if (input.from !== undefined && input.from > t) problems.push({ field: 'from', message: 'must not be after t' });
  return problems;
}

const nothingIssued = (pair: Pair, t: number, unissued: ForecastError | null): DeckError =>
  new DeckError(404, 'no_envelope', `no ${pair.market} ${pair.tf} envelope was issued by ${t}${unissued ? `: ${unissued.message}` : ''}`, {
    reason: unissued?.reason ?? 'none_issued',
  });

export const forecast = defineTool({
  name: 'forecast',
  title: 'Forecast envelope',
  description:
    `The forecast envelope of NQ, ES, YM, BTC, ETH or SOL at 5m or 1h as disclosed at t (unix seconds, default now): the newest envelope issued by t, so a replay scrubbing back never sees a later one. It states magnitude, never direction: a band symmetric about the last close over the next ${HORIZON} bars and the odds of a 0.5, 1 and 2 ATR move (either way) within 6, 12 and 24 bars, with the calibration of the envelopes scored by t, per cell (each odds and the band): unmeasured under 30 effective outcomes, solid under ece 0.05, dashed under 0.10, else none; draw and label are the worst cell's. With history and from: the compact issues of [from, t], at most ${MAX_HISTORY}.`,
  input: z
    .object({
      market: z.enum(MARKETS),
      tf: z.enum(FORECAST_TIMEFRAMES),
      t: unixTime.optional().describe('disclosure time, unix seconds or ISO-8601 UTC (default now, never in the future)'),
      // The tape tool's rule for a replay session id, so the two never disagree.
      session: TapeRequest.shape.session.describe('a replay session id: issues from the venue as it answers now, records nothing'),
      history: flag.optional().describe('true: the compact issues of [from, t] instead of one envelope'),
      from: unixTime.optional().describe('with history=1: the first issue time, unix seconds or ISO-8601 UTC'),
    })
    .strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  // Open to every session, as the contract has it; an operator who sells it locks it on a tier (tier_tools, plans file).
  access: 'session',
  output: z.union([
    answer({
      envelope: EnvelopeSchema.safeExtend({ calibration: Calibration.describe('measured on the envelopes scored by t') }).describe('envelope.v1: the newest envelope issued by t'),
      ...Drawn,
      served: z.object({
        t: z.number().int(),
        at: z.number().int().describe('when it was served, unix seconds'),
        issued_now: z.boolean(),
        recorded: z.boolean().describe('false for a replay session\'s envelope, which is not recorded'),
      }),
      age_bars: z.number().int().describe('bars closed after it was issued and by t'),
    }),
    answer({
      issues: z
        .array(z.object({ issued_t: z.number().int(), width_atr: z.number(), lower: z.number(), upper: z.number() }))
        .describe('history=1: the compact issues of [from, t], oldest first'),
      truncated: z.boolean().describe('more are left: ask again from the last one + 1'),
      ...Drawn,
    }),
  ]),
  toolset: TOOLSETS.forecast,
  rest: { method: 'GET', path: '/forecast/:market/:tf', errors: [404, 502, 503] },
  async run(ctx, input) {
    const forecaster = ctx.upstreams.forecaster;
    if (!forecaster) throw noForecaster();
    const now = Math.floor(ctx.clock() / 1000);
    const t = input.t ?? now;
    const problems = queryProblems(input, t, now);
    if (problems.length) throw badInput(problems);
    const pair: Pair = { market: input.market, tf: input.tf };
    const book = await ctx.store.forecasts.book(pair);
    const fresh = input.session !== undefined;

    if (input.history) {
      if (!fresh) await book.exclusive(() => scoreDue(ctx, book));
      const { envelopes, more } = book.between(input.from!, t, MAX_HISTORY);
      await recordSpend(ctx, 'forecast');
      return { ok: true as const, issues: envelopes.map(compactOf), truncated: more, ...drawOf(book.calibration(t)) };
    }

    const len = TIMEFRAME_SECONDS[pair.tf];
    const got = await issueAt(ctx, forecaster, book, Math.floor(t / len) * len, fresh);
    const kept = book.at(t);
    // A session's envelope is answered when it is newer than what the ledger discloses at t.
    const unrecorded = fresh && got.issued && !book.has(got.issued.issued_t) && (!kept || got.issued.issued_t > kept.issued_t) ? got.issued : null;
    const envelope = unrecorded ?? kept;
    if (!envelope) throw nothingIssued(pair, t, got.unissued);
    const calibration = book.calibration(t);
    // An answered read is spent on the meter; a refused one (nothing issued by t, bad input) costs nothing.
    await recordSpend(ctx, 'forecast');
    return {
      ok: true as const,
      envelope: { ...envelope, calibration },
      ...drawOf(calibration),
      served: { t, at: now, issued_now: unrecorded !== null || (got.recordedNow && got.issued!.issued_t === envelope.issued_t), recorded: unrecorded === null },
      age_bars: ageBars(pair, envelope.issued_t, t),
    };
  },
});
