import type { Exchange, OHLCV } from 'ccxt';
import { MARKET_SPECS, MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES, type Market, type Timeframe } from '../../engine/markets.js';
import { badInput, DeckError, didNotAnswer } from '../../core/errors.js';
import type { Logger } from '../../config/logger.js';
import { FINER } from './tape.js';
import { publishCall } from '../watch.js';
import { TimeframeNotServed, VENUE_TAPE, type TapeVenue } from './venue.js';
import { CandleRowSchema, type CandleRow } from '../../core/tape-wire.js';

type Ccxt = typeof import('ccxt');
type ExchangeClass = new (config: Record<string, unknown>) => Exchange;

/** The quotes a crypto market is served in, in order: the exchange's USDT pair where it lists one, else its USD pair. */
const QUOTES = ['USDT', 'USD'] as const;
/** ccxt's own retry of a request that failed on the way (network, timeout, 429, 5xx): twice, half a second apart. */
const RETRIES = 2;
const RETRY_DELAY_MS = 500;
const TIMEOUT_MS = 10_000;
/** Bars asked per request when the exchange does not state its own bound (ccxt's features.spot.fetchOHLCV.limit). */
const DEFAULT_PAGE = 500;

/** Node's fetch, with one deadline from asking to the answer's last byte (a body fed a byte at a time is cut at it). */
const wholeExchange = (url: string, init: RequestInit): Promise<Response> =>
  fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS) });

/** A deadline that cut an answer's body, which ccxt does not catch as its own. */
const cutShort = (error: unknown): boolean => error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');

/**
 * ccxt's urls.api with every URL's scheme and host replaced by `base`, its path kept, so one server (a proxy, or a
 * local one in tests) answers for every host the exchange uses (binance: api.binance.com/api/v3, fapi.binance.com/fapi/v1).
 */
function pointedAt(api: unknown, base: string, hostname: string | undefined): unknown {
  if (typeof api === 'string') {
    const whole = hostname ? api.replaceAll('{hostname}', hostname) : api;
    return URL.canParse(whole) ? base.replace(/\/$/, '') + new URL(whole).pathname.replace(/\/$/, '') : api;
  }
  if (api && typeof api === 'object') return Object.fromEntries(Object.entries(api).map(([k, v]) => [k, pointedAt(v, base, hostname)]));
  return api;
}

/** Loads the exchange's spot markets only (where ccxt would also load its futures and options): the deck reads spot pairs. */
function spotOnly(exchange: Exchange): void {
  const listed: unknown = exchange.options['fetchMarkets'];
  if (Array.isArray(listed) && listed.includes('spot')) exchange.options['fetchMarkets'] = ['spot'];
  else if (listed && typeof listed === 'object' && 'types' in listed && Array.isArray(listed.types) && listed.types.includes('spot')) {
    exchange.options['fetchMarkets'] = { ...listed, types: ['spot'] };
  }
}

/**
 * A crypto exchange's keyless public OHLCV through ccxt (DECK_TAPE_URL=ccxt:<exchange>), loaded only when configured.
 * BTC, ETH and SOL are read from the exchange's spot pair in USDT where it lists one, else in USD (found in its
 * markets once loaded); CME futures are refused. A timeframe it does not offer is built from a finer one it does, or
 * refused. A long window is asked in pages of the exchange's own bound. ccxt paces the requests (enableRateLimit)
 * and retries one that failed on the way; then the answer is 502 naming the exchange and what failed.
 */
export class CcxtTape implements TapeVenue {
  readonly source: `ccxt:${string}`;
  private pairs: Promise<ReadonlyMap<Market, string>> | null = null;
  private readonly page: number;

  private constructor(
    private readonly ccxt: Ccxt,
    private readonly exchange: Exchange,
    name: string,
    private readonly log: Logger,
  ) {
    this.source = `ccxt:${name}`;
    const bound: unknown = exchange.features['spot']?.['fetchOHLCV']?.limit;
    this.page = typeof bound === 'number' && bound > 0 ? bound : DEFAULT_PAGE;
  }

  /** ccxt's exchange by its name, pointed at `apiUrl` when given; a name ccxt does not know stops the start, saying how to configure. */
  static async open(name: string, apiUrl: string | null, log: Logger): Promise<CcxtTape> {
    const ccxt = await import('ccxt');
    // The exchanges' names at run time (ccxt's type declarations describe an object of classes instead).
    const listed: unknown = ccxt.exchanges;
    const names = Array.isArray(listed) ? listed.filter((n): n is string => typeof n === 'string') : Object.keys(ccxt.exchanges);
    const make = names.includes(name) ? (ccxt as unknown as Record<string, ExchangeClass>)[name] : undefined;
    if (!make) {
      throw new Error(
        `DECK_TAPE_URL=ccxt:${name}: ccxt ${ccxt.version} knows no exchange "${name}". Set DECK_TAPE_URL=ccxt:<exchange> with one of ccxt's exchanges (${names.join(', ')}), or to the http(s) URL of a venue's open tape, or leave it unset to serve the archive alone`,
      );
    }
    const exchange = new make({
      enableRateLimit: true,
      timeout: TIMEOUT_MS,
      // ccxt's own timeout ends once the answer's headers are in: the whole exchange, body included, is held to it here.
      fetchImplementation: wholeExchange,
      options: { defaultType: 'spot', maxRetriesOnFailure: RETRIES, maxRetriesOnFailureDelay: RETRY_DELAY_MS },
    });
    if (!exchange.has['fetchOHLCV']) throw new Error(`DECK_TAPE_URL=ccxt:${name}: ccxt's ${name} serves no public candles (fetchOHLCV); choose another exchange`);
    spotOnly(exchange);
    if (apiUrl) exchange.urls.api = pointedAt(exchange.urls.api, apiUrl, exchange.hostname) as Exchange['urls']['api'];
    const tape = new CcxtTape(ccxt, exchange, name, log);
    log.info('venue_tape', { source: tape.source, ccxt: ccxt.version, api: apiUrl ?? "the exchange's own hosts", bars_per_request: tape.page });
    return tape;
  }

