import type { Market } from '../markets.js';
import { clockOf, minutesOf } from './clock.js';
import { is, type Lexeme } from './lexemes.js';
import { decide, mergeSpans, missing, phrase, type Candidate } from './parts.js';
import type { Part, Session, Window, Zone } from './schema.js';
import { zoneOptions, type ZoneOption } from './zones.js';

/**
 * When the rule may act. Pieces: a window ("between 9:45 and 11:30 ET", "13:00-17:00 UTC", "from 10am to noon"),
 * half a window ("after 10:00 ET", "no new trades after 15:00"), a named session ("the cash session", "first
 * hour", "London session"), or any time ("24/7"). Overlapping windows narrow each other (the cash session and
 * 9:45-11:30 is 9:45-11:30); windows apart are each allowed; halves cut the windows they meet. Pieces that do
 * not fit together (two clocks, any time and a window) leave the part ambiguous, one reading per piece.
 * Times in a way-out clause are the exit's, not the session's, but for a whole window ("between 9:45 and 11:30 ET").
 */

const DAY = 24 * 60;

type Span = { from: number; to: number };
type Shape = { kind: 'always' } | { kind: 'window'; from: number; to: number } | { kind: 'from'; at: number } | { kind: 'until'; at: number };
interface Piece {
  shape: Shape;
  /** The clocks it could be on; a named session carries its own. */
  zones: ZoneOption[];
  at: Span[];
}

const RANGE_WORDS = ['to', 'till', 'until', 'through', 'thru'];
const FROM_WORDS = ['after', 'from', 'since'];
const UNTIL_WORDS = ['before', 'until', 'till', 'by'];
/** Words passed over between "after"/"before" and the time: "after about 10:00". */
const FILLER = ['about', 'around', 'roughly', 'the'];

/** A time, or a whole hour written bare ("between 10 and 11 ET"): minutes since midnight. */
function timeOf(l: Lexeme | undefined, bareHour: boolean): number | null {
  if (is('time')(l)) return minutesOf(l.clock);
  if (bareHour && is('num')(l) && Number.isInteger(l.value) && l.value >= 0 && l.value <= 24) return l.value * 60;
  return null;
}

const isWord = (l: Lexeme | undefined, words: readonly string[]): boolean => l !== undefined && l.k === 'word' && words.includes(l.norm);

function pieces(lx: readonly Lexeme[], market: Part<Market>, taken: Set<Lexeme>): { pieces: Piece[]; unknown: Lexeme[] } {
  const out: Piece[] = [];
  const unknown: Lexeme[] = [];
  const zonesFor = (z: Lexeme | undefined): ZoneOption[] => zoneOptions(z, lx, market);
  let negated: Lexeme | null = null;
  for (let i = 0; i < lx.length; i++) {
    const l = lx[i]!;
    if (l.k === 'sep') negated = null;
    if (l.k === 'not') negated = l;
    if (l.k === 'named') {
      if (l.session === null) unknown.push(l);
      else
        out.push({
          shape: l.session.kind === 'always' ? { kind: 'always' } : { kind: 'window', from: minutesOf(l.session.windows[0]!.from), to: minutesOf(l.session.windows[0]!.to) },
          zones: l.session.kind === 'always' ? [{ zone: 'UTC', also: [] }] : [{ zone: l.session.zone, also: [] }],
          at: phrase([l]),
        });
      continue;
    }
    if (taken.has(l) || (l.k !== 'time' && l.k !== 'num')) continue;
    // A window: T1 [zone] (to|-|and after between) T2 [zone]; a bare hour only with a clock named after it. A window
    // said after a way out ("exit after 12 bars, between 09:45 and 11:30 ET") is still the session's.
    const inExit = l.ctx === 'exit';
    let j = i + 1;
    const z1 = is('zone')(lx[j]) ? lx[j++] : undefined;
    const link = lx[j];
    const lead = is('word')(lx[i - 1]) && ['between', 'from'].includes((lx[i - 1] as Extract<Lexeme, { k: 'word' }>).norm) ? lx[i - 1] : undefined;
    const linked = link !== undefined && (link.k === 'dash' || isWord(link, RANGE_WORDS) || (is('conj')(link) && link.conj === 'and' && isWord(lead, ['between'])));
    if (linked) {
      const z2 = is('zone')(lx[j + 2]) ? lx[j + 2] : undefined;
      const from = timeOf(l, z2 !== undefined);
      const to = timeOf(lx[j + 1], z2 !== undefined || l.k === 'time');
      if (from !== null && to !== null && from !== to) {
        const used = [lead, l, z1, link, lx[j + 1], z2].filter((x): x is Lexeme => x !== undefined);
        used.forEach((u) => taken.add(u));
        out.push({ shape: { kind: 'window', from, to }, zones: zonesFor(z2 ?? z1), at: phrase(used) });
        i = j + (z2 ? 2 : 1);
        continue;
      }
    }
    // Half a window: after T, before T (turned around after "no new trades"; "stop trading at T" ends it).
    if (inExit || l.k !== 'time' || l.ctx !== 'entry') continue;
    let w = i - 1;
    while (isWord(lx[w], FILLER)) w -= 1;
    const word = lx[w];
    const after = isWord(word, FROM_WORDS);
    const before = isWord(word, UNTIL_WORDS) || (negated !== null && isWord(word, ['at']));
    if (!after && !before) continue;
    const at = minutesOf(l.clock);
    const starts = !isWord(word, ['at']) && after !== (negated !== null);
    const shape: Shape = starts ? { kind: 'from', at } : { kind: 'until', at };
    const used = [...(negated ? [negated] : []), word!, l, ...(z1 ? [z1] : [])];
    used.forEach((u) => taken.add(u));
    out.push({ shape, zones: zonesFor(z1), at: phrase(used) });
  }
  return { pieces: out, unknown };
}

