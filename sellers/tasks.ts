import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { RELATED_TASK_META_KEY, type JSONRPCNotification, type ProgressToken, type RequestId, type Result, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { Ctx } from '../services/context.js';
import { DeckError } from '../core/errors.js';
import type { ToolResult } from './tool-call.js';

/** The most tasks one principal may have working at once; a further one is refused until one ends. */
export const LIVE_TASKS_PER_PRINCIPAL = 4;
/** How long an ended task's answer is kept for tasks/result (ms); a client may ask for less, never more. */
export const TASK_TTL_MS = 60 * 60 * 1000;
/** How often a client is told to poll tasks/get (ms). */
const POLL_MS = 500;

/** The capability initialize answers a client that declares tasks: the SDK 1.x (2025-11-25) task requests the deck serves. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } } as const;

/** How many progress notifications a task keeps for its tasks/result (a rehearsal tells about ten steps). */
const NOTES_KEPT = 64;

/** Hears the notifications of a call as they are made (on a response stream); absent where the transport has none. */
export type Hear = (note: JSONRPCNotification) => void;

/** A notifications/progress of a call that gave `token`: its step's number (1, 2, ...) and words. */
export const progressNote = (token: ProgressToken, progress: number, message: string, taskId?: string): JSONRPCNotification => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress, message, ...(taskId ? { _meta: { [RELATED_TASK_META_KEY]: { taskId } } } : {}) },
});

/** The store's session of the tasks paid per call (x402), each found by its id alone. */
const PAID_TASKS = 'x402';

const tooMany = (live: number) => `at most ${LIVE_TASKS_PER_PRINCIPAL} tasks may be working at once for one principal; ${live} are: wait for one to end or cancel one (tasks/cancel)`;

const terminal = (s: Task['status']) => s === 'completed' || s === 'failed' || s === 'cancelled';

/** A refusal of a task request: a JSON-RPC error's code and message. */
export class TaskRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Tasks of the 2025-11-25 protocol (experimental in the SDK 1.x line), kept in the SDK's InMemoryTaskStore and bound to
 * the principal who made them: the store's session is the principal's agent id, so another principal's task is not
 * found, not listed and cannot be cancelled. A task runs the same tool call as an immediate tools/call, in the
 * background of the request that created it, with its own AbortSignal (tasks/cancel aborts it). Kept in memory: a
 * task's work lives in this process, so a task outliving a restart could only say it was lost.
 */
