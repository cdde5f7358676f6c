import type { Ctx } from '../context.js';
import type { ResourceLink } from '../answers.js';
import { REHEARSALS_KEPT } from '../../store/grades.js';

/**
 * A rehearsal's large parts as resources its principal reads when needed: every trade (JSON) and its sealed plate
 * (PNG), named by the rehearsal's digest. They are read from what the deck keeps of the rehearsal for grading (its
 * trades, the plate's id) and from the plates store, never made again, so they live as long as it is kept.
 */
const SCHEME = 'deck://rehearsals/';
const tradesUri = (digest: string) => `${SCHEME}${digest}/trades`;
const plateUri = (digest: string) => `${SCHEME}${digest}/plate`;

/** The tool whose answers link these resources: an endpoint serving it lists their templates and reads them. */
export const LINKING_TOOL = 'rehearse';

const TRADES = {
  name: 'rehearsal-trades',
  title: 'A rehearsal\'s trades',
  description: 'Every trade of one of your rehearsals ({ side, entry_t, entry, stop, exit_t, exit, r, why }), with its market, timeframe and window, as JSON.',
  mimeType: 'application/json',
} as const;
const PLATE = {
  name: 'rehearsal-plate',
  title: 'A rehearsal\'s plate',
  description: 'The sealed plate of one of your rehearsals asked with plate: true (price with entries and exits, equity in R, the null), as PNG.',
  mimeType: 'image/png',
} as const;

/** resources/templates/list's entries. */
export const REHEARSAL_TEMPLATES = [
  { uriTemplate: `${SCHEME}{rehearsal_digest}/trades`, ...TRADES },
  { uriTemplate: `${SCHEME}{rehearsal_digest}/plate`, ...PLATE },
] as const;

/** The links a rehearsal's answer carries: its trades, and its plate when one was sealed. */
export const rehearsalLinks = (digest: string, plate: boolean): ResourceLink[] => [
  { uri: tradesUri(digest), ...TRADES },
  ...(plate ? [{ uri: plateUri(digest), ...PLATE }] : []),
];

/** What resources/read of a rehearsal's part comes to. */
export type RehearsalRead =
  | { kind: 'contents'; contents: ({ uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string })[] }
  | { kind: 'join_required' }
  | { kind: 'not_found'; message: string };

const KEPT_FOR = `a rehearsal is kept as long as its forge, the last ${REHEARSALS_KEPT} of each seed`;

/**
 * Reads a rehearsal's part for the caller; null for a URI not under deck://rehearsals/. Another principal's rehearsal
 * is answered as one not kept, in the same words, so a reader learns nothing of whether it exists.
 */
export async function readRehearsalPart(ctx: Ctx, uri: string): Promise<RehearsalRead | null> {
  if (!uri.startsWith(SCHEME)) return null;
  if (!ctx.principal) return { kind: 'join_required' };
  const [digest, part, ...rest] = uri.slice(SCHEME.length).split('/');
  if (!digest || !/^[0-9a-f]{64}$/.test(digest) || (part !== 'trades' && part !== 'plate') || rest.length > 0) {
    return { kind: 'not_found', message: `no resource ${uri}: a rehearsal's parts are ${REHEARSAL_TEMPLATES.map((t) => t.uriTemplate).join(' and ')}, rehearsal_digest 64 lowercase hex digits` };
  }
  const notKept: RehearsalRead = { kind: 'not_found', message: `no rehearsal ${digest} of yours is kept (${KEPT_FOR}): rehearse again to read it` };
  const kept = ctx.store.grades.rehearsal(ctx.principal.id, digest, ctx.clock());
  if (!kept) return notKept;
  if (part === 'trades') {
    // A newer rehearsal may have dropped its trades since the record was read: it is then not kept.
    const whole = await ctx.store.grades.whole(kept);
    if (!whole) return notKept;
    // The trades as the rehearsal answered them: grading's witness (each exit bar's open) stays with grading.
    const trades = whole.trades.map(({ exit_open: _witness, ...trade }) => trade);
    const body = { rehearsal_digest: digest, seed_hash: kept.id, market: kept.market, timeframe: kept.timeframe, window: kept.window, trades };
    return { kind: 'contents', contents: [{ uri, mimeType: TRADES.mimeType, text: JSON.stringify(body) }] };
  }
  const png = kept.plate ? await ctx.store.plates.read(kept.plate, 'png') : null;
  if (!png) return { kind: 'not_found', message: `rehearsal ${digest} drew no plate: rehearse with plate: true to seal one` };
  return { kind: 'contents', contents: [{ uri, mimeType: PLATE.mimeType, blob: png.toString('base64') }] };
}
