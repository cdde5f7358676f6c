import { describe, expect, it } from 'vitest';
import { MARKETS, TIMEFRAMES } from '../engine/markets.js';
import { readRule } from '../engine/reader/read.js';
import { DEFAULT_RULES, PARTS, RuleReadingSchema, STATUSES, type Default, type Part, type PartName, type RuleReading, type Span, type Zone } from '../engine/reader/schema.js';
import { CORPUS, rulesIn, shown } from './support/reader-score.js';

/**
 * The reader against the corpus of trader rules in test/fixtures/rules: every part's status and value as written
 * by hand from the words, and every span honest: its text is the trader's text at its offsets, and it holds the
 * words the value came from (numbers, indicator and unit names, markets, sides, times), but for what a documented
 * default supplied. The word lists below are this test's own, kept apart from the reader's vocabulary so that a
 * span cannot pass by sharing its mistake. The held-out rules beside the corpus are not held here: they are scored
 * (test/reader-held-out.test.ts).
 */

const rules = rulesIn(CORPUS).map((rule) => ({ where: rule.where, rule }));

// ---- evidence: what a span must hold for the value it cites ---------------------------------------------------

const WORDS: Readonly<Record<number, string>> = {
  1: 'one', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine', 10: 'ten',
  12: 'twelve', 14: 'fourteen', 15: 'fifteen', 16: 'sixteen', 20: 'twenty', 21: 'twenty-one', 30: 'thirty', 50: 'fifty',
};

/** A word or phrase not inside a longer word; a number may stand right before it ("2R", "0.5%", "14:00Z"). */
const hasWord = (hay: string, w: string): boolean =>
  new RegExp(`(?<![a-z])${w.replace(/[.*+?^${}()|[\]\\&/]/g, '\\$&')}(?![a-z])`, 'i').test(hay);
const hasAny = (hay: string, ws: readonly string[]): boolean => ws.some((w) => hasWord(hay, w));

/** A number as digits ("0.5", "21") or as the words for it ("twenty-one", "half", "a tick"). */
function hasNumber(hay: string, n: number): boolean {
  if (new RegExp(`(?<![\\d.])${String(n).replace('.', '\\.')}(?![\\d])`).test(hay)) return true;
  if (n === 0.5 && hasWord(hay, 'half')) return true;
  if (n === 1 && hasAny(hay, ['a', 'an'])) return true;
  if (n === 60 && hasAny(hay, ['hour', 'hourly'])) return true;
  if (n === 2 && hasAny(hay, ['twice', 'double'])) return true;
  // a multiple said as a percentage: 150% of the range is 1.5 of it
  if (new RegExp(`(?<![\\d.])${String(n * 100)}\\s*(%|percent)`).test(hay)) return true;
  const w = WORDS[n];
  return w !== undefined && (hasWord(hay, w) || hasWord(hay, w.replace('-', ' ')));
}

/** "09:45" as the trader may write it: 9:45, 09:45, 10am, 12pm, noon. */
function hasClock(hay: string, clock: string): boolean {
  const [h, m] = clock.split(':').map(Number) as [number, number];
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const forms = [`${h}:${clock.slice(3)}`, clock, `${h12}:${clock.slice(3)}${h < 12 ? 'am' : 'pm'}`];
  if (m === 0) forms.push(`${h12}${h < 12 ? 'am' : 'pm'}`, `${h12} ${h < 12 ? 'am' : 'pm'}`);
  if (clock === '12:00') forms.push('noon');
  return forms.some((f) => hay.toLowerCase().includes(f));
}

