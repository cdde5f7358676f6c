/** A clock a test moves by hand, shared by a deck and its venue: time passes only when the test says so. */
export interface MovableClock {
  (): number;
  /** Sets the time, unix seconds. */
  set(seconds: number): void;
  /** Moves the time on by `seconds`. */
  advance(seconds: number): void;
}

export function movableClock(startSeconds: number): MovableClock {
  let ms = startSeconds * 1000;
  const clock = (() => ms) as MovableClock;
  clock.set = (s) => void (ms = s * 1000);
  clock.advance = (s) => void (ms += s * 1000);
  return clock;
}
