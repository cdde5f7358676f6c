import { randomBytes } from 'node:crypto';
import { digest } from '../../upstream/identity/keys.js';

/** How long a person has to consent once a client sent them to the deck. */
export const REQUEST_TTL_MS = 10 * 60_000;
/** How long an authorization code may wait for its exchange. */
export const CODE_TTL_MS = 5 * 60_000;
/** At most this many requests and codes wait at once; past it the oldest goes. */
const WAITING = 10_000;

/** What a client asked for at the authorization endpoint, waiting for the person's consent. */
export interface AuthorizationRequest {
  client_id: string;
  client_name: string | null;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  /** The resource's path (RFC 8707) the token will be bound to. */
  resource: string;
  expires_at: number;
}

/** A code the person's consent minted: whom it is for, and what it may be exchanged for. */
export interface AuthorizationCode {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  principal_id: string;
  key_gen: number;
  expires_at: number;
  /** The grant its exchange made: a second exchange of the code ends it. */
  grant: string | null;
}

/** A bounded map whose entries expire. */
class Expiring<T extends { expires_at: number }> {
  private readonly m = new Map<string, T>();

  get(k: string, now: number): T | null {
    const v = this.m.get(k);
    if (v && v.expires_at <= now) this.m.delete(k);
    return v && v.expires_at > now ? v : null;
  }

  set(k: string, v: T, now: number): void {
    for (const [key, old] of this.m) {
      if (old.expires_at > now && this.m.size < WAITING) break;
      this.m.delete(key);
    }
    this.m.set(k, v);
  }

  delete(k: string): void {
    this.m.delete(k);
  }
}

/**
 * Requests waiting for consent and codes waiting for their exchange, in memory (both live minutes; a restart asks
 * the person again). A code is kept only as its digest; a request's id names it to the consent page and grants
 * nothing by itself (consent needs the person's own session).
 */
export class Authorizations {
  private readonly requests = new Expiring<AuthorizationRequest>();
  private readonly codes = new Expiring<AuthorizationCode>();

  open(r: AuthorizationRequest, now: number): string {
    const id = `ar_${randomBytes(16).toString('base64url')}`;
    this.requests.set(id, r, now);
    return id;
  }

  request(id: string, now: number): AuthorizationRequest | null {
    return this.requests.get(id, now);
  }

  /** Takes a request off the waiting list: consent is answered once. */
  close(id: string, now: number): AuthorizationRequest | null {
    const r = this.requests.get(id, now);
    this.requests.delete(id);
    return r;
  }

  mint(c: Omit<AuthorizationCode, 'grant'>, now: number): string {
    const code = `dc_${randomBytes(32).toString('base64url')}`;
    this.codes.set(digest(code), { ...c, grant: null }, now);
    return code;
  }

  code(code: string, now: number): AuthorizationCode | null {
    return this.codes.get(digest(code), now);
  }

  /** Marks a code exchanged for `grant`; false when it already was (two exchanges at once: the second loses). */
  spend(code: string, grant: string, now: number): boolean {
    const c = this.codes.get(digest(code), now);
    if (!c || c.grant !== null) return false;
    c.grant = grant;
    return true;
  }
}
