import { MARKET_SPECS, type Market } from '../markets.js';
import { is, type Lexeme, type ZoneWord } from './lexemes.js';
import type { Part, Zone } from './schema.js';

/**
 * The clock a time is on. "Exchange time" is New York time for NQ, ES and YM (the clock the deck states their
 * sessions in) and UTC for BTC, ETH and SOL; with no market read it could be either. A time with no clock of its
 * own takes the one clock the text names, if it names exactly one; otherwise it could be New York or UTC.
 */

export const OPEN_ZONES: readonly Zone[] = ['America/New_York', 'UTC'];

export interface ZoneOption {
  zone: Zone;
  /** Words the zone came from when they stand apart from the time. */
  also: { from: number; to: number }[];
}

function resolve(z: ZoneWord, market: Part<Market>): Zone | null {
  if (z !== 'exchange') return z;
  if (market.status !== 'read' || market.value === null) return null;
  return MARKET_SPECS[market.value].kind === 'cme' ? 'America/New_York' : 'UTC';
}

const open = (): ZoneOption[] => OPEN_ZONES.map((zone) => ({ zone, also: [] }));

/** The clocks a time could be on, given the zone said with it (or none). */
export function zoneOptions(said: Lexeme | undefined, lx: readonly Lexeme[], market: Part<Market>): ZoneOption[] {
  if (is('zone')(said)) {
    const z = resolve(said.zone, market);
    return z ? [{ zone: z, also: [] }] : open();
  }
  const named = lx.filter(is('zone')).map((l) => ({ l, zone: resolve(l.zone, market) }));
  const zones = new Set(named.map((n) => n.zone));
  if (zones.size !== 1 || named[0]!.zone === null) return open();
  return [{ zone: named[0]!.zone, also: named.map((n) => ({ from: n.l.from, to: n.l.to })) }];
}
