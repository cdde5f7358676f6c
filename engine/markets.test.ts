import { describe, expect, it } from 'vitest';
import { MARKETS, MARKET_SPECS, TIMEFRAMES, TIMEFRAME_SECONDS, isMarket, isTimeframe } from './markets.js';

describe('markets and timeframes', () => {
  it('are the six markets of the tape: three CME index futures and three 24/7 crypto', () => {
    expect(MARKETS.filter((m) => MARKET_SPECS[m].kind === 'cme')).toEqual(['NQ', 'ES', 'YM']);
    expect(MARKETS.filter((m) => MARKET_SPECS[m].kind === 'crypto')).toEqual(['BTC', 'ETH', 'SOL']);
    expect(MARKETS.map((m) => MARKET_SPECS[m].tick)).toEqual([0.25, 0.25, 1, 0.01, 0.01, 0.01]);
  });

  it('have four timeframes, each a whole multiple of the one before', () => {
    expect(TIMEFRAMES.map((tf) => TIMEFRAME_SECONDS[tf])).toEqual([15, 60, 300, 3600]);
  });

  it('recognise only their own names, case and all', () => {
    expect(['ES', 'es', 'CL', 'SOL'].filter(isMarket)).toEqual(['ES', 'SOL']);
    expect(['1m', '1M', '30m', '1h'].filter(isTimeframe)).toEqual(['1m', '1h']);
  });
});
