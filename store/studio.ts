import type { Market, Timeframe } from '../engine/markets.js';
import type { RuleReading } from '../engine/reader/index.js';
import type { StudioState } from '../engine/studio/machine.js';
import type { Doc } from './doc.js';

/** What a rehearsal rested on and what it answered, by digest (the envelope itself is re-made from the seed and window). */
export interface RehearsalDigest {
  /** sha256 of the rehearsal's JSON answer: the bytes POST /studio/rehearse answers for the same seed and window. */
  digest: string;
  market: Market;
  timeframe: Timeframe;
  /** The window asked: its end and hours (the end is the newest bar the tape held when none was given). */
  asked: { from: number; to: number; hours: number; folds: number | null };
  /** The bars the rule traded over, as the envelope states them. */
  window: { from: number; to: number; bars: number; warm_up_bars: number };
  trades: number;
  /** The bars of the window asked that the tape held, against the bars the market's calendar expects in it. */
  tape: { bars: number; expected: number };
}

/** The grade tool's answer as it came, and the decision the machine read from it. */
export interface GradeHeld {
  decision: 'accept' | 'revise' | 'reject';
  receipt: Record<string, unknown>;
}

/** One principal's strategy in the studio: what the rule says, the evidence of each gate it holds, and its state. */
export interface StudioRecord {
  strategy: string;
  state: StudioState;
  /** Counts the moves: a move is written only over the record it was decided on. */
  rev: number;
  words: string | null;
  /** Ids of the images attached with the image move (the bytes are the image tool's). */
  images: string[];
  reading: RuleReading | null;
  seed: { seed_hash: string; version: string } | null;
  rehearsal: RehearsalDigest | null;
  grade: GradeHeld | null;
  updated_at: string | null;
}

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
