import { describe, expect, it } from 'vitest';
import { IndicatorSpecError, paneOf, parseIndicator, parseIndicators } from './spec.js';

const refusal = (text: string): IndicatorSpecError => {
  try {
    parseIndicator(text);
  } catch (e) {
    if (e instanceof IndicatorSpecError) return e;
    throw e;
  }
  throw new Error(`${text} was accepted`);
};

describe('indicator specs', () => {
  it('reads every documented form into a typed spec', () => {
    expect(parseIndicators(['ema:20', 'sma:50', 'vwap', 'bb:20:2', 'atr:14', 'rsi:14', 'hi:20', 'lo:20'])).toEqual([
      { kind: 'ema', n: 20, text: 'ema:20' },
      { kind: 'sma', n: 50, text: 'sma:50' },
      { kind: 'vwap', text: 'vwap' },
      { kind: 'bb', n: 20, k: 2, text: 'bb:20:2' },
      { kind: 'atr', n: 14, text: 'atr:14' },
      { kind: 'rsi', n: 14, text: 'rsi:14' },
      { kind: 'hi', n: 20, text: 'hi:20' },
      { kind: 'lo', n: 20, text: 'lo:20' },
    ]);
  });

  it('keeps the bounds: N from 1 to 500, K above 0 and at most 10', () => {
    expect(parseIndicator('ema:1')).toMatchObject({ n: 1 });
    expect(parseIndicator('sma:500')).toMatchObject({ n: 500 });
    expect(parseIndicator('bb:20:10')).toMatchObject({ k: 10 });
    expect(parseIndicator('bb:20:0.5')).toMatchObject({ k: 0.5, text: 'bb:20:0.5' });
    expect(parseIndicator('bb:20:2.50').text).toBe('bb:20:2.5');
    for (const text of ['sma:501', 'bb:20:10.01', 'bb:20:0', 'bb:20:0.0']) expect(refusal(text).reason, text).toBe('out_of_bounds');
  });

  it('refuses an unknown name, naming the text', () => {
    for (const text of ['macd:12', 'EMA:20', '', 'vwap2']) {
      const e = refusal(text);
      expect(e.reason, text).toBe('unknown');
      expect(e.indicator).toBe(text);
      expect(e.message).toContain(`'${text}'`);
    }
  });

  it('refuses a malformed spec, naming the shape it should have', () => {
    for (const text of ['ema', 'ema:', 'ema:0', 'ema:020', 'ema:2.5', 'ema:-3', 'ema:20:1', 'bb:20', 'bb:20:x', 'bb:20:-1', 'vwap:1', 'rsi: 14']) {
      expect(refusal(text).reason, text).toBe('malformed');
    }
    expect(refusal('bb:20').message).toContain('bb:N:K');
  });

  it('refuses an indicator named twice, after reading', () => {
    expect(() => parseIndicators(['bb:20:2', 'bb:20:2.0'])).toThrow(IndicatorSpecError);
    expect(() => parseIndicators(['ema:20', 'ema:20'])).toThrow(/named twice/);
  });

  it('draws oscillators below the price', () => {
    expect(parseIndicators(['rsi:14', 'atr:14', 'ema:9']).map(paneOf)).toEqual(['lower', 'lower', 'price']);
  });
});
