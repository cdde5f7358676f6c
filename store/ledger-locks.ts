import { channel } from 'node:diagnostics_channel';

/** How long one append held its ledger's head locked against every other deck on a shared store. */
export interface LedgerLockHeld {
  ledger: string;
  seconds: number;
}

/**
 * Each append to a shared ledger publishes the time it held the head here, so the observability plane can show what
 * serializes writes across decks without the store knowing of it. Publishing costs nothing while nobody subscribes.
 */
export const ledgerLocks = channel('deck:ledger-lock');

export function publishLockHeld(ledger: string, seconds: number): void {
  if (!ledgerLocks.hasSubscribers) return;
  ledgerLocks.publish({ ledger, seconds } satisfies LedgerLockHeld);
}
