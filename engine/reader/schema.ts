import { z } from 'zod';
import { MARKETS, TIMEFRAMES, type Market, type Timeframe } from '../markets.js';

/**
 * What a reading of a rule is: seven parts, each with its status, its typed value and the words it came from.
 * The values are closed (strict objects, enums) because the forge compiles them into a decider, and because a
 * model lane's output is held to these same schemas. The meaning of every field is in VOCABULARY.md.
 */

/** A piece of the trader's text: characters [from, to), with text = the trader's text.slice(from, to). */
export interface Span {
  from: number;
  to: number;
  text: string;
}
export const SpanSchema: z.ZodType<Span> = z
  .strictObject({ from: z.number().int().min(0), to: z.number().int().min(1), text: z.string().min(1) })
  .refine((s) => s.to > s.from && s.text.length === s.to - s.from, { message: 'a span is [from, to) and its text is that long' });

export const MarketSchema = z.enum(MARKETS);
export const TimeframeSchema = z.enum(TIMEFRAMES);
export const SideSchema = z.enum(['long', 'short', 'both']);
export type Side = z.infer<typeof SideSchema>;

/**
 * The clocks a window or a time exit is stated in: the exchange cities' wall clocks (New York, Chicago, London,
 * Frankfurt, Paris, Zurich, Tokyo, Hong Kong, Singapore, Sydney) and UTC.
 */
export const ZONES = [
  'America/New_York',
  'America/Chicago',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Paris',
  'Europe/Zurich',
  'Asia/Tokyo',
  'Asia/Hong_Kong',
  'Asia/Singapore',
  'Australia/Sydney',
  'UTC',
] as const;
export const ZoneSchema = z.enum(ZONES);
export type Zone = z.infer<typeof ZoneSchema>;

/** A wall-clock time, HH:MM on the 24-hour clock; 24:00 only ends a window. */
export const ClockSchema = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'HH:MM on the 24-hour clock');

/** [from, to) in the zone's wall-clock time; from later than to runs through midnight. */
export const WindowSchema = z.strictObject({ from: ClockSchema, to: ClockSchema });
export type Window = z.infer<typeof WindowSchema>;

export const SessionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('always') }),
  z.strictObject({ kind: z.literal('windows'), zone: ZoneSchema, windows: z.array(WindowSchema).min(1) }),
]);
export type Session = z.infer<typeof SessionSchema>;

const Length = z.number().int().min(1).max(500);
/** A length the words did not give: the reader never chooses one. */
const LengthOrUnstated = Length.nullable();
/** Bars on each side of a swing high or low. */
export const MAX_SWING_STRENGTH = 50;
/** A Bollinger band's width, in standard deviations. */
export const MAX_BAND_WIDTH = 10;

export const OperandSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('price'), field: z.enum(['open', 'high', 'low', 'close']) }),
  z.strictObject({ kind: z.enum(['ema', 'sma', 'rsi', 'atr']), n: LengthOrUnstated }),
  z.strictObject({ kind: z.literal('vwap') }),
  /** The highest high or lowest low of the N bars before the current one. */
  z.strictObject({ kind: z.enum(['highest', 'lowest']), n: Length }),
  z.strictObject({ kind: z.literal('prior_day'), field: z.enum(['high', 'low', 'close']) }),
  /** The high, the low, or the whole range of the first N minutes of the cash session. */
  z.strictObject({ kind: z.literal('opening_range'), field: z.enum(['high', 'low', 'range']), minutes: LengthOrUnstated }),
  /** The trader's own marks on the market: levels, zones, or either. */
  z.strictObject({ kind: z.literal('mark'), shape: z.enum(['level', 'zone', 'any']) }),
  /** The bar whose close fired the trigger (signal) or the bar before the current one (previous). */
  z.strictObject({ kind: z.literal('bar'), bar: z.enum(['signal', 'previous']), field: z.enum(['high', 'low']) }),
  /**
   * The most recent swing high (low): the high (low) of a bar that no bar within `strength` bars before it tops
   * (undercuts) nor any within `strength` bars after it, known once those later bars have closed.
   */
  z.strictObject({ kind: z.literal('swing'), field: z.enum(['high', 'low']), strength: z.number().int().min(1).max(MAX_SWING_STRENGTH).nullable() }),
  /** A Bollinger band: the SMA of n closes (middle), or it plus (upper) or minus (lower) k population standard deviations of them. */
  z.strictObject({
    kind: z.literal('bollinger'),
    band: z.enum(['upper', 'middle', 'lower']),
    n: z.number().int().min(2).max(500).nullable(),
    k: z.number().finite().positive().max(MAX_BAND_WIDTH).nullable(),
  }),
  z.strictObject({ kind: z.literal('constant'), value: z.number().finite() }),
]);
export type Operand = z.infer<typeof OperandSchema>;

