import { describe, expect, it } from 'vitest';
import { decimalsOf, formatNumber, formatVolume, niceStep, ticksOf, timeStep, utcMinute, utcTick } from './scale.js';

describe('plate axes', () => {
  it('steps prices by 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(11_843, 13)).toBe(1000);
    expect(niceStep(94, 13)).toBe(10);
    expect(niceStep(0.9, 4)).toBe(0.25);
    expect(ticksOf(0.95, 1.6, 0.1).map((t) => formatNumber(t, decimalsOf(0.1)))).toEqual(['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6']);
    expect(decimalsOf(2.5)).toBe(1);
    expect(decimalsOf(500)).toBe(0);
  });

  it('writes numbers the same on every machine', () => {
    expect(formatNumber(93_771.95, 2)).toBe('93,771.95');
    expect(formatNumber(1_234_567, 0)).toBe('1,234,567');
    expect(formatNumber(-0.001, 2)).toBe('0.00');
    expect(formatNumber(-1234.5, 1)).toBe('-1,234.5');
    expect(formatVolume(6204.2)).toBe('6.20K');
    expect(formatVolume(25.02026)).toBe('25.02');
  });

  it('labels time in UTC, dates at midnight', () => {
    expect(utcMinute(1_740_918_000)).toBe('2025-03-02 12:20');
    expect(utcTick(1_740_873_600, 3600)).toBe('Mar 02');
    expect(utcTick(1_740_918_000, 600)).toBe('12:20');
    expect(utcTick(1_740_918_015, 15)).toBe('12:20:15');
  });

  it('dates a time label when asked: the first label of a day that did not open on midnight (a reopen after a weekend)', () => {
    // Sunday 2013-10-13 22:00 UTC, the CME reopen after the weekend.
    expect(utcTick(1_381_701_600, 3600, true)).toBe('Oct 13 22:00');
    expect(utcTick(1_381_701_600, 3600)).toBe('22:00');
    expect(utcTick(1_740_873_600, 3600, true)).toBe('Mar 02');
    expect(timeStep(60, 2.2, 96)).toBe(3600);
    expect(timeStep(3600, 20, 96)).toBe(21_600);
  });
});
