import { DECISIONS } from '../engine/grade/index.js';
import { MARKETS, TIMEFRAMES } from '../engine/markets.js';
import { RuleReadingSchema } from '../engine/reader/index.js';
import { STUDIO_STATES } from '../engine/studio/machine.js';
import type { Doc } from './doc.js';
import { z } from 'zod';
import { IsoTime, Sha256Hex, UnixS } from '../core/schemas.js';

/** What a rehearsal rested on and what it answered, by digest (the envelope itself is re-made from the seed and window). */
export const RehearsalDigestSchema = z.strictObject({
  digest: Sha256Hex.describe("sha256 of the rehearsal's JSON answer: the bytes POST /studio/rehearse answers for the same seed and window"),
  market: z.enum(MARKETS),
  timeframe: z.enum(TIMEFRAMES),
  asked: z.strictObject({ from: UnixS, to: UnixS, hours: z.number().int(), folds: z.number().int().nullable() }).describe('the window asked: its end and hours (the end is the newest bar the tape held when none was given)'),
  window: z.strictObject({ from: UnixS, to: UnixS, bars: z.number().int(), warm_up_bars: z.number().int() }).describe('the bars the rule traded over, as the envelope states them'),
  trades: z.number().int(),
  tape: z.strictObject({ bars: z.number().int(), expected: z.number().int() }).describe("the bars of the window asked that the tape held, against the bars the market's calendar expects in it"),
});
export type RehearsalDigest = z.infer<typeof RehearsalDigestSchema>;

/** The grade tool's answer as it came, and the decision the machine read from it. */
export const GradeHeldSchema = z.strictObject({ decision: z.enum(DECISIONS), receipt: z.record(z.string(), z.unknown()) });
export type GradeHeld = z.infer<typeof GradeHeldSchema>;

/** One principal's strategy in the studio: what the rule says, the evidence of each gate it holds, and its state. */
export const StudioRecordSchema = z.strictObject({
  strategy: z.string(),
  state: z.enum(STUDIO_STATES),
  rev: z.number().int().describe('counts the moves: a move is written only over the record it was decided on'),
  words: z.string().nullable(),
  images: z.array(z.string()).describe("ids of the images attached with the image move (the bytes are the image tool's)"),
  reading: RuleReadingSchema.nullable(),
  seed: z.strictObject({ seed_hash: Sha256Hex, version: z.string() }).nullable(),
  rehearsal: RehearsalDigestSchema.nullable(),
  grade: GradeHeldSchema.nullable(),
  updated_at: IsoTime.nullable(),
});
export type StudioRecord = z.infer<typeof StudioRecordSchema>;

export interface StudioDoc {
  by_principal: Record<string, Record<string, StudioRecord>>;
}

/** A strategy no move has touched yet. */
const blankRecord = (strategy: string): StudioRecord => ({
  strategy,
  state: 'blank',
  rev: 0,
  words: null,
  images: [],
  reading: null,
  seed: null,
  rehearsal: null,
  grade: null,
  updated_at: null,
});

/**
 * A principal's record of a strategy, looked up as an own entry: the strategy is the caller's name, and a plain
 * object would answer "constructor" with Object's own member.
 */
const recordOf = (mine: Readonly<Record<string, StudioRecord>> | undefined, strategy: string): StudioRecord | undefined =>
  mine && Object.hasOwn(mine, strategy) ? mine[strategy] : undefined;

/** The studio records, by (principal, strategy): another principal's strategy of the same name is theirs alone. */
export class Studio {
  constructor(private readonly file: Doc<StudioDoc>) {}

  static empty = (): StudioDoc => ({ by_principal: {} });

  /** Every principal's records, whoever holds them (for house-wide records that name no one). */
  everyRecord(): StudioRecord[] {
    return Object.values(this.file.data.by_principal).flatMap((mine) => Object.values(mine));
  }

  get(principalId: string, strategy: string): StudioRecord {
    return recordOf(this.file.data.by_principal[principalId], strategy) ?? blankRecord(strategy);
  }

  /**
   * Writes `next` as rev `seen + 1` in one update, only while the record is still at rev `seen` (the one the move was
   * decided on); otherwise `stale` refuses with the record as it now is, and nothing is written.
   */
  move(principalId: string, next: StudioRecord, seen: number, stale: (now: StudioRecord) => Error): Promise<StudioRecord> {
    return this.file.update((d) => {
      const mine = (d.by_principal[principalId] ??= {});
      const now = recordOf(mine, next.strategy) ?? blankRecord(next.strategy);
      if (now.rev !== seen) throw stale(now);
      const written = { ...next, rev: seen + 1 };
      mine[next.strategy] = written;
      return written;
    });
  }
}
