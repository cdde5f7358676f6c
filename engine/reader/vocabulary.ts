import type { Market } from '../markets.js';
import type { CmpOp, Ctx, ZoneWord } from './lexemes.js';
import type { LevelOp, LineOp, Session, Zone } from './schema.js';

/**
 * The fixed words and phrases the reader knows, with what each means (VOCABULARY.md is the same list in prose).
 * Phrases are written for PhraseTable: "|" between alternatives, "?" after an optional word.
 */

/** Names of the six markets. */
export const MARKET_NAMES: readonly (readonly [string, Market])[] = [
  ['nq', 'NQ'], ['nasdaq', 'NQ'], ['nasdaq 100', 'NQ'], ['nasdaq futures', 'NQ'],
  ['e mini nasdaq 100?', 'NQ'], ['emini nasdaq 100?', 'NQ'], ['ndx futures|future', 'NQ'],
  ['es', 'ES'], ['s & p 500?', 'ES'], ['sp500', 'ES'], ['sp 500', 'ES'], ['e mini s & p 500?', 'ES'],
  ['emini s & p 500?', 'ES'], ['spx futures|future', 'ES'], ['spoos', 'ES'], ['es futures', 'ES'],
  ['ym', 'YM'], ['dow', 'YM'], ['dow jones futures?', 'YM'], ['dow futures', 'YM'], ['e mini|mini dow', 'YM'],
  ['emini dow', 'YM'],
  ['btc', 'BTC'], ['xbt', 'BTC'], ['bitcoin', 'BTC'], ['btcusd|btcusdt', 'BTC'],
  ['eth', 'ETH'], ['ether', 'ETH'], ['ethereum', 'ETH'], ['ethusd|ethusdt', 'ETH'],
  ['sol', 'SOL'], ['solana', 'SOL'], ['solusd|solusdt', 'SOL'],
];

/**
 * The micro contracts: they quote the same index at the same tick as the E-mini, so they read as its market (the
 * tape's bars are the E-mini's); a dollar amount on one is a tenth of the E-mini's points.
 */
export const MICRO_MARKET_NAMES: readonly (readonly [string, Market])[] = [
  ['mnq', 'NQ'], ['micro nasdaq 100?', 'NQ'], ['micro e mini nasdaq 100?', 'NQ'],
  ['mes', 'ES'], ['micro s & p 500?', 'ES'], ['micro e mini s & p 500?', 'ES'],
  ['mym', 'YM'], ['micro dow', 'YM'], ['micro e mini dow', 'YM'],
];

/** Instruments a trader may name that the tape does not serve: read, so the reading can say so. */
export const UNSERVED_MARKETS: readonly string[] = [
  'crude oil?', 'cl', 'oil', 'gold', 'gc', 'silver', 'russell 2000?', 'rty', 'spy', 'qqq', 'spx', 'ndx', 'dxy',
  'eurusd', 'forex', 'doge', 'dogecoin', 'xrp', 'dji',
];

/**
 * Clocks: their abbreviations, and the exchange cities, said alone or with "time" ("between 09:45 and 15:30
 * Chicago", "from 10:00 to 12:00 London time"). A city's own session ("the London session") is a named session.
 */
export const ZONE_WORDS: readonly (readonly [string, ZoneWord])[] = [
  ['et', 'America/New_York'], ['est', 'America/New_York'], ['edt', 'America/New_York'],
  ['eastern time?', 'America/New_York'], ['new york time?', 'America/New_York'], ['ny|nyc time?', 'America/New_York'],
  ['ct', 'America/Chicago'], ['cst', 'America/Chicago'], ['cdt', 'America/Chicago'],
  ['central time?', 'America/Chicago'], ['chicago time?', 'America/Chicago'],
  ['london|uk time?', 'Europe/London'], ['bst', 'Europe/London'],
  ['frankfurt|xetra|berlin time?', 'Europe/Berlin'], ['cet|cest', 'Europe/Berlin'], ['central european time', 'Europe/Berlin'],
  ['paris time?', 'Europe/Paris'], ['zurich|zürich time?', 'Europe/Zurich'],
  ['tokyo|japan time?', 'Asia/Tokyo'], ['jst', 'Asia/Tokyo'],
  ['hong kong time?', 'Asia/Hong_Kong'], ['hk|hkt time?', 'Asia/Hong_Kong'],
  ['singapore time?', 'Asia/Singapore'], ['sgt', 'Asia/Singapore'],
  ['sydney time?', 'Australia/Sydney'], ['aest|aedt', 'Australia/Sydney'],
  ['utc', 'UTC'], ['gmt', 'UTC'], ['zulu', 'UTC'],
  ['exchange|market time', 'exchange'],
];

