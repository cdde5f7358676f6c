import { limitReached } from '../../../core/errors.js';

/**
 * Refused credentials per client address (keys at login, and keys or sessions presented as the bearer or the
 * cookie): `limit` refusals inside one window of `windowMs` rest the door for the remainder of that window; a
 * login that succeeds clears the address. Held in memory: a restart forgets it.
 */
export class LoginThrottle {
  private readonly windows = new Map<string, { start: number; refused: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private current(client: string, now: number) {
    const w = this.windows.get(client);
    if (w && now - w.start >= this.windowMs) {
      this.windows.delete(client);
      return null;
    }
    return w ?? null;
  }

  /** Whether any address has a refusal counted: while none has, every door is open, whoever asks. */
  get counting(): boolean {
    return this.windows.size > 0;
  }

  /** Seconds until the door opens again for this client, or 0 when it is open. */
  restingFor(client: string, now: number): number {
    const w = this.current(client, now);
    return w && w.refused >= this.limit ? Math.ceil((w.start + this.windowMs - now) / 1000) : 0;
  }

  refused(client: string, now: number): void {
    this.forgetEnded(now);
    const w = this.current(client, now) ?? { start: now, refused: 0 };
    w.refused += 1;
    this.windows.set(client, w);
  }

  /**
   * Drops ended windows, so addresses that never come back do not accumulate. A window is added when it
   * starts and never moved, so the map is in order of start: the ended ones are at the front.
   */
  private forgetEnded(now: number): void {
    for (const [client, w] of this.windows) {
      if (now - w.start < this.windowMs) return;
      this.windows.delete(client);
    }
  }

  cleared(client: string): void {
    this.windows.delete(client);
  }
}

/** The answer while an address rests (429): when to come back, in the body and, over HTTP, in Retry-After. */
export const resting = (seconds: number) =>
  limitReached('login_resting', `too many refused keys from this address; try again in ${seconds} s`, seconds);
