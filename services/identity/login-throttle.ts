import type { Doc } from '../../store/doc.js';
import { limitReached } from '../../core/errors.js';

/** A client address's window: when its first counted refusal came, and how many since. */
interface Window {
  start: number;
  refused: number;
}

/** The windows of every address, in order of start (a window is added when it starts and never moved). */
export interface LoginWindowsDoc {
  windows: Record<string, Window>;
}

export const noLoginWindows = (): LoginWindowsDoc => ({ windows: {} });

/**
 * Refused credentials per client address (keys at login, and keys or sessions presented as the bearer or the
 * cookie): `limit` refusals inside one window of `windowMs` rest the address for the remainder of that window (the
 * login door refuses every key then; elsewhere only credentials that do not verify are refused); a login that
 * succeeds clears the address. Held in memory (a restart forgets it), or, when decks share a store, in
 * a document of it (`shared`), so a refusal counted by one deck counts at every deck.
 */
export class LoginThrottle {
  private readonly memory = noLoginWindows();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly shared: Doc<LoginWindowsDoc> | null = null,
  ) {}

  private get windows(): Readonly<Record<string, Window>> {
    return (this.shared?.data ?? this.memory).windows;
  }

  private current(client: string, now: number): Window | null {
    const w = Object.hasOwn(this.windows, client) ? this.windows[client]! : null;
    return w && now - w.start < this.windowMs ? w : null;
  }

  /** Seconds until the door opens again for this client, or 0 when it is open. */
  restingFor(client: string, now: number): number {
    const w = this.current(client, now);
    return w && w.refused >= this.limit ? Math.ceil((w.start + this.windowMs - now) / 1000) : 0;
  }

  /** Counts a refusal; kept before it resolves. */
  async refused(client: string, now: number): Promise<void> {
    const count = (d: LoginWindowsDoc) => {
      this.forgetEnded(d, now);
      const w = Object.hasOwn(d.windows, client) ? d.windows[client]! : { start: now, refused: 0 };
      d.windows[client] = { start: w.start, refused: w.refused + 1 };
    };
    if (this.shared) await this.shared.update(count);
    else count(this.memory);
  }

  /** Drops ended windows (they are at the front), so addresses that never come back do not accumulate. */
  private forgetEnded(d: LoginWindowsDoc, now: number): void {
    for (const [client, w] of Object.entries(d.windows)) {
      if (now - w.start < this.windowMs) return;
      delete d.windows[client];
    }
  }

  async cleared(client: string): Promise<void> {
    if (!Object.hasOwn(this.windows, client)) return;
    if (this.shared) await this.shared.update((d) => void delete d.windows[client]);
    else delete this.memory.windows[client];
  }
}

/** The answer while an address rests (429): when to come back, in the body and, over HTTP, in Retry-After. */
export const resting = (seconds: number) =>
  limitReached('login_resting', `too many refused keys from this address; try again in ${seconds} s`, seconds);
