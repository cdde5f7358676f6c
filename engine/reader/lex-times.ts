import type { Timeframe } from '../markets.js';
import { clockOf } from './clock.js';
import type { LexemeBody } from './lexemes.js';
import { readNumber } from './numbers.js';
import { phraseAt } from './phrases.js';
import { isLength, norm, one, pastHyphen, wordIn, type Out, type Read, type Recognizer } from './recognizer.js';
import type { Session } from './schema.js';
import type { Token } from './tokens.js';
import { CHART_LEADS, CHART_WORDS, DURATION_UNITS, TIME_UNITS } from './vocabulary.js';

/** Recognizers of time: clock times, counted sessions ("first 30 minutes"), timeframes and durations. */

/** "9:45", "9:45am", "3 pm", "noon", "midnight"; a "Z" written on to a time makes it UTC ("14:00Z"). */
export const time: Recognizer = (tokens, i) => {
  const t = tokens[i]!;
  let minutes: number;
  let j = i + 1;
  const meridiem = (): 'am' | 'pm' | null => {
    const w = norm(tokens, j);
    if (w === 'am' || w === 'pm') {
      j += 1;
      return w;
    }
    return null;
  };
  if (t.kind === 'time') {
    minutes = t.value;
    const m = meridiem();
    const h = Math.floor(minutes / 60);
    if (m !== null && (h < 1 || h > 12)) return null;
    if (m === 'pm' && h < 12) minutes += 12 * 60;
    if (m === 'am' && h === 12) minutes -= 12 * 60;
  } else if (t.kind === 'num' && Number.isInteger(t.value) && t.value >= 1 && t.value <= 12) {
    const m = meridiem();
    if (m === null) return null;
    minutes = (t.value % 12) * 60 + (m === 'pm' ? 12 * 60 : 0);
  } else if (wordIn(tokens, i, ['noon'])) minutes = 12 * 60;
  else if (wordIn(tokens, i, ['midnight'])) minutes = 0;
  else return null;
  const out: Out[] = [{ body: { k: 'time', clock: clockOf(minutes) }, t0: i, t1: j }];
  if (wordIn(tokens, j, ['z']) && !tokens[j]!.spaced) {
    out.push({ body: { k: 'zone', zone: 'UTC' }, t0: j, t1: j + 1 });
    j += 1;
  }
  return { end: j, out };
};

const SESSION_OF = 'of? the? cash|regular|rth|us|ny? session|open|day|market';

/** "the first 30 minutes", "first 2 hours", "last 15 minutes": counted from the cash open or back from its close. */
export const firstOrLast: Recognizer = (tokens, i) => {
  if (!wordIn(tokens, i, ['first', 'opening', 'last', 'final'])) return null;
  const n = readNumber(tokens, i + 1);
  if (!isLength(n)) return null;
  const unit = norm(tokens, pastHyphen(tokens, n.end));
  const per = unit === 'hour' || unit === 'hours' ? 60 : unit === 'minute' || unit === 'minutes' || unit === 'min' || unit === 'mins' ? 1 : 0;
  if (per === 0 || n.value * per > 390) return null;
  let end = pastHyphen(tokens, n.end) + 1;
  end = phraseAt(tokens, end, SESSION_OF) ?? end;
  const open = 9 * 60 + 30;
  const close = 16 * 60;
  const first = wordIn(tokens, i, ['first', 'opening']);
  const [from, to] = first ? [open, open + n.value * per] : [close - n.value * per, close];
  const session: Session = { kind: 'windows', zone: 'America/New_York', windows: [{ from: clockOf(from), to: clockOf(to) }] };
  return one({ k: 'named', session, name: first ? 'the first minutes' : 'the last minutes' }, i, end);
};

const TF: ReadonlyMap<number, Timeframe> = new Map([
  [15, '15s'],
  [60, '1m'],
  [300, '5m'],
  [3600, '1h'],
]);
/** Chart periods said as words, in seconds; none is served, and only a chart word or lead word makes them one. */
const PERIODS: ReadonlyMap<string, number> = new Map([
  ['daily', 86_400],
  ['weekly', 604_800],
  ['monthly', 2_592_000],
]);

