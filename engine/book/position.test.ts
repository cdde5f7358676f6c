import { describe, expect, it } from 'vitest';
import { averageEntry, flatPosition, type Lot, type Position } from './position.js';

const lot = (price: number, size: number): Lot => ({ fill: `f${price}`, t: 0, price, size, fee: 0, stop: null });
const long = (...lots: Lot[]): Position => ({ ...flatPosition('BTC'), dir: 1, size: lots.reduce((s, l) => s + l.size, 0), lots });

describe('the average entry of an open position', () => {
  it('is the one lot\'s price, not its price times its size over its size in floating point', () => {
    expect(6850.23 * 0.01 / 0.01).not.toBe(6850.23);
    expect(averageEntry(long(lot(6850.23, 0.01)))).toBe(6850.23);
    expect(averageEntry(long(lot(19_891.99, 0.07)))).toBe(19_891.99);
  });

  it('weighs the lots by their sizes, and is null when flat', () => {
    expect(averageEntry(long(lot(100.25, 1), lot(100.5, 2)))).toBe(100.416666667);
    expect(averageEntry(long(lot(1670.25, 3), lot(1671.75, 1)))).toBe(1670.625);
    expect(averageEntry(flatPosition('ES'))).toBeNull();
  });
});