const NY = 'America/New_York' as const;
const window = (zone: Zone, from: string, to: string): Session => ({
  kind: 'windows',
  zone,
  windows: [{ from, to }],
});

/** The cash session of NQ, ES and YM (engine/calendar.ts), in New York time. */
export const CASH = window(NY, '09:30', '16:00');

/** Sessions named in words. "first/last N minutes" is read by the lexer, since it carries a number. */
export const NAMED_SESSIONS: readonly (readonly [string, { session: Session | null; name: string }])[] = [
  ['cash|regular|rth|day|us|nyse session|hours', { session: CASH, name: 'the cash session' }],
  ['cash market hours', { session: CASH, name: 'the cash session' }],
  ['ny|new york session', { session: CASH, name: 'the cash session' }],
  ['regular trading hours', { session: CASH, name: 'the cash session' }],
  ['rth', { session: CASH, name: 'the cash session' }],
  ['market hours', { session: CASH, name: 'the cash session' }],
  ['first|opening hour of? the? cash|regular|rth|us|ny? session|open|day|market?', { session: window(NY, '09:30', '10:30'), name: 'the first hour' }],
  ['first half hour of? the? cash|regular|rth|us|ny? session|open|day|market?', { session: window(NY, '09:30', '10:00'), name: 'the first half hour' }],
  ['last|final hour of? the? cash|regular|rth|us|ny? session|day|market?', { session: window(NY, '15:00', '16:00'), name: 'the last hour' }],
  ['power hour', { session: window(NY, '15:00', '16:00'), name: 'the last hour' }],
  ['london session|hours', { session: window('Europe/London', '08:00', '16:30'), name: 'the London session' }],
  ['overnight|globex session|hours|trading', { session: window(NY, '18:00', '09:30'), name: 'the overnight session' }],
  ['extended hours', { session: window(NY, '18:00', '09:30'), name: 'the overnight session' }],
  ['asia|asian|tokyo|sydney session|hours', { session: null, name: 'the Asian session' }],
  ['lunch|lunchtime|midday', { session: null, name: 'lunch' }],
  ['24 / 7', { session: { kind: 'always' }, name: 'any time' }],
  ['24 x 7', { session: { kind: 'always' }, name: 'any time' }],
  ['24 hours a day', { session: { kind: 'always' }, name: 'any time' }],
  ['any time', { session: { kind: 'always' }, name: 'any time' }],
  ['anytime', { session: { kind: 'always' }, name: 'any time' }],
  ['all day|hours|sessions', { session: { kind: 'always' }, name: 'any time' }],
  ['around the clock', { session: { kind: 'always' }, name: 'any time' }],
  ['every session', { session: { kind: 'always' }, name: 'any time' }],
  ['no time|session filter', { session: { kind: 'always' }, name: 'any time' }],
];

