import type { z } from 'zod';
import { didNotAnswer, refusedBy } from '../../core/errors.js';
import { callJson } from '../http.js';
import { SettleResponse, SupportedResponse, VerifyResponse, X402_VERSION, type PaymentPayload, type PaymentRequirements } from './wire.js';

const NAME = 'x402 facilitator';

/**
 * An x402 facilitator over HTTP (undici): it checks a payment (/verify), settles it on chain (/settle) and says what it
 * settles (/supported). A facilitator answers an invalid payment with its reason, often under a 4xx: an answer of
 * the message's shape is read whatever its status; anything else is 502 carrying it; no answer is 503.
 */
export class Facilitator {
  constructor(
    private readonly url: string,
    /** Settling waits for the transfer to be mined: a longer deadline than a check. */
    private readonly settleTimeoutMs = 60_000,
  ) {}

  verify(paymentPayload: PaymentPayload, paymentRequirements: PaymentRequirements, ended?: AbortSignal) {
    return this.post('/verify', { x402Version: X402_VERSION, paymentPayload, paymentRequirements }, VerifyResponse, 10_000, ended);
  }

  /** Never cancelled with the request: a settlement under way is seen through, so what it did is known. */
  settle(paymentPayload: PaymentPayload, paymentRequirements: PaymentRequirements) {
    return this.post('/settle', { x402Version: X402_VERSION, paymentPayload, paymentRequirements }, SettleResponse, this.settleTimeoutMs);
  }

  async supported() {
    const answer = await callJson(NAME, `${this.url}/supported`, { method: 'GET', timeoutMs: 10_000 });
    const read = SupportedResponse.safeParse(answer.body);
    if (answer.status !== 200 || !read.success) throw refusedBy(NAME, answer.body);
    return read.data;
  }

  private async post<S extends z.ZodType>(path: string, body: unknown, shape: S, timeoutMs: number, ended?: AbortSignal): Promise<z.output<S>> {
    const answer = await callJson(NAME, `${this.url}${path}`, { method: 'POST', body, timeoutMs, ...(ended ? { ended } : {}) });
    const read = shape.safeParse(answer.body);
    if (read.success) return read.data;
    if (answer.status >= 500) throw didNotAnswer(NAME, `${path} answered ${answer.status}`);
    throw refusedBy(NAME, answer.body);
  }
}
