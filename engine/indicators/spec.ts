/**
 * The indicator list a caller may name, as strings:
 *
 * | text      | meaning                                   | pane  |
 * |-----------|-------------------------------------------|-------|
 * | ema:N     | exponential moving average of closes      | price |
 * | sma:N     | simple moving average of closes           | price |
 * | bb:N:K    | Bollinger bands, SMA(N) ± K population sd | price |
 * | vwap      | VWAP of the session (UTC day for crypto)  | price |
 * | hi:N      | highest high of the last N bars           | price |
 * | lo:N      | lowest low of the last N bars             | price |
 * | atr:N     | Wilder's average true range               | lower |
 * | rsi:N     | Wilder's relative strength index, closes  | lower |
 *
 * N is a whole number from 1 to 500 (written without leading zeros); K is a decimal number in (0, 10].
 * Names are lowercase. Anything else is refused with an IndicatorSpecError naming the text.
 */
export type IndicatorSpec =
  | { kind: 'ema' | 'sma' | 'atr' | 'rsi' | 'hi' | 'lo'; n: number; text: string }
  | { kind: 'bb'; n: number; k: number; text: string }
  | { kind: 'vwap'; text: string };

export type IndicatorKind = IndicatorSpec['kind'];

export const MAX_LOOKBACK = 500;
export const MAX_BB_WIDTH = 10;

/** Why a text was refused: a name not on the list, a shape that does not parse, a number out of bounds, or a second mention. */
export type IndicatorRefusal = 'unknown' | 'malformed' | 'out_of_bounds' | 'repeated';

export class IndicatorSpecError extends Error {
  constructor(
    readonly indicator: string,
    readonly reason: IndicatorRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'IndicatorSpecError';
  }
}

const WHOLE = /^[1-9][0-9]*$/;
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

const shapes: Record<IndicatorKind, string> = {
  ema: 'ema:N',
  sma: 'sma:N',
  atr: 'atr:N',
  rsi: 'rsi:N',
  hi: 'hi:N',
  lo: 'lo:N',
  bb: 'bb:N:K',
  vwap: 'vwap',
};

const isKind = (name: string): name is IndicatorKind => Object.hasOwn(shapes, name);

/** Reads one indicator text into its typed spec, or throws IndicatorSpecError naming it. */
export function parseIndicator(text: string): IndicatorSpec {
  const [name = '', ...args] = text.split(':');
  if (!isKind(name)) {
    throw new IndicatorSpecError(text, 'unknown', `unknown indicator '${text}': use one of ${Object.values(shapes).join(', ')}`);
  }
  const malformed = (): IndicatorSpecError =>
    new IndicatorSpecError(text, 'malformed', `indicator '${text}' is malformed: write it as ${shapes[name]}`);
  if (name === 'vwap') {
    if (args.length > 0) throw malformed();
    return { kind: 'vwap', text };
  }
  const expected = name === 'bb' ? 2 : 1;
  if (args.length !== expected || !WHOLE.test(args[0]!)) throw malformed();
  const n = Number(args[0]);
  if (n > MAX_LOOKBACK) {
    throw new IndicatorSpecError(text, 'out_of_bounds', `indicator '${text}': N must be from 1 to ${MAX_LOOKBACK}`);
  }
  if (name !== 'bb') return { kind: name, n, text };
  if (!DECIMAL.test(args[1]!)) throw malformed();
  const k = Number(args[1]);
  if (!(k > 0 && k <= MAX_BB_WIDTH)) {
    throw new IndicatorSpecError(text, 'out_of_bounds', `indicator '${text}': K must be above 0 and at most ${MAX_BB_WIDTH}`);
  }
  return { kind: 'bb', n, k, text: `bb:${n}:${k}` };
}

/** Reads a list, refusing the first bad text and any text named twice (after reading, so bb:20:2.0 = bb:20:2). */
export function parseIndicators(texts: readonly string[]): IndicatorSpec[] {
  const specs = texts.map(parseIndicator);
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.text)) throw new IndicatorSpecError(spec.text, 'repeated', `indicator '${spec.text}' is named twice`);
    seen.add(spec.text);
  }
  return specs;
}

/** Where a spec is drawn: over the price, or in a pane of its own below it (its scale is not a price). */
export const paneOf = (spec: IndicatorSpec): 'price' | 'lower' => (spec.kind === 'atr' || spec.kind === 'rsi' ? 'lower' : 'price');
