import { createHash } from 'node:crypto';

/**
 * xoshiro128** (Blackman and Vigna), seeded from the sha256 of a seed string: 32-bit integer arithmetic only, so
 * every engine gives the same sequence for the same seed, and a draw allocates nothing. The state lives in an
 * Int32Array: plain fields would switch between small-integer and double representations as the words change.
 */
export class Prng {
  private readonly s = new Int32Array(4);

  constructor(seed: string) {
    const h = createHash('sha256').update(seed).digest();
    for (let i = 0; i < 4; i++) this.s[i] = h.readInt32LE(4 * i);
    // The one state xoshiro cannot leave; sha256 reaching it is not a real prospect, but the rule is cheap.
    if ((this.s[0]! | this.s[1]! | this.s[2]! | this.s[3]!) === 0) this.s[0] = 1;
  }

  /** The next unsigned 32-bit integer. */
  next(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0;
    const t = s[1]! << 9;
    s[2] = s[2]! ^ s[0]!;
    s[3] = s[3]! ^ s[1]!;
    s[1] = s[1]! ^ s[2]!;
    s[0] = s[0]! ^ s[3]!;
    s[2] = s[2]! ^ t;
    s[3] = rotl(s[3]!, 11);
    return result;
  }

  /** A uniform integer in [0, n), n >= 1, by multiply-and-shift (bias below n / 2^32, nothing at these sizes). */
  below(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));
