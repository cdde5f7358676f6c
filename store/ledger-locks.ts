import { Signal } from '../core/signal.js';

/** How long one append held its ledger's head locked against every other deck on a shared store. */
export interface LedgerLockHeld {
  ledger: string;
  seconds: number;
}

/**
 * Each append to a shared ledger publishes the time it held the head here, so the observability plane can show what
 * serializes writes across decks without the store knowing of it.
 */
export const ledgerLocks = new Signal<LedgerLockHeld>('deck:ledger-lock');
