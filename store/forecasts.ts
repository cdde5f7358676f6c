import { calibrate, DEFAULT_OPTIONS, type Calibration, type Envelope, type Pair, type Score } from '../engine/forecast/index.js';
import { TIMEFRAME_SECONDS } from '../engine/markets.js';
import type { Backend } from './backend.js';
import type { Ledger } from './ledger.js';

/**
 * One issuing act: the envelopes it issued (one on demand, up to PER_ENTRY per entry in a backfill). An entry with
 * `replaces` supersedes the envelopes recorded before at the same issued_t, for the reason it states; the replaced
 * ones stay in the chain, as issued.
 */
interface Issued {
  envelopes: Envelope[];
  replaces?: string;
}

/** One scoring pass: the scores it measured; `withdrawn` names envelopes whose score no longer stands (replaced). */
interface Scored {
  scores: Score[];
  withdrawn?: number[];
}

/**
 * Envelopes (or scores) per ledger entry at most. Each entry is fsynced before it is acknowledged, so a backfill
 * of a month of 5m bars writes a few dozen entries, not thousands; the hash chain still covers every envelope.
 */
export const PER_ENTRY = 500;

const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += PER_ENTRY) out.push(items.slice(i, i + PER_ENTRY));
  return out;
};

/** Index of the first value > x in the sorted array (so the one before it is the newest <= x). */
function upperBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The issuance ledger of one market and timeframe: every envelope the deck issued (forecast-<market>-<tf>.jsonl)
 * and every score it measured (forecast-scores-<market>-<tf>.jsonl), both append-only and hash-chained, with an
 * index by issued_t in memory. No issued_t is recorded twice, and no envelope is scored twice.
 */
export class ForecastBook {
  /** issued_t ascending, and the envelope at each. */
  private readonly times: number[] = [];
  private readonly envelopes: Envelope[] = [];
  private readonly scored = new Map<number, Score>();
  /** Envelopes a scoring pass could not score (their bars were not kept yet): left until the next issue. */
  private readonly aside = new Set<number>();

  private constructor(
    readonly pair: Pair,
    private readonly backend: Backend,
    private readonly issued: Ledger<Issued>,
    private readonly scoring: Ledger<Scored>,
  ) {
    issued.follow((e) => {
      if (e.entry.replaces) this.put(e.entry.envelopes);
      else this.index(e.entry.envelopes);
    });
    scoring.follow((e) => {
      for (const t of e.entry.withdrawn ?? []) this.scored.delete(t);
      for (const s of e.entry.scores) if (!this.scored.has(s.issued_t)) this.scored.set(s.issued_t, s);
    });
  }

  static async open(backend: Backend, pair: Pair): Promise<ForecastBook> {
    const name = `${pair.market}-${pair.tf}`;
    return new ForecastBook(pair, backend, await backend.ledger<Issued>(`forecast-${name}`), await backend.ledger<Scored>(`forecast-scores-${name}`));
  }

  /**
   * Runs `work` alone on this pair (in this deck and among every deck on a shared store, once caught up with what they
   * issued): issuing and scoring one at a time, so two requests never issue the same bar twice.
   */
  exclusive<R>(work: () => Promise<R>): Promise<R> {
    return this.backend.alone(`forecast-${this.pair.market}-${this.pair.tf}`, work);
  }

  get size(): number {
    return this.times.length;
  }

  /** The newest envelope of all, or null. */
  newest(): Envelope | null {
    return this.envelopes.at(-1) ?? null;
  }

  /** The newest envelope issued by t (issued_t <= t), or null: what is disclosed at t. */
  at(t: number): Envelope | null {
    const i = upperBound(this.times, t) - 1;
    return i >= 0 ? this.envelopes[i]! : null;
  }

  has(issuedT: number): boolean {
    return this.recorded(issuedT) !== null;
  }

  /** The envelope recorded at exactly issuedT, or null. */
  recorded(issuedT: number): Envelope | null {
    const i = upperBound(this.times, issuedT) - 1;
    return i >= 0 && this.times[i] === issuedT ? this.envelopes[i]! : null;
  }

  /** Envelopes with from <= issued_t <= to, oldest first, at most `cap`; `more` when others are left. */
  between(from: number, to: number, cap: number): { envelopes: Envelope[]; more: boolean } {
    const first = upperBound(this.times, from - 1);
    const end = upperBound(this.times, to);
    return { envelopes: this.envelopes.slice(first, Math.min(end, first + cap)), more: end - first > cap };
  }

