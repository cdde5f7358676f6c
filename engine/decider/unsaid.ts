import { MARKET_SPECS, TIMEFRAME_SECONDS } from '../markets.js';
import type { Part, RuleReading, Session } from '../reader/schema.js';
import type { ClockIR } from './ir.js';
import { clockClosesEntries, clockClosingWords, outlivingEntry, outlivingWords } from './outlive.js';
import { FLAT_AT_WINDOW_END } from './plain.js';

/**
 * A reading with what the forge will make of it that its words leave unsaid, noted on the session part, so the
 * trader reads it before forging: a session window with no clock or close exit in the words closes a trade still
 * open at the window's end (the IR's flat_at_session_end); a clock exit closes a window's entries once its time has
 * come round in it (the gate's until); and entries that can still outlive their clock exit (any time, or a clock
 * before the window opens) are said so. Only notes: the values are the reader's.
 */

const minuteOf = (at: string): number => Number(at.slice(0, 2)) * 60 + Number(at.slice(3, 5));

function notes(reading: RuleReading, session: Session): string[] {
  const time = reading.exit.value?.time ?? [];
  const clocks: ClockIR[] = time.flatMap((t) => (t.kind === 'clock' ? [{ zone: t.zone, minute: minuteOf(t.at) }] : []));
  const out: string[] = [];
  if (session.kind === 'windows' && !time.some((t) => t.kind === 'clock' || t.kind === 'session_close')) {
    out.push(`as forged, ${FLAT_AT_WINDOW_END}: the words name no time to be out`);
  }
  if (clocks.length === 0) return out;
  const market = reading.market.status === 'read' ? reading.market.value : null;
  const tf = reading.timeframe.status === 'read' ? reading.timeframe.value : null;
  if (market === null || tf === null) return out;
  const gate =
    session.kind === 'windows' ? { zone: session.zone, windows: session.windows.map((w) => ({ from: minuteOf(w.from), to: minuteOf(w.to) })), until: clocks } : session;
  if ('windows' in gate && clockClosesEntries(gate, TIMEFRAME_SECONDS[tf])) out.push(`as forged, ${clockClosingWords(clocks)}`);
  const outliving = outlivingEntry(gate, clocks, MARKET_SPECS[market].kind === 'cme' ? 'cme' : 'utc', TIMEFRAME_SECONDS[tf]);
  if (outliving) out.push(`as forged, ${outlivingWords(outliving)}: give a window that ends at the exit time to trade only before it`);
  return out;
}

export function noteUnsaid(reading: RuleReading): RuleReading {
  const session = reading.session.value;
  if (session === null) return reading;
  const said = notes(reading, session);
  if (said.length === 0) return reading;
  const note = [...(reading.session.note ? [reading.session.note] : []), ...said].join('; ');
  return { ...reading, session: { ...reading.session, note } as Part<Session> };
}
