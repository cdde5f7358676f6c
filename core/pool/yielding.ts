import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much nicer a work pool thread is than its process (whose niceness the event loop keeps). */
export const WORK_NICE = 10;

/** The most nice a thread can be on Linux. */
const NICEST = 19;

/**
 * Lowers the calling thread's CPU priority, so when the event loop and a heavy job want the same core the loop gets it
 * (a light call is answered at once) while the job still takes every cycle the loop leaves. On Linux a thread is named
 * by its own id (/proc/thread-self) and setpriority applies to that thread alone; elsewhere nothing changes.
 */
export function yieldToTheLoop(): void {
  if (process.platform !== 'linux') return;
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  // Only ever nicer: a thread may always lower its own priority, never raise it without privilege.
  if (Number.isInteger(tid)) setPriority(tid, Math.min(NICEST, getPriority(tid) + WORK_NICE));
}