  /** Appends the envelopes whose issued_t is not recorded yet; answers how many were new. */
  async append(envelopes: readonly Envelope[], at: number): Promise<number> {
    const seen = new Set<number>();
    const news = envelopes.filter((e) => !this.has(e.issued_t) && !seen.has(e.issued_t) && seen.add(e.issued_t));
    for (const chunk of chunks(news)) {
      await this.issued.append({ envelopes: chunk }, at);
    }
    // New bars were read to issue them: what could not be scored before may be scorable now.
    if (news.length) this.aside.clear();
    return news.length;
  }

  /**
   * Supersedes recorded envelopes with the ones given (same issued_t), saying why: their scores are withdrawn first
   * (so a crash between the two appends leaves at worst the old envelope to be scored again), then one entry
   * records the replacements. Nothing is rewritten: the chain keeps what was issued and what replaced it. Answers
   * how many were replaced; an envelope not recorded is not replaced.
   */
  async replace(envelopes: readonly Envelope[], why: string, at: number): Promise<number> {
    const olds = envelopes.filter((e) => this.has(e.issued_t));
    const withdrawn = olds.map((e) => e.issued_t).filter((t) => this.scored.has(t));
    if (withdrawn.length) {
      await this.scoring.append({ scores: [], withdrawn }, at);
    }
    for (const chunk of chunks(olds)) {
      await this.issued.append({ envelopes: chunk, replaces: why }, at);
    }
    if (olds.length) this.aside.clear();
    return olds.length;
  }

  /** Envelopes not yet scored and not set aside whose outcome is due by `due(e)`, oldest first, at most `cap`. */
  unscored(due: (e: Envelope) => boolean, cap: number): Envelope[] {
    const out: Envelope[] = [];
    for (const e of this.envelopes) {
      if (out.length >= cap) break;
      if (!this.scored.has(e.issued_t) && !this.aside.has(e.issued_t) && due(e)) out.push(e);
    }
    return out;
  }

  /** Leaves envelopes unscored until the next issue on this pair (or a restart). */
  setAside(envelopes: readonly Envelope[]): void {
    for (const e of envelopes) this.aside.add(e.issued_t);
  }

  /** Appends the scores of envelopes not scored yet; answers how many were new. */
  async addScores(scores: readonly Score[], at: number): Promise<number> {
    const news = scores.filter((s) => !this.scored.has(s.issued_t));
    for (const chunk of chunks(news)) {
      await this.scoring.append({ scores: chunk }, at);
    }
    return news.length;
  }

  /** Measured calibration from the scores known by t (scored_t <= t), cell by cell, each band against its own nominal. */
  calibration(asOf = Infinity): Calibration {
    return calibrate([...this.scored.values()], {
      bar: TIMEFRAME_SECONDS[this.pair.tf],
      asOf,
      nominal: (s) => this.recorded(s.issued_t)?.band.nominal ?? DEFAULT_OPTIONS.nominal,
    });
  }

  /** Puts envelopes in the place of those recorded at their issued_t (one not recorded is added). */
  private put(envelopes: readonly Envelope[]): void {
    for (const e of envelopes) {
      const i = upperBound(this.times, e.issued_t) - 1;
      if (i >= 0 && this.times[i] === e.issued_t) this.envelopes[i] = e;
      else this.index([e]);
    }
  }

  /** Adds envelopes to the index, keeping it sorted by issued_t (a backfill may fill in before what is there). */
  private index(envelopes: readonly Envelope[]): void {
    let sorted = true;
    for (const e of envelopes) {
      if (this.times.length && e.issued_t <= this.times.at(-1)!) sorted = false;
      this.times.push(e.issued_t);
      this.envelopes.push(e);
    }
    if (sorted) return;
    const order = this.envelopes.map((e, i) => [e.issued_t, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const envs = order.map(([, i]) => this.envelopes[i]!);
    this.times.length = 0;
    this.envelopes.length = 0;
    for (const e of envs) {
      // First recorded wins: a ledger written by hand with a repeated issued_t is read as its first entry.
      if (this.times.length && this.times.at(-1) === e.issued_t) continue;
      this.times.push(e.issued_t);
      this.envelopes.push(e);
    }
  }
}

/** The issuance ledgers of every market and timeframe, each opened on first use. */
export class Forecasts {
  private readonly books = new Map<string, Promise<ForecastBook>>();

  constructor(private readonly backend: Backend) {}

  book(pair: Pair): Promise<ForecastBook> {
    const key = `${pair.market}-${pair.tf}`;
    let book = this.books.get(key);
    if (!book) {
      book = ForecastBook.open(this.backend, pair);
      this.books.set(key, book);
      book.catch(() => this.books.delete(key));
    }
    return book;
  }
}
