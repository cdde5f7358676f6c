import type { Market } from '../markets.js';
import { clauses } from './clauses.js';
import { hasMa, readConditions, resolve, tree, type CondLex } from './conditions.js';
import { level, stopDistance, targetDistance, unitless } from './distances.js';
import { is, type Lexeme } from './lexemes.js';
import { decide, mergeSpans, missing, phrase, type Candidate } from './parts.js';
import type { Condition, Exit, Part, Target, TimeExit, Trail, Zone } from './schema.js';
import { unstatedNote } from './unstated.js';
import { zoneOptions, type ZoneOption } from './zones.js';

/**
 * The ways out, whichever comes first: a target ("target 2R", "take profit at 20 points", "target VWAP", a lone
 * "1:2 risk reward"), a trailing stop ("trail by 2 ATR", "trail under the 9 EMA"), time exits ("after 12 bars",
 * "at 15:55 ET", "by the close") and exit conditions ("exit when the 5 EMA crosses below the 13 EMA"). Two
 * different targets or trails are ambiguous, as is a clock time whose clock the words do not settle.
 */

type At = { from: number; to: number }[];
interface Timed {
  pos: number;
  /** One time exit per clock it could be on (one, unless its clock is open). */
  options: { exit: TimeExit; zone: Zone | null; at: At }[];
}

const anchorOf = (clause: readonly Lexeme[]): Lexeme[] => clause.filter((l) => l.k === 'anchor');

function targetsOf(clause: readonly Lexeme[], used: ReadonlySet<Lexeme>): Candidate<Target>[] {
  const anchor = anchorOf(clause);
  return clause.flatMap((l): Candidate<Target>[] => {
    if (used.has(l)) return [];
    const at = phrase([...anchor, l]);
    if (is('distance')(l)) return [{ value: { kind: 'distance', distance: targetDistance(l) }, at }];
    if (is('operand')(l)) {
      const lvl = level(l.operand);
      return lvl ? [{ value: { kind: 'level', level: lvl }, at }] : [];
    }
    if (is('num')(l) && anchor.some((a) => is('anchor')(a) && a.anchor === 'target')) {
      return unitless(l.value).map((distance) => ({ value: { kind: 'distance', distance }, at }));
    }
    return [];
  });
}

/** The trailing stop alone, as the stop part reads it when the rule has no stop of its own. */
export const readTrail = (lx: readonly Lexeme[], text: string): Part<Trail> => decide(text, clauses(lx, 'trail').flatMap(trailsOf));

function trailsOf(clause: readonly Lexeme[]): Candidate<Trail>[] {
  const anchor = anchorOf(clause);
  return clause.flatMap((l): Candidate<Trail>[] => {
    const at = phrase([...anchor, l]);
    const distance = is('distance')(l) ? stopDistance(l) : null;
    if (distance) return [{ value: { kind: 'distance', distance }, at }];
    const lvl = is('operand')(l) ? level(l.operand) : null;
    return lvl ? [{ value: { kind: 'level', level: lvl }, at }] : [];
  });
}

const distinct = <V>(cs: readonly Candidate<V>[]): Candidate<V>[] => {
  const seen = new Map<string, Candidate<V>>();
  for (const c of cs) {
    const key = JSON.stringify(c.value);
    const had = seen.get(key);
    if (had) had.at.push(...c.at);
    else seen.set(key, { value: c.value, at: [...c.at] });
  }
  return [...seen.values()];
};