/** Units that, said alone before a chart word, are one of themselves: "minute chart", "hour bars". */
const BARE_UNITS = ['minute', 'min', 'hour', 'hr'];

function chartWordAt(tokens: readonly Token[], i: number): number | null {
  for (const w of CHART_WORDS) {
    const end = phraseAt(tokens, i, w);
    if (end !== null) return end;
  }
  return null;
}

/**
 * A timeframe: "5m", "M5", "15s", "1h", "hourly", "5-minute", "five minute chart", "1 min bars", "on the 5 min",
 * "ES 5 min", "the minute chart", "hour candles". A number and unit with a space between is a timeframe only with a
 * chart word after it, a lead word before it (on, using, timeframe) or a market named just before it; otherwise it
 * is a duration. A minute or hour without a number is one of it, with a chart word after it.
 */
export const timeframe: Recognizer = (tokens, i, before) => {
  const emit = (seconds: number, end: number): Read => {
    const tf = TF.get(seconds);
    const chart = chartWordAt(tokens, end);
    const to = chart ?? end;
    const body: LexemeBody = tf ? { k: 'tf', tf } : { k: 'tf_unserved' };
    return one(body, i, to);
  };
  // "M5", "H1"
  if (wordIn(tokens, i, ['m', 'h'])) {
    const t = tokens[i + 1];
    if (t && t.kind === 'num' && !t.spaced && Number.isInteger(t.value) && t.value > 0) return emit(TIME_UNITS.get(tokens[i]!.norm)! * t.value, i + 2);
    return null;
  }
  if (wordIn(tokens, i, ['hourly'])) return emit(3600, i + 1);
  if (wordIn(tokens, i, BARE_UNITS) && tokens[i - 1]?.kind !== 'num' && chartWordAt(tokens, i + 1) !== null) return emit(TIME_UNITS.get(tokens[i]!.norm)!, i + 1);
  const lead = (): boolean => {
    let k = i - 1;
    while (wordIn(tokens, k, ['the', 'a'])) k -= 1;
    if (wordIn(tokens, k, CHART_LEADS)) return true;
    // a market just before, past a dash, colon or comma: "NQ 5 min", "NQ — 1 min"
    while (tokens[k]?.kind === 'punct' && ['-', '–', '—', ':', ','].includes(tokens[k]!.norm)) k -= 1;
    return before.some((o) => o.t1 === k + 1 && o.body.k === 'market');
  };
  const period = PERIODS.get(norm(tokens, i) ?? '');
  if (period !== undefined) return chartWordAt(tokens, i + 1) !== null || lead() ? emit(period, i + 1) : null;
  const n = readNumber(tokens, i);
  if (!n || !Number.isInteger(n.value) || n.value <= 0) return null;
  const hyphen = norm(tokens, n.end) === '-';
  const u = hyphen ? n.end + 1 : n.end;
  const unit = tokens[u];
  const seconds = unit && unit.kind === 'word' ? TIME_UNITS.get(unit.norm) : undefined;
  if (unit === undefined || seconds === undefined) return null;
  const compact = n.digits && !unit.spaced && !hyphen;
  if (!(compact || hyphen || chartWordAt(tokens, u + 1) !== null || lead())) return null;
  return emit(seconds * n.value, u + 1);
};

/** "12 bars", "30 minutes", "24 hours": how long, for a time exit. */
export const duration: Recognizer = (tokens, i) => {
  const n = readNumber(tokens, i);
  if (!n || !Number.isInteger(n.value) || n.value <= 0) return null;
  const j = pastHyphen(tokens, n.end);
  const unit = DURATION_UNITS.get(norm(tokens, j) ?? '');
  return unit ? one({ k: 'duration', n: n.value, unit }, i, j + 1) : null;
};
