/** The markets of the tape and their timeframes: the one place these lists are written down. */

export const MARKETS = ['NQ', 'ES', 'YM', 'BTC', 'ETH', 'SOL'] as const;
export type Market = (typeof MARKETS)[number];

export const TIMEFRAMES = ['15s', '1m', '5m', '1h'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** Bar length in seconds. Bars open at multiples of it counted from the unix epoch. */
export const TIMEFRAME_SECONDS: Readonly<Record<Timeframe, number>> = { '15s': 15, '1m': 60, '5m': 300, '1h': 3600 };

/** cme: CME Globex equity-index futures, which keep the CME session (engine/calendar.ts); crypto: 24/7. */
export type MarketKind = 'cme' | 'crypto';

export interface MarketSpec {
  readonly kind: MarketKind;
  /** The smallest price step the venue quotes (CME contract specs; the crypto spot books' current tick). */
  readonly tick: number;
  /** Dollars a one-point move is worth on one contract (the E-mini; a micro is a tenth) or one coin. */
  readonly point_value: number;
  readonly name: string;
}

export const MARKET_SPECS: Readonly<Record<Market, MarketSpec>> = {
  NQ: { kind: 'cme', tick: 0.25, point_value: 20, name: 'E-mini Nasdaq-100 futures' },
  ES: { kind: 'cme', tick: 0.25, point_value: 50, name: 'E-mini S&P 500 futures' },
  YM: { kind: 'cme', tick: 1, point_value: 5, name: 'E-mini Dow futures' },
  BTC: { kind: 'crypto', tick: 0.01, point_value: 1, name: 'Bitcoin (USDT spot)' },
  ETH: { kind: 'crypto', tick: 0.01, point_value: 1, name: 'Ether (USDT spot)' },
  SOL: { kind: 'crypto', tick: 0.01, point_value: 1, name: 'Solana (USDT spot)' },
};

/** A micro contract (MNQ, MES, MYM) quotes the same index as its E-mini at a tenth of the dollars a point. */
export const MICROS_PER_EMINI = 10;

/** Price points worth `dollars` on one contract or coin of the market (a micro contract when `micro`). */
export function pointsOfDollars(market: Market, dollars: number, micro: boolean): number | null {
  const spec = MARKET_SPECS[market];
  if (micro && spec.kind !== 'cme') return null;
  return (micro ? dollars * MICROS_PER_EMINI : dollars) / spec.point_value;
}

export const isMarket = (s: string): s is Market => (MARKETS as readonly string[]).includes(s);
export const isTimeframe = (s: string): s is Timeframe => (TIMEFRAMES as readonly string[]).includes(s);