export const LineOpSchema = z.enum(['above', 'below', 'crosses_above', 'crosses_below', 'crosses']);
export const LevelOpSchema = z.enum(['breaks_above', 'breaks_below', 'breaks', 'touches']);
export type LineOp = z.infer<typeof LineOpSchema>;
export type LevelOp = z.infer<typeof LevelOpSchema>;

export type Condition =
  | { op: 'and' | 'or'; args: Condition[] }
  | { op: LineOp; left: Operand; right: Operand }
  | { op: LevelOp; level: Operand };

export const ConditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.strictObject({ op: z.enum(['and', 'or']), args: z.array(ConditionSchema).min(2) }),
    z.strictObject({ op: LineOpSchema, left: OperandSchema, right: OperandSchema }),
    z.strictObject({ op: LevelOpSchema, level: OperandSchema }),
  ]),
).meta({ id: 'Condition' }); // the name JSON Schema gives the recursive shape among its definitions

/** A trigger; side null when its own words name no side (the side part then says which way). */
export const TriggerSchema = z.strictObject({ side: z.enum(['long', 'short']).nullable(), when: ConditionSchema });
export type Trigger = z.infer<typeof TriggerSchema>;

export const EntrySchema = z.strictObject({
  triggers: z
    .array(TriggerSchema)
    .min(1)
    .max(2)
    .refine((ts) => new Set(ts.map((t) => t.side)).size === ts.length, { message: 'one trigger per side' }),
});
export type Entry = z.infer<typeof EntrySchema>;

const Amount = z.number().finite().positive();
/** A range a distance is a multiple of: the opening range (high less low). */
export const RangeOfSchema = z.strictObject({ kind: z.literal('opening_range'), field: z.literal('range'), minutes: LengthOrUnstated });
export const StopDistanceSchema = z.discriminatedUnion('unit', [
  z.strictObject({ unit: z.enum(['points', 'ticks', 'percent']), n: Amount }),
  /** n times the range's height, as it stands when the distance is placed. */
  z.strictObject({ unit: z.literal('range'), n: Amount, of: RangeOfSchema }),
  z.strictObject({ unit: z.literal('atr'), n: Amount, period: LengthOrUnstated }),
  /** Dollars on one contract (the E-mini, or the micro when the words name one) or one coin. */
  z.strictObject({ unit: z.literal('usd'), n: Amount, micro: z.literal(true).optional() }),
]);
export type StopDistance = z.infer<typeof StopDistanceSchema>;

/** A target may also be a multiple of the risk (R = entry to stop). */
export const TargetDistanceSchema = z.union([StopDistanceSchema, z.strictObject({ unit: z.literal('r'), n: Amount })]);
export type TargetDistance = z.infer<typeof TargetDistanceSchema>;

export const StopSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('distance'), distance: StopDistanceSchema, breakeven: TargetDistanceSchema.optional() }),
  z.strictObject({
    kind: z.literal('level'),
    /** beyond: on the far side of the level from the trade, below it for a long and above it for a short (a range's low for a long, its high for a short). */
    where: z.enum(['at', 'below', 'above', 'beyond']),
    level: OperandSchema,
    /** How far beyond the level, when the words give it. */
    offset: StopDistanceSchema.optional(),
    breakeven: TargetDistanceSchema.optional(),
  }),
]);
export type Stop = z.infer<typeof StopSchema>;

export const TargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('distance'), distance: TargetDistanceSchema }),
  z.strictObject({ kind: z.literal('level'), level: OperandSchema }),
]);
export type Target = z.infer<typeof TargetSchema>;

export const TrailSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('distance'), distance: StopDistanceSchema }),
  z.strictObject({ kind: z.literal('level'), level: OperandSchema }),
]);
export type Trail = z.infer<typeof TrailSchema>;

export const TimeExitSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('bars'), n: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('minutes'), n: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('hours'), n: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('clock'), at: ClockSchema, zone: ZoneSchema }),
  z.strictObject({ kind: z.literal('session_close') }),
]);
export type TimeExit = z.infer<typeof TimeExitSchema>;

