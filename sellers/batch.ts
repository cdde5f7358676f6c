import { setImmediate as nextTurn } from 'node:timers/promises';
import { idOf, INVALID_REQUEST, replyJson, rpcError, type Reply } from './json-rpc.js';

/** The most messages one batch may hold: the bound the SDK's 1.x transport has always kept. */
export const MAX_BATCH_MESSAGES = 100;
/** Once a batch's answers reach this many bytes, its calls not yet started are not run. */
export const MAX_BATCH_ANSWER_BYTES = 16 * 1024 * 1024;
/**
 * A batch's calls in flight at once: enough that they meet the concurrency guards as separate requests would (two
 * trials at once, one forge cast), few enough that the CPU-bound ends of calls waiting on I/O cannot pile up into
 * one long stall.
 */
const IN_FLIGHT = 4;

export const MIB = 1024 * 1024;

/** The refusal of a batch over the message bound (HTTP 413). */
export const tooManyMessages = (count: number) =>
  rpcError(null, INVALID_REQUEST, `a batch holds at most ${MAX_BATCH_MESSAGES} messages; this one holds ${count}: send them in several requests`);

/**
 * Answers a batch's messages, in order, each serialized. Calls start one per turn of the event loop, so one request
 * never holds the loop for more than one call at a time and other requests are served between them; they overlap
 * as separate requests would, so the tools' guards refuse what they would refuse then. A call that would start once
 * the answers have reached MAX_BATCH_ANSWER_BYTES is not run: its answer says so (a notification gets none).
 */
export async function runBatch(messages: readonly unknown[], answer: (m: unknown) => Reply | null | Promise<Reply | null>): Promise<string[]> {
  const out: (string | null)[] = new Array<string | null>(messages.length).fill(null);
  const running = new Set<Promise<void>>();
  let bytes = 0;
  // A call that fails (not one that answers an error: one that throws) fails the batch once the others are done.
  const failures: unknown[] = [];
  for (const [i, m] of messages.entries()) {
    if (failures.length) break;
    if (i > 0) await nextTurn();
    while (running.size >= IN_FLIGHT) await Promise.race(running);
    if (bytes >= MAX_BATCH_ANSWER_BYTES) {
      const id = idOf(m);
      if (id !== null) out[i] = JSON.stringify(notRun(id));
      continue;
    }
    const call = Promise.resolve()
      .then(() => answer(m))
      .then(
        (reply) => {
          if (reply === null) return;
          out[i] = replyJson(reply);
          bytes += Buffer.byteLength(out[i]!);
        },
        (error: unknown) => void failures.push(error),
      );
    const tracked = call.finally(() => running.delete(tracked));
    running.add(tracked);
  }
  await Promise.all(running);
  if (failures.length) throw failures[0];
  return out.filter((s): s is string => s !== null);
}

const notRun = (id: NonNullable<ReturnType<typeof idOf>>) =>
  rpcError(
    id,
    INVALID_REQUEST,
    `not run: this batch's answers reached the ${MAX_BATCH_ANSWER_BYTES / MIB} MiB cap before this call started; send it in another request`,
  );
