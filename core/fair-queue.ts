import PQueue from 'p-queue';
import { limitReached } from './errors.js';

/**
 * Hands out at most `bound` turns at once, to principals in rotation: a principal waiting for a turn joins the back
 * of the ring once, however many of its calls wait, and each freed turn goes to the principal at the front, who goes
 * to the back if it still waits. So a principal that asks once is served within one rotation of the ring, whoever
 * else has asked fifty times.
 */
class Rotation {
  private running = 0;
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly ring: string[] = [];

  constructor(private readonly bound: number) {}

  take(principalId: string): Promise<void> {
    if (this.running < this.bound && this.ring.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const mine = this.waiting.get(principalId);
      if (mine) mine.push(resolve);
      else {
        this.waiting.set(principalId, [resolve]);
        this.ring.push(principalId);
      }
    });
  }

  give(): void {
    this.running--;
    const next = this.ring.shift();
    if (next === undefined) return;
    const mine = this.waiting.get(next)!;
    const resolve = mine.shift()!;
    if (mine.length > 0) this.ring.push(next);
    else this.waiting.delete(next);
    this.running++;
    resolve();
  }
}

/** How much a finished turn's length moves the mean the Retry-After estimate reads. */
const EWMA = 0.2;

/**
 * A fair queue: one p-queue lane per principal (holding at most `laneSize` of its calls, running or waiting), whose
 * calls take turns from one rotation with a global bound of `concurrency` calls at once. One busy principal cannot
 * starve the rest; a principal whose own lane is full is refused (429 lane_full), and so is any call once every
 * principal's calls together reach `heldSize` (429 queue_full), each with a Retry-After estimated from how long turns
 * have lasted. The chat lane and the work pool each queue with one.
 */
export class FairQueue {
  private readonly lanes = new Map<string, PQueue>();
  private readonly turns: Rotation;
  /** Mean seconds a turn has lasted (1 until one has ended). */
  private meanS = 1;
  private held = 0;

  constructor(
    /** What the queue hands turns of, as its refusals name it ("chat", "work"). */
    readonly name: string,
    readonly concurrency: number,
    readonly laneSize: number,
    readonly heldSize: number = Infinity,
  ) {
    this.turns = new Rotation(concurrency);
  }

  /**
   * Waits for the principal's turn and answers the release to call when its work is done (once; later calls do
   * nothing). Refused with 429 lane_full when the principal's lane already holds laneSize calls, queue_full when the
   * queue holds heldSize.
   */
  turn(principalId: string): Promise<() => void> {
    const lane = this.lanes.get(principalId) ?? new PQueue({ concurrency: this.concurrency });
    const held = lane.size + lane.pending;
    if (held >= this.laneSize) {
      const retry = (this.meanS * held) / this.concurrency;
      return Promise.reject(limitReached('lane_full', `your ${this.name} lane already holds ${held} requests: wait for some to be answered`, retry, { lane_size: this.laneSize }));
    }
    if (this.held >= this.heldSize) {
      const retry = (this.meanS * this.held) / this.concurrency;
      return Promise.reject(
        limitReached('queue_full', `the ${this.name} queue holds ${this.held} requests, its most, for ${this.concurrency} at once: come back later`, retry, { queue_size: this.heldSize }),
      );
    }
    this.held++;
    this.lanes.set(principalId, lane);
    return new Promise((granted) => {
      void lane
        .add(async () => {
          await this.turns.take(principalId);
          const started = performance.now();
          await new Promise<void>((done) => {
            let released = false;
            granted(() => {
              if (released) return;
              released = true;
              this.meanS += EWMA * ((performance.now() - started) / 1000 - this.meanS);
              this.turns.give();
              done();
            });
          });
        })
        .finally(() => {
          this.held--;
          if (lane.size + lane.pending === 0 && this.lanes.get(principalId) === lane) this.lanes.delete(principalId);
        });
    });
  }

  /** Calls running or waiting, every principal's together. */
  depth(): number {
    return this.held;
  }
}