const MARKET_WORDS: Readonly<Record<string, readonly string[]>> = {
  NQ: ['nq', 'mnq', 'nasdaq'],
  ES: ['es', 's&p', 'spx'],
  YM: ['ym', 'dow'],
  BTC: ['btc', 'bitcoin', 'xbt'],
  ETH: ['eth', 'ether'],
  SOL: ['sol', 'solana'],
};
const TIMEFRAME_WORDS: Readonly<Record<string, readonly string[]>> = {
  '15s': ['15s', '15 s', '15 sec', '15 second', 'fifteen second', 'fifteen-second'],
  '1m': ['1m', '1 min', '1 minute', 'one minute', 'one-minute', 'minute'],
  '5m': ['5m', '5 min', '5 minute', '5-minute', 'five minute', 'five-minute', 'five-min'],
  '1h': ['1h', '1 hour', 'hourly', 'hour', 'one-hour', 'sixty minute', 'sixty-minute', '1-hr'],
};
const LONG = ['long', 'buy', 'fade the drop'];
const SHORT = ['short', 'shorts', 'sell short', 'fade rallies'];
const ZONE_WORDS: Readonly<Record<Zone, readonly string[]>> = {
  'America/New_York': ['et', 'new york', 'exchange time'],
  'America/Chicago': ['ct', 'central', 'chicago'],
  'Europe/London': ['london'],
  'Europe/Berlin': ['frankfurt', 'cet'],
  'Europe/Paris': ['paris'],
  'Europe/Zurich': ['zurich'],
  'Asia/Tokyo': ['tokyo', 'jst'],
  'Asia/Hong_Kong': ['hong kong', 'hkt'],
  'Asia/Singapore': ['singapore', 'sgt'],
  'Australia/Sydney': ['sydney', 'aest', 'aedt'],
  UTC: ['utc', 'gmt', 'z'],
};
const SESSION_NAMES = ['cash session', 'rth', 'first hour', 'first 90 minutes', 'last hour', 'london session', 'overnight session'];
const ALWAYS = ['24/7', 'any time'];
const OPERAND_WORDS: Readonly<Record<string, readonly string[]>> = {
  ema: ['ema'],
  sma: ['sma'],
  rsi: ['rsi'],
  atr: ['atr'],
  vwap: ['vwap'],
  highest: ['high'],
  lowest: ['low'],
  prior_day: ['prior day', 'yesterday'],
  opening_range: ['opening range', 'or', 'first', 'opening'],
  mark: ['my level', 'my zone'],
  bar: ['bar', 'candle'],
  swing: ['swing', 'pivot', 'higher low', 'lower high'],
  bollinger: ['bollinger', 'bb', 'band'],
};
const UNIT_WORDS: Readonly<Record<string, readonly string[]>> = {
  points: ['point', 'points', 'pts'],
  ticks: ['tick', 'ticks'],
  percent: ['%', 'percent'],
  atr: ['atr', 'atrs'],
  usd: ['$', 'dollar', 'dollars', 'usd'],
  r: ['r', 'risk reward'],
  range: ['range'],
};
const TIME_EXIT_WORDS: Readonly<Record<string, readonly string[]>> = {
  bars: ['bars', 'candles'],
  minutes: ['minutes'],
  hours: ['hours'],
  session_close: ['close'],
};

/** Every claim a value makes about the words, each a check on the spans' text with what it looks for. */
function claims(part: PartName, value: unknown): { what: string; holds: (hay: string) => boolean }[] {
  const out: { what: string; holds: (hay: string) => boolean }[] = [];
  const any = (what: string, ws: readonly string[]): void => void out.push({ what, holds: (h) => hasAny(h, ws) });
  if (part === 'market') any(String(value), MARKET_WORDS[String(value)]!);
  else if (part === 'timeframe') any(String(value), TIMEFRAME_WORDS[String(value)]!);
  else if (part === 'side') {
    if (value === 'both') out.push({ what: 'both', holds: (h) => hasAny(h, ['both', 'either', 'whichever']) || (hasAny(h, LONG) && (hasAny(h, SHORT) || hasWord(h, 'vice versa'))) });
    else any(String(value), value === 'long' ? LONG : SHORT);
  } else if (part === 'session') {
    const s = value as { kind: string; zone?: Zone; windows?: { from: string; to: string }[] };
    if (s.kind === 'always') any('any time', ALWAYS);
    else
      out.push({
        what: JSON.stringify(s),
        holds: (h) => hasAny(h, SESSION_NAMES) || (s.windows!.every((w) => hasClock(h, w.from) && hasClock(h, w.to)) && hasAny(h, ZONE_WORDS[s.zone!])),
      });
  } else {
    // entry, stop, exit: walk the value for numbers, names, units, sides and times
    const walk = (v: unknown, key: string): void => {
      if (typeof v === 'number' && ['n', 'value', 'minutes', 'period', 'k'].includes(key)) out.push({ what: String(v), holds: (h) => hasNumber(h, v) });
      // a swing's bars on each side, or all its bars: "2 bars either side", "the 5-bar swing"
      if (typeof v === 'number' && key === 'strength') out.push({ what: String(v), holds: (h) => hasNumber(h, v) || hasNumber(h, 2 * v + 1) });
      if (Array.isArray(v)) v.forEach((x) => walk(x, key));
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
      const o = v as Record<string, unknown>;
      if (typeof o.kind === 'string' && OPERAND_WORDS[o.kind]) any(o.kind, OPERAND_WORDS[o.kind]!);
      if (typeof o.unit === 'string') any(o.unit, UNIT_WORDS[o.unit]!);
      if (key === 'time' && typeof o.kind === 'string' && TIME_EXIT_WORDS[o.kind]) any(o.kind, TIME_EXIT_WORDS[o.kind]!);
      if (o.kind === 'clock') out.push({ what: `${String(o.at)} ${String(o.zone)}`, holds: (h) => hasClock(h, String(o.at)) && hasAny(h, ZONE_WORDS[o.zone as Zone]) });
      if (o.side === 'long' || o.side === 'short') any(o.side, o.side === 'long' ? LONG : SHORT);
      for (const [k, x] of Object.entries(o)) if (k !== 'at') walk(x, k);
    };
    walk(value, '');
  }
  return out;
}

