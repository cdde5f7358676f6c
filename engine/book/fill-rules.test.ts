import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { barsToRows, type BarRow } from '../bars.js';
import { bookCosts, stepBar, type MarketBook } from './fill-rules.js';
import type { Fill, WorkingOrder } from './order.js';
import { flatPosition } from './position.js';

// The paper venue's fill rules on real bars (the shipped BTC and ES 1m files): every fill is checked against the bar
// it happened in, as read from the CSV, and against the stepper's costs (BTC: 50 ticks of $0.01 = $0.50 slippage,
// 5 bps a side; ES: 1 tick of 0.25, 0.04 point a side).

const btc = barsToRows(sampleFile('BTC-1m'));
const es = barsToRows(sampleFile('ES-1m'));
/** The first BTC bar after the seven hours Coinbase's minutes lack on 4 April 2018: it opens $102 under the close before. */
const gap = btc.findIndex((b, j) => j > 0 && b.t - btc[j - 1]!.t > 3600 && b.t - btc[j - 1]!.t < 86_400 && b.o < btc[j - 1]!.l - 2);
const q2 = (x: number) => Math.round(x * 100) / 100;

let n = 0;
const nextId = () => `f${++n}`;

const order = (o: Partial<WorkingOrder> & Pick<WorkingOrder, 'side' | 'placed_at'>): WorkingOrder => ({
  id: `o${++n}`,
  market: 'BTC',
  size: 1,
  type: 'market',
  price: null,
  stop: null,
  target: null,
  ...o,
});

/** Steps the bars from index `from` until the book has nothing left to do (or `most` bars); answers the fills with their bar. */
function run(book: MarketBook, bars: readonly BarRow[], from: number, most = 5000): { fill: Fill; bar: BarRow; i: number }[] {
  const costs = bookCosts(book.position.market);
  const out: { fill: Fill; bar: BarRow; i: number }[] = [];
  for (let i = from; i < Math.min(bars.length, from + most); i++) {
    for (const fill of stepBar(book, bars[i]!, costs, nextId).fills) out.push({ fill, bar: bars[i]!, i });
    if (book.working.length === 0 && book.position.dir === 0) break;
  }
  return out;
}

const fresh = (market: 'BTC' | 'ES' = 'BTC'): MarketBook => ({ position: flatPosition(market), working: [] });

describe('a market order', () => {
  it('fills at the open of the first bar opening after it was placed, slippage against it, 5 bps a side on BTC', () => {
    const k = 1000;
    const placed = btc[k]!.t + 17; // inside bar k: bar k had already opened
    const book = fresh();
    book.working.push(order({ side: 'buy', placed_at: placed }));
    const [first] = run(book, btc, k);
    expect(first!.i).toBe(k + 1);
    expect(first!.fill).toMatchObject({ t: btc[k + 1]!.t, side: 'buy', why: 'market', price: q2(btc[k + 1]!.o + 0.5) });
    expect(first!.fill.fee).toBeCloseTo((first!.fill.price * 5) / 10_000, 9);
    expect(book.position).toMatchObject({ dir: 1, size: 1 });

    const sell = fresh();
    sell.working.push(order({ side: 'sell', placed_at: btc[k]!.t })); // placed as bar k opens: bar k is the next open
    expect(run(sell, btc, k)[0]!.fill).toMatchObject({ t: btc[k]!.t, price: q2(btc[k]!.o - 0.5) });
  });

  it('on ES, fills one tick (0.25) against it and pays 0.04 point a side', () => {
    const book = fresh('ES');
    book.working.push(order({ market: 'ES', side: 'sell', placed_at: es[200]!.t + 30 }));
    const [f] = run(book, es, 200);
    expect(f!.fill).toMatchObject({ t: es[201]!.t, price: es[201]!.o - 0.25, fee: 0.04 });
  });
});

describe('a limit order', () => {
  it('fills at its price on the first later bar whose range trades through it, never on a touch', () => {
    const k = 5000;
    // A buy limit 0.3% under the close of bar k: the first later bar whose low is below it fills it.
    const price = q2(btc[k]!.c * 0.997);
    const book = fresh();
    book.working.push(order({ side: 'buy', type: 'limit', price, placed_at: btc[k]!.t + 59 }));
    const [f] = run(book, btc, k + 1, 20_000);
    const expected = btc.findIndex((b, i) => i > k && b.l < price);
    expect(expected).toBeGreaterThan(k);
    expect(f!.i).toBe(expected);
    expect(f!.fill).toMatchObject({ why: 'limit', price: btc[expected]!.o < price ? btc[expected]!.o : price });
    expect(f!.fill.fee).toBeCloseTo((f!.fill.price * 5) / 10_000, 9);
  });

  it('is not filled by a bar that only touches its price; a sell limit fills when the high is above it', () => {
    const bar = btc.find((b) => b.h - b.o > 1 && b.o - b.l > 1)!;
    const touch = fresh();
    touch.working.push(order({ side: 'buy', type: 'limit', price: bar.l, placed_at: bar.t }));
    expect(stepBar(touch, bar, bookCosts('BTC'), nextId).fills).toEqual([]);
    const through = fresh();
    const above = q2(bar.h - 0.01);
    through.working.push(order({ side: 'sell', type: 'limit', price: above, placed_at: bar.t }));
    expect(stepBar(through, bar, bookCosts('BTC'), nextId).fills[0]).toMatchObject({ price: above, why: 'limit' });
  });

  it('fills at the open when the open is already through it (its price or better)', () => {
    // A gap: the first bar after the hole, whose open is below the close before it.
    const i = gap;
    expect(new Date(btc[i]!.t * 1000).toISOString()).toBe('2018-04-05T00:00:00.000Z');
    const book = fresh();
    const price = q2(btc[i - 1]!.c - 0.25);
    book.working.push(order({ side: 'buy', type: 'limit', price, placed_at: btc[i - 1]!.t + 60 }));
    expect(stepBar(book, btc[i]!, bookCosts('BTC'), nextId).fills[0]).toMatchObject({ price: btc[i]!.o, why: 'limit' });
  });
});

