import { scriptOfReading, type Script } from '../../engine/decider/index.js';
import type { ScanSource } from '../../engine/forge/index.js';
import { secondsToNextUtcDay, utcDay } from '../../store/spend.js';
import type { SessionCtx } from '../context.js';
import { DeckError, limitReached } from '../../core/errors.js';
import { recordSpend } from '../meter/spend.js';
import type { Tier } from '../../core/principal.js';
import { deciderOf, forgeOnPool, fromScript, fromWords, type FieldOf } from './cast.js';
import { readWith, type LaneId } from './forge-lanes.js';
import { tapeWarnings } from '../tape/held.js';

/** The largest forge request, in bytes of JSON. */
export const FORGE_PAYLOAD_CAP = 256 * 1024;

/** How long a forge is kept for lookup by its seed hash. */
export const FORGE_KEPT_MS = 2 * 60 * 60 * 1000;

/** Forges a principal may cast per UTC day, by tier (null: no count; the meter records every cast). */
export const FORGES_PER_DAY: Readonly<Record<Tier, number | null>> = { free: 3, plan: null, max: null, house: null };

/**
 * How MCP lists a script block: its whole JSON Schema costs thousands of tokens in every model context, and a model
 * rarely writes one by hand; it passes on the script a forge answered, or an onboarded example's.
 */
export const SCRIPT_LISTED = {
  type: 'object',
  description:
    'a script block (script.v1: market, timeframe, session, side, entry, stop, exit): pass the script a forge answered, or an example from forge_onboard. Its full JSON Schema is the POST /forge body in the deck\'s OpenAPI document (GET /openapi.json); skill_read strategy-compile explains it.',
};

/**
 * A tier's daily count of forges: on a local deck (DECK_PROFILE=local, one person on their own machine) the free tier
 * has none, and a forge paid for per call (x402) is bought, never counted.
 */
const forgesPerDay = (ctx: SessionCtx, tier: Tier): number | null =>
  ctx.payment || (tier === 'free' && ctx.config.profile === 'local') ? null : FORGES_PER_DAY[tier];

/**
 * What a body carrying a script block may hold: its expressions nest (the schema is recursive) and a script of the
 * trial's 64 KiB holds thousands of entries; the rules the reader's corpus forges nest 11 deep with at most 3,000.
 */
export const SCRIPT_BOUNDS = { depth: 32, entries: 16_384 };

const tierLimit = (tier: Tier, limit: number, now: number) =>
  limitReached('forge_limit', `the ${tier} tier casts ${limit} forges a day; they are cast already today`, secondsToNextUtcDay(now), { tier, per_day: limit });

/**
 * What a cast forges: the caller's script block (nothing is read), or the script the words state as the chosen lane
 * reads them (422 naming intent with every part that is missing or ambiguous); with what the scan traces the code to
 * and the field a refusal names.
 */
async function toForge(
  ctx: SessionCtx,
  input: { intent: string; script?: Script | undefined; lane?: LaneId | undefined },
): Promise<{ script: Script; source: ScanSource; fieldOf: FieldOf }> {
  if (input.script) return { script: input.script, source: { script: input.script }, fieldOf: fromScript };
  const reading = await readWith(ctx, input.intent, input.lane ?? 'embedded');
  const got = scriptOfReading(reading);
  if (got.ok) return { script: got.script, source: { text: input.intent, parts: reading }, fieldOf: fromWords };
  throw new DeckError(422, 'bad_input', `intent: ${got.message}`, { problems: [{ field: 'intent', message: got.message }], parts: got.refused });
}

/** What a forge is asked: the words, who states them, and the script block or the lane that reads the words. */
interface ForgeAsk {
  intent: string;
  author?: string | undefined;
  script?: Script | undefined;
  lane?: LaneId | undefined;
}

/** Forges a rule, one cast at a time per principal (the forge_cast guard, the forge tool's own): the studio's forge move. */
export const forgeRule = (ctx: SessionCtx, input: ForgeAsk) => ctx.guards.run('forge_cast', ctx.principal.id, async () => cast(ctx, input, await foreseeForge(ctx, input)));

type Foreseen = Awaited<ReturnType<typeof toForge>>;

/**
 * What a cast is refused for, found before it is paid for or done: a request over the cap, the tier's forges of the
 * day cast already, words the lane cannot read into a script (or a lane the tier does not fund), a script the decider
 * cannot run. Answers the script to forge.
 */
export async function foreseeForge(ctx: SessionCtx, input: ForgeAsk): Promise<Foreseen> {
  const p = ctx.principal;
  // REST's body parser holds the cap; an MCP call is measured here, so both surfaces refuse alike.
  const bytes = Buffer.byteLength(JSON.stringify(input));
  if (bytes > FORGE_PAYLOAD_CAP) throw new DeckError(413, 'too_large', `the forge request is ${bytes} bytes; the cap is ${FORGE_PAYLOAD_CAP}`, { cap_bytes: FORGE_PAYLOAD_CAP });
  const now = ctx.clock();
  const limit = forgesPerDay(ctx, p.tier);
  if (limit !== null && ctx.store.forges.castsOn(p.id, utcDay(now)) >= limit) throw tierLimit(p.tier, limit, now);
  const what = await toForge(ctx, input);
  deciderOf(what.script, what.fieldOf);
  return what;
}

export async function cast(ctx: SessionCtx, input: ForgeAsk, what: Foreseen) {
  const p = ctx.principal;
  const now = ctx.clock();
  const day = utcDay(now);
  const limit = forgesPerDay(ctx, p.tier);
  const { script } = what;
  const { seed_hash, version, code, watermark, review: reviewed, scan: scanned } = await forgeOnPool(ctx, script, what.source, what.fieldOf);
  await ctx.store.forges.keep(
    p.id,
    { id: seed_hash, version, intent: input.intent, author: input.author ?? null, script, code, review: reviewed, scan: scanned, created_at: now, expires_at: now + FORGE_KEPT_MS },
    day,
    (today) => {
      if (limit !== null && today >= limit) throw tierLimit(p.tier, limit, now);
    },
  );
  await ctx.store.trials.note(p.id, script.market, script.timeframe, seed_hash);
  await recordSpend(ctx, 'forge');
  return { ok: true, seed_hash, version, code, watermark, script, review: reviewed, scan: scanned, ...(await tapeWarnings(ctx, script.market, script.timeframe)) };
}
