import { MARKET_SPECS, type Market } from '../markets.js';
import { PARTS, type Default, type DefaultRule, type Part, type RuleReading, type Session } from './schema.js';
import { CASH } from './vocabulary.js';

/**
 * The documented defaults: what the deck takes when the words leave something unstated that has one accepted
 * answer. A part completed by a default is `defaulted`, not `read`: it names each default (where in the value,
 * which rule) and says so in its note, so nothing filled in passes for the trader's words.
 * - session_crypto: BTC, ETH and SOL trade around the clock; a rule that states no session may act at any time.
 * - session_futures: NQ, ES and YM take the cash session, 09:30–16:00 New York (the trial's own default).
 * - atr_length: an ATR whose length is not stated is the 14-bar ATR, the length Wilder gave it.
 * - swing_strength: a swing high or low whose bars on each side are not stated has two on each side (Williams's
 *   fractal: a bar whose high no two bars before it and no two after it top).
 * - bollinger_length, bollinger_width: Bollinger bands whose length or width is not stated are of 20 closes and
 *   2 standard deviations, the settings John Bollinger gave them.
 * No other length is defaulted: an EMA, SMA or RSI without its length, or an opening range without its minutes,
 * stays unstated.
 */

export const ATR_LENGTH = 14;
export const SWING_STRENGTH = 2;
export const BOLLINGER_LENGTH = 20;
export const BOLLINGER_WIDTH = 2;

export const DEFAULT_WORDS: Readonly<Record<DefaultRule, string>> = {
  session_crypto: 'BTC, ETH and SOL trade around the clock, so the rule may act at any time',
  session_futures: 'NQ, ES and YM act in the cash session, 09:30–16:00 New York',
  atr_length: `an ATR of unstated length is the ${ATR_LENGTH}-bar ATR`,
  swing_strength: `a swing high or low is a bar's high or low that no ${SWING_STRENGTH} bars on either side of it top or undercut (Williams's fractal)`,
  bollinger_length: `Bollinger bands of unstated length are of ${BOLLINGER_LENGTH} closes`,
  bollinger_width: `Bollinger bands of unstated width are ${BOLLINGER_WIDTH} standard deviations from their middle`,
};

type LengthRule = Exclude<DefaultRule, 'session_crypto' | 'session_futures'>;

/** Each length a documented default fills: where it stands in a value, what the words left unstated, and its value. */
const LENGTHS: readonly { rule: LengthRule; at: (o: Record<string, unknown>, key: string) => boolean; unstated: string; what: string; value: number }[] = [
  { rule: 'atr_length', at: (o, k) => (o.kind === 'atr' && k === 'n') || (o.unit === 'atr' && k === 'period'), unstated: 'no ATR length', what: "an ATR's length", value: ATR_LENGTH },
  { rule: 'swing_strength', at: (o, k) => o.kind === 'swing' && k === 'strength', unstated: 'no bars on either side of the swing', what: "a swing's bars on each side", value: SWING_STRENGTH },
  { rule: 'bollinger_length', at: (o, k) => o.kind === 'bollinger' && k === 'n', unstated: 'no length of the Bollinger bands', what: "the Bollinger bands' length", value: BOLLINGER_LENGTH },
  { rule: 'bollinger_width', at: (o, k) => o.kind === 'bollinger' && k === 'k', unstated: 'no width of the Bollinger bands', what: "the Bollinger bands' width", value: BOLLINGER_WIDTH },
];

/** The session a market takes when the words state none, and the rule that gives it. */
export function defaultSession(market: Market): { session: Session; rule: DefaultRule } {
  return MARKET_SPECS[market].kind === 'cme' ? { session: CASH, rule: 'session_futures' } : { session: { kind: 'always' }, rule: 'session_crypto' };
}

/** Every length a documented default fills, unstated inside a value, filled in; the defaults it took. */
function fillLengths(v: unknown, path: string, filled: Default[]): unknown {
  if (Array.isArray(v)) return v.map((x, i) => fillLengths(x, `${path}[${i}]`, filled));
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    const length = x === null ? LENGTHS.find((l) => l.at(o, k)) : undefined;
    if (length) filled.push({ path: `${path}.${k}`, rule: length.rule });
    out[k] = length ? length.value : fillLengths(x, `${path}.${k}`, filled);
  }
  return out;
}