/** Comparisons and crosses. Without a subject the subject is the close, so "closes above" is "above". */
export const COMPARISONS: readonly (readonly [string, CmpOp])[] = [
  ['close|closes|closed|closing back? above|over', 'above'],
  ['close|closes|closed|closing back? below|under|beneath', 'below'],
  // a close through a line, either way ("a close through VWAP", "the close across the 20 EMA")
  ['close|closes|closed|closing back? through|thru|across', 'crosses'],
  ['cross|crosses|crossed|crossing back? above|over', 'crosses_above'],
  ['cross|crosses|crossed|crossing back? up through|thru?', 'crosses_above'],
  ['rise|rises|rising|rose|move|moves|moving|moved|go|goes|going|went|push|pushes|pushing|pushed|get|gets|getting|got|pop|pops|popping|popped|climb|climbs|climbing|climbed|jump|jumps|jumped back? above|over', 'crosses_above'],
  ['bullish cross|crossover|crossing', 'crosses_above'],
  ['cross|crosses|crossed|crossing back? below|under|beneath', 'crosses_below'],
  ['cross|crosses|crossed|crossing back? down through|thru?', 'crosses_below'],
  ['drop|drops|dropping|dropped|fall|falls|falling|fell|dip|dips|dipping|dipped|slip|slips|slipping|slipped|move|moves|moving|moved|go|goes|going|went|sink|sinks|sank|get|gets|got back? below|under|beneath', 'crosses_below'],
  ['bearish cross|crossover|crossing', 'crosses_below'],
  ['cross|crosses|crossed|crossing|crossover|crossovers', 'crosses'],
  ['is|are|stays|stay|staying|holds|hold|holding|trades|trade|trading|sits|sitting|remains|remain|was|be|being above|over', 'above'],
  ['above|over', 'above'],
  ['higher|greater|more than', 'above'],
  ['is|are higher|greater|more than', 'above'],
  ['>', 'above'],
  ['is|are|stays|stay|staying|holds|hold|holding|trades|trade|trading|sits|sitting|remains|remain|was|be|being below|under|beneath', 'below'],
  ['below|under|beneath|underneath', 'below'],
  ['lower|less than', 'below'],
  ['is|are lower|less than', 'below'],
  ['<', 'below'],
  ['break|breaks|broke|breaking|breakout|breakouts out? above|over', 'breaks_above'],
  ['break|breaks|broke|breaking|breakdown|breakdowns down? below|under', 'breaks_below'],
  ['break|breaks|broke|breaking down through|thru', 'breaks_below'],
  ['breakdown|breakdowns of?', 'breaks_below'],
  ['break|breaks|broke|breaking|breakout|breakouts of|through|thru|from', 'breaks'],
  ['break|breaks|broke|breaking out of', 'breaks'],
  ['break|breaks|broke|breaking|breakout|breakouts', 'breaks'],
  ['take|takes|took|taking out', 'breaks'],
  ['clear|clears|cleared|clearing', 'breaks'],
  ['pull|pulls|pulled|pulling back to|into|toward|towards', 'touches'],
  ['pullback|pullbacks to|into|toward|towards|of', 'touches'],
  ['retest|retests|retested|retesting|test|tests|tested|testing|touch|touches|touched|touching of?', 'touches'],
  ['tag|tags|tagged|tagging|tap|taps|tapped|tapping', 'touches'],
  ['come|comes|came|coming|return|returns|returned|returning back? up|down? to|into', 'touches'],
  // a return to a line: "falls back to the 20 EMA", "reverts to VWAP", "is back at VWAP", "on a revisit of VWAP"
  ['fall|falls|fell|falling|drop|drops|dropped|dropping|pull|pulls|pulled|pulling|go|goes|went|going|get|gets|got|getting|move|moves|moved|moving|trade|trades|traded|trading|slip|slips|slipped|rise|rises|rose|rising|bounce|bounces|bounced|head|heads|headed back up|down? to|into', 'touches'],
  ['revert|reverts|reverted|reverting|retrace|retraces|retraced|retracing back? to|into', 'touches'],
  ['revisit|revisits|revisited|revisiting of?', 'touches'],
  ['is|are|be|being back at|to|into|on', 'touches'],
  ['dip|dips|dipped|dipping to|into', 'touches'],
  ['bounce|bounces|bounced|bouncing off|from', 'touches'],
  ['reach|reaches|reached|reaching|hit|hits|hitting', 'touches'],
];

type SideWord = { side: 'long' | 'short' | 'both'; only: boolean; sell: boolean };
const long: SideWord = { side: 'long', only: false, sell: false };
const short: SideWord = { side: 'short', only: false, sell: false };
const both: SideWord = { side: 'both', only: false, sell: false };
const longOnly: SideWord = { side: 'long', only: true, sell: false };
const shortOnly: SideWord = { side: 'short', only: true, sell: false };

