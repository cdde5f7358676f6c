import type { Envelope } from './envelope.js';

/**
 * Whether `closed`, issued at the same bar close from the bars closed by then, takes the place of `recorded`: the
 * same forecaster (model and revision) now states another last close or another ATR ending at that last bar, so the
 * recorded envelope read a last bar that had not closed (an archive that ended inside it), or was centred and scaled
 * on bars the closed tape contradicts. An envelope of another forecaster stands as issued, and so does one that
 * differs only deeper in its sample (history the deck did not hold yet when it issued).
 */
export function supersedes(closed: Envelope, recorded: Envelope): boolean {
  const same = closed.issued_t === recorded.issued_t && closed.last_bar_t === recorded.last_bar_t && closed.model === recorded.model && closed.model_rev === recorded.model_rev;
  return same && (closed.close !== recorded.close || closed.atr !== recorded.atr);
}

/** Why a backfill replaced an envelope, as its ledger entry says. */
export const SUPERSEDED_WHY = 'issued from a last bar that had not closed: reissued from the closed bars';
