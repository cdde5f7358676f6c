import { sha256 } from '../grade/compose.js';
import type { EndWhy, Epoch, Job, Move, Quote, RowId, SeriesRecord, SeriesState, Terms, UnsignedPlan, Verdict } from './types.js';
import { mandateWords } from './words.js';

/**
 * The series machine: a series of epoch jobs under one mandate moves only by a row of ROWS. The deck's routes bring
 * the facts (a confirmed quote, the layer's handshakes, the clock); these pure functions decide what moves. Every
 * function answers a new record and the moves it made; none mutates what it is given.
 */

/** What each state means, in words (docs/series.md, OpenAPI). */
export const STATE_MEANS: Readonly<Record<SeriesState, string>> = {
  MANDATED: 'The mandate is kept and the epochs are cut; no epoch has opened yet.',
  EPOCH_OPEN: 'An epoch is open: the layer holds its handshake and the unsigned createJob is the buyer\'s to sign.',
  EPOCH_ENDED: 'The last epoch opened has ended (the layer ended its handshake, with its verdict); the next may open when its window begins.',
  STOPPED: 'Revoked: no new epoch opens; an epoch still open submits and is graded, and the series follows it.',
  ENDED: 'The series has ended: its last epoch ended, its validUntil passed, or it was stopped with no epoch open. Final.',
};

export interface Row {
  id: RowId;
  from: string;
  by: string;
  when: string;
  to: string;
  also: string;
}

const EPOCHS = 'POST /v1/series/{id}/epochs';
const READ = 'a read of the series';
const REVOKE = 'POST /v1/series/{id} with revoke';

/** The whole state table. R04, R06 and R10 keep the numbers the interface document gives them. */
export const ROWS: readonly Row[] = [
  { id: 'R01', from: 'none', by: 'POST /v1/series', when: 'a confirmed quote of external kind, signed in', to: 'MANDATED', also: 'epochs cut, each with its paymentRef' },
  { id: 'R02', from: 'MANDATED', by: EPOCHS, when: 'its window has begun, the mandate is valid, no epoch is open', to: 'EPOCH_OPEN', also: 'handshake with the seller, then settle; the unsigned createJob is returned; the deck never signs' },
  { id: 'R03', from: 'EPOCH_ENDED', by: EPOCHS, when: 'as R02, for the epoch whose window holds the clock', to: 'EPOCH_OPEN', also: 'as R02; epochs whose windows passed unopened are skipped' },
  { id: 'R04', from: 'EPOCH_OPEN', by: READ, when: 'the layer ended the open epoch\'s handshake', to: 'EPOCH_ENDED', also: 'the verdict is kept on the epoch' },
  { id: 'R05', from: 'EPOCH_OPEN', by: READ, when: 'the layer reports the open epoch\'s handshake submitted', to: 'EPOCH_OPEN', also: 'the epoch reads submitted' },
  { id: 'R06', from: 'any but ENDED', by: READ, when: 'the last epoch ended, or validUntil is reached', to: 'ENDED', also: 'epochs never opened are skipped' },
  { id: 'R07', from: 'MANDATED', by: REVOKE, when: 'always', to: 'STOPPED', also: 'no epoch opens' },
  { id: 'R08', from: 'EPOCH_OPEN', by: REVOKE, when: 'always', to: 'STOPPED', also: 'the open epoch still submits and is graded' },
  { id: 'R09', from: 'EPOCH_ENDED', by: REVOKE, when: 'always', to: 'STOPPED', also: 'no new epoch opens' },
  { id: 'R10', from: 'STOPPED', by: READ, when: 'no epoch is open', to: 'ENDED', also: '' },
  { id: 'R11', from: 'STOPPED or ENDED', by: REVOKE, when: '', to: 'unchanged', also: '409' },
  { id: 'R12', from: 'none', by: 'POST /v1/series', when: 'a quote of vault kind', to: 'none', also: '422 vault_not_built until the vault contract grants the mandate on chain' },
  { id: 'R13', from: 'STOPPED or ENDED', by: READ, when: 'the layer submitted or ended an epoch left open', to: 'unchanged', also: 'the epoch follows the layer (then R10)' },
  { id: 'R14', from: 'STOPPED or ENDED', by: `${EPOCHS}, or a read adopting a kept handshake`, when: 'the layer opened an epoch while the series was being stopped or ended', to: 'unchanged', also: 'the epoch is open; it submits and is graded' },
];