export const SIDE_WORDS: readonly (readonly [string, SideWord])[] = [
  ['go|get|going|getting|enter|entering|take|taking|be long|longs', long],
  ['long|longs|longing', long],
  ['buy|buys|buying|bought', long],
  ['buy the dip|dips', long],
  ['fade the? drop|drops|dip|dips|selloff|selloffs|flush|flushes|weakness|low|lows', long],
  ['fade the? sell off|offs', long],
  ['go|get|going|getting|enter|entering|take|taking|be short|shorts', short],
  ['short|shorts|shorting|shorted', short],
  ['sell|sells|selling short', short],
  ['short sell|sells|selling', short],
  ['sell|sells|selling', { side: 'short', only: false, sell: true }],
  ['sell the rip|rips|rally|rallies|pop|pops', short],
  ['fade the? rally|rallies|rip|rips|pop|pops|spike|spikes|strength|high|highs|push|pushes', short],
  ['long|longs and|or|& short|shorts', both],
  ['long|longs / short|shorts', both],
  ['short|shorts and|or|& long|longs', both],
  ['both long|longs and short|shorts', both],
  ['both sides|directions|ways', both],
  ['either direction|directions|side|way', both],
  ['whichever way|direction|side', both],
  ['long|longs only', longOnly],
  ['only long|longs|buy|buys', longOnly],
  ['only go long', longOnly],
  ['no short|shorts|shorting', longOnly],
  ['never|dont short|sell', longOnly],
  ['do not short', longOnly],
  ['short|shorts only', shortOnly],
  ['only short|shorts|sell|sells', shortOnly],
  ['only go short', shortOnly],
  ['no long|longs|buying', shortOnly],
  ['never|dont buy|long', shortOnly],
  ['do not buy|long', shortOnly],
];

/** Words that look like sides and are not: read as plain words so they name no side. */
export const NOT_SIDES: readonly string[] = ['as long as', 'so long as', 'short term', 'long term', 'how long', 'no longer'];

export const ANCHORS: readonly (readonly [string, Exclude<Ctx, 'entry'> | 'entry'])[] = [
  ['stop|stops loss?', 'stop'],
  ['stoploss|sl', 'stop'],
  ['stop out', 'stop'],
  ['stopped out', 'stop'],
  ['risk|risking', 'stop'],
  ['invalidation|invalidated', 'stop'],
  ['trailing stop?', 'trail'],
  ['trail|trails|trailed stop?', 'trail'],
  ['trail|trails the|my|your stop', 'trail'],
  ['take|taking profit|profits', 'target'],
  ['profit target|targets|taking', 'target'],
  ['target|targets|targeting|tgt|tp', 'target'],
  ['aim|aiming for', 'target'],
  ['objective', 'target'],
  ['exit|exits|exiting', 'exit'],
  ['get|getting out', 'exit'],
  ['out by|at|after|on|when|if', 'exit'],
  ['close|closing the|my? trade|position|positions|it', 'exit'],
  ['close|closing out|everything|all', 'exit'],
  // "close after 2 hours", "close at 15:55", "close by 15:50": a way out, not the close of a bar
  ['close|closes|closing after|at|by|within|before', 'exit'],
  ['flat|flatten', 'exit'],
  ['go flat', 'exit'],
  ['cover|covers|covering', 'exit'],
  ['buy to cover', 'exit'],
  ['buy back', 'exit'],
  ['time stop', 'exit'],
  ['time based stop', 'exit'],
  ['max|maximum hold', 'exit'],
  ['hold|holding for', 'exit'],
  ['holding period', 'exit'],
  ['move|moving|bump|put|set my|the? stop to breakeven|be|entry', 'breakeven'],
  ['move|moving|bump|put|set my|the? stop to break even', 'breakeven'],
  ['stop to breakeven|be', 'breakeven'],
  ['stop to break even', 'breakeven'],
  ['breakeven|break-even', 'breakeven'],
  ['break even', 'breakeven'],
  ['enter|enters|entering|entry|entries|trigger|triggers|signal|signals|setup', 'entry'],
];

/** Ways to say "the session's close" as a time to be out. */
export const CLOSE_EXITS: readonly string[] = [
  'by|at|before|into|until|till|on the? close|bell',
  'by|at|before|into|until|till|on the? closing bell',
  'by|at|before|into|until|till|on the? session|market close',
  'by|at|before|until|till the? end of the? day|session',
  'by|at|before|until|till eod',
  'eod',
  'end of day|session',
];

export const VICE_VERSA: readonly string[] = [
  'vice versa for? the? short|shorts|shorting? side?',
  'reverse|opposite|mirror|inverse for the? short|shorts|shorting side?',
];

/** "whichever comes first": how every way out is read anyway; said, it is known and takes nothing. */
export const FIRST_COMES: readonly string[] = ['whichever|whatever comes|hits|happens first', 'which ever comes|hits|happens first'];

