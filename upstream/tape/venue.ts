import type { Market, Timeframe } from '../../engine/markets.js';
import { undici } from '../undici.js';
import { watched } from '../watch.js';
import { didNotAnswer, refusedBy, type DeckError } from '../../core/errors.js';
import { VenueAnswer, type CandleRow } from '../../core/tape-wire.js';

/** The venue's name in refusals and on the upstream channel (its label in /metrics and /ready: venue_tape). */
export const VENUE_TAPE = 'venue tape';
const BACKOFF_MS = [100, 300];

/** The venue answered that it does not serve this timeframe (the deck may build it from finer bars). */
export class TimeframeNotServed extends Error {}

/** What coverage.source says of an answer a venue gave: `venue` (the open-tape wire) or `ccxt:<exchange>`. */
export type VenueSource = 'venue' | `ccxt:${string}`;

/** Where the tape asks for candles it does not keep: the open-tape wire over HTTP, or a crypto exchange through ccxt. */
export interface TapeVenue {
  readonly source: VenueSource;
  /** Why it can never serve a market (a CME future on a crypto exchange), as the refusal to answer; null when it may. */
  refusal(market: Market): DeckError | null;
  /** The bars of [from, to) it holds, oldest first (one still forming among them, maybe: the tape keeps closed ones only). */
  candles(market: Market, tf: Timeframe, from: number, to: number): Promise<CandleRow[]>;
}

/** One attempt: the rows, a refusal thrown, or the reason to try again. */
async function attempt(target: string, timeoutMs: number): Promise<CandleRow[] | { retry: string }> {
  // One deadline for the whole exchange, body included: a venue that drips its answer is cut at it.
  const deadline = AbortSignal.timeout(timeoutMs);
  let res;
  let text: string;
  try {
    res = await watched(VENUE_TAPE, async () => (await undici()).request(target, { headers: { accept: 'application/json' }, signal: deadline }));
    text = await res.body.text();
  } catch (error) {
    return { retry: deadline.aborted ? `no answer within ${timeoutMs / 1000} s` : (error as Error).message };
  }
  if (res.statusCode >= 500) return { retry: `answered ${res.statusCode}` };
  if (res.statusCode === 404 || res.statusCode === 422) throw new TimeframeNotServed(text.slice(0, 200));
  if (res.statusCode !== 200) throw refusedBy(VENUE_TAPE, text.slice(0, 500));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw refusedBy(VENUE_TAPE, 'an answer that is not JSON');
  }
  const parsed = VenueAnswer.safeParse(body);
  if (!parsed.success) throw refusedBy(VENUE_TAPE, `not candles: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data.candles as CandleRow[];
}

/**
 * The venue's open tape over HTTP (undici): GET {tape_url}/candles/{market}/{tf}?from&to. A network failure,
 * timeout or 5xx is retried twice with a short backoff, then the venue "did not answer" (502). A 404 or 422
 * means the venue does not serve that timeframe.
 */
export class VenueTape implements TapeVenue {
  readonly source = 'venue' as const;

  constructor(
    private readonly url: string,
    private readonly timeoutMs = 5000,
  ) {}

  refusal(): null {
    return null;
  }

  async candles(market: Market, tf: Timeframe, from: number, to: number): Promise<CandleRow[]> {
    const target = `${this.url.replace(/\/$/, '')}/candles/${market}/${tf}?from=${from}&to=${to}`;
    let why = '';
    for (let i = 0; i <= BACKOFF_MS.length; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, BACKOFF_MS[i - 1]));
      const got = await attempt(target, this.timeoutMs);
      if (Array.isArray(got)) return got;
      why = got.retry;
    }
    throw didNotAnswer(VENUE_TAPE, why);
  }
}

