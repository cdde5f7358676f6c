import { z } from 'zod';
import { signedIn, type Ctx, type SessionCtx } from '../services/context.js';
import { badInput, DeckError, internalFailure, problemsOf, signInFirst } from '../core/errors.js';
import { TOOL_INPUT_BOUNDS, type JsonBounds } from '../core/json-bounds.js';
import { guardStatus, type GuardName } from '../services/guards.js';
import { howToBuy } from '../services/plans/offered.js';
import { opens, type Tier } from '../core/principal.js';
import { heldTo, outlineOf, outputJsonSchema } from './output.js';
import type { EventStream, JsonBytes, WithImage, WithLinks } from '../services/answers.js';
import type { Toolset } from './toolsets.js';

export { EventStream, JsonBytes, WithImage, WithLinks, type ResourceLink, type StreamEvent } from '../services/answers.js';

export type Access = 'none' | 'session' | 'optional';
export type Method = 'GET' | 'POST' | 'DELETE';

/** How a tool is reached over REST. Path params, query and body are merged into the tool's input. */
export interface RestBinding {
  method: Method;
  /** Express-style path, e.g. /me/marks or /cards/:seller. */
  path: string;
  /** Status of a success (200 unless told). */
  status?: number;
  /** Refusal statuses this route can answer besides the ones its access and input imply. */
  errors?: number[];
  /** POST routes read a JSON body unless told 'none' (then a body is not required). */
  body?: 'json' | 'none';
  /** The largest JSON body the route reads, in bytes (1 MiB unless told); over it is 413. */
  maxBody?: number;
  /**
   * What the body may hold, checked on its text before it is parsed (413 beyond it): a tool's input is small
   * (TOOL_INPUT_BOUNDS), and a route says where it takes more. A string may be as long as maxBody where the route
   * names one (the payload itself may be one string: a forge's words, an image).
   */
  bounds?: Partial<JsonBounds>;
  /** The result carries a session to set as the deck_session cookie, or the call ends the session. */
  cookie?: 'set' | 'clear';
}

/**
 * What a tool does to the world, as MCP states it to clients (hints they show the person or act on). Every tool says
 * all four: a tool cannot leave them out.
 */
export interface ToolAnnotations {
  /** It changes nothing anyone keeps (a read; being recorded on the meter does not count as a change). */
  readOnlyHint: boolean;
  /** It may destroy or replace what cannot be had back, move money or hire. */
  destructiveHint: boolean;
  /** The same call again changes nothing more. */
  idempotentHint: boolean;
  /** It may reach a party outside the deck: the venue, a grader or reader lane, the identity door. */
  openWorldHint: boolean;
}

interface ToolSpecBase<I extends z.ZodObject, O> {
  name: string;
  title: string;
  description: string;
  input: I;
  annotations: ToolAnnotations;
  /**
   * What the MCP tools/list shows instead of a long description or an input property's long JSON Schema: the list
   * is paid for in every model context it is put in. Validation and the OpenAPI document keep the whole.
   */
  listed?: { description?: string; properties?: Record<string, Record<string, unknown>> };
  /**
   * Arguments the MCP endpoints fill in when a model leaves them out, so a tool that could answer more than a model
   * should read answers a summary and a first page there (REST answers whole unless asked).
   */
  mcpDefaults?: Record<string, unknown>;
  /**
   * The answer's JSON body (for sealed bytes, a picture or a stream: the JSON they carry). It types run's answer, is the
   * OpenAPI success response and the MCP outputSchema, and a deck run with DECK_CHECK_OUTPUT=1 holds every answer to it.
   */
  output: z.ZodType<O>;
  guard?: GuardName;
  /** What the guard's queue is kept per besides the principal (one queue per series, say); the principal alone unless told. */
  guardKey?: (input: z.output<I>) => string;
  /** The status of an input that fails its schema: 422 unless the route's contract says another (the series quote says 400). */
  invalid?: 400 | 422;
  /**
   * 'rest' keeps a tool off MCP: a person's act (join, login, key rotation), never an agent's, or a route whose answer
   * MCP already gives (the series terms: tools/list carries the quote body's schema).
   */
  surface?: 'both' | 'rest';
  rest?: RestBinding;
  /** The toolset it belongs to: what /mcp lists it under, and its route's OpenAPI tag. */
  toolset: Toolset;
}

/**
 * A tool as written: a tool that needs a session runs on a context whose principal is there. Such a tool may say what
 * it will refuse (`foresee`): everything a call can be refused for from its input and the deck's state (a forge not
 * the caller's, a window the tape does not hold, a guard already busy), found before anything is paid for, done or
 * recorded. A call paid per call (x402) settles only once it has passed, and run goes on with what it found (the
 * forge, the bars), so nothing is read twice. A tool priced per call must declare one (services/pay/per-call.ts).
 */