/** The states and the table in Markdown: docs/series.md and the OpenAPI description carry these words. */
export function seriesMarkdown(): string {
  const states = Object.entries(STATE_MEANS).map(([s, means]) => `- \`${s}\`: ${means}`);
  const rows = ROWS.map((r) => `| ${r.id} | ${r.from} | ${r.by} | ${r.when} | ${r.to} | ${r.also} |`);
  return [...states, '', '| Row | State | Moved by | Condition | Next state | Also |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

export const paymentRefOf = (seriesId: string, index: number): string => `0x${sha256(`${seriesId}:${index}`)}`;

const isOpen = (e: Epoch): boolean => e.state === 'open' || e.state === 'submitted';
export const openEpoch = (r: SeriesRecord): Epoch | null => r.epochs.find(isOpen) ?? null;

/** Appends a move to the record (numbered in its series) and answers it. */
function moved(r: SeriesRecord, m: Omit<Move, 'n' | 'from' | 'to'> & { to?: SeriesState }): Move {
  const { row, what, to, at, ...about } = m;
  const move: Move = { n: r.moves.length + 1, row, what, from: r.state, to: to ?? r.state, at, ...about };
  r.state = move.to;
  r.moves.push(move);
  return move;
}

export interface Changed {
  record: SeriesRecord;
  moves: Move[];
}

/** R01: a confirmed quote of external kind becomes a mandated series with its epochs cut. */
export function openSeries(a: { id: string; quote: Quote; terms: Terms; series_total_usdc: number; from: number; now: number }): SeriesRecord {
  const { id, quote, from } = a;
  const epochs: Epoch[] = Array.from({ length: quote.epochs }, (_, i) => ({
    index: i + 1,
    window: { from: from + i * quote.epoch_s, to: from + (i + 1) * quote.epoch_s },
    paymentRef: paymentRefOf(id, i + 1),
    state: 'pending',
    handshake_id: null,
    opened_at: null,
    ended_at: null,
    verdict: null,
    unsigned: null,
    job: null,
  }));
  const validUntil = from + quote.epochs * quote.epoch_s;
  return {
    id,
    state: 'MANDATED',
    created_at: a.now,
    from,
    validUntil,
    quote,
    terms: a.terms,
    series_total_usdc: a.series_total_usdc,
    mandate: mandateWords({ quote, terms: a.terms, from, validUntil, total: a.series_total_usdc }),
    epochs,
    stopped: null,
    ended: null,
    moves: [{ n: 1, row: 'R01', what: 'opened', from: null, to: 'MANDATED', at: a.now }],
  };
}

export interface Refusal {
  ok: false;
  code: 'epoch_open' | 'stopped' | 'ended' | 'mandate_expired' | 'window_not_begun';
  message: string;
}

const iso = (t: number): string => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/** The epoch whose window holds `now`, 1-based; 0 before the first window, epochs + 1 after the last. */
const epochAt = (r: SeriesRecord, now: number): number =>
  now < r.from ? 0 : Math.min(r.epochs.length + 1, Math.floor((now - r.from) / r.quote.epoch_s) + 1);

/**
 * R02, R03: which epoch may open now, or why none may. Only from MANDATED or EPOCH_ENDED, while the mandate is valid
 * (before validUntil), and only the epoch whose window holds the clock, after the last one opened: epochs whose
 * windows passed unopened are skipped when it opens.
 */
export function epochToOpen(r: SeriesRecord, now: number): { ok: true; epoch: number } | Refusal {
  const open = openEpoch(r);
  if (r.state === 'EPOCH_OPEN') return { ok: false, code: 'epoch_open', message: `epoch ${open?.index} is open: an epoch opens only from MANDATED or EPOCH_ENDED` };
  if (r.state === 'STOPPED') return { ok: false, code: 'stopped', message: 'the series is STOPPED: no new epoch opens' };
  if (r.state === 'ENDED') return { ok: false, code: 'ended', message: 'the series has ENDED: no epoch opens' };
  if (now >= r.validUntil) return { ok: false, code: 'mandate_expired', message: `the mandate ran until ${iso(r.validUntil)}` };
  const opened = r.epochs.filter((e) => e.handshake_id !== null).map((e) => e.index);
  const first = Math.max(0, ...opened) + 1;
  const at = epochAt(r, now);
  if (at < first) {
    const begins = r.epochs[first - 1]!.window.from;
    return { ok: false, code: 'window_not_begun', message: `epoch ${first}'s window begins at ${iso(begins)}` };
  }
  return { ok: true, epoch: at };
}

/** An epoch the layer opened: from the epochs route, or adopted from the recovery ledger by a read. */
export interface Opening {
  epoch: number;
  handshake_id: string;
  opened_at: number;
  unsigned: UnsignedPlan | null;
  job: Job | null;
  adopted: boolean;
}

/**
 * R02, R03, R14: the layer opened an epoch. From MANDATED or EPOCH_ENDED the series is EPOCH_OPEN; a series stopped or
 * ended meanwhile keeps its state and the epoch is open all the same. Epochs before it never opened are skipped. The
 * same handshake told twice (a read adopted it while the route was writing) moves nothing; only a missing plan is kept.
 */
export function epochOpened(given: SeriesRecord, o: Opening, now: number): Changed {
  const r = structuredClone(given);
  const moves: Move[] = [];
  const epoch = r.epochs[o.epoch - 1]!;
  if (epoch.handshake_id === o.handshake_id) {
    if (!epoch.unsigned && o.unsigned) {
      epoch.unsigned = o.unsigned;
      epoch.job = o.job;
      moves.push(moved(r, { row: null, what: 'plan_kept', at: now, epoch: o.epoch, handshake_id: o.handshake_id }));
    }
    return { record: r, moves };
  }
  for (const e of r.epochs) if (e.index < o.epoch && e.state === 'pending') e.state = 'skipped';
  Object.assign(epoch, { state: 'open', handshake_id: o.handshake_id, opened_at: o.opened_at, unsigned: o.unsigned, job: o.job });
  const row: RowId = r.state === 'MANDATED' ? 'R02' : r.state === 'EPOCH_ENDED' ? 'R03' : 'R14';
  const to: SeriesState = row === 'R14' ? r.state : 'EPOCH_OPEN';
  moves.push(moved(r, { row, what: o.adopted ? 'epoch_adopted' : 'epoch_opened', to, at: now, epoch: o.epoch, handshake_id: o.handshake_id }));
  return { record: r, moves };
}

/** The layer's handshake of the open epoch, as a read found it. */
export interface HandshakeFact {
  epoch: number;
  handshake_id: string;
  state: 'open' | 'submitted' | 'ended';
  verdict: Verdict | null;
  ended_at: number | null;
}

/** What a read brings: handshakes the recovery ledger kept, the open epoch's handshake, and a plan settled again. */
export interface Facts {
  adopt: Opening[];
  handshake: HandshakeFact | null;
  plan: { epoch: number; handshake_id: string; unsigned: UnsignedPlan; job: Job } | null;
}

function end(r: SeriesRecord, row: 'R06' | 'R10', why: EndWhy, now: number): Move {
  for (const e of r.epochs) if (e.state === 'pending') e.state = 'skipped';
  r.ended = { at: now, why };
  return moved(r, { row, what: 'ended', to: 'ENDED', at: now, why });
}

/**
 * A read of the series follows the layer: adopts handshakes the recovery ledger kept (R02, R03, R14), keeps a plan
 * settled again, follows the open epoch's handshake (R04, R05, R13), then ends the series when its last epoch ended
 * or validUntil is reached (R06), or when it is stopped with no epoch open (R10).
 */
export function follow(given: SeriesRecord, facts: Facts, now: number): Changed {
  let r = given;
  const moves: Move[] = [];
  for (const o of facts.adopt) {
    const known = r.epochs[o.epoch - 1]?.handshake_id === o.handshake_id;
    if (!known && openEpoch(r)) continue;
    const c = epochOpened(r, o, now);
    r = c.record;
    moves.push(...c.moves);
  }
  r = structuredClone(r);
  const p = facts.plan;
  const planned = p ? r.epochs[p.epoch - 1] : undefined;
  if (p && planned && planned.handshake_id === p.handshake_id && isOpen(planned) && !planned.unsigned) {
    Object.assign(planned, { unsigned: p.unsigned, job: p.job });
    moves.push(moved(r, { row: null, what: 'plan_kept', at: now, epoch: p.epoch, handshake_id: p.handshake_id }));
  }
  const h = facts.handshake;
  const epoch = h ? r.epochs[h.epoch - 1] : undefined;
  if (h && epoch && epoch.handshake_id === h.handshake_id && isOpen(epoch)) {
    const following = r.state === 'EPOCH_OPEN';
    if (h.state === 'ended') {
      Object.assign(epoch, { state: 'ended', verdict: h.verdict, ended_at: h.ended_at ?? now });
      moves.push(moved(r, { row: following ? 'R04' : 'R13', what: 'epoch_ended', to: following ? 'EPOCH_ENDED' : r.state, at: now, epoch: h.epoch, handshake_id: h.handshake_id }));
    } else if (h.state === 'submitted' && epoch.state === 'open') {
      epoch.state = 'submitted';
      moves.push(moved(r, { row: following ? 'R05' : 'R13', what: 'epoch_submitted', at: now, epoch: h.epoch, handshake_id: h.handshake_id }));
    }
  }
  if (r.state !== 'ENDED') {
    const last = r.epochs[r.epochs.length - 1]!;
    if (last.state === 'ended') moves.push(end(r, 'R06', 'last_epoch', now));
    else if (now >= r.validUntil) moves.push(end(r, 'R06', 'valid_until', now));
    else if (r.state === 'STOPPED' && !openEpoch(r)) moves.push(end(r, 'R10', 'stopped', now));
  }
  return { record: r, moves };
}

/** R07, R08, R09: a revoke stops the series; R11: a series already stopped or ended refuses (409). */
export function revoke(given: SeriesRecord, why: string, now: number): Changed | { ok: false; code: 'already_stopped' | 'already_ended'; message: string } {
  if (given.state === 'STOPPED') return { ok: false, code: 'already_stopped', message: 'the series is already STOPPED' };
  if (given.state === 'ENDED') return { ok: false, code: 'already_ended', message: 'the series has already ENDED' };
  const r = structuredClone(given);
  const row: RowId = r.state === 'MANDATED' ? 'R07' : r.state === 'EPOCH_OPEN' ? 'R08' : 'R09';
  r.stopped = { at: now, why };
  return { record: r, moves: [moved(r, { row, what: 'revoked', to: 'STOPPED', at: now, why })] };
}

/** The move that follows, in words, for a caller (human or agent) reading the series. */
export function nextOf(r: SeriesRecord, now: number): string {
  const route = `POST /v1/series/${r.id}/epochs (tool epoch_open)`;
  const read = `GET /v1/series/${r.id} (tool series_read)`;
  const open = openEpoch(r);
  const upcoming = () => {
    const pick = epochToOpen(r, now);
    if (pick.ok) return `open epoch ${pick.epoch} now with ${route}`;
    if (pick.code === 'window_not_begun') return `open the next epoch with ${route} once its window begins: ${pick.message}`;
    return `read the series with ${read}: ${pick.message}`;
  };
  switch (r.state) {
    case 'MANDATED':
    case 'EPOCH_ENDED':
      return upcoming();
    case 'EPOCH_OPEN':
      return `epoch ${open!.index} is open until ${iso(open!.window.to)}: sign and send its unsigned createJob from your own wallet; read the series with ${read} to follow the layer's handshake`;
    case 'STOPPED':
      return open
        ? `stopped: no new epoch opens; epoch ${open.index} still submits and is graded: read the series with ${read} to follow it`
        : `stopped with no epoch open: the next read (${read}) ends the series`;
    case 'ENDED':
      return open ? `ended; epoch ${open.index} still submits and is graded: read the series with ${read} to follow it` : 'the series has ended: nothing more moves';
  }
}