function expectHonestSpans(text: string, spans: readonly Span[]): void {
  for (const s of spans) {
    expect(s.to).toBeGreaterThan(s.from);
    expect(s.text).toBe(text.slice(s.from, s.to));
  }
}

/** The value without what its defaults supplied (a path set to null, or nothing at all for the whole value). */
function fromWords(value: unknown, defaults: readonly Default[]): unknown {
  if (defaults.some((d) => d.path === '')) return null;
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const d of defaults) {
    const steps = [...d.path.matchAll(/\.([a-z_]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
    let holder: Record<string | number, unknown> = copy;
    for (const step of steps.slice(0, -1)) holder = holder[step] as Record<string | number, unknown>;
    holder[steps[steps.length - 1]!] = null;
  }
  return copy;
}

describe('the rule corpus', () => {
  it('holds at least 100 rules in every market and timeframe, every part missing and ambiguous somewhere, and every default', () => {
    expect(rules.length).toBeGreaterThanOrEqual(100);
    const read = (p: PartName): unknown[] => rules.map((r) => r.rule.expect[p]).filter((e) => e.status === 'read').map((e) => e.value);
    expect(new Set(read('market'))).toEqual(new Set(MARKETS));
    expect(new Set(read('timeframe'))).toEqual(new Set(TIMEFRAMES));
    expect(new Set(read('side'))).toEqual(new Set(['long', 'short', 'both']));
    // Market, timeframe and side have no default: only the session and the parts that hold an ATR take one.
    const defaultable = new Set<PartName>(['session', 'entry', 'stop', 'exit']);
    for (const p of PARTS) {
      const statuses = new Set(rules.map((r) => r.rule.expect[p].status));
      const want = STATUSES.filter((s) => s !== 'defaulted' || defaultable.has(p));
      expect([p, [...statuses].sort()]).toEqual([p, [...want].sort()]);
    }
    const rulesTaken = new Set(rules.flatMap((r) => PARTS.flatMap((p) => (r.rule.expect[p].defaults ?? []) as Default[])).map((d) => d.rule));
    expect([...rulesTaken].sort()).toEqual([...DEFAULT_RULES].sort());
  });

  describe.each(rules)('$where', ({ rule }) => {
    const reading: RuleReading = readRule(rule.text);

    it.each(PARTS)('reads the %s the words give', (p) => {
      expect(shown(reading[p] as Part<unknown>)).toEqual(rule.expect[p]);
    });

    it('answers in the reading schema, with honest spans that hold the words each value came from', () => {
      expect(RuleReadingSchema.safeParse(reading).error?.issues ?? []).toEqual([]);
      for (const p of PARTS) {
        const part = reading[p] as Part<unknown>;
        expectHonestSpans(rule.text, part.spans);
        for (const r of part.readings ?? []) expectHonestSpans(rule.text, r.spans);
        if (part.status !== 'read' && part.status !== 'defaulted') continue;
        const hay = part.spans.map((s) => s.text).join(' | ');
        const said = fromWords(part.value, part.defaults ?? []);
        const unheld = said === null ? [] : claims(p, said).filter((c) => !c.holds(hay)).map((c) => c.what);
        expect([p, unheld]).toEqual([p, []]);
      }
    });
  });

  it('reads the same text to the same reading, fast: under a millisecond a rule', () => {
    for (const { rule } of rules) expect(JSON.stringify(readRule(rule.text))).toBe(JSON.stringify(readRule(rule.text)));
    // CPU time this process spent, best of five rounds, so other work on a busy machine does not decide it.
    const rounds = Array.from({ length: 5 }, () => {
      const c0 = process.cpuUsage();
      for (let k = 0; k < 10; k++) for (const { rule } of rules) readRule(rule.text);
      const used = process.cpuUsage(c0);
      return (used.user + used.system) / 1000 / (10 * rules.length);
    });
    expect(Math.min(...rounds)).toBeLessThan(1);
  });
});