export type ToolSpec<I extends z.ZodObject, O, F = undefined> = ToolSpecBase<I, O> &
  (
    | {
        access: 'session';
        foresee?: (ctx: SessionCtx, input: z.output<I>) => Promise<F>;
        /** The bars the call will serve, from what it foresaw: what a price by bars (x402's upto) settles for. */
        bars?: (foreseen: F) => number;
        run: (ctx: SessionCtx, input: z.output<I>, foreseen: F) => Promise<Answer<O>>;
      }
    | { access: Exclude<Access, 'session'>; foresee?: never; bars?: never; run: (ctx: Ctx, input: z.output<I>) => Promise<Answer<O>> }
  );

/**
 * A tool's work on any context, once its input is valid: a session tool's refuses a call without a principal (401)
 * before anything else, then foresees what it would refuse, then has a payment per call settled, then runs. A refusal
 * of the run after a settlement is the payer's due refund, recorded as such (see PerCallPayment.unserved).
 */
function admitting<I extends z.ZodObject, O, F>(spec: ToolSpec<I, O, F>): (ctx: Ctx) => (input: z.output<I>) => Promise<Answer<O>> {
  if (spec.access !== 'session') {
    const run = spec.run;
    return (ctx) => (input) => run(ctx, input);
  }
  const { run, foresee, bars } = spec;
  return (ctx) => {
    if (!signedIn(ctx)) throw signInFirst();
    return async (input) => {
      const foreseen = foresee ? await foresee(ctx, input) : (undefined as F);
      const payment = ctx.payment;
      if (!payment) return run(ctx, input, foreseen);
      await payment.settle(ctx, bars ? bars(foreseen) : null);
      try {
        return await run(ctx, input, foreseen);
      } catch (error) {
        throw await payment.unserved(ctx, error);
      }
    };
  };
}

/**
 * What run answers: its output's body as an object, or a form that carries it (sealed bytes, a picture beside it, links
 * to its kept parts, a stream whose whole is it). Only the object form is typed against the schema; the others are held to it at run time.
 */
export type Answer<O> = [O] extends [never] ? never : O | JsonBytes | WithImage | WithLinks | EventStream;

/** A tool with its types erased but its name, as the registry, adapters and cards hold it. */
export interface Tool<N extends string = string> {
  name: N;
  title: string;
  description: string;
  access: Access;
  surface: 'both' | 'rest';
  rest: RestBinding | null;
  /** The toolset it belongs to: what /mcp lists it under, and its route's OpenAPI tag. */
  toolset: Toolset;
  /** The status of an input that fails its schema. */
  invalid: 400 | 422;
  /**
   * Every status its run can refuse with: its input's failure, its guard's refusal, the ones its route names
   * (`rest.errors`) and 500. The OpenAPI document lists them with the ones the transport adds, and a deck run with
   * DECK_CHECK_OUTPUT=1 holds its route's refusals to that list (rest/statuses.ts).
   */
  statuses: ReadonlySet<number>;
  /** What its input may hold, as JSON (its route's bounds). */
  bounds: JsonBounds;
  /** Whether it says what it will refuse before a payment per call settles (a priced tool must). */
  foresees: boolean;
  /** Whether its foresight counts the bars a call will serve (a tool priced by bars must). */
  countsBars: boolean;
  input: z.ZodObject;
  output: z.ZodType;
  /** JSON Schema of the output (the answer's JSON body), made once: the OpenAPI success response. */
  outputSchema: { type: 'object'; [key: string]: unknown };
  /** The output's JSON Schema as MCP lists it: its top-level fields and their types (see outlineOf). */
  listedOutputSchema: { type: 'object'; [key: string]: unknown };
  annotations: ToolAnnotations;
  /** JSON Schema of the input, made once from the zod schema. */
  inputSchema: { type: 'object'; [key: string]: unknown };
  /** The description and the input's JSON Schema as MCP lists them: with the tool's `listed` stand-ins. */
  listedDescription: string;
  listedSchema: { type: 'object'; [key: string]: unknown };
  mcpDefaults: Record<string, unknown> | null;
  /**
   * Validates raw input, checks access and the tier lock the plans file puts on it (upgrade_required below the tier
   * that opens it), then runs (inside its guard when it names one).
   */
  call(ctx: Ctx, raw: unknown): Promise<unknown>;
}

