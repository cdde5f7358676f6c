import { z } from 'zod';
import { UnixS } from '../core/schemas.js';
import { Owned, type OwnedDoc } from './owned.js';

/** Where a run stands: running, done (its window or budget stepped through), or stopped (by its operator, or by a misbehaving decide()). */
const RUN_STATES = ['running', 'done', 'stopped'] as const;
export type RunState = (typeof RUN_STATES)[number];


/** Why a run ended: a code and words, the bar it ended at, and the fields a refused answer named. */
export const RunEndSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  bar_t: UnixS.nullable(),
  problems: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional().describe('the fields a refused answer named'),
});
export type RunEnd = z.infer<typeof RunEndSchema>;

/** One agent run of a model, as its progress is shown. Times of bars are unix seconds; of the run, milliseconds. */
export const RunRecordSchema = z.strictObject({
  id: z.string().regex(/^run_[0-9a-f]{16}$/),
  model: z.string(),
  mode: z.enum(['replay', 'live']),
  state: z.enum(RUN_STATES),
  window: z.strictObject({ from: UnixS, to: UnixS.nullable() }).describe("the replay's window; for a live run, from its start (to null)"),
  timeout_ms: z.number().int(),
  retries: z.number().int(),
  budget_bars: z.number().int(),
  bars_total: z.number().int().nullable().describe('bars in the window (replay); null for a live run'),
  bars_done: z.number().int(),
  last_bar_t: UnixS.nullable(),
  decisions: z.strictObject({ hold: z.number().int(), enter: z.number().int(), exit: z.number().int() }),
  skipped: z.strictObject({ market_closed: z.number().int() }).describe('decisions the book could not take at a bar (a market closed by the calendar): the run goes on'),
  orders: z.number().int(),
  fills: z.number().int(),
  retried: z.number().int().describe('decide() calls tried again after a timeout, a network failure or a 5xx'),
  decide_ms: z.number().describe('time spent waiting on decide(), in all'),
  started_at: z.number().int(),
  ended_at: z.number().int().nullable(),
  end: RunEndSchema.nullable().describe('how the run ended; null while it runs'),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export type RunsDoc = OwnedDoc<RunRecord>;

/** Every principal's runs, by (principal, id). */
export class Runs extends Owned<RunRecord> {
  /** Writes the run as it now stands (added when new). */
  put(principal: string, run: RunRecord): Promise<void> {
    const copy = structuredClone(run);
    return this.file.update((d) => {
      const mine = (d.by_principal[principal] ??= []);
      const at = mine.findIndex((r) => r.id === run.id);
      if (at < 0) mine.push(copy);
      else mine[at] = copy;
    });
  }

  /** Runs a stopped deck left running end as stopped: nothing steps them any more. */
  async settleAfterRestart(now: number): Promise<void> {
    const stale = Object.values(this.file.data.by_principal).some((runs) => runs.some((r) => r.state === 'running'));
    if (!stale) return;
    await this.file.update((d) => {
      for (const runs of Object.values(d.by_principal)) {
        for (const r of runs) {
          if (r.state !== 'running') continue;
          r.state = 'stopped';
          r.ended_at = now;
          r.end = { code: 'deck_restarted', message: 'the deck stopped while the run was under way; its fills so far stay', bar_t: r.last_bar_t };
        }
      }
    });
  }
}

/** What a run is started with: its mode, window and bounds. */
export type RunInit = Pick<RunRecord, 'mode' | 'window' | 'timeout_ms' | 'retries' | 'budget_bars' | 'bars_total'>;