export function deckTasks() {
  const store = new InMemoryTaskStore();
  /** Each working task's abort controller and the promise of its end, by task id. */
  const running = new Map<string, { owner: string; abort: AbortController; ended: Promise<void> }>();
  /**
   * The progress notifications of a task made with a progressToken, kept for its tasks/result to carry (MCP sends a
   * task's notifications on that request's stream), with whoever is hearing them now; dropped once delivered or with
   * the task's TTL.
   */
  const notes = new Map<string, { kept: JSONRPCNotification[]; hearing: Set<Hear> }>();

  const ownerOf = (ctx: Ctx): string => {
    if (!ctx.principal) throw new TaskRefusal(-32001, 'tasks belong to a principal: send "Authorization: Bearer <deck_session value or key>"');
    return ctx.principal.agent_id;
  };
  /**
   * The store's session a task is kept under: its principal's, or for a task paid per call (whose payer has no key to
   * send) the one of every such task, found by its id alone: the id's 128 random bits are its key. A keyless caller
   * reads, awaits and cancels a task by its id, and lists none.
   */
  const sessionOf = (ctx: Ctx): string => (ctx.principal && ctx.principal.via !== 'payment' ? ctx.principal.agent_id : PAID_TASKS);
  const liveOf = (owner: string) => [...running.values()].filter((r) => r.owner === owner).length;
  const found = async (taskId: unknown, owner: string): Promise<Task> => {
    const task = typeof taskId === 'string' ? await store.getTask(taskId, owner) : null;
    if (!task) throw new TaskRefusal(-32602, `Task not found: ${String(taskId)}`);
    return task;
  };

  return {
    /**
     * Starts a tool call as a task and answers at once with the task. `work` is the call, given the task's signal and
     * a way to say how it is going (the task's statusMessage).
     */
    async start(
      ctx: Ctx,
      id: RequestId,
      request: { method: string; params?: Record<string, unknown> },
      ttl: number | undefined,
      token: ProgressToken | undefined,
      work: (signal: AbortSignal, say: (words: string) => Promise<void>) => Promise<ToolResult>,
      abort = new AbortController(),
    ): Promise<{ task: Task }> {
      const owner = ownerOf(ctx);
      const live = liveOf(owner);
      if (live >= LIVE_TASKS_PER_PRINCIPAL) throw new TaskRefusal(-32005, tooMany(live));
      const session = sessionOf(ctx);
      const task = await store.createTask({ ttl: Math.min(ttl ?? TASK_TTL_MS, TASK_TTL_MS), pollInterval: POLL_MS }, id, request as never, session);
      const told = token === undefined ? null : { kept: [] as JSONRPCNotification[], hearing: new Set<Hear>() };
      if (told) {
        notes.set(task.taskId, told);
        setTimeout(() => notes.delete(task.taskId), task.ttl ?? TASK_TTL_MS).unref();
      }
      let step = 0;
      const say = async (words: string) => {
        if (abort.signal.aborted) return;
        if (told && told.kept.length < NOTES_KEPT) {
          const note = progressNote(token!, ++step, words, task.taskId);
          told.kept.push(note);
          for (const hear of told.hearing) hear(note);
        }
        await store.updateTaskStatus(task.taskId, 'working', words, session).catch(() => undefined);
      };
      const ended = (async () => {
        let result: ToolResult;
        try {
          result = await work(abort.signal, say);
        } catch (error) {
          ctx.log.error('task_failed', { task: task.taskId, error: (error as Error).message });
          result = { content: [{ type: 'text', text: JSON.stringify({ ok: false, error: 'internal', status: 500 }) }], isError: true };
        }
        // A cancelled task keeps its cancellation: what its work answered after tasks/cancel is dropped.
        if (!abort.signal.aborted) await store.storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result as Result, session).catch(() => undefined);
      })().finally(() => running.delete(task.taskId));
      running.set(task.taskId, { owner, abort, ended });
      return { task };
    },

    /**
     * Whether a principal may start one more task; a task paid per call asks before its payment settles, so a payer
     * with its tasks all working is refused (429) with nothing charged.
     */
    room(owner: string): void {
      const live = liveOf(owner);
      if (live >= LIVE_TASKS_PER_PRINCIPAL) throw new DeckError(429, 'tasks_working', tooMany(live), { per_principal: LIVE_TASKS_PER_PRINCIPAL });
    },

    async get(ctx: Ctx, taskId: unknown): Promise<Task> {
      return found(taskId, sessionOf(ctx));
    },

    /**
     * tasks/result: waits for the task to end, then answers its tool result (a cancelled task is an error). A request
     * that can hear notifications is told the task's progress so far, then each step as it comes, before the result.
     */
    async result(ctx: Ctx, taskId: unknown, hear?: Hear): Promise<Result> {
      const session = sessionOf(ctx);
      let task = await found(taskId, session);
      const told = hear ? notes.get(task.taskId) : undefined;
      if (told) {
        for (const note of told.kept) hear!(note);
        told.hearing.add(hear!);
      }
      try {
        if (!terminal(task.status)) {
          await running.get(task.taskId)?.ended;
          task = await found(taskId, session);
        }
      } finally {
        told?.hearing.delete(hear!);
      }
      if (told) notes.delete(task.taskId);
      if (task.status === 'cancelled') throw new TaskRefusal(-32602, `Task ${task.taskId} was cancelled: it has no result`);
      const result = await store.getTaskResult(task.taskId, session);
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: task.taskId } } };
    },

    async list(ctx: Ctx, cursor: unknown) {
      const owner = ownerOf(ctx);
      try {
        return await store.listTasks(typeof cursor === 'string' ? cursor : undefined, owner);
      } catch (error) {
        throw new TaskRefusal(-32602, (error as Error).message);
      }
    },

    /** tasks/cancel: the task is cancelled and its work told to stop where it can. */
    async cancel(ctx: Ctx, taskId: unknown): Promise<Task> {
      const session = sessionOf(ctx);
      const task = await found(taskId, session);
      if (terminal(task.status)) throw new TaskRefusal(-32602, `Cannot cancel task in terminal status: ${task.status}`);
      running.get(task.taskId)?.abort.abort();
      await store.updateTaskStatus(task.taskId, 'cancelled', 'cancelled by its principal', session);
      return found(task.taskId, session);
    },

    /** The deck's close: every working task is told to stop, its work ends (recording wholly), the store's timers end. */
    async close() {
      const ending = [...running.values()];
      for (const r of ending) r.abort.abort();
      await Promise.all(ending.map((r) => r.ended));
      store.cleanup();
    },
  };
}

export type DeckTasks = ReturnType<typeof deckTasks>;
