import { z } from 'zod';
import { DeckError, refusedBy } from '../../tools/errors.js';
import { callJson, expectOk } from '../http.js';
import type { IdentityDoor } from './door.js';

const NAME = 'identity door';

const Principal = z.object({ id: z.string(), name: z.string(), wallet: z.string().nullable() });
const Minted = z.object({ principal: Principal, key: z.string() });
const Verified = z.object({ principal: Principal });
const Rotated = z.object({ key: z.string() });

/** Reads an upstream answer with its schema; an answer of the wrong shape is the door refusing (502). */
const shaped = <T>(schema: z.ZodType<T>, body: unknown): T => {
  const r = schema.safeParse(body);
  if (!r.success) throw refusedBy(NAME, body);
  return r.data;
};

/**
 * A remote identity door over HTTP (the wire format is in the README):
 * POST /principals, POST /verify, POST /principals/{id}/key.
 */
export class HttpDoor implements IdentityDoor {
  readonly kind = 'http' as const;

  constructor(
    private readonly url: string,
    private readonly token: string | null,
  ) {}

  private post(path: string, body: unknown) {
    return callJson(NAME, `${this.url.replace(/\/$/, '')}${path}`, { method: 'POST', body, token: this.token });
  }

  async mint(request: { name: string; wallet: string | null }) {
    const answer = await this.post('/principals', request);
    if (answer.status === 409) throw new DeckError(409, 'name_taken', `the name ${request.name} is taken`, { field: 'name' });
    return shaped(Minted, expectOk(NAME, answer));
  }

  async verify(key: string) {
    const answer = await this.post('/verify', { key });
    if (answer.status === 401 || answer.status === 404) return null;
    return shaped(Verified, expectOk(NAME, answer)).principal;
  }

  async rotate(principalId: string) {
    const answer = await this.post(`/principals/${encodeURIComponent(principalId)}/key`, {});
    return shaped(Rotated, expectOk(NAME, answer)).key;
  }
}
