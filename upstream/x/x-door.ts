import { z } from 'zod';
import type { Config } from '../../config/env.js';
import { didNotAnswer, refusedBy, unreachable } from '../../core/errors.js';
import { undici } from '../undici.js';
import { watched } from '../watch.js';

const NAME = 'X';

/** What the deck asks X for: who the person is, nothing more (GET /2/users/me needs both). */
export const X_SCOPES = ['tweet.read', 'users.read'] as const;

const Token = z.object({ token_type: z.string().regex(/^bearer$/i), access_token: z.string().min(1).max(4096) });
const Me = z.object({ data: z.object({ id: z.string().regex(/^\d{1,32}$/), username: z.string().min(1).max(64), name: z.string().max(200).optional() }) });

/** An X account as GET /2/users/me names it. */
export type XAccount = z.infer<typeof Me>['data'];

/**
 * X's OAuth 2.0 authorization code flow with PKCE, as X documents it: the person is sent to the authorize URL
 * (response_type=code, client_id, redirect_uri, scope, state, an S256 code_challenge); the code X sends back is
 * exchanged at POST /2/oauth2/token (form-encoded: grant_type=authorization_code, code, redirect_uri, code_verifier;
 * a confidential client authenticates with HTTP Basic client_id:client_secret, a public one sends client_id), and the
 * access token reads GET /2/users/me. The token is used for that one read and kept by nobody. A refusal is 502 carrying
 * what X said; no answer in 5 s is 503.
 */
export class XDoor {
  constructor(
    private readonly config: NonNullable<Config['x']>,
    private readonly timeoutMs = 5000,
  ) {}

  /** Where the person is sent to consent. */
  authorizeUrl(o: { redirectUri: string; state: string; challenge: string }): string {
    const u = new URL(this.config.authorizeUrl);
    const params = {
      response_type: 'code',
      client_id: this.config.clientId,
      redirect_uri: o.redirectUri,
      scope: X_SCOPES.join(' '),
      state: o.state,
      code_challenge: o.challenge,
      code_challenge_method: 'S256',
    };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.href;
  }

  /** The account whose consent the code carries: the code exchanged for a token, the token for GET /2/users/me. */
  async accountOf(o: { code: string; verifier: string; redirectUri: string }): Promise<XAccount> {
    const { clientId, clientSecret } = this.config;
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: o.code, redirect_uri: o.redirectUri, code_verifier: o.verifier });
    if (!clientSecret) form.set('client_id', clientId);
    const token = Token.safeParse(
      await this.call(this.config.tokenUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(clientSecret ? { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}` } : {}),
        },
        body: form.toString(),
      }),
    );
    if (!token.success) throw didNotAnswer(NAME, 'its token endpoint answered without a bearer access_token');
    const me = Me.safeParse(await this.call(`${this.config.apiUrl.replace(/\/$/, '')}/2/users/me`, { method: 'GET', headers: { authorization: `Bearer ${token.data.access_token}` } }));
    if (!me.success) throw didNotAnswer(NAME, 'GET /2/users/me answered without data.id and data.username');
    return me.data.data;
  }

  private async call(url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }): Promise<unknown> {
    let res;
    let text: string;
    try {
      res = await watched(NAME, async () =>
        (await undici()).request(url, { method: init.method, headers: { accept: 'application/json', ...init.headers }, body: init.body ?? null, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs }),
      );
      text = await res.body.text();
    } catch (error) {
      throw unreachable(NAME, (error as Error).message);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw didNotAnswer(NAME, `an answer that is not JSON (status ${res.statusCode})`);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) throw refusedBy(NAME, body);
    return body;
  }
}
