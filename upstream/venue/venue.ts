import type { Bar, Position } from '../../engine/book/index.js';
import type { Market } from '../../engine/markets.js';
import type { FillRecord, Mode, OrderRecord, OrderStatus, Owner } from '../../store/book.js';

/** A book as a venue is handed it: whose it is, its key, and whether it trades forward (live) or a past window. */
export interface BookRef extends Owner {
  key: string;
  mode: Mode;
  /** The run that trades it, when one does. */
  run: string | null;
}

/** A closed bar of the live tape: the last price the venue knows. */
export interface LastBar {
  t: number;
  c: number;
}

/**
 * Where the deck's orders go. The venue owns the fills: it says which orders filled, where and when, and keeps
 * the history. Refusals (caps, the calendar, a foreign order) are the book's, decided before the venue is asked.
 * One implementation is embedded: the paper venue, which fills from the tape.
 */
export interface Venue {
  readonly kind: 'paper';
  /** Brings a live book's market up to `until` (unix seconds): every bar the tape has closed since it last was. */
  settle(book: BookRef, market: Market, until: number): Promise<void>;
  /** Steps a replay's book over one bar of its window (a replay's tape is the past window it steps). */
  step(book: BookRef, market: Market, bar: Bar): Promise<FillRecord[]>;
  /**
   * Takes an order onto the book, after bringing it up to the order's time; `admit` sees the book as it then stands
   * (nothing else happens to it meanwhile) and throws to refuse.
   */
  place(book: BookRef, order: OrderRecord, admit: (position: Position, working: readonly OrderRecord[]) => void): Promise<OrderRecord>;
  /** Cancels a working order, after bringing its book up to now: answers its status then (working means cancelled now). */
  cancel(book: BookRef, order: OrderRecord, at: number): Promise<OrderStatus>;
  /** The last bar the live tape closed by `now` (within four days), or null. */
  lastBar(market: Market, now: number): Promise<LastBar | null>;
  orders(book: string): readonly OrderRecord[];
  fills(book: string): readonly FillRecord[];
  status(orderId: string): OrderStatus;
  /** The fill of a filled order. */
  fillOf(orderId: string): FillRecord | null;
  working(book: string, market: Market): readonly OrderRecord[];
  position(book: string, market: Market): Position;
}
