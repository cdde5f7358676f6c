import { describe, expect, it } from 'vitest';
import { fillMaker } from '../../test/fixtures/fills.js';
import { pairedCloses, recordOf, recordStats } from './record.js';

// Paired closes and a record's figures against a hand computation. NQ: $20 a point, fees 0.1 point a side.
const fill = fillMaker();

describe('paired closes', () => {
  // Long 2 at 100 (stop 95), add 1 at 102 (stop 99), sell 2 at 106 (closes the first lot), sell 3 at 101
  // (closes the last lot, turns short 2 with stop 104), buy 2 at 103 (stop hit: closes the short).
  const fills = [
    fill({ side: 'buy', size: 2, price: 100, stop: 95 }),
    fill({ side: 'buy', size: 1, price: 102, stop: 99 }),
    fill({ side: 'sell', size: 2, price: 106 }),
    fill({ side: 'sell', size: 3, price: 101, stop: 104 }),
    fill({ side: 'buy', size: 2, price: 103, why: 'stop' }),
  ];
  const { trades, open } = pairedCloses(fills);

  it('pairs each entry with the fill that closes it, first in first out, a part of each when sizes differ', () => {
    expect(trades.map((t) => [t.side, t.size, t.entry, t.exit, t.stop])).toEqual([
      ['long', 2, 100, 106, 95],
      ['long', 1, 102, 101, 99],
      ['short', 2, 101, 103, 104],
    ]);
    expect(trades[2]!.why).toBe('stop');
    expect(open).toEqual([]);
  });

  it('computes PnL after both fees in dollars, and R against the entry stop, by hand', () => {
    // (106 - 100 - 0.2) x 2 x $20 = 232; R = 5.8 / 5 = 1.16
    // (101 - 102 - 0.2) x 1 x $20 = -24; R = -1.2 / 3 = -0.4
    // (101 - 103 - 0.2) x 2 x $20 = -88; R = -2.2 / 3 = -0.7333
    expect(trades.map((t) => [t.pnl_usd, t.r])).toEqual([
      [232, 1.16],
      [-24, -0.4],
      [-88, -0.7333],
    ]);
  });

  it('states the record from them: count, win rate, realized PnL and R, and their drawdowns', () => {
    // Cumulative PnL 232, 208, 120: peak 232, deepest fall 112. Cumulative R 1.16, 0.76, 0.0267: fall 1.1333.
    expect(recordStats(trades)).toEqual({
      trades: 3,
      wins: 1,
      losses: 2,
      win_rate: 0.3333,
      realized_pnl_usd: 120,
      max_drawdown_usd: 112,
      r_trades: 3,
      realized_r: 0.0267,
      max_drawdown_r: 1.1333,
      expectancy_r: 0.0089,
    });
  });

  it('leaves what is not closed open, and gives a trade without a stop no R', () => {
    const r = recordOf([
      fill({ side: 'sell', size: 1, price: 200, market: 'ES', fee: 0.04 }),
      fill({ side: 'buy', size: 3, price: 198, market: 'ES', fee: 0.04, stop: 190 }),
    ]);
    // (200 - 198 - 0.08) x 1 x $50 = 96, no R; then long 2 at 198 open with its stop.
    expect(r.trades).toMatchObject([{ side: 'short', size: 1, pnl_usd: 96, r: null }]);
    expect(r.open).toMatchObject([{ market: 'ES', dir: 1, size: 2, stop: 190 }]);
    expect(r.stats).toMatchObject({ trades: 1, wins: 1, realized_pnl_usd: 96, r_trades: 0, realized_r: 0, expectancy_r: null });
  });

  it('an empty record reads as nothing traded', () => {
    expect(recordOf([]).stats).toMatchObject({ trades: 0, win_rate: null, realized_pnl_usd: 0, max_drawdown_usd: 0 });
  });
});
