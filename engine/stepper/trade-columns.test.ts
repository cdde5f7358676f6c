import { describe, expect, it } from 'vitest';
import { TradeColumns } from './trade-columns.js';

describe('a run\'s trades as columns', () => {
  const trade = (j: number) => ({ dir: j % 3 === 0 ? -1 : 1, fill: 10 * j + 1, exitBar: 10 * j + 1 + (j % 7), r: j / 8 - 3.25 });

  it('keeps every trade pushed, in order, past each doubling of its room', () => {
    const trades = Array.from({ length: 1000 }, (_, j) => trade(j));
    const columns = TradeColumns.of(trades);
    expect(columns.length).toBe(1000);
    expect(columns.r.length).toBe(1024);
    trades.forEach((t, j) => {
      expect([columns.dir[j], columns.fill[j], columns.exitBar[j], columns.r[j]]).toEqual([t.dir, t.fill, t.exitBar, t.r]);
      expect(columns.held(j)).toBe(t.exitBar - t.fill + 1);
    });
    expect([...columns.rs()]).toEqual(trades.map((t) => t.r));
  });

  it('answers no R for no trades', () => {
    expect(new TradeColumns().rs()).toHaveLength(0);
  });
});