export function readExit(lx: readonly Lexeme[], text: string, market: Part<Market>, taken: ReadonlySet<Lexeme>): Part<Exit> {
  const index = new Map(lx.map((l, i) => [l, i]));
  const targets: Candidate<Target>[] = [];
  const trails = clauses(lx, 'trail').flatMap(trailsOf);
  const timed: Timed[] = [];
  const whens: { when: CondLex; at: At }[] = [];

  // "exit when ...", "take profit when ...": conditions first, then what is left is a target
  for (const clause of [...clauses(lx, 'target'), ...clauses(lx, 'exit')]) {
    const anchor = anchorOf(clause);
    const atoms = readConditions(clause, taken);
    const used = new Set(atoms.flatMap((a) => a.lex));
    if (atoms.length > 0) whens.push({ when: tree(atoms), at: phrase([...anchor, ...atoms.flatMap((a) => a.lex)]) });
    targets.push(...targetsOf(clause, used));
    if (clause[0]!.ctx !== 'exit') continue;
    clause.forEach((l, k) => {
      if (!is('time')(l) || taken.has(l)) return;
      const zone = is('zone')(clause[k + 1]) ? clause[k + 1] : undefined;
      const options = zoneOptions(zone, lx, market).map((z: ZoneOption) => ({
        exit: { kind: 'clock', at: l.clock, zone: z.zone } as TimeExit,
        zone: z.zone,
        at: [...phrase([...anchor, l, ...(zone ? [zone] : [])]), ...z.also],
      }));
      timed.push({ pos: index.get(l)!, options });
    });
  }
  /** The anchor of the clause a lexeme stands in, cited with it. */
  const anchorFor = (l: Lexeme): Lexeme[] => lx.filter((a) => a.k === 'anchor' && a.seg === l.seg);
  for (const l of lx) {
    if (l.k === 'close_exit') timed.push({ pos: index.get(l)!, options: [{ exit: { kind: 'session_close' }, zone: null, at: phrase([...anchorFor(l), l]) }] });
    if (is('duration')(l) && (l.ctx === 'exit' || l.ctx === 'target')) {
      timed.push({ pos: index.get(l)!, options: [{ exit: { kind: l.unit, n: l.n }, zone: null, at: phrase([...anchorFor(l), l]) }] });
    }
    // A multiple of the risk said on its own ("1:2 risk reward") can only be a target.
    if (is('distance')(l) && l.unit === 'r' && l.ctx === 'entry') targets.push({ value: { kind: 'distance', distance: targetDistance(l) }, at: phrase([l]) });
  }
  timed.sort((a, b) => a.pos - b.pos);

  const open = timed.find((t) => t.options.length > 1);
  const zones: (Zone | null)[] = open ? open.options.map((o) => o.zone) : [null];
  const whenLex: CondLex | null = whens.length === 0 ? null : whens.length === 1 ? whens[0]!.when : { op: 'or', args: whens.map((w) => w.when) };
  // "MA" without simple or exponential: one reading for each
  const whenOptions: (Condition | undefined)[] =
    whenLex === null ? [undefined] : hasMa(whenLex) ? [resolve(whenLex, 'sma'), resolve(whenLex, 'ema')] : [resolve(whenLex, 'sma') /* no MA to choose for */];
  const whenAt = whens.flatMap((w) => w.at);

  const candidates: Candidate<Exit>[] = [];
  const targetOptions = distinct(targets);
  const trailOptions = distinct(trails);
  for (const target of targetOptions.length > 0 ? targetOptions : [undefined]) {
    for (const trail of trailOptions.length > 0 ? trailOptions : [undefined]) {
      for (const [zone, when] of zones.flatMap((z) => whenOptions.map((w) => [z, w] as const))) {
        const times = timed.map((t) => t.options.find((o) => o.zone === zone) ?? t.options[0]!);
        const exit: Exit = {
          ...(target ? { target: target.value } : {}),
          ...(trail ? { trail: trail.value } : {}),
          ...(times.length > 0 ? { time: times.map((t) => t.exit) } : {}),
          ...(when ? { when } : {}),
        };
        if (Object.keys(exit).length === 0) continue;
        candidates.push({ value: exit, at: [...(target?.at ?? []), ...(trail?.at ?? []), ...times.flatMap((t) => t.at), ...whenAt] });
      }
    }
  }
  if (candidates.length > 0) return decide(text, candidates, unstatedNote(candidates.map((c) => c.value)));
  const said = [...clauses(lx, 'target'), ...clauses(lx, 'trail'), ...clauses(lx, 'exit')].flatMap((c) => phrase(c));
  return said.length > 0 ? missing('a way out is named, but its words are not ones the reader knows', mergeSpans(text, said)) : missing();
}