/** Pieces on one clock to one session, or null when they do not fit together. */
function combine(ps: readonly Piece[], zone: Zone): Session | null {
  if (ps.every((p) => p.shape.kind === 'always')) return { kind: 'always' };
  if (ps.some((p) => p.shape.kind === 'always')) return null;
  const bounded = ps.flatMap((p) => (p.shape.kind === 'window' ? [{ from: p.shape.from, to: p.shape.to }] : []));
  const lo = Math.max(0, ...ps.flatMap((p) => (p.shape.kind === 'from' ? [p.shape.at] : [])));
  const hi = Math.min(DAY, ...ps.flatMap((p) => (p.shape.kind === 'until' ? [p.shape.at] : [])));
  const halves = ps.length - bounded.length;
  if (bounded.some((w) => w.from > w.to)) return bounded.length === 1 && halves === 0 ? win(zone, bounded) : null;
  const merged: { from: number; to: number }[] = [];
  for (const w of [...bounded].sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && w.from < last.to) {
      last.from = Math.max(last.from, w.from);
      last.to = Math.min(last.to, w.to);
    } else merged.push({ ...w });
  }
  const cut = (merged.length > 0 ? merged : [{ from: lo, to: hi }])
    .map((w) => ({ from: Math.max(w.from, lo), to: Math.min(w.to, hi) }))
    .filter((w) => w.from < w.to);
  return cut.length > 0 ? win(zone, cut) : null;
}

const win = (zone: Zone, ws: readonly { from: number; to: number }[]): Session => ({
  kind: 'windows',
  zone,
  windows: ws.map((w): Window => ({ from: clockOf(w.from), to: clockOf(w.to) })),
});

export function readSession(lx: readonly Lexeme[], text: string, market: Part<Market>, taken: Set<Lexeme>): Part<Session> {
  const { pieces: ps, unknown } = pieces(lx, market, taken);
  if (ps.length === 0) {
    if (unknown.length === 0) return missing();
    const names = [...new Set(unknown.map((l) => (l as Extract<Lexeme, { k: 'named' }>).name))].join(', ');
    return missing(`names ${names}, whose hours the reader does not know`, mergeSpans(text, unknown));
  }
  // Pieces whose clock is open share one choice of it; each choice is a reading.
  const choices = ps.some((p) => p.zones.length > 1) ? ps.find((p) => p.zones.length > 1)!.zones.map((z) => z.zone) : [null];
  const candidates: Candidate<Session>[] = [];
  for (const choice of choices) {
    const placed = ps.map((p) => {
      const option = p.zones.find((z) => z.zone === choice) ?? p.zones[0]!;
      return { piece: p, zone: option.zone, at: [...p.at, ...option.also] };
    });
    const zones = [...new Set(placed.filter((p) => p.piece.shape.kind !== 'always').map((p) => p.zone))];
    const together = zones.length <= 1 ? combine(ps, zones[0] ?? 'UTC') : null;
    if (together) candidates.push({ value: together, at: placed.flatMap((p) => p.at) });
    else for (const p of placed) {
      const alone = combine([p.piece], p.zone);
      if (alone) candidates.push({ value: alone, at: p.at });
    }
  }
  return decide(text, candidates);
}
