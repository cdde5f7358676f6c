import { describe, expect, it } from 'vitest';
import { followQuote } from './follow.js';
import { fillMaker } from '../../test/fixtures/fills.js';

// Following a model's recent fills at the follower's size inside the follower's caps, by hand.
const fill = fillMaker();

// The model: long 4 NQ at 17,000, out at 17,050; short 8 at 17,100, out 4 at 17,080 then 4 at 17,090.
const model = [
  fill({ side: 'buy', size: 4, price: 17_000 }),
  fill({ side: 'sell', size: 4, price: 17_050 }),
  fill({ side: 'sell', size: 8, price: 17_100 }),
  fill({ side: 'buy', size: 4, price: 17_080 }),
  fill({ side: 'buy', size: 4, price: 17_090, why: 'stop', order_id: null }),
];

describe('follow_quote', () => {
  it('scales every order by the follower size over the model largest, inside caps that cut nothing', () => {
    const q = followQuote(model, { size: 2 }, {});
    expect(q.scale).toBe(0.25);
    expect(q.reference).toMatchObject({ fill_id: model[2]!.id, size: 8 });
    expect(q.rows.map((r) => r.size)).toEqual([1, 1, 2, 1, 1]);
    expect(q.rows.every((r) => r.cuts.length === 0)).toBe(true);
    expect(q.summary).toEqual({ orders: 5, followed: 5, cut: 0, dropped: 0 });
  });

  it('names every order the caps cut, with the cap and the size before and after', () => {
    // size 4 -> scale 0.5: 2, 2, 4, 2, 2. max_order_size 3 cuts the short entry 4 -> 3; the closes follow the
    // follower's own position (3): the first close takes half the model's (2), the last what is left (1).
    const q = followQuote(model, { size: 4 }, { max_order_size: 3 });
    expect(q.rows.map((r) => r.size)).toEqual([2, 2, 3, 2, 1]);
    expect(q.rows[2]!.cuts).toEqual([{ cap: 'max_order_size', from: 4, to: 3 }]);
    expect(q.summary.cut).toBe(1);
  });

  it('cuts by dollars, by position, by market and by shorts not allowed', () => {
    // $700,000 at 17,100 x $20 a point = 2.04 contracts: 2.
    expect(followQuote(model, { size: 4 }, { max_notional: 700_000 }).rows[2]!.cuts).toEqual([{ cap: 'max_notional', from: 4, to: 2 }]);
    expect(followQuote(model, { size: 4 }, { max_position: 1 }).rows.map((r) => r.size)).toEqual([1, 1, 1, 1, 0]);
    const noShort = followQuote(model, { size: 4 }, { allow_short: false });
    expect(noShort.rows.map((r) => r.size)).toEqual([2, 2, 0, 0, 0]);
    expect(noShort.rows[2]!.cuts).toEqual([{ cap: 'allow_short', from: 4, to: 0 }]);
    const elsewhere = followQuote(model, { size: 4 }, { markets: ['ES'] });
    expect(elsewhere.rows.map((r) => r.size)).toEqual([0, 0, 0, 0, 0]);
    expect(elsewhere.summary).toMatchObject({ followed: 0, dropped: 5, cut: 2 });
  });

  it('scales by dollars: the follower notional over the model largest order in dollars', () => {
    // The largest in dollars: 8 x 17,100 x 20 = 2,736,000; $684,000 is a quarter of it.
    const q = followQuote(model, { notional: 684_000 }, {});
    expect(q.scale).toBe(0.25);
    expect(q.reference).toMatchObject({ notional_usd: 2_736_000 });
  });

  it('says an order that rounds to nothing at the follower size', () => {
    const q = followQuote(model, { size: 0.5 }, {});
    expect(q.rows[0]).toMatchObject({ size: 0, cuts: [{ cap: 'rounds_to_zero', from: 0.25, to: 0 }] });
  });
});
