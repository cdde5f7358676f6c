import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TYPED_DECISION_VERSION, type Bar, type TypedDecision } from '../../engine/book/index.js';
import { barsToRows, type BarRow } from '../../engine/bars.js';
import { TIMEFRAME_SECONDS } from '../../engine/markets.js';
import type { ModelRecord } from '../../store/models.js';
import type { RunEnd, RunInit, RunRecord } from '../../store/runs.js';
import type { Store } from '../../store/store.js';
import { askDecide } from '../../upstream/decide/client.js';
import type { BookRef } from '../../upstream/venue/venue.js';
import type { SessionCtx } from '../context.js';
import { DeckError, limitReached, type Problem } from '../../core/errors.js';
import { liveBook, replayBook } from '../book/books.js';
import { positionView } from '../book/views.js';
import { meteredCandles } from '../tape/candle-window.js';
import { applyDecision, countRefused, readDecision } from '../typed/decision.js';

/** Runs one principal may have under way at once. */
export const MOST_RUNNING = 2;
/** A running run's progress is written this often (it is read from memory meanwhile). */
const PERSIST_EVERY_BARS = 1000;
const PERSIST_EVERY_MS = 5000;
/** The wait before trying a decide() call again, times the attempt. */
const RETRY_BACKOFF_MS = 100;

/** A run under way: its progress, kept in memory and written now and then, and the switch that stops it. */
interface Under {
  principal: string;
  record: RunRecord;
  abort: AbortController;
  done: Promise<void>;
  persisted: { bars: number; at: number };
}

/** What a run's loop is handed: the call that started it (it acts as that principal), the model, and its book. */
interface Drive {
  ctx: SessionCtx;
  model: ModelRecord;
  book: BookRef;
  under: Under;
}


/** What one bar's decide() came to: a decision, or the end of the run. */
type Asked = { decision: TypedDecision } | { end: RunEnd };

const stopped = (code: string, message: string, bar_t: number | null, problems?: Problem[]): RunEnd => ({ code, message, bar_t, ...(problems ? { problems } : {}) });

/**
 * The agent rail: steps a model's decide() bar by bar, in replay over a past window of the tape or live as the tape
 * closes new bars, and routes each answer into the book through the typed lane. A decide() that misbehaves (no
 * answer in time after its retries, an answer outside 2xx, an answer that is not typed-decision.v1, or one the
 * book refuses) stops the run with the reason; the fills it made stay. Runs live in this process: a deck that
 * stops ends them (they read stopped, deck_restarted, after a start).
 */
export class Rail {
  private readonly under = new Map<string, Under>();

  private constructor(
    private readonly store: Store,
    private readonly clock: () => number,
  ) {}

  static async open(store: Store, clock: () => number): Promise<Rail> {
    await store.runs.settleAfterRestart(clock());
    return new Rail(store, clock);
  }

  /** A run as it stands: from memory while under way, else as written. */
  view(principal: string, id: string): RunRecord | null {
    const u = this.under.get(id);
    if (u && u.principal === principal) return structuredClone(u.record);
    return this.store.runs.get(principal, id);
  }

  private runningOf(principal: string): Under[] {
    return [...this.under.values()].filter((u) => u.principal === principal);
  }

  /**
   * Starts a run of a model: `bars` for a replay (its window, read already), null for a live run. Answers the run as
   * it stands once started; the stepping goes on in the background.
   */
  async start(ctx: SessionCtx, model: ModelRecord, init: RunInit, bars: readonly BarRow[] | null): Promise<RunRecord> {
    const principal = ctx.principal.id;
    const mine = this.runningOf(principal);
    if (mine.length >= MOST_RUNNING) throw limitReached('busy', `${MOST_RUNNING} runs are already under way for you`, 60, { running: mine.map((u) => u.record.id) });
    if (init.mode === 'live' && mine.some((u) => u.record.model === model.name && u.record.mode === 'live')) {
      throw new DeckError(409, 'run_under_way', `a live run of ${model.name} is already under way`, { field: 'model' });
    }
    const id = `run_${randomBytes(8).toString('hex')}`;
    const record: RunRecord = {
      ...init,
      id,
      model: model.name,
      state: 'running',
      bars_done: 0,
      last_bar_t: null,
      decisions: { hold: 0, enter: 0, exit: 0 },
      skipped: { market_closed: 0 },
      orders: 0,
      fills: 0,
      retried: 0,
      decide_ms: 0,
      started_at: ctx.clock(),
      ended_at: null,
      end: null,
    };
    // Counted as under way before anything is awaited, so two starts at once cannot both pass the limits above.
    const under: Under = { principal, record, abort: new AbortController(), done: Promise.resolve(), persisted: { bars: 0, at: Date.now() } };
    this.under.set(id, under);
    try {
      await this.store.runs.put(principal, record);
    } catch (error) {
      this.under.delete(id);
      throw error;
    }
    const drive: Drive = { ctx, model, book: bars ? replayBook(ctx, model.name, id) : liveBook(ctx, model.name, id), under };
    under.done = (bars ? this.replay(drive, bars) : this.live(drive))
      .catch((error: unknown) => {
        ctx.log.error('run_failed', { run: id, error: error instanceof Error ? error.message : String(error) });
        return stopped('internal', 'the run failed inside the deck; the failure is in its log', record.last_bar_t);
      })
      .then((end) => this.finish(under, end))
      // A run that cannot be written as ended still ends: the failure is the operator's to read in the log.
      .catch((error: unknown) => ctx.log.error('run_not_written', { run: id, error: error instanceof Error ? error.message : String(error) }));
    return structuredClone(record);
  }

