import type { z } from 'zod';
import { DeckError, didNotAnswer, notConfigured, refusedBy } from '../../core/errors.js';
import { callJson } from '../http.js';
import {
  HandshakeAnswer,
  HandshakeOpened,
  PoolQuoteAnswer,
  SettleAnswer,
  VenuesAnswer,
  type HandshakeRequest,
  type PoolQuoteRequest,
  type Venue,
} from './wire.js';

const NAME = 'coordination layer';
/** Reads are tried three times: at once, then after these waits. */
const BACKOFF_MS = [100, 300];

interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  answer: S;
  /** Only idempotent reads (GET) are tried again; a POST is tried once. */
  read: boolean;
  /** A refusal the deck names itself (a 4xx answered otherwise than 502). */
  refusal?: (status: number, body: unknown) => DeckError | null;
}

/**
 * The coordination layer over HTTP (undici), with the deck's own key as the bearer. A refusal (4xx) is 502 carrying
 * the layer's answer under `layer`; a failed connection, a timeout (5 s), a 5xx or an answer that is not JSON is 502
 * too, after two more tries for reads; an answer of the wrong shape is 502. Not configured: 503 naming the variable.
 */
export class CoordLayer {
  constructor(
    private readonly config: { url: string; key: string | null } | null,
    private readonly timeoutMs = 5000,
  ) {}

  venues(): Promise<Venue[]> {
    return this.call({ method: 'GET', path: '/v1/venues', answer: VenuesAnswer, read: true }).then((a) => a.venues);
  }

  /**
   * The pool's terms. A POST: tried once, within one deadline, as the wire retries idempotent reads only (a stalled
   * layer answers 502 after one timeout, not three). 404 no_lane is the deck's 422 no_lane.
   */
  poolQuote(request: PoolQuoteRequest): Promise<z.infer<typeof PoolQuoteAnswer>> {
    return this.call({
      method: 'POST',
      path: '/v1/pool/quote',
      body: request,
      answer: PoolQuoteAnswer,
      read: false,
      refusal: (status, body) =>
        status === 404 && (body as { error?: unknown } | null)?.error === 'no_lane'
          ? new DeckError(422, 'no_lane', `no pool serves ${request.class} at ${request.venue} for the ${request.seller.seller} seller`, { layer: body })
          : null,
    });
  }

  openHandshake(request: HandshakeRequest): Promise<z.infer<typeof HandshakeOpened>> {
    return this.call({ method: 'POST', path: '/v1/handshakes', body: request, answer: HandshakeOpened, read: false });
  }

  settle(handshakeId: string): Promise<z.infer<typeof SettleAnswer>> {
    return this.call({ method: 'POST', path: '/v1/settle', body: { handshake_id: handshakeId }, answer: SettleAnswer, read: false });
  }

  /** The handshake as the layer reports it. */
  handshake(handshakeId: string): Promise<z.infer<typeof HandshakeAnswer>> {
    return this.call({ method: 'GET', path: `/v1/handshakes/${encodeURIComponent(handshakeId)}`, answer: HandshakeAnswer, read: true });
  }

  private async call<S extends z.ZodType>(c: Call<S>): Promise<z.output<S>> {
    if (!this.config) throw notConfigured(NAME, 'DECK_COORD_URL');
    const { url, key } = this.config;
    if (!key) throw notConfigured(NAME, 'DECK_COORD_KEY');
    const target = `${url.replace(/\/$/, '')}${c.path}`;
    const tries = c.read ? BACKOFF_MS.length + 1 : 1;
    let why = '';
    for (let i = 0; i < tries; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, BACKOFF_MS[i - 1]));
      let answer;
      try {
        answer = await callJson(NAME, target, { method: c.method, body: c.body, token: key, timeoutMs: this.timeoutMs });
      } catch (error) {
        why = (error as Error).message.replace(`${NAME} could not be reached: `, '');
        continue;
      }
      if (answer.status >= 500) why = `answered ${answer.status}`;
      else if (!answer.parsed) why = `an answer that is not JSON (status ${answer.status})`;
      else if (answer.status >= 400) throw c.refusal?.(answer.status, answer.body) ?? refusedBy(NAME, answer.body);
      else {
        const parsed = c.answer.safeParse(answer.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw didNotAnswer(NAME, `an answer of the wrong shape to ${c.method} ${c.path} (${issue?.path.join('.') || 'body'}: ${issue?.message})`);
        }
        return parsed.data;
      }
    }
    throw didNotAnswer(NAME, why);
  }
}
