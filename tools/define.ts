import { z } from 'zod';
import type { Ctx } from './context.js';
import { badInput, DeckError, problemsOf, signInFirst } from './errors.js';
import type { GuardName } from './guards.js';
import { opens, type Tier } from './principal.js';

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
  /** The result carries a session to set as the deck_session cookie, or the call ends the session. */
  cookie?: 'set' | 'clear';
  /** The OpenAPI tag the route is listed under (the spec's tags: skills, book, records, plane, chat, agent, typed, ...). */
  tag?: string;
}

export interface ToolSpec<I extends z.ZodObject, O> {
  name: string;
  title: string;
  description: string;
  input: I;
  output?: z.ZodType<O>;
  access: Access;
  /** The lowest tier that opens the tool; below it the call answers upgrade_required. */
  tier?: Tier;
  guard?: GuardName;
  /** 'rest' marks a person's act (join, login, key rotation): never an agent's, so never on MCP. */
  surface?: 'both' | 'rest';
  rest?: RestBinding;
  run(ctx: Ctx, input: z.output<I>): Promise<O>;
}

/** A tool with its types erased, as the registry, adapters and cards hold it. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  access: Access;
  tier: Tier | null;
  surface: 'both' | 'rest';
  rest: RestBinding | null;
  input: z.ZodObject;
  output: z.ZodType | null;
  /** JSON Schema of the input, made once from the zod schema. */
  inputSchema: { type: 'object'; [key: string]: unknown };
  /** Validates raw input, checks access and tier, then runs (inside its guard when it names one). */
  call(ctx: Ctx, raw: unknown): Promise<unknown>;
}

/** The plan a tier is bought with, as an upgrade_required answer names it: the cheapest sold plan that opens it. */
export type PlanOffered = { id: string; price_usdc: number; period_days: number | null };

export const planOpening = (ctx: Pick<Ctx, 'offer'>, tier: Tier): PlanOffered | null =>
  ctx.offer?.plans.plans.filter((p) => p.price_usdc > 0 && opens(p.tier, tier)).sort((a, b) => a.price_usdc - b.price_usdc)[0] ?? null;

export const upgradeRequired = (name: string, tier: Tier, plan: PlanOffered | null = null): DeckError =>
  new DeckError(
    403,
    'upgrade_required',
    `${name} opens on the ${tier} tier${plan ? `: ${plan.id} (${plan.price_usdc} USDC${plan.period_days ? ` per ${plan.period_days} days` : ''}) opens it` : ''}`,
    { tier, ...(plan ? { plan: plan.id } : {}) },
  );

export function defineTool<I extends z.ZodObject, O>(spec: ToolSpec<I, O>): Tool {
  const tier = spec.tier ?? null;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    access: spec.access,
    tier,
    surface: spec.surface ?? 'both',
    rest: spec.rest ?? null,
    input: spec.input,
    output: spec.output ?? null,
    inputSchema: z.toJSONSchema(spec.input, { io: 'input', unrepresentable: 'any' }) as Tool['inputSchema'],
    async call(ctx, raw) {
      if (spec.access === 'session' && !ctx.principal) throw signInFirst();
      if (tier && !(ctx.principal && opens(ctx.principal.tier, tier))) throw upgradeRequired(spec.name, tier, planOpening(ctx, tier));
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) throw badInput(problemsOf(parsed.error));
      const principal = ctx.principal;
      if (spec.guard && principal) return ctx.guards.run(spec.guard, principal.id, () => spec.run(ctx, parsed.data));
      return spec.run(ctx, parsed.data);
    },
  };
}

/**
 * An answer already serialized, such as a sealed tape window: the REST adapter sends these bytes as they
 * are (the same request, the same bytes), MCP reads them back into structured content.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** An answer with a picture: MCP carries the PNG as image content beside the body. */
export class WithImage {
  constructor(
    readonly body: Record<string, unknown>,
    readonly png: Uint8Array,
  ) {}
}