  /** Stops a run under way and waits for it to end; a run already ended is answered as it is. */
  async stop(principal: string, id: string): Promise<RunRecord | null> {
    const u = this.under.get(id);
    if (u && u.principal === principal) {
      u.abort.abort();
      await u.done;
    }
    return this.store.runs.get(principal, id);
  }

  /** Ends every run under way (the deck is closing). */
  async close(): Promise<void> {
    const all = [...this.under.values()];
    for (const u of all) u.abort.abort();
    await Promise.all(all.map((u) => u.done));
  }

  private async finish(u: Under, end: RunEnd | null): Promise<void> {
    const r = u.record;
    r.state = end && (end.code === 'window_stepped' || end.code === 'budget_spent') ? 'done' : 'stopped';
    r.end = end ?? stopped('stopped', 'stopped by its operator', r.last_bar_t);
    r.ended_at = this.clock();
    try {
      await this.store.runs.put(u.principal, r);
    } finally {
      this.under.delete(r.id);
    }
  }

  private async progress(u: Under): Promise<void> {
    const now = Date.now();
    if (u.record.bars_done - u.persisted.bars < PERSIST_EVERY_BARS && now - u.persisted.at < PERSIST_EVERY_MS) return;
    u.persisted = { bars: u.record.bars_done, at: now };
    await this.store.runs.put(u.principal, u.record);
  }

