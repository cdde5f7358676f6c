import type { Ctx } from '../services/context.js';
import type { HeldTape } from '../store/tape-archive.js';
import { DECK_ENDPOINT, servedOn, type McpEndpoint } from './endpoints.js';

/** The studio's loop, in the order an agent walks it (the trading-workflow skill says the same at length). */
export const LOOP = ['skill_read', 'workflow_read', 'forge', 'rehearse', 'grade'] as const;

/** A tool's name as the instructions write it, so a reader (and a test) tells it from a word. */
const tick = (name: string): string => `\`${name}\``;

const day = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);

/**
 * What the tape holds, per market (six at most, so the words stay short whatever a venue fills in): its timeframes,
 * the first and last day held and how many stretches; the catalogue lists each window.
 */
function tapeWords(held: readonly HeldTape[]): string {
  if (held.length === 0) return 'The tape holds no bars yet.';
  const byMarket = new Map<string, HeldTape[]>();
  for (const h of held) byMarket.set(h.market, [...(byMarket.get(h.market) ?? []), h]);
  const each = [...byMarket].map(([market, hs]) => {
    const windows = hs.flatMap((h) => h.windows);
    const from = Math.min(...windows.map((w) => w.from));
    const to = Math.max(...windows.map((w) => w.to));
    const span = windows.length ? ` ${day(from)}..${day(to - 1)}${windows.length > 1 ? ` (${windows.length} stretches)` : ''}` : '';
    return `${market} ${hs.map((h) => h.tf).join('/')}${span}`;
  });
  return `The tape holds ${each.join('; ')}.`;
}

/** What the caller's tier allows today, from the plans file; a caller not signed in is told how to learn it. */
function tierWords(e: McpEndpoint, ctx: Ctx): string {
  const p = ctx.principal;
  const where = e.byName.has('account') ? '`account`' : '`account` on /mcp';
  if (!p) return `Not signed in: keyless tools answer; join at ${ctx.urls.join}, send the key as a bearer, and ${where} says what your tier allows today.`;
  const { plans, house_allowance_per_day } = ctx.offer.plans;
  const plan = plans.find((x) => x.tier === p.tier);
  const allowance = plan?.allowance_per_day ?? house_allowance_per_day;
  return `Your tier, ${p.tier}, opens ${plan?.opens ?? 'every tool'}; ${allowance} meter units a day (balance: ${where}).`;
}

/** The loop's steps this endpoint serves, in order, and the endpoint that serves the others. */
function loopWords(e: McpEndpoint): string {
  const step = (t: string) => (t === 'skill_read' ? '`skill_read` trading-workflow' : tick(t));
  const here = LOOP.filter((t) => e.byName.has(t)).map(step);
  const elsewhere = LOOP.filter((t) => !e.byName.has(t));
  if (elsewhere.length === 0) return `The loop: ${here.join(', ')}.`;
  // The endpoints that serve every step not served here.
  const where = servedOn(elsewhere[0]!).filter((path) => elsewhere.every((t) => servedOn(t).includes(path)));
  const away = `${elsewhere.map(step).join(', ')} ${elsewhere.length > 1 ? 'are' : 'is'} on ${where.join(' and ')}`;
  return here.length === 0 ? `The loop: ${away}.` : `The loop: ${here.join(', ')} here; then ${away}.`;
}

/** The deck's own endpoint, as described or as a deck serves it (lockedBy its plans file: another value, the same id). */
const isDeck = (e: McpEndpoint): boolean => e.id === DECK_ENDPOINT.id;

/** Where the tools an endpoint does not list are: other toolsets of /mcp (?toolsets=), or /mcp itself for a seller. */
function elsewhereWords(e: McpEndpoint): string {
  if (!isDeck(e)) return `Every other tool is on ${DECK_ENDPOINT.path}.`;
  const more = [...e.toolsets.keys()].filter((t) => !e.defaults.includes(t));
  return more.length ? `tools/list shows toolsets ${e.defaults.join(', ')}; ?toolsets=${more.join(',')} or all lists the rest.` : '';
}

/**
 * What an endpoint tells a client at initialize, the first thing an agent reads: what the endpoint serves, the loop
 * (the steps served here and where the others are), what the caller's tier allows, what the tape holds, where other
 * tools are. True per endpoint and caller; short (test/mcp-instructions.test.ts holds it under 250 tokens).
 */
export async function instructionsFor(e: McpEndpoint, ctx: Ctx): Promise<string> {
  const serves = isDeck(e) ? 'serves every tool of the deck' : `serves ${e.tools.map((t) => tick(t.name)).join(', ')}`;
  const tape = e.byName.has('tape') || e.byName.has('rehearse') ? [tapeWords(await ctx.store.archive.held())] : [];
  return [`${e.name} (${e.path}) ${serves}.`, loopWords(e), tierWords(e, ctx), ...tape, elsewhereWords(e)].filter((s) => s !== '').join(' ');
}
