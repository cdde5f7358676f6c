import type { Doc } from './doc.js';

/** A client registered by dynamic registration (RFC 7591). Every client is public: it holds no secret. */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  redirect_uris: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  scope?: string;
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  /** When a grant was last made under it (ms); absent: never used. */
  used_at?: number;
}

/** How many registrations are kept, and for how long one no grant names is. */
export interface Keeping {
  /** Registrations kept at most. */
  most: number;
  /** A registration never used is dropped this long after it was made. */
  unusedMs: number;
  /** One used, that no grant names any more, this long after its last use. */
  idleMs: number;
}

/** Until when a registration is kept when no grant names it. */
const keptUntil = (c: RegisteredClient, k: Keeping): number => (c.used_at !== undefined ? c.used_at + k.idleMs : c.client_id_issued_at * 1000 + k.unusedMs);

/**
 * What a person consented to: one client acting as one principal on one resource (an MCP endpoint's path, or "/"
 * for every MCP endpoint). Its refresh token is kept only as a digest; the ones it replaced are remembered, so one
 * presented again (stolen, or replayed) ends the grant.
 */
export interface Grant {
  client_id: string;
  principal_id: string;
  /** The key generation consent was given under: a rotation ends the grant. */
  key_gen: number;
  resource: string;
  refresh: string;
  refresh_expires_at: number;
  spent: string[];
  created_at: number;
}

export interface OAuthDoc {
  clients: Record<string, RegisteredClient>;
  grants: Record<string, Grant>;
}

export class OAuthBook {
  /** The grant each refresh token digest (current or spent) belongs to, built from the document on first use. */
  private byRefresh: Map<string, string> | null = null;

  constructor(private readonly file: Doc<OAuthDoc>) {}

  static empty = (): OAuthDoc => ({ clients: {}, grants: {} });

  /** A registered client, unless it is no longer kept at `now` (a sweep at the next registration drops it). */
  client(id: string, now: number, k: Keeping): RegisteredClient | null {
    const c = this.file.data.clients[id];
    if (!c) return null;
    return keptUntil(c, k) > now || Object.values(this.file.data.grants).some((g) => g.client_id === id) ? c : null;
  }

  grant(id: string): Grant | null {
    return this.file.data.grants[id] ?? null;
  }

  /** The grant a refresh token digest names, and whether that token was already spent (replaced by a newer one). */
  grantOfRefresh(digest: string): { id: string; grant: Grant; spent: boolean } | null {
    this.byRefresh ??= this.index(this.file.data);
    const id = this.byRefresh.get(digest);
    const grant = id ? this.grant(id) : null;
    return id && grant ? { id, grant, spent: grant.refresh !== digest } : null;
  }

  /**
   * Registers a client. Registrations no grant names are dropped once past their time (`k`); at the most kept, the
   * one no grant names that is soonest to go gives way (never used first); a registration a grant names never does.
   * 'full': every registration kept is named by a grant, and nothing was registered.
   */
  register(client: RegisteredClient, now: number, k: Keeping): Promise<RegisteredClient | 'full'> {
    return this.file.update((d) => {
      const named = new Set(Object.values(d.grants).map((g) => g.client_id));
      const unnamed = Object.values(d.clients).filter((c) => !named.has(c.client_id));
      for (const c of unnamed) if (keptUntil(c, k) <= now) delete d.clients[c.client_id];
      const room = Object.keys(d.clients).length - k.most + 1;
      if (room > 0) {
        const going = unnamed.filter((c) => d.clients[c.client_id]).sort((a, b) => Number(a.used_at !== undefined) - Number(b.used_at !== undefined) || keptUntil(a, k) - keptUntil(b, k));
        if (going.length < room) return 'full';
        for (const c of going.slice(0, room)) delete d.clients[c.client_id];
      }
      d.clients[client.client_id] = client;
      return client;
    });
  }

  /** Records a grant, dropping the ones whose refresh token has expired; its client, when registered, was used now. */
  addGrant(id: string, grant: Grant, now: number): Promise<void> {
    return this.change((d) => {
      for (const [gid, g] of Object.entries(d.grants)) if (g.refresh_expires_at <= now) delete d.grants[gid];
      d.grants[id] = grant;
      const client = d.clients[grant.client_id];
      if (client) client.used_at = now;
    });
  }

  /**
   * Replaces a grant's refresh token, only if `spending` is still its current one (two refreshes with one token at
   * once: the second finds it spent). False when it was not.
   */
  rotate(id: string, spending: string, next: string, expiresAt: number): Promise<boolean> {
    return this.change((d) => {
      const g = d.grants[id];
      if (!g || g.refresh !== spending) return false;
      g.spent.push(spending);
      g.refresh = next;
      g.refresh_expires_at = expiresAt;
      return true;
    });
  }

  /** Ends grants; the ids of those that were there. */
  endGrants(ids: readonly string[]): Promise<string[]> {
    return this.change((d) => ids.filter((id) => d.grants[id] !== undefined && delete d.grants[id]));
  }

  private change<R>(fn: (d: OAuthDoc) => R): Promise<R> {
    return this.file.update(fn).then((r) => {
      this.byRefresh = null;
      return r;
    });
  }

  private index(d: Readonly<OAuthDoc>): Map<string, string> {
    const m = new Map<string, string>();
    for (const [id, g] of Object.entries(d.grants)) for (const digest of [g.refresh, ...g.spent]) m.set(digest, id);
    return m;
  }
}