const noted = (note: string | undefined, more: string): string => (note === undefined ? more : `${note}; ${more}`);

function defaulted<V>(part: Part<V>, value: V, defaults: Default[], note: string, spans = part.spans): Part<V> {
  return { ...part, status: 'defaulted', value, spans, defaults: [...(part.defaults ?? []), ...defaults], note: noted(part.note, note) };
}

/**
 * The reading with the documented defaults applied: a session the words do not state at all (nothing cited) takes
 * the market's default when the market is read, citing the market's words; an ATR without its length, a swing
 * without its bars on each side and Bollinger bands without their length or width, in any part with a value, take
 * theirs (LENGTHS). Pure and idempotent; any lane's reading goes through it.
 */
export function withDefaults(reading: RuleReading): RuleReading {
  const out = { ...reading } as Record<keyof RuleReading, Part<unknown>>;
  const market = reading.market;
  if (reading.session.status === 'missing' && reading.session.spans.length === 0 && market.status === 'read' && market.value !== null) {
    const { session, rule } = defaultSession(market.value);
    out.session = defaulted(reading.session as Part<unknown>, session, [{ path: '', rule }], `the words state no session, so the default stands: ${DEFAULT_WORDS[rule]}`, market.spans);
  }
  for (const p of PARTS) {
    const part = out[p];
    if (part.value === null) continue;
    const filled: Default[] = [];
    const value = fillLengths(part.value, '', filled);
    if (filled.length === 0) continue;
    const rules = LENGTHS.filter((l) => filled.some((d) => d.rule === l.rule));
    const note = rules.map((l) => `the words state ${l.unstated}, so the default stands: ${DEFAULT_WORDS[l.rule]}`).join('; ');
    out[p] = defaulted(part, value, filled, note);
  }
  return out as RuleReading;
}

/** The value a path names inside a value, and the object holding it (undefined when the path leads nowhere). */
function at(value: unknown, path: string): { holder: Record<string, unknown> | null; key: string; found: unknown } | undefined {
  const steps = [...path.matchAll(/\.([a-z_]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  let holder: Record<string, unknown> | null = null;
  let cur: unknown = value;
  let key = '';
  for (const step of steps) {
    if (cur === null || typeof cur !== 'object') return undefined;
    holder = cur as Record<string, unknown>;
    key = String(step);
    cur = (cur as Record<string, unknown>)[step as never];
  }
  return cur === undefined ? undefined : { holder, key, found: cur };
}

/**
 * Whether each default a reading claims is what its rule gives (for a lane's reading, which might otherwise pass
 * a number of its own off as a default): the path holds the rule's value, at the place the rule fills.
 */
export function defaultProblems(reading: RuleReading): string[] {
  const problems: string[] = [];
  for (const p of PARTS) {
    const part = reading[p] as Part<unknown>;
    (part.defaults ?? []).forEach((d, i) => {
      const where = `${p}.defaults.${i}`;
      const got = at(part.value, d.path);
      const length = LENGTHS.find((l) => l.rule === d.rule);
      if (length) {
        const h = got?.holder;
        const placed = h !== null && h !== undefined && length.at(h, got!.key);
        if (!placed || got!.found !== length.value) problems.push(`${where}: ${d.rule} puts ${length.value} as ${length.what}, not at ${d.path || 'the whole value'}`);
        return;
      }
      const market = reading.market.status === 'read' ? reading.market.value : null;
      const expected = market === null ? null : defaultSession(market);
      if (p !== 'session' || d.path !== '' || expected === null || expected.rule !== d.rule || JSON.stringify(part.value) !== JSON.stringify(expected.session)) {
        problems.push(`${where}: ${d.rule} is the whole session of a ${d.rule === 'session_crypto' ? 'crypto' : 'futures'} market the reading reads`);
      }
    });
  }
  return problems;
}