  /** One bar to decide(), with its retries: the decision, or why the run ends. */
  private async ask(d: Drive, bar: BarRow, index: number): Promise<Asked | null> {
    const { model, under } = d;
    const r = under.record;
    const signal = under.abort.signal;
    const body = {
      version: TYPED_DECISION_VERSION,
      model: model.name,
      run: r.id,
      mode: r.mode,
      market: model.market,
      timeframe: model.timeframe,
      bar,
      index,
      position: positionView(d.ctx.upstreams.venue.position(d.book.key, model.market)),
    };
    let end: RunEnd | null = null;
    for (let attempt = 0; attempt <= r.retries; attempt++) {
      if (attempt > 0) {
        r.retried++;
        await sleep(RETRY_BACKOFF_MS * attempt, undefined, { signal }).catch(() => {});
      }
      if (signal.aborted) return null;
      const out = await askDecide(d.ctx.upstreams.named, model.decide_url, body, r.timeout_ms, signal);
      r.decide_ms += out.ms;
      if (signal.aborted) return null;
      if (out.kind === 'timeout') {
        end = stopped('decide_timeout', `decide() did not answer within ${r.timeout_ms} ms (${attempt + 1} tries)`, bar.t);
        continue;
      }
      if (out.kind === 'unreachable') {
        end = stopped('decide_unreachable', `decide() could not be reached (${attempt + 1} tries): ${out.why}`, bar.t);
        continue;
      }
      if (out.status >= 500) {
        end = stopped('decide_failed', `decide() answered HTTP ${out.status} (${attempt + 1} tries)`, bar.t);
        continue;
      }
      if (out.status < 200 || out.status >= 300) return { end: stopped('decide_refused', `decide() answered HTTP ${out.status}`, bar.t) };
      const read = out.parsed ? readDecision(out.body, (path) => path || '(answer)') : { ok: false as const, problems: [{ field: '(answer)', message: 'the answer is not JSON' }] };
      if (!read.ok) {
        const problems = read.problems;
        await countRefused(d.ctx, model, problems);
        return { end: stopped('bad_decision', `decide() answered what is not ${TYPED_DECISION_VERSION}: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, bar.t, problems) };
      }
      return { decision: read.decision };
    }
    return { end: end! };
  }

  /** Routes one decision into the run's book: the end of the run when the book refuses it. */
  private async route(d: Drive, decision: TypedDecision, bar: Bar, at: number, reference?: number): Promise<RunEnd | null> {
    const r = d.under.record;
    r.decisions[decision.action]++;
    try {
      const order = await applyDecision(d.ctx, d.model, d.book, decision, at, '', reference);
      if (order) r.orders++;
      return null;
    } catch (error) {
      if (!(error instanceof DeckError)) throw error;
      // The calendar shut the market at this bar: the book takes nothing now, and the run goes on.
      if (error.code === 'market_closed') {
        r.skipped.market_closed++;
        return null;
      }
      const problems = Array.isArray(error.details.problems) ? (error.details.problems as Problem[]) : undefined;
      if (problems) await countRefused(d.ctx, d.model, problems);
      return stopped(error.code === 'bad_input' ? 'book_refused' : error.code, `the book refused the decision: ${error.message}`, bar.t, problems);
    }
  }

  private budgetSpent(r: RunRecord): RunEnd | null {
    return r.bars_done >= r.budget_bars ? stopped('budget_spent', `the run's budget of ${r.budget_bars} bars is spent`, r.last_bar_t) : null;
  }

  /** A replay: each bar of the window stepped over the run's own book, then sent to decide(). */
  private async replay(d: Drive, bars: readonly BarRow[]): Promise<RunEnd | null> {
    const { under, model, book } = d;
    const r = under.record;
    const len = TIMEFRAME_SECONDS[model.timeframe];
    const venue = d.ctx.upstreams.venue;
    for (let k = 0; k < bars.length; k++) {
      const spent = this.budgetSpent(r);
      if (spent) return spent;
      if (under.abort.signal.aborted) return null;
      const bar = bars[k]!;
      r.fills += (await venue.step(book, model.market, bar)).length;
      const asked = await this.ask(d, bar, k);
      if (!asked) return null;
      if ('end' in asked) return asked.end;
      const end = await this.route(d, asked.decision, bar, bar.t + len, bar.c);
      if (end) return end;
      r.bars_done++;
      r.last_bar_t = bar.t;
      await this.progress(under);
    }
    return stopped('window_stepped', `every bar of the window was stepped (${bars.length})`, r.last_bar_t);
  }

  /** Closed bars of [from, now) from the live tape, read fresh (a replay session of the run's own id). */
  private async liveBars(d: Drive, from: number, now: number): Promise<BarRow[]> {
    const got = await meteredCandles(d.ctx, { market: d.model.market, tf: d.model.timeframe, from, to: now, session: d.under.record.id });
    const len = TIMEFRAME_SECONDS[d.model.timeframe];
    return barsToRows(got.bars()).filter((b) => b.t >= from && b.t + len <= now);
  }

  /** A live run: forward from the bar under way when it starts, each bar decided once the tape has closed it. */
  private async live(d: Drive): Promise<RunEnd | null> {
    const { under, model, book, ctx } = d;
    const r = under.record;
    const len = TIMEFRAME_SECONDS[model.timeframe];
    const venue = ctx.upstreams.venue;
    const signal = under.abort.signal;
    let cursor = Math.floor(ctx.clock() / 1000 / len) * len;
    while (!signal.aborted) {
      await sleep(ctx.config.agent.pollMs, undefined, { signal }).catch(() => {});
      if (signal.aborted) return null;
      const now = Math.floor(ctx.clock() / 1000);
      if (now - cursor < len) continue;
      let bars: BarRow[];
      try {
        bars = await this.liveBars(d, cursor, now);
      } catch (error) {
        // A venue that does not answer now may at the next look: the run waits for it.
        if (!(error instanceof DeckError) || error.status < 500) throw error;
        ctx.log.info('run_tape_silent', { run: r.id, error: error.message });
        continue;
      }
      for (const bar of bars) {
        const spent = this.budgetSpent(r);
        if (spent) return spent;
        const before = venue.fills(book.key).length;
        await venue.settle(book, model.market, bar.t + len);
        r.fills += venue.fills(book.key).length - before;
        const asked = await this.ask(d, bar, r.bars_done);
        if (!asked) return null;
        if ('end' in asked) return asked.end;
        const end = await this.route(d, asked.decision, bar, Math.floor(ctx.clock() / 1000), bar.c);
        if (end) return end;
        r.bars_done++;
        r.last_bar_t = bar.t;
        cursor = bar.t + len;
        await this.progress(under);
      }
    }
    return null;
  }
}
