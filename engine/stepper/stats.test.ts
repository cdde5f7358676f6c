import { describe, expect, it } from 'vitest';
import { statsOf } from './stats.js';

const trades = (rs: number[]) => rs.map((r, i) => ({ dir: i % 3 === 0 ? -1 : 1, r }));

describe('R statistics', () => {
  it('count wins and losses, expectancy, total, drawdown from the running peak, and the profit factor', () => {
    // Cumulative R: 1, 0, 2, 1, 0, 0.5: the peak of 2 falls to 0, a drawdown of 2R.
    expect(statsOf(trades([1, -1, 2, -1, -1, 0.5]))).toEqual({
      n: 6,
      long: 4,
      short: 2,
      wins: 3,
      losses: 3,
      win_rate: 0.5,
      expectancy: 0.0833,
      total_r: 0.5,
      max_drawdown_r: 2,
      profit_factor: 1.1667,
      avg_win_r: 1.1667,
      avg_loss_r: -1,
    });
  });

  it('measure a drawdown that starts before any gain from zero, and count a flat trade as neither', () => {
    const s = statsOf(trades([-1, -0.5, 0, 3]));
    expect(s).toMatchObject({ wins: 1, losses: 2, max_drawdown_r: 1.5, total_r: 1.5, profit_factor: 2 });
  });

  it('leave ratios without a value empty rather than infinite', () => {
    expect(statsOf([])).toMatchObject({ n: 0, win_rate: null, expectancy: null, profit_factor: null, total_r: 0, max_drawdown_r: 0 });
    expect(statsOf(trades([1, 2]))).toMatchObject({ profit_factor: null, avg_loss_r: null, win_rate: 1 });
  });
});