/** "below entry", "from the fill": a distance measured from the entry, which is what a distance is anyway. */
export const FROM_ENTRY: readonly string[] = ['above|below|under|over|from|beyond|past|away my|the|your? entry|fill price?', 'away from my|the|your? entry|fill price?'];

/** "no new trades", "stop trading": the time after them ends the window instead of starting it. */
export const NEGATED_TRADING: readonly string[] = [
  'no new? trades|entries|positions',
  'dont|never trade|enter',
  'do not trade|enter',
  'stop trading|entering',
  'stop taking new? trades',
];

/** Chart words that make a number and unit a timeframe ("5 min chart"). */
export const CHART_WORDS: readonly string[] = ['chart', 'charts', 'bar', 'bars', 'candle', 'candles', 'candlestick', 'candlesticks', 'timeframe', 'tf', 'interval', 'time frame'];
/** Words before a number and unit that make it a timeframe ("on the 5 min", "timeframe: 1m"). */
export const CHART_LEADS: readonly string[] = ['on', 'using', 'use', 'timeframe', 'tf'];

/** Timeframe units, in seconds. */
export const TIME_UNITS: ReadonlyMap<string, number> = new Map([
  ...['s', 'sec', 'secs', 'second', 'seconds'].map((w) => [w, 1] as const),
  ...['m', 'min', 'mins', 'minute', 'minutes'].map((w) => [w, 60] as const),
  ...['h', 'hr', 'hrs', 'hour', 'hours'].map((w) => [w, 3600] as const),
  ...['d', 'day', 'days'].map((w) => [w, 86_400] as const),
  ...['w', 'wk', 'week', 'weeks'].map((w) => [w, 604_800] as const),
]);

/** Words after an amount that make it dollars ("200 dollars", "10 USD"); "$" before it does too. */
export const MONEY_WORDS: readonly string[] = ['dollar', 'dollars', 'usd', 'bucks'];
/** After a dollar amount, what makes it the size of a trade's risk or a day's loss, not a stop ("$500 per trade"). */
export const MONEY_SIZING = 'per|a|each|every trade|position|day|week|month';

export const DISTANCE_UNITS: ReadonlyMap<string, 'points' | 'ticks' | 'percent'> = new Map([
  ...['point', 'points', 'pt', 'pts', 'handle', 'handles'].map((w) => [w, 'points'] as const),
  ...['tick', 'ticks'].map((w) => [w, 'ticks'] as const),
  ...['%', 'percent', 'pct'].map((w) => [w, 'percent'] as const),
]);

export const DURATION_UNITS: ReadonlyMap<string, 'bars' | 'minutes' | 'hours'> = new Map([
  ...['bar', 'bars', 'candle', 'candles', 'candlestick', 'candlesticks'].map((w) => [w, 'bars'] as const),
  ...['minute', 'minutes', 'min', 'mins'].map((w) => [w, 'minutes'] as const),
  ...['hour', 'hours', 'hr', 'hrs'].map((w) => [w, 'hours'] as const),
]);

/**
 * What each comparison makes the code test: the definitions VOCABULARY.md states, word for word, and the words the
 * plain-words rendering of a decider (engine/decider/plain.ts) shows a grader. {a} and {b} are the two sides of a
 * line comparison, {level} a level, {top} and {bottom} its edges (one price for a level; a zone's top and bottom).
 * Every test is made at a bar's close, on that bar and the bar before it.
 */
export const CONDITION_MEANINGS: Readonly<Record<LineOp | LevelOp, string>> = {
  above: "{a} is above {b} at the bar's close",
  below: "{a} is below {b} at the bar's close",
  crosses_above: "{a} crosses above {b}: at or below it at the close of the bar before, above it at this bar's close",
  crosses_below: "{a} crosses below {b}: at or above it at the close of the bar before, below it at this bar's close",
  crosses: "{a} crosses {b} either way: on the other side of it at this bar's close from the close of the bar before",
  breaks_above: "the bar's high goes above {top}, where the high of the bar before had not",
  breaks_below: "the bar's low goes below {bottom}, where the low of the bar before had not",
  breaks: "the bar's high goes above {top} or its low goes below {bottom}, where the bar before's had not",
  touches: "the bar's range, low to high, reaches {level}",
};
