import type { RuleReading } from '../reader/schema.js';
import { FLAT_AT_WINDOW_END } from './plain.js';

/**
 * A reading with what the forge will make of it that its words leave unsaid, noted on the part it comes from, so
 * the trader reads it before forging: a session window with no clock or close exit in the words closes a trade
 * still open at the window's end (the IR's flat_at_session_end). Only a note: the values are the reader's.
 */
export function noteUnsaid(reading: RuleReading): RuleReading {
  const session = reading.session.value;
  if (session?.kind !== 'windows') return reading;
  if (reading.exit.value?.time?.some((t) => t.kind === 'clock' || t.kind === 'session_close')) return reading;
  const said = `as forged, ${FLAT_AT_WINDOW_END}: the words name no time to be out`;
  const note = reading.session.note ? `${reading.session.note}; ${said}` : said;
  return { ...reading, session: { ...reading.session, note } };
}
