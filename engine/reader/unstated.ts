/**
 * Lengths a value leaves unstated (an RSI, EMA or SMA without its length, an opening range without its minutes),
 * as a note for the part: the reader never fills one in, and says which are missing. An ATR's length has a
 * documented default (defaults.ts), which says so itself.
 */

const NAMES: ReadonlyMap<string, string> = new Map([
  ['ema', 'EMA'],
  ['sma', 'SMA'],
  ['rsi', 'RSI'],
  ['opening_range', 'opening range'],
]);

function walk(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) v.forEach((x) => walk(x, out));
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
  const o = v as Record<string, unknown>;
  const name = typeof o.kind === 'string' ? NAMES.get(o.kind) : undefined;
  if (name && (o.n === null || o.minutes === null)) out.add(name);
  for (const x of Object.values(o)) walk(x, out);
}

export function unstatedNote(values: readonly unknown[]): string | undefined {
  const out = new Set<string>();
  values.forEach((v) => walk(v, out));
  return out.size > 0 ? `no length is stated for: ${[...out].join(', ')}` : undefined;
}