  refusal(market: Market): DeckError | null {
    const spec = MARKET_SPECS[market];
    if (spec.kind !== 'cme') return null;
    return badInput([
      {
        field: 'market',
        message: `${this.source} cannot serve ${market} (${spec.name}): it is a CME futures contract, which no crypto exchange lists; ${this.source} serves BTC, ETH and SOL. Import its bars (npm run tape -- import) or set DECK_TAPE_URL to a venue that serves it`,
      },
    ]);
  }

  async candles(market: Market, tf: Timeframe, from: number, to: number): Promise<CandleRow[]> {
    const refused = this.refusal(market);
    if (refused) throw refused;
    this.offers(tf);
    const symbol = await this.pairOf(market);
    const len = TIMEFRAME_SECONDS[tf];
    const rows: CandleRow[] = [];
    for (let since = from; since < to; ) {
      const limit = Math.min(this.page, Math.ceil((to - since) / len));
      const page = await this.ask(`fetchOHLCV ${symbol} ${tf}`, () => this.exchange.fetchOHLCV(symbol, tf, since * 1000, limit));
      const fresh = this.rowsOf(page, symbol, tf).filter((r) => r[0] >= since && r[0] < to);
      if (fresh.length === 0) break;
      rows.push(...fresh);
      since = fresh[fresh.length - 1]![0] + len;
    }
    return rows;
  }

  /** Throws unless the exchange offers `tf`: TimeframeNotServed when the deck can build it from a finer one it offers, else 422. */
  private offers(tf: Timeframe): void {
    const offered = (t: Timeframe) => t in (this.exchange.timeframes ?? {});
    if (offered(tf)) return;
    if (FINER[tf].some(offered)) throw new TimeframeNotServed(`${this.source} offers no ${tf} bars`);
    const has = TIMEFRAMES.filter(offered);
    throw badInput([{ field: 'tf', message: `${this.source} offers no ${tf} bars, nor finer ones to build them from; it serves ${has.join(', ') || 'none of the tape\'s timeframes'}` }]);
  }

  /** The exchange's pair for a crypto market, from its spot markets (loaded once; asked again after a failure). */
  private async pairOf(market: Market): Promise<string> {
    this.pairs ??= this.loadPairs().catch((error: unknown) => {
      this.pairs = null;
      throw error;
    });
    const pair = (await this.pairs).get(market);
    if (pair) return pair;
    throw badInput([{ field: 'market', message: `${this.source} lists neither ${QUOTES.map((q) => `${market}/${q}`).join(' nor ')} among its active spot markets` }]);
  }

  private async loadPairs(): Promise<ReadonlyMap<Market, string>> {
    const markets = await this.ask('loadMarkets', () => this.exchange.loadMarkets(true));
    const pairs = new Map<Market, string>();
    for (const market of MARKETS.filter((m) => MARKET_SPECS[m].kind === 'crypto')) {
      const symbol = QUOTES.map((q) => `${market}/${q}`).find((s) => markets[s]?.spot === true && markets[s]?.active !== false);
      if (symbol) pairs.set(market, symbol);
    }
    this.log.info('venue_tape_pairs', { source: this.source, pairs: Object.fromEntries(pairs) });
    return pairs;
  }

  /** ccxt's candles as the tape's rows (t in unix seconds, on the timeframe's grid), or 502 for one that is not a candle. */
  private rowsOf(page: OHLCV[], symbol: string, tf: Timeframe): CandleRow[] {
    const len = TIMEFRAME_SECONDS[tf];
    return page.map(([ms, o, h, l, c, v]) => {
      const row = CandleRowSchema.safeParse([typeof ms === 'number' ? ms / 1000 : ms, o, h, l, c, v]);
      if (!row.success || row.data[0] % len !== 0) {
        const why = row.success ? `a ${tf} bar opening off the ${tf} grid` : (row.error.issues[0]?.message ?? 'not a candle');
        throw new DeckError(502, 'upstream_refused', `${this.source} answered fetchOHLCV ${symbol} ${tf} with a bar that is not a candle: ${why}`, { upstream: this.source });
      }
      return row.data as CandleRow;
    });
  }

  /**
   * One call to the exchange, counted as the venue tape's on the upstream channel (ccxt keeps the HTTP status to
   * itself); what the exchange answered instead is 502 naming the exchange and what failed.
   */
  private async ask<T>(what: string, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const answer = await call();
      publishCall(VENUE_TAPE, started, 'ok', null);
      return answer;
    } catch (error) {
      if (cutShort(error)) {
        publishCall(VENUE_TAPE, started, 'unreachable', null);
        throw didNotAnswer(this.source, `${what}: no whole answer within ${TIMEOUT_MS / 1000} s`);
      }
      if (!(error instanceof this.ccxt.BaseError)) throw error;
      const why = `${what}: ${error.message.slice(0, 400)}`;
      // What ccxt takes for a failure on the way (network, timeout, 429, an exchange's unknown error), and retried.
      const silent = error instanceof this.ccxt.OperationFailed;
      publishCall(VENUE_TAPE, started, silent ? 'unreachable' : 'refused', null);
      if (silent) throw didNotAnswer(this.source, `${why} (tried ${RETRIES + 1} times)`);
      throw new DeckError(502, 'upstream_refused', `${this.source} refused ${why}`, { upstream: this.source });
    }
  }
}
