import { Signal } from '../signal.js';

/** What crossing to a thread and back cost one job: its time in the pool's hands less its own time on the thread. */
export interface WorkHandOff {
  kind: string;
  seconds: number;
}

/**
 * Each job run on a thread publishes its hand-off here (its input's and answer's copies, the thread's waking, the loop
 * getting to the answer), so the observability plane can show what the pool costs beside the work it does.
 */
export const workHandOffs = new Signal<WorkHandOff>('deck:work-hand-off');
