import { PARTS, type Part, type PartName, type RuleReading } from './schema.js';
import { unstatedNote } from './unstated.js';

/**
 * Hints: on every part that is missing or ambiguous, or that states a length the forge would need and the words do
 * not give, the words that would read. Pure; any lane's reading goes through it, and a hint a part already carries
 * (the reader's own, or a model lane's) stands.
 */

/** What to say when a part is missing. */
const MISSING: Readonly<Record<PartName, string>> = {
  market: 'name the market: NQ, ES, YM, BTC, ETH or SOL',
  timeframe: "name the chart: 15s, 1m, 5m or 1h ('the five-minute chart', '1h bars', 'hourly')",
  session: "name the market, whose session stands when none is said, or give a window: 'between 09:45 and 11:30 ET'",
  side: "say which way: 'buy', 'sell short' or 'both ways'",
  entry: "say when to enter: 'buy when the 9 EMA crosses above the 21 EMA', 'short a break below the prior day's low'",
  stop: "say where the rule is wrong: 'stop 10 points', 'stop 1.5 ATR(14)', 'stop below the swing low', 'trailing stop 2%'",
  exit: "say how it gets out: 'target 2R', 'take 1.2%', 'exit after 12 bars', 'exit at 11:30 ET', 'out by the close'",
};

/** What to say when a part is ambiguous and its readings differ in no way listed below. */
const AMBIGUOUS: Readonly<Record<PartName, string>> = {
  market: 'name one market: a rule trades one',
  timeframe: 'name one chart timeframe: a rule decides on one',
  session: "give the windows on one clock: 'between 09:45 and 11:30 ET'",
  side: "say which way each trigger takes ('buy when ...; sell short when ...') or 'both ways'",
  entry: 'say the trigger one way',
  stop: "give one stop: 'stop 10 points' or 'stop below the swing low', not both",
  exit: 'give one target and one trail: two are not read as a scale-out',
};

/** Where two readings first differ: the key, and the two values there. */
function firstDifference(a: unknown, b: unknown, key = ''): { key: string; a: unknown; b: unknown } | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return { key, a, b };
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], k);
    if (d) return d;
  }
  return { key, a, b };
}

function ambiguousHint(p: PartName, part: Part<unknown>): string {
  const [a, b] = part.readings!;
  const d = firstDifference(a!.value, b!.value);
  const pair = d ? new Set([d.a, d.b]) : new Set();
  if (d?.key === 'zone') return 'write the zone: ET, New York time or UTC';
  if (d?.key === 'unit' && pair.has('points') && pair.has('ticks')) return "give the unit: '4 points' or '4 ticks'";
  if (d?.key === 'kind' && pair.has('sma') && pair.has('ema')) return "say simple or exponential: 'the 20 SMA' or 'the 20 EMA'";
  return AMBIGUOUS[p];
}

export function hintOf(p: PartName, part: Part<unknown>): string | undefined {
  if (part.status === 'missing') return MISSING[p];
  if (part.status === 'ambiguous') return ambiguousHint(p, part);
  if (unstatedNote([part.value]) !== undefined) return "give its length: 'the 20 EMA', 'RSI(14)', 'the 15-minute opening range'";
  return undefined;
}

/** The reading with a hint on every part that needs one and has none. */
export function withHints(reading: RuleReading): RuleReading {
  const out = { ...reading } as Record<PartName, Part<unknown>>;
  for (const p of PARTS) {
    const part = out[p];
    const hint = part.hint ?? hintOf(p, part);
    if (hint !== undefined && part.hint === undefined) out[p] = { ...part, hint };
  }
  return out as unknown as RuleReading;
}