/** Every way out the words give; whichever comes first closes the trade. */
export const ExitSchema = z
  .strictObject({
    target: TargetSchema.optional(),
    trail: TrailSchema.optional(),
    time: z.array(TimeExitSchema).min(1).optional(),
    when: ConditionSchema.optional(),
  })
  .refine((e) => e.target !== undefined || e.trail !== undefined || e.time !== undefined || e.when !== undefined, {
    message: 'an exit names at least one way out',
  });
export type Exit = z.infer<typeof ExitSchema>;

export const STATUSES = ['read', 'defaulted', 'missing', 'ambiguous'] as const;
export type Status = (typeof STATUSES)[number];
/** The statuses whose part has a value: read from the words, or completed by a documented default. */
export const SETTLED: readonly Status[] = ['read', 'defaulted'];
export const isSettled = (status: Status): boolean => SETTLED.includes(status);

/** The documented defaults (engine/reader/defaults.ts says each in words). */
export const DEFAULT_RULES = ['session_crypto', 'session_futures', 'atr_length', 'swing_strength', 'bollinger_length', 'bollinger_width'] as const;
export type DefaultRule = (typeof DEFAULT_RULES)[number];

/** Where in a part's value a default stands (a JSON path inside the value: "" is all of it), and which rule put it. */
export interface Default {
  path: string;
  rule: DefaultRule;
}
export const DefaultSchema: z.ZodType<Default> = z.strictObject({
  path: z.string().regex(/^(?:\.[a-z_]+|\[\d+\])*$/, 'a path inside the value, such as .distance.period'),
  rule: z.enum(DEFAULT_RULES),
});

export interface Reading<V> {
  value: V;
  spans: Span[];
}

/**
 * A part: read (value, and the spans it came from), defaulted (a value the words leave unstated in whole or in
 * part, completed by documented defaults, each named in defaults; spans cite the words it leans on), missing
 * (value null; spans empty, or the words that named something the deck does not serve, with a note) or ambiguous
 * (value null; readings holds each competing value).
 */
export interface Part<V> {
  status: Status;
  value: V | null;
  spans: Span[];
  readings?: Reading<V>[];
  defaults?: Default[];
  note?: string;
  /** On a part that is missing or ambiguous, or that the forge would refuse: words that would read. */
  hint?: string;
}

const partSchema = <V>(value: z.ZodType<V>): z.ZodType<Part<V>> =>
  z
    .strictObject({
      status: z.enum(STATUSES),
      value: value.nullable(),
      spans: z.array(SpanSchema),
      readings: z.array(z.strictObject({ value, spans: z.array(SpanSchema).min(1) })).optional(),
      defaults: z.array(DefaultSchema).min(1).optional(),
      note: z.string().optional(),
      hint: z.string().min(1).optional(),
    })
    .superRefine((p, ctx) => {
      if (isSettled(p.status) && (p.value === null || p.spans.length === 0)) {
        ctx.addIssue({ code: 'custom', message: `a ${p.status} part has a value and cites its words` });
      }
      if (!isSettled(p.status) && p.value !== null) ctx.addIssue({ code: 'custom', message: 'only a read or defaulted part has a value' });
      if ((p.status === 'defaulted') !== (p.defaults !== undefined)) {
        ctx.addIssue({ code: 'custom', message: 'a defaulted part, and only it, names the defaults it took' });
      }
      if ((p.status === 'ambiguous') !== (p.readings !== undefined && p.readings.length >= 2)) {
        ctx.addIssue({ code: 'custom', message: 'an ambiguous part, and only it, holds two readings or more' });
      }
    }) as z.ZodType<Part<V>>;

export const PARTS = ['market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit'] as const;
export type PartName = (typeof PARTS)[number];

export interface RuleReading {
  market: Part<Market>;
  timeframe: Part<Timeframe>;
  session: Part<Session>;
  side: Part<Side>;
  entry: Part<Entry>;
  stop: Part<Stop>;
  exit: Part<Exit>;
}

export const RuleReadingSchema: z.ZodType<RuleReading> = z.strictObject({
  market: partSchema(MarketSchema),
  timeframe: partSchema(TimeframeSchema),
  session: partSchema(SessionSchema),
  side: partSchema(SideSchema),
  entry: partSchema(EntrySchema),
  stop: partSchema(StopSchema),
  exit: partSchema(ExitSchema),
});
