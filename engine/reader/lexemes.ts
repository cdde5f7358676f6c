import type { Market, Timeframe } from '../markets.js';
import type { LevelOp, LineOp, Operand, Session, Zone } from './schema.js';

/**
 * The words of a rule, grouped into what they mean (a lexeme): "the 9 EMA" is one operand, "crosses above" one
 * comparison, "stop loss" one anchor. Each lexeme keeps its character offsets. The parts are read from lexemes.
 */

/** What kind of clause a lexeme stands in: the trigger's, or after a stop, target, trail, exit or breakeven word. */
export type Ctx = 'entry' | 'stop' | 'target' | 'trail' | 'exit' | 'breakeven';

/** A clock named in words: a zone, or "exchange time", which depends on the market. */
export type ZoneWord = Zone | 'exchange';

/** An operand as the lexer reads it: "MA" (simple or exponential, the words do not say) is resolved later. */
export type OperandLex = Operand | { kind: 'ma'; n: number | null };

export type CmpOp = LineOp | LevelOp;

export type LexemeBody =
  /** micro: named as its micro contract (MNQ, MES, MYM), a tenth of the E-mini's dollars a point. */
  | { k: 'market'; market: Market; micro: boolean }
  | { k: 'unserved_market' }
  | { k: 'tf'; tf: Timeframe }
  | { k: 'tf_unserved' }
  | { k: 'num'; value: number; digits: boolean }
  | { k: 'time'; clock: string }
  | { k: 'zone'; zone: ZoneWord }
  /** closing: the subject said as the close ("the close breaks the 20 EMA"), which crosses a line rather than breaking it. */
  | { k: 'operand'; operand: OperandLex; closing?: boolean }
  /** A mention that means something only if the text says more (references.ts settles each). */
  | { k: 'ref'; ref: Ref }
  /**
   * usd: dollars on one contract or coin; micro when the text names the market as its micro contract. range: n
   * times the opening range's height, of `minutes` (null until a length is said or settled, references.ts).
   */
  | { k: 'distance'; unit: 'points' | 'ticks' | 'percent' | 'atr' | 'r' | 'usd' | 'range'; n: number; period: number | null; micro?: boolean; minutes?: number | null }
  | { k: 'duration'; n: number; unit: 'bars' | 'minutes' | 'hours' }
  | { k: 'cmp'; op: CmpOp }
  | { k: 'conj'; conj: 'and' | 'or' }
  | { k: 'comma' }
  | { k: 'sep' }
  | { k: 'dash' }
  /** only: "long only", "no shorts"; sell: a bare "sell", which after a buy is the way out. */
  | { k: 'side'; side: 'long' | 'short' | 'both'; only: boolean; sell: boolean }
  | { k: 'anchor'; anchor: Exclude<Ctx, 'entry'> | 'entry' }
  /** A session named in words; session null when the reader knows the name but not its hours. */
  | { k: 'named'; session: Session | null; name: string }
  | { k: 'close_exit' }
  | { k: 'vice_versa' }
  /** "no new trades", "stop trading": turns the time after it around. */
  | { k: 'not' }
  | { k: 'word'; norm: string };

/**
 * - mark: "the zone", "that level" (my zone, if named); orb: a bare "ORB";
 * - bar: the signal or previous bar without its high or low ("below the trigger candle"), which the comparison
 *   before it settles;
 * - first_bar: the session's first bar without its size ("the first bar's high"), which is the timeframe's;
 * - that: "its high", "that bar's low", the bar or level named before (that_bar: a bar or candle was said);
 * - range: "the range", "the range low", "the top of the range": the opening range the text names;
 * - band: "the lower band", "the middle band": the Bollinger bands the text names.
 */
export type Ref =
  | { kind: 'mark'; shape: 'level' | 'zone' }
  | { kind: 'orb'; minutes: number | null }
  | { kind: 'bar'; bar: 'signal' | 'previous' }
  | { kind: 'first_bar'; field: 'high' | 'low' | 'range' }
  | { kind: 'that'; field: 'high' | 'low'; bar: boolean }
  | { kind: 'range'; field: 'high' | 'low' | 'range' }
  | { kind: 'band'; band: 'upper' | 'middle' | 'lower' };

export type LexemeKind = LexemeBody['k'];

/** The word "whichever comes first" stands as: every way out is read so already. */
export const FIRST_COMES_WORD = 'whichever comes first';

/** The word an indicator the reader does not read stands as: a comparison beside it is not read either. */
export const UNREAD_INDICATOR = 'unread indicator';

export type Lexeme = LexemeBody & {
  from: number;
  to: number;
  ctx: Ctx;
  /** The clause it stands in: a run of one ctx, numbered from the start of the text. */
  seg: number;
  /** Other words this lexeme's meaning came from (a length or zone stated elsewhere), cited with it. */
  also: { from: number; to: number }[];
};

export type LexemeOf<K extends LexemeKind> = Extract<Lexeme, { k: K }>;

const guards = new Map<LexemeKind, (l: Lexeme | undefined) => boolean>();

/** A guard for one kind of lexeme (made once per kind). */
export function is<K extends LexemeKind>(k: K): (l: Lexeme | undefined) => l is LexemeOf<K> {
  let guard = guards.get(k);
  if (!guard) guards.set(k, (guard = (l) => l !== undefined && l.k === k));
  return guard as (l: Lexeme | undefined) => l is LexemeOf<K>;
}
