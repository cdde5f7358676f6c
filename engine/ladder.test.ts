import { describe, expect, it } from 'vitest';
import { ladderOf, MIN_TRADES, type ModelCloses } from './ladder.js';

/** A model whose closes make the given R, one a minute from a fixed start. */
const model = (name: string, rs: number[], synthetic = false): ModelCloses => ({
  model: name,
  synthetic,
  closes: rs.map((r, i) => ({ closed_at: 1_700_000_000_000 + i * 60_000, r })),
});
const times = (n: number, r: number) => Array.from({ length: n }, () => r);

describe('the ladder', () => {
  it('ranks models with at least 30 closed trades by realized R, most first', () => {
    const l = ladderOf([model('slow', times(30, 0.1)), model('fast', times(40, 0.5)), model('flat', times(35, 0))]);
    expect(l.min_trades).toBe(30);
    expect(l.ranked.map((r) => [r.model, r.rank, r.realized_r, r.trades])).toEqual([
      ['fast', 1, 20, 40],
      ['slow', 2, 3, 30],
      ['flat', 3, 0, 35],
    ]);
    expect(l.unranked).toEqual([]);
  });

  it('reads a model with fewer than 30 closed trades unranked, with its figures, and one with none as null, never zero', () => {
    const l = ladderOf([model('young', times(MIN_TRADES - 1, 2)), model('new', []), model('old', times(30, 0.2))]);
    expect(l.ranked.map((r) => r.model)).toEqual(['old']);
    expect(l.unranked).toEqual([
      { model: 'young', standing: 'unranked', rank: null, trades: 29, realized_r: 58, max_drawdown_r: 0, win_rate: 1, last_close_at: 1_700_000_000_000 + 28 * 60_000 },
      { model: 'new', standing: 'unranked', rank: null, trades: 0, realized_r: null, max_drawdown_r: null, win_rate: null, last_close_at: null },
    ]);
  });

  it('measures drawdown as the deepest fall of cumulative R from its running peak, in the order the trades closed', () => {
    // Closes given out of order: by time they go +2, -1, -2, +1, +3 (cumulative 2, 1, -1, 0, 3): the deepest fall is 3.
    const rs = [2, -1, -2, 1, 3];
    const closes = rs.map((r, i) => ({ closed_at: 1_000 + i, r })).reverse();
    const row = ladderOf([{ model: 'm', synthetic: false, closes }], 1).ranked[0]!;
    expect(row).toMatchObject({ realized_r: 3, max_drawdown_r: 3, win_rate: 0.6, last_close_at: 1_004 });
    // A model that only loses falls from the starting peak of 0.
    expect(ladderOf([model('down', [-1, -0.5])], 1).ranked[0]).toMatchObject({ realized_r: -1.5, max_drawdown_r: 1.5, win_rate: 0 });
  });

  it('breaks ties by the smaller drawdown, then more trades, then the name', () => {
    const smooth = model('b-smooth', [...times(30, 0.1)]);
    const rough = model('a-rough', [...times(29, 0.2), -2.8]);
    const longer = model('c-longer', [...times(31, 3 / 31)]);
    const twin = model('a-twin', [...times(30, 0.1)]);
    const l = ladderOf([rough, smooth, longer, twin]);
    expect(l.ranked.map((r) => r.realized_r)).toEqual([3, 3, 3, 3]);
    expect(l.ranked.map((r) => r.model)).toEqual(['c-longer', 'a-twin', 'b-smooth', 'a-rough']);
  });

  it('never lists a synthetic book actor', () => {
    const l = ladderOf([model('house-maker', times(50, 1), true), model('real', times(30, 0.1))]);
    expect([...l.ranked, ...l.unranked].map((r) => r.model)).toEqual(['real']);
  });

  it('gives the same ladder for the same closes, whatever order the models come in', () => {
    const ms = [model('x', times(30, 0.3)), model('y', times(31, 0.3)), model('z', times(3, 1))];
    expect(JSON.stringify(ladderOf([...ms].reverse()))).toBe(JSON.stringify(ladderOf(ms)));
  });

  it('refuses a model given twice or a close that is not a number', () => {
    expect(() => ladderOf([model('x', [1]), model('x', [2])])).toThrow(/given twice/);
    expect(() => ladderOf([model('x', [Number.NaN])])).toThrow(/not a number/);
  });
});
