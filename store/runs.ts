import { Owned, type OwnedDoc } from './owned.js';

/** Where a run stands: running, done (its window or budget stepped through), or stopped (by its operator, or by a misbehaving decide()). */
export type RunState = 'running' | 'done' | 'stopped';

/** Why a run ended: a code and words, the bar it ended at, and the fields a refused answer named. */
export interface RunEnd {
  code: string;
  message: string;
  bar_t: number | null;
  problems?: { field: string; message: string }[];
}

/** One agent run of a model, as its progress is shown. */
export interface RunRecord {
  id: string;
  model: string;
  mode: 'replay' | 'live';
  state: RunState;
  /** The replay's window (unix seconds); for a live run, from its start. */
  window: { from: number; to: number | null };
  timeout_ms: number;
  retries: number;
  budget_bars: number;
  /** Bars in the window (replay), null for a live run. */
  bars_total: number | null;
  bars_done: number;
  last_bar_t: number | null;
  decisions: { hold: number; enter: number; exit: number };
  /** Decisions the book could not take at a bar (a market closed by the calendar): the run goes on. */
  skipped: { market_closed: number };
  orders: number;
  fills: number;
  /** decide() calls tried again after a timeout, a network failure or a 5xx. */
  retried: number;
  /** Time spent waiting on decide(), in all. */
  decide_ms: number;
  started_at: number;
  ended_at: number | null;
  end: RunEnd | null;
}

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