/** A tool above the caller's tier: the tier that opens it and how to buy that tier (null: granted, never sold). */
export function upgradeRequired(ctx: Pick<Ctx, 'config' | 'offer'>, name: string, tier: Tier): DeckError {
  const buy = howToBuy(ctx, tier);
  const how = !buy
    ? 'the operator grants it'
    : buy.treasury
      ? `buy ${buy.plan} (${buy.price_usdc} ${buy.currency} for ${buy.period_days} days): send it to ${buy.treasury} on ${buy.chains.map((c) => `${c.name} (${c.id})`).join(' or ')}, then claim the transaction with POST /plans`
      : `${buy.plan} (${buy.price_usdc} ${buy.currency}) opens it, but no treasury is configured to pay yet`;
  return new DeckError(403, 'upgrade_required', `${name} opens on the ${tier} tier: ${how}`, { tier, buy });
}

/** A JSON Schema with some properties stood in for, without the definitions only those properties used. */
function withStandIns(schema: Tool['inputSchema'], standIns: Record<string, Record<string, unknown>>): Tool['inputSchema'] {
  const { $defs, ...rest } = schema;
  const listed = { ...rest, properties: { ...(rest.properties as Record<string, unknown>), ...standIns } };
  return JSON.stringify(listed).includes('"#/$defs/') ? { ...listed, $defs } : listed;
}

export function defineTool<I extends z.ZodObject, O, const N extends string, F = undefined>(spec: ToolSpec<I, O, F> & { name: N }): Tool<N> {
  const inputSchema = z.toJSONSchema(spec.input, { io: 'input', unrepresentable: 'any' }) as Tool['inputSchema'];
  const properties = inputSchema.properties as Record<string, unknown> | undefined;
  const defaults = spec.mcpDefaults ?? null;
  // The listing states the defaults MCP applies.
  const standIns = defaults
    ? { ...spec.listed?.properties, ...Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, { ...(properties?.[k] as object), default: v }])) }
    : spec.listed?.properties;
  const strays = Object.keys(standIns ?? {}).filter((k) => !properties || !(k in properties));
  if (strays.length) throw new Error(`tool ${spec.name}: listed names no input property ${strays.join(', ')}`);
  const outputSchema = outputJsonSchema(spec.output) as Tool['outputSchema'];
  if (outputSchema.type !== 'object') throw new Error(`tool ${spec.name}: an output is an object (MCP structures only objects)`);
  const surface = spec.surface ?? 'both';
  const admit = admitting(spec);
  const statuses = new Set([spec.invalid ?? 422, ...(spec.rest?.errors ?? []), 500]);
  const guarded = spec.guard ? guardStatus(spec.guard) : null;
  if (guarded !== null) statuses.add(guarded);
  const bounds: JsonBounds = { ...TOOL_INPUT_BOUNDS, ...(spec.rest?.maxBody ? { string: spec.rest.maxBody } : {}), ...spec.rest?.bounds };
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    access: spec.access,
    surface,
    rest: spec.rest ?? null,
    toolset: spec.toolset,
    invalid: spec.invalid ?? 422,
    statuses,
    bounds,
    foresees: spec.foresee !== undefined,
    countsBars: spec.foresee !== undefined && spec.bars !== undefined,
    input: spec.input,
    output: spec.output,
    outputSchema,
    listedOutputSchema: outlineOf(outputSchema) as Tool['outputSchema'],
    annotations: spec.annotations,
    inputSchema,
    listedDescription: spec.listed?.description ?? spec.description,
    listedSchema: standIns ? withStandIns(inputSchema, standIns) : inputSchema,
    mcpDefaults: defaults,
    async call(ctx, raw) {
      const run = admit(ctx);
      const tier = ctx.offer.locks.get(spec.name);
      if (tier && !(ctx.principal && opens(ctx.principal.tier, tier))) throw upgradeRequired(ctx, spec.name, tier);
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) throw badInput(problemsOf(parsed.error), undefined, spec.invalid ?? 422);
      const principal = ctx.principal;
      // Inside its guard, so a guard already busy refuses before a payment per call settles.
      const guard = spec.guard;
      const answer =
        guard && principal
          ? ctx.guards.run(guard, spec.guardKey ? `${principal.id}|${spec.guardKey(parsed.data)}` : principal.id, () => run(parsed.data))
          : run(parsed.data);
      if (!ctx.config.checkOutput) return answer;
      return heldTo(spec.output, await answer, (drift) => {
        ctx.log.error('output_drift', { tool: spec.name, field: drift.field, message: drift.message });
        return internalFailure();
      });
    },
  };
}
