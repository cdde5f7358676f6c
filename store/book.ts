import { applyFill, flatPosition, type Fill, type Position, type WorkingOrder } from '../engine/book/index.js';
import type { Market } from '../engine/markets.js';
import type { Ledger } from './ledger.js';

/** Whose book: a principal's own, one of its models' live books, or a replay run's book of a model. */
export interface Owner {
  principal: string;
  model: string | null;
  /** Set only for a replay: a replay trades a book of its own, never the model's live one. */
  replay: string | null;
}

export const bookKey = (o: Owner): string => `${o.principal}|${o.model ?? ''}|${o.replay ?? ''}`;

/** live: made forward on the tape as it closes; replay: a test of the model over a past window, never its record. */
export const MODES = ['live', 'replay'] as const;
export type Mode = (typeof MODES)[number];

/** An order as the book keeps it. */
export interface OrderRecord extends WorkingOrder {
  book: string;
  principal: string;
  model: string | null;
  /** The agent run that placed it (a replay, or a live run), else null. */
  run: string | null;
  mode: Mode;
  /** A decision of the typed lane (with its why), or an order placed as one. */
  source: 'order' | 'decision';
  why: string | null;
}

export const ORDER_STATUSES = ['working', 'filled', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OrderEvent = { kind: 'placed'; order: OrderRecord } | { kind: 'cancelled'; id: string; at: number };

/** A fill as the ledger keeps it: whose book, and how it was made. */
export interface FillRecord extends Fill {
  book: string;
  principal: string;
  model: string | null;
  run: string | null;
  mode: Mode;
}

/** Appends to a list kept in a map, making the list when it is the first. */
const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/**
 * The book: every order placed and cancelled (orders.jsonl) and every fill (fills.jsonl), both append-only and
 * hash-chained. An order's status is read from them: filled when a fill names it, cancelled when a cancel does,
 * else working; so a fill written before a crash can never be filled again. Positions are the fills replayed,
 * kept per book and market as each fill is written. Orders are looked up by (principal, id): another
 * principal's id reads like none.
 */
export class BookStore {
  private readonly orderById = new Map<string, OrderRecord>();
  private readonly cancelledAt = new Map<string, number>();
  private readonly fillOf = new Map<string, FillRecord>();
  private readonly ordersByBook = new Map<string, OrderRecord[]>();
  private readonly fillsByBook = new Map<string, FillRecord[]>();
  private readonly positions = new Map<string, Position>();
  /** Orders still working, per book and market, in the order placed (a replay asks every bar). */
  private readonly workingBy = new Map<string, OrderRecord[]>();

  constructor(
    private readonly orders: Ledger<OrderEvent>,
    private readonly fills: Ledger<FillRecord>,
  ) {
    orders.follow((e) => this.indexOrder(e.entry));
    fills.follow((e) => this.indexFill(e.entry));
  }

  private indexOrder(e: OrderEvent): void {
    if (e.kind === 'cancelled') {
      this.cancelledAt.set(e.id, e.at);
      this.stopWorking(e.id);
    } else {
      this.orderById.set(e.order.id, e.order);
      push(this.ordersByBook, e.order.book, e.order);
      if (this.status(e.order.id) === 'working') push(this.workingBy, `${e.order.book}#${e.order.market}`, e.order);
    }
  }

  private indexFill(f: FillRecord): void {
    if (f.order_id) {
      this.fillOf.set(f.order_id, f);
      this.stopWorking(f.order_id);
    }
    push(this.fillsByBook, f.book, f);
    applyFill(this.positionRef(f.book, f.market), f);
  }

  private stopWorking(id: string): void {
    const o = this.orderById.get(id);
    const list = o && this.workingBy.get(`${o.book}#${o.market}`);
    const at = list ? list.indexOf(o) : -1;
    if (at >= 0) list!.splice(at, 1);
  }

  private positionRef(book: string, market: Market): Position {
    const key = `${book}#${market}`;
    let p = this.positions.get(key);
    if (!p) this.positions.set(key, (p = flatPosition(market)));
    return p;
  }

  /** The ledgers' own checks: the first entry whose chain breaks, or null. */
  verify() {
    return { orders: this.orders.verify(), fills: this.fills.verify() };
  }

  async place(order: OrderRecord, at: number): Promise<OrderRecord> {
    const event: OrderEvent = { kind: 'placed', order };
    await this.orders.append(event, at);
    return order;
  }

  async cancel(id: string, at: number): Promise<void> {
    const event: OrderEvent = { kind: 'cancelled', id, at: Math.floor(at / 1000) };
    await this.orders.append(event, at);
  }

  /** Writes fills one after another; each counts (position, order status) once it is on disk. */
  async addFills(fills: readonly FillRecord[], at: number): Promise<void> {
    for (const f of fills) {
      await this.fills.append(f, at);
    }
  }

  /** The principal's order by id; null when there is none of theirs. */
  order(principal: string, id: string): OrderRecord | null {
    const o = this.orderById.get(id);
    return o && o.principal === principal ? o : null;
  }

  status(id: string): OrderStatus {
    return this.fillOf.has(id) ? 'filled' : this.cancelledAt.has(id) ? 'cancelled' : 'working';
  }

  cancelledTime(id: string): number | null {
    return this.cancelledAt.get(id) ?? null;
  }

  fillOfOrder(id: string): FillRecord | null {
    return this.fillOf.get(id) ?? null;
  }

  ordersOf(book: string): readonly OrderRecord[] {
    return this.ordersByBook.get(book) ?? [];
  }

  fillsOf(book: string): readonly FillRecord[] {
    return this.fillsByBook.get(book) ?? [];
  }

  /** Orders of the book still working on a market, in the order placed. */
  working(book: string, market: Market): OrderRecord[] {
    return [...(this.workingBy.get(`${book}#${market}`) ?? [])];
  }

  /** True when nothing can happen to the book on a market: no order working, and no stop or target resting. */
  idle(book: string, market: Market): boolean {
    if ((this.workingBy.get(`${book}#${market}`)?.length ?? 0) > 0) return false;
    const p = this.positions.get(`${book}#${market}`);
    return !p || p.dir === 0 || (p.stop === null && p.target === null);
  }

  /** A copy of the book's position on a market (flat when it never traded there). */
  position(book: string, market: Market): Position {
    const p = this.positions.get(`${book}#${market}`);
    return p ? { ...p, lots: p.lots.map((l) => ({ ...l })) } : flatPosition(market);
  }

  /** Every book a principal has traded or ordered in. */
  booksOf(principal: string): string[] {
    const prefix = `${principal}|`;
    return [...new Set([...this.ordersByBook.keys(), ...this.fillsByBook.keys()])].filter((k) => k.startsWith(prefix));
  }
}
