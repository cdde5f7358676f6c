import { describe, expect, it } from 'vitest';
import { parseIndicators } from '../indicators/index.js';
import { dayStart, plateLoadFrom, vwapAnchor } from './load.js';

const utc = (s: string): number => Date.parse(`${s}Z`) / 1000;

describe('where a plate starts reading bars', () => {
  it('finds the trading day a bar belongs to: the UTC day for crypto, from 17:00 Chicago for CME', () => {
    expect(dayStart(vwapAnchor('BTC'), utc('2025-03-10T12:34'), 60)).toBe(utc('2025-03-10T00:00'));
    expect(dayStart(vwapAnchor('BTC'), utc('2025-03-10T00:00'), 3600)).toBe(utc('2025-03-10T00:00'));
    // CST (winter): the day opens at 23:00 UTC the evening before; CDT (summer): at 22:00 UTC.
    expect(dayStart(vwapAnchor('NQ'), utc('2023-11-21T15:00'), 60)).toBe(utc('2023-11-20T23:00'));
    expect(dayStart(vwapAnchor('ES'), utc('2024-06-12T01:00'), 300)).toBe(utc('2024-06-11T22:00'));
    // Sunday evening's bars open Monday's trading day.
    expect(dayStart(vwapAnchor('NQ'), utc('2023-11-27T14:30'), 60)).toBe(utc('2023-11-26T23:00'));
  });

  it('reads VWAP from its trading day and every look-back in trading time', () => {
    const from = utc('2025-03-10T12:00');
    expect(plateLoadFrom('BTC', '1m', from, parseIndicators(['vwap']))).toBe(utc('2025-03-10T00:00'));
    expect(plateLoadFrom('BTC', '1m', from, parseIndicators(['ema:20']))).toBe(from - 5 * 20 * 60);
    expect(plateLoadFrom('BTC', '1m', from, parseIndicators(['atr:14', 'sma:50']))).toBe(from - 10 * 14 * 60);
    expect(plateLoadFrom('BTC', '1m', from, parseIndicators(['vwap', 'sma:500']))).toBe(utc('2025-03-10T00:00'));
    expect(plateLoadFrom('BTC', '1m', utc('2025-03-10T03:00'), parseIndicators(['vwap', 'sma:500']))).toBe(utc('2025-03-10T03:00') - 500 * 60);
    expect(plateLoadFrom('BTC', '1h', from, [])).toBe(from);
    // An NQ window opening on Sunday evening warms its EMA(20) on Friday's last 100 bars, across the weekend halt.
    expect(plateLoadFrom('NQ', '1m', utc('2023-11-26T23:00'), parseIndicators(['ema:20']))).toBe(utc('2023-11-24T20:20'));
  });
});
