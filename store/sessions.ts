import type { Doc } from './doc.js';

/** A session, stored under the hash of its token: the token itself is never kept. */
export interface Session {
  principal_id: string;
  key_gen: number;
  expires_at: number;
  /**
   * A session issued to an OAuth client is bound to the resource it was asked for (an MCP endpoint's path, or "/"
   * for every MCP endpoint) and belongs to a grant, which ends with it.
   */
  resource?: string;
  grant?: string;
}

export interface SessionsDoc {
  sessions: Record<string, Session>;
}

export class Sessions {
  constructor(private readonly file: Doc<SessionsDoc>) {}

  static empty = (): SessionsDoc => ({ sessions: {} });

  get(tokenHash: string): Session | null {
    return this.file.data.sessions[tokenHash] ?? null;
  }

  /** Records a session and drops the expired ones, so the file does not grow without bound. */
  add(tokenHash: string, session: Session, now: number): Promise<void> {
    return this.file.update((d) => {
      for (const [h, s] of Object.entries(d.sessions)) if (s.expires_at <= now) delete d.sessions[h];
      d.sessions[tokenHash] = session;
    });
  }

  /** Ends every session of the given grants. */
  removeGrants(grants: readonly string[]): Promise<void> {
    const ending = new Set(grants);
    return this.file.update((d) => {
      for (const [h, s] of Object.entries(d.sessions)) if (s.grant !== undefined && ending.has(s.grant)) delete d.sessions[h];
    });
  }

  remove(tokenHash: string): Promise<void> {
    return this.file.update((d) => {
      delete d.sessions[tokenHash];
    });
  }
}
