import { z } from 'zod';
import { DeckError, refusedBy } from '../../core/errors.js';
import { callJson, expectOk } from '../http.js';
import type { IdentityDoor } from './door.js';

const NAME = 'identity door';

const Principal = z.object({ id: z.string(), name: z.string(), wallet: z.string().nullable() });
const Verified = z.object({ principal: Principal });

/** The answers that carry a key. A key must carry the deck's prefix: the deck tells keys from sessions by it. */
const keyed = (prefix: string) => {
  const key = z.string().startsWith(prefix).max(512);
  return { minted: z.object({ principal: Principal, key }), rotated: z.object({ key }) };
};

/**
 * Reads an upstream answer with its schema; an answer of the wrong shape is the door refusing (502). The
 * refusal carries what the door said, less any key in it: a key from an answer the deck could not read
 * belongs to no principal the deck keeps, and keys are handed out only by a join or a rotation that succeeded.
 */
const shaped = <T>(schema: z.ZodType<T>, body: unknown): T => {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  if (typeof body === 'object' && body !== null && 'key' in body) throw refusedBy(NAME, { ...body, key: '(withheld)' });
  throw refusedBy(NAME, body);
};

/**
 * A remote identity door over HTTP (the wire format is in docs/identity.md):
 * POST /principals, POST /verify, POST /principals/{id}/key.
 */
export class HttpDoor implements IdentityDoor {
  readonly kind = 'http' as const;
  private readonly answers: ReturnType<typeof keyed>;

  constructor(
    private readonly url: string,
    private readonly token: string | null,
    keyPrefix: string,
  ) {
    this.answers = keyed(keyPrefix);
  }

  private post(path: string, body: unknown) {
    return callJson(NAME, `${this.url.replace(/\/$/, '')}${path}`, { method: 'POST', body, token: this.token });
  }

  async mint(request: { name: string; wallet: string | null }) {
    const answer = await this.post('/principals', request);
    if (answer.status === 409) throw new DeckError(409, 'name_taken', `the name ${request.name} is taken`, { field: 'name' });
    return shaped(this.answers.minted, expectOk(NAME, answer));
  }

  async verify(key: string) {
    const answer = await this.post('/verify', { key });
    if (answer.status === 401 || answer.status === 404) return null;
    return shaped(Verified, expectOk(NAME, answer)).principal;
  }

  async rotate(principalId: string) {
    const answer = await this.post(`/principals/${encodeURIComponent(principalId)}/key`, {});
    return shaped(this.answers.rotated, expectOk(NAME, answer)).key;
  }
}
