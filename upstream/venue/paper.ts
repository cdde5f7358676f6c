import { randomBytes } from 'node:crypto';
import PQueue from 'p-queue';
import { barsToRows } from '../../engine/bars.js';
import { bookCosts, stepBar, type Bar, type Fill, type MarketBook, type Position } from '../../engine/book/index.js';
import { isOpen } from '../../engine/calendar.js';
import type { Market } from '../../engine/markets.js';
import type { BookStore, FillRecord, OrderRecord, OrderStatus } from '../../store/book.js';
import type { Tape } from '../tape/tape.js';
import type { BookRef, LastBar, Venue } from './venue.js';

/** The paper venue steps the book over 1m bars of the live tape. */
const BAR_S = 60;
/** Bars asked of the tape at once (the tape tool's own bound). */
const CHUNK_BARS = 20_000;
/** How far back the last price is looked for: the last hour, then four days (a CME weekend and a holiday). */
const LAST_BAR_PROBES_S = [3600, 4 * 86_400];

const fillId = () => `f_${randomBytes(8).toString('hex')}`;

/** Whether a position leaves the venue anything to watch: a stop or a target resting on it. */
const bracketed = (p: Position) => p.dir !== 0 && (p.stop !== null || p.target !== null);

/**
 * The embedded paper venue: fills from the tape and never from a guess (engine/book/fill-rules.ts says how). A live
 * book is brought up to date from the venue's tape, read fresh (the bars as the venue prints them, closed ones
 * only), whenever the book is placed on, cancelled on or read; a replay's book is stepped by its run, bar by bar.
 * Everything one book does on one market runs one at a time. Orders and fills are the store's ledgers.
 */
export class PaperVenue implements Venue {
  readonly kind = 'paper' as const;
  private readonly queues = new Map<string, PQueue>();
  /** Per book and market: the time up to which the tape's closed bars have been applied (unix seconds). */
  private readonly settledTo = new Map<string, number>();

  constructor(
    private readonly store: BookStore,
    private readonly tape: Tape,
    private readonly clock: () => number,
  ) {}

  private serial<R>(book: string, market: Market, work: () => Promise<R>): Promise<R> {
    const key = `${book}#${market}`;
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = new PQueue({ concurrency: 1 })));
    return q.add(work) as Promise<R>;
  }

  private record(book: BookRef, fills: readonly Fill[]): FillRecord[] {
    return fills.map((f) => ({ ...f, book: book.key, principal: book.principal, model: book.model, run: book.run, mode: book.mode }));
  }

  /** Steps bars over the book, writing each bar's fills before the next bar is stepped. */
  private async stepBars(book: BookRef, market: Market, bars: readonly Bar[]): Promise<FillRecord[]> {
    if (this.store.idle(book.key, market)) return [];
    const state: MarketBook = { position: this.store.position(book.key, market), working: this.store.working(book.key, market) };
    const costs = bookCosts(market);
    const written: FillRecord[] = [];
    for (const bar of bars) {
      if (state.working.length === 0 && !bracketed(state.position)) break;
      const { fills } = stepBar(state, bar, costs, fillId);
      if (fills.length === 0) continue;
      const records = this.record(book, fills);
      await this.store.addFills(records, this.clock());
      written.push(...records);
    }
    return written;
  }

  /**
   * Where stepping starts on a book's market this process has not stepped yet (after a start): its oldest working
   * order, but never before the bar after its last fill, since every bar up to that fill was stepped before the
   * fill was written (the position as it now stands is the one those later bars meet).
   */
  private startOf(book: string, market: Market): number {
    const last = this.store.fillsOf(book).findLast((f) => f.market === market);
    const after = last ? last.t + BAR_S : -Infinity;
    const oldest = Math.min(...this.store.working(book, market).map((o) => o.placed_at));
    return Math.floor(Math.max(after, Number.isFinite(oldest) ? oldest : after) / BAR_S) * BAR_S;
  }

  /** Closed 1m bars of [from, to) as the venue prints them, inside trading hours only. */
  private async liveBars(market: Market, from: number, to: number): Promise<Bar[]> {
    const out: Bar[] = [];
    for (let a = from; a < to; a += CHUNK_BARS * BAR_S) {
      const b = Math.min(to, a + CHUNK_BARS * BAR_S);
      const w = await this.tape.window(market, '1m', a, b, true, () => false);
      for (const r of barsToRows(w.bars)) if (r.t >= a && r.t + BAR_S <= to && isOpen(market, r.t)) out.push(r);
    }
    return out;
  }

  /**
   * Steps the bars closed by `until` that the book has not met. With nothing working and no bracket, nothing can
   * happen: the book is up to date at once. Otherwise it is up to date as far as the tape has printed, so a bar the
   * venue prints late is still met.
   */
  private async settleNow(book: BookRef, market: Market, until: number): Promise<void> {
    const key = `${book.key}#${market}`;
    const done = this.settledTo.get(key);
    const to = Math.floor(until / BAR_S) * BAR_S;
    if (this.store.idle(book.key, market)) {
      this.settledTo.set(key, Math.max(done ?? -Infinity, to));
      return;
    }
    const start = done ?? this.startOf(book.key, market);
    if (start >= to) return;
    const bars = await this.liveBars(market, start, to);
    await this.stepBars(book, market, bars);
    const last = bars.at(-1);
    if (last) this.settledTo.set(key, last.t + BAR_S);
    else if (done === undefined) this.settledTo.set(key, start);
  }

  settle(book: BookRef, market: Market, until: number): Promise<void> {
    return this.serial(book.key, market, () => this.settleNow(book, market, until));
  }

  step(book: BookRef, market: Market, bar: Bar): Promise<FillRecord[]> {
    // A replay's book is its run's alone, stepped and placed on in turn by it: nothing to wait for.
    return this.stepBars(book, market, [bar]);
  }

  place(book: BookRef, order: OrderRecord, admit: (position: Position, working: readonly OrderRecord[]) => void): Promise<OrderRecord> {
    const take = () => {
      admit(this.store.position(book.key, order.market), this.store.working(book.key, order.market));
      return this.store.place(order, this.clock());
    };
    if (book.mode === 'replay') return take();
    return this.serial(book.key, order.market, async () => {
      await this.settleNow(book, order.market, order.placed_at);
      return take();
    });
  }

  cancel(book: BookRef, order: OrderRecord, at: number): Promise<OrderStatus> {
    return this.serial(book.key, order.market, async () => {
      if (book.mode === 'live') await this.settleNow(book, order.market, Math.floor(at / 1000));
      const status = this.store.status(order.id);
      if (status === 'working') await this.store.cancel(order.id, at);
      return status;
    });
  }

  async lastBar(market: Market, now: number): Promise<LastBar | null> {
    for (const span of LAST_BAR_PROBES_S) {
      const bars = await this.liveBars(market, Math.floor((now - span) / BAR_S) * BAR_S, now);
      const last = bars.at(-1);
      if (last) return { t: last.t, c: last.c };
    }
    return null;
  }

  orders(book: string): readonly OrderRecord[] {
    return this.store.ordersOf(book);
  }

  fills(book: string): readonly FillRecord[] {
    return this.store.fillsOf(book);
  }

  status(orderId: string): OrderStatus {
    return this.store.status(orderId);
  }

  fillOf(orderId: string): FillRecord | null {
    return this.store.fillOfOrder(orderId);
  }

  working(book: string, market: Market): readonly OrderRecord[] {
    return this.store.working(book, market);
  }

  position(book: string, market: Market): Position {
    return this.store.position(book, market);
  }
}