describe("a position's stop and target", () => {
  it('fills the stop at the stop, slippage against, on the first bar whose range reaches it', () => {
    const k = 8000;
    const stop = q2(btc[k]!.o * 0.995);
    const book = fresh();
    book.working.push(order({ side: 'buy', placed_at: btc[k]!.t, stop }));
    const fills = run(book, btc, k, 20_000);
    expect(fills[0]!.fill).toMatchObject({ why: 'market', price: q2(btc[k]!.o + 0.5), stop });
    const hit = btc.findIndex((b, i) => i >= k && (b.l <= stop));
    expect(fills[1]!.i).toBe(hit);
    expect(fills[1]!.fill).toMatchObject({ why: 'stop', side: 'sell', size: 1, price: btc[hit]!.o <= stop ? q2(btc[hit]!.o - 0.5) : q2(stop - 0.5) });
    expect(book.position.dir).toBe(0);
  });

  it('fills a stop the open gaps through at that open, slippage against', () => {
    const i = gap;
    const prev = btc[i - 1]!;
    const book = fresh();
    const stop = q2(prev.l - 1); // under the last bar before the hole; the next open is under it
    book.position = { market: 'BTC', dir: 1, size: 2, lots: [{ fill: 'x', t: prev.t, price: prev.c, size: 2, fee: 0.1, stop }], stop, target: null };
    const [f] = stepBar(book, btc[i]!, bookCosts('BTC'), nextId).fills;
    expect(f).toMatchObject({ why: 'stop', price: q2(btc[i]!.o - 0.5), size: 2, t: btc[i]!.t });
    expect(f!.price).toBeLessThan(stop);
  });

  it('takes the stop first when the stop and the target both lie in one bar', () => {
    const bar = btc.find((b) => b.h - b.l > 100 && b.o - b.l > 30 && b.h - b.o > 30)!;
    const book = fresh();
    const stop = q2(bar.o - 20);
    const target = q2(bar.o + 20);
    book.position = { market: 'BTC', dir: 1, size: 1, lots: [{ fill: 'x', t: bar.t - 60, price: bar.o, size: 1, fee: 0, stop }], stop, target };
    const [f] = stepBar(book, bar, bookCosts('BTC'), nextId).fills;
    expect(f).toMatchObject({ why: 'stop', price: q2(stop - 0.5) });
  });

  it('fills a target only when a bar trades through it, at the target, without slippage', () => {
    const k = 10_000;
    const target = q2(btc[k]!.o * 1.003);
    const book = fresh();
    book.working.push(order({ side: 'buy', placed_at: btc[k]!.t, target }));
    const fills = run(book, btc, k, 20_000);
    const hit = btc.findIndex((b, i) => i >= k && b.h > target);
    expect(fills[1]!.i).toBe(hit);
    expect(fills[1]!.fill).toMatchObject({ why: 'target', price: btc[hit]!.o > target ? btc[hit]!.o : target });
  });

  it('takes no target in the bar a limit entered inside, but does take the stop there', () => {
    const bar = btc.find((b) => b.h - b.l > 60 && b.o - b.l > 25 && b.h - b.o > 25)!;
    const entry = q2(bar.o - 10);
    const target = q2(bar.o + 10);
    const withTarget = fresh();
    withTarget.working.push(order({ side: 'buy', type: 'limit', price: entry, placed_at: bar.t, target }));
    expect(stepBar(withTarget, bar, bookCosts('BTC'), nextId).fills.map((f) => f.why)).toEqual(['limit']);
    const withStop = fresh();
    withStop.working.push(order({ side: 'buy', type: 'limit', price: entry, placed_at: bar.t, stop: q2(bar.l + 5) }));
    expect(stepBar(withStop, bar, bookCosts('BTC'), nextId).fills.map((f) => f.why)).toEqual(['limit', 'stop']);
  });
});
