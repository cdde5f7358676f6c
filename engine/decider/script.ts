import { z } from 'zod';
import type { Market } from '../markets.js';
import {
  EntrySchema,
  ExitSchema,
  MarketSchema,
  PARTS,
  SessionSchema,
  SideSchema,
  StopSchema,
  TimeframeSchema,
  type PartName,
  type RuleReading,
  type Session,
  type Status,
  isSettled,
} from '../reader/schema.js';
import { defaultSession } from '../reader/defaults.js';

/**
 * The script block (script.v1): a rule stated as data rather than prose. A caller may bring one to POST /forge and
 * POST /forge/trial instead of words; the forge reads words into the same shape. Every field is required and no
 * other field is allowed:
 *
 *   version    "script.v1"
 *   market     NQ, ES, YM, BTC, ETH or SOL
 *   timeframe  15s, 1m, 5m or 1h
 *   session    when the rule may act: { kind: "always" } or { kind: "windows", zone, windows: [{ from, to }] },
 *              HH:MM wall-clock times in America/New_York, America/Chicago, Europe/London, Europe/Berlin,
 *              Europe/Paris, Europe/Zurich, Asia/Tokyo, Asia/Hong_Kong, Asia/Singapore, Australia/Sydney or UTC;
 *              a window whose from is later than its to runs through midnight; a clock exit closes a window's
 *              entries once its time has come round in it
 *   side       long, short or both
 *   entry      { triggers: [{ side: long | short | null, when: condition }] }, one trigger per side; a condition
 *              is { op: and | or, args } or { op: above | below | crosses_above | crosses_below | crosses, left,
 *              right } or { op: breaks_above | breaks_below | breaks | touches, level }, over operands: price
 *              fields, ema/sma/rsi/atr with n, vwap, highest/lowest of n bars, prior_day high/low/close,
 *              opening_range high/low/range of n minutes, the trader's marks, the signal or previous bar's
 *              high/low, the most recent swing high/low (strength: bars on each side), a Bollinger band
 *              upper/middle/lower (n closes, k standard deviations), and constants
 *   stop       { kind: "distance", distance } or { kind: "level", where: at | below | above | beyond, level,
 *              offset? } (beyond: below it for a long, above it for a short), with an optional breakeven distance;
 *              distances in points, ticks, percent, atr (n and period), usd (n dollars on one contract or coin;
 *              micro: true for a micro contract, a tenth of the E-mini's) or range (n times the opening range `of`)
 *   exit       at least one of target (distance, R included, or level), trail (distance or level), time (bars,
 *              minutes, hours, clock, session_close) and when (a condition)
 *
 * The shapes of the parts are the reader's own (engine/reader/schema.ts), so a reading whose seven parts are all
 * read becomes a script one to one.
 */
export const SCRIPT_VERSION = 'script.v1';

export const ScriptSchema = z.strictObject({
  version: z.literal(SCRIPT_VERSION),
  market: MarketSchema,
  timeframe: TimeframeSchema,
  session: SessionSchema,
  side: SideSchema,
  entry: EntrySchema,
  stop: StopSchema,
  exit: ExitSchema,
});
export type Script = z.infer<typeof ScriptSchema>;

/** A part that keeps a reading from becoming a script, with the words that would read. */
export interface PartRefusal {
  part: PartName;
  status: Exclude<Status, 'read' | 'defaulted'>;
  hint?: string;
}

export type ScriptOfReading = { ok: true; script: Script } | { ok: false; refused: PartRefusal[]; message: string };

/**
 * The script a reading states (its parts read, or completed by a documented default), or every part that is
 * missing or ambiguous, in the order of the seven parts.
 */
export function scriptOfReading(reading: RuleReading): ScriptOfReading {
  const refused: PartRefusal[] = [];
  for (const part of PARTS) {
    const { status, hint } = reading[part];
    if (!isSettled(status)) refused.push({ part, status: status as PartRefusal['status'], ...(hint !== undefined ? { hint } : {}) });
  }
  if (refused.length > 0) {
    const message = `a script needs all seven parts read: ${refused.map((r) => `${r.part} is ${r.status}`).join(', ')}`;
    return { ok: false, refused, message };
  }
  const value = <K extends PartName>(part: K) => reading[part].value as NonNullable<RuleReading[K]['value']>;
  return {
    ok: true,
    script: {
      version: SCRIPT_VERSION,
      market: value('market'),
      timeframe: value('timeframe'),
      session: value('session'),
      side: value('side'),
      entry: value('entry'),
      stop: value('stop'),
      exit: value('exit'),
    },
  };
}

/**
 * The session a trial runs when its caller names none: the market's documented default, as the reader's (the cash
 * session, 09:30–16:00 New York, for NQ, ES and YM; around the clock for the crypto markets).
 */
export const trialSession = (market: Market, given?: Session): Session => given ?? defaultSession(market).session;
