import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LedgerHead } from '../../store/ledger-files.js';
import { ledgerLocks } from '../../store/ledger-locks.js';
import { workHandOffs } from '../../core/pool/hand-off.js';
import { upstreamCalls, type UpstreamCall } from '../../upstream/watch.js';

/** Which way in a request came: the REST facade or an MCP endpoint. */
export type Surface = 'rest' | 'mcp';
/** What became of a tool call: answered, refused (a DeckError below 500), or failed inside the deck. */
export type ToolOutcome = 'ok' | 'refused' | 'failed';

export const outcomeOfStatus = (status: number): ToolOutcome => (status < 400 ? 'ok' : status < 500 ? 'refused' : 'failed');

/** An upstream's name as a label: the name its client gives it, in lower-case words joined by _ ("the grader": grader). */
export const upstreamLabel = (name: string): string =>
  name
    .toLowerCase()
    .replace(/^the\s+/, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** What the plane reads at each scrape, from the parts of the deck that hold it. */
export interface PlaneSources {
  /** Calls running or waiting under each guard (the chat lane's fair queue among them). */
  guardDepths(): Record<string, number>;
  /** Every ledger with its length. */
  ledgers(): Promise<LedgerHead[]>;
  /** The work pool's jobs since start, by kind and where they ran (a thread, or the event loop). */
  jobsRun(): { kind: string; where: string; n: number }[];
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** A head held, a job's hand-off: well under a request, so finer steps, down to a tenth of a millisecond. */
const SHORT_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * The observability plane: the deck's metrics in one prom-client registry per deck (not the process-wide default,
 * which a second deck in the process could not register into), served as the Prometheus text format at GET /metrics.
 * Requests and tool calls are counted by the adapters' hooks; guard depths and ledger lengths are read at each
 * scrape; upstream calls, the time a shared ledger's head is held and the pool's hand-offs arrive as signals
 * (core/signal.ts; a process runs one deck), the upstream calls also giving each upstream's last answer for GET /ready.
 */
export class Plane {
  readonly registry = new Registry();
  private readonly requests: Counter<'surface' | 'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'surface' | 'method' | 'route'>;
  private readonly tools: Counter<'tool' | 'surface' | 'outcome'>;
  private readonly toolLatency: Histogram<'tool' | 'surface'>;
  private readonly upstreams: Counter<'upstream' | 'outcome'>;
  private readonly upstreamLatency: Histogram<'upstream'>;
  private readonly last = new Map<string, UpstreamCall>();
  /** Stops hearing the deck's signals (upstream calls, heads held, hand-offs). */
  private readonly stopHearing: (() => void)[];

  constructor(sources: PlaneSources) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'deck_http_requests_total', help: 'HTTP requests answered, by surface, method, route and status', labelNames: ['surface', 'method', 'route', 'status'], registers });
    this.latency = new Histogram({ name: 'deck_http_request_duration_seconds', help: 'Time to answer an HTTP request, by surface, method and route', labelNames: ['surface', 'method', 'route'], buckets: SECONDS, registers });
    this.tools = new Counter({ name: 'deck_tool_calls_total', help: 'Tool calls, by tool, surface and outcome (ok, refused, failed)', labelNames: ['tool', 'surface', 'outcome'], registers });
    this.toolLatency = new Histogram({ name: 'deck_tool_call_duration_seconds', help: 'Time a tool call took, by tool and surface', labelNames: ['tool', 'surface'], buckets: SECONDS, registers });
    this.upstreams = new Counter({ name: 'deck_upstream_calls_total', help: 'Calls to outside parties, by upstream and outcome (ok, refused, unreachable)', labelNames: ['upstream', 'outcome'], registers });
    this.upstreamLatency = new Histogram({ name: 'deck_upstream_call_duration_seconds', help: 'Time an upstream took to answer (or to fail), by upstream', labelNames: ['upstream'], buckets: SECONDS, registers });
    const lockHeld = new Histogram({ name: 'deck_ledger_lock_seconds', help: 'Time an append held its ledger\'s head locked against the other decks on a shared store (PostgreSQL), by ledger', labelNames: ['ledger'], buckets: SHORT_SECONDS, registers });
    const handOff = new Histogram({
      name: 'deck_work_hand_off_seconds',
      help: 'What crossing to a work pool thread and back cost a job (its time in the pool less its own time on the thread), by kind',
      labelNames: ['kind'],
      buckets: SHORT_SECONDS,
      registers,
    });
    new Gauge({
      name: 'deck_guard_queue_depth',
      help: 'Calls running or waiting under each guard, every principal together',
      labelNames: ['guard'],
      registers,
      collect() {
        for (const [guard, depth] of Object.entries(sources.guardDepths())) this.set({ guard }, depth);
      },
    });
    new Counter({
      name: 'deck_work_jobs_total',
      help: 'Jobs the work pool ran, by kind and where (thread, or loop: no threads, or a light job while they load)',
      labelNames: ['kind', 'where'],
      registers,
      collect() {
        this.reset();
        for (const { kind, where, n } of sources.jobsRun()) this.inc({ kind, where }, n);
      },
    });
    new Gauge({
      name: 'deck_ledger_entries',
      help: 'Entries in each hash-chained ledger (its head seq)',
      labelNames: ['ledger'],
      registers,
      async collect() {
        this.reset();
        for (const l of await sources.ledgers()) if (l.length !== null) this.set({ ledger: l.name }, l.length);
      },
    });
    collectDefaultMetrics({ register: this.registry });
    this.stopHearing = [
      upstreamCalls.listen((call) => this.upstreamCall(call)),
      ledgerLocks.listen(({ ledger, seconds }) => lockHeld.observe({ ledger }, seconds)),
      workHandOffs.listen(({ kind, seconds }) => handOff.observe({ kind }, seconds)),
    ];
  }

  /** One HTTP request answered. `route` is the route's pattern (never the path itself, which may carry ids). */
  request(surface: Surface, method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ surface, method, route, status: String(status) });
    this.latency.observe({ surface, method, route }, seconds);
  }

  /** One tool call and what became of it. */
  toolCall(tool: string, surface: Surface, outcome: ToolOutcome, seconds: number): void {
    this.tools.inc({ tool, surface, outcome });
    this.toolLatency.observe({ tool, surface }, seconds);
  }

  private upstreamCall(call: UpstreamCall): void {
    const upstream = upstreamLabel(call.upstream);
    this.upstreams.inc({ upstream, outcome: call.outcome });
    this.upstreamLatency.observe({ upstream }, call.seconds);
    this.last.set(upstream, call);
  }

  /** The last answer of an upstream (by its label) since start; null when it was not called. */
  lastAnswer(upstream: string): UpstreamCall | null {
    return this.last.get(upstream) ?? null;
  }

  /** The Prometheus text format, and its content type. */
  async exposition(): Promise<{ type: string; text: string }> {
    return { type: this.registry.contentType, text: await this.registry.metrics() };
  }

  /** Stops hearing the signals (the deck is closing). */
  close(): void {
    for (const stop of this.stopHearing) stop();
  }
}
