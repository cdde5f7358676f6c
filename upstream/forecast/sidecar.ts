import { z } from 'zod';
import { ForecastError, type Pair } from '../../engine/forecast/index.js';
import { DeckError, didNotAnswer, refusedBy } from '../../core/errors.js';
import { callJson } from '../http.js';
import type { Source } from './source.js';

/** A sidecar's "nothing to issue": too little history before t, or no range. */
const Unissued = z.object({ reason: z.enum(['warming_up', 'flat']), message: z.string().max(500) });

/**
 * An HTTP forecast sidecar (DECK_FORECAST_URL), over undici, with no retries. The wire (docs/forecast.md states it):
 *   GET {url}/envelope/{market}/{tf}?t=<s>  t is a bar close (a multiple of the bar length, unix seconds). 200: the
 *     envelope.v1 the sidecar issues as of t, at the close of the last bar closed by t (issued_t <= t) and from bars
 *     closed by then. 404 { reason: warming_up | flat, message }: nothing to issue.
 *   GET {url}/health  200 { model, model_rev, device, samples }.
 * No answer within the timeout, a failed connection or an answer that is not JSON is 502 (did not answer); any
 * other status is 502 carrying what it said. What it answers is checked by the Forecaster, never trusted here.
 */
export class SidecarForecaster implements Source {
  readonly name = 'forecast sidecar';

  constructor(
    private readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async envelopeAt(pair: Pair, t: number): Promise<unknown> {
    const { status, body } = await this.get(`/envelope/${pair.market}/${pair.tf}?t=${t}`);
    if (status === 404) {
      const unissued = Unissued.safeParse(body);
      if (unissued.success) throw new ForecastError(unissued.data.reason, unissued.data.message);
    }
    if (status !== 200) throw refusedBy(this.name, body);
    return body;
  }

  async lens(): Promise<unknown> {
    const { status, body } = await this.get('/health');
    if (status !== 200) throw refusedBy(this.name, body);
    return body;
  }

  /** A sidecar that cannot be reached, or answers something that is not JSON, did not answer: 502. */
  private async get(path: string): Promise<{ status: number; body: unknown }> {
    const answer = await callJson(this.name, `${this.url.replace(/\/$/, '')}${path}`, { method: 'GET', timeoutMs: this.timeoutMs }).catch((error: unknown) => {
      // callJson says "<upstream> could not be reached: <why>"; the sidecar's contract calls that 502, with the why.
      throw error instanceof DeckError && error.status === 503 ? didNotAnswer(this.name, error.message.slice(error.message.indexOf(': ') + 2)) : error;
    });
    if (!answer.parsed) throw didNotAnswer(this.name, `an answer that is not JSON (status ${answer.status})`);
    return answer;
  }
}
