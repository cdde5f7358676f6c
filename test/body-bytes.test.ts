import { describe, expect, it } from 'vitest';
import { ownsItsMemory } from '../core/pool/own-memory.js';
import { BodyBytes } from '../rest/body-bytes.js';

// A request body's bytes as the JSON reader keeps them: one buffer of the stated length, filled as chunks arrive,
// once the body has shown it reaches the size the work pool takes; its chunks otherwise.

const chunksOf = (bytes: Buffer, sizes: number[]): Buffer[] => {
  const out: Buffer[] = [];
  let at = 0;
  for (const size of sizes) out.push(bytes.subarray(at, (at += size)));
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
};

describe('BodyBytes', () => {
  const body = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));

  it('keeps a body of the stated length whole, in memory of its own, however it is split', () => {
    for (const sizes of [[10_000], [1, 2, 3, 4], [4_096, 4_096], [4_999, 1, 5_000], Array(100).fill(100) as number[]]) {
      const kept = new BodyBytes(body.length, 4_096);
      for (const chunk of chunksOf(body, sizes)) kept.add(chunk);
      const bytes = kept.bytes();
      expect(bytes.equals(body), JSON.stringify(sizes.slice(0, 5))).toBe(true);
      expect(ownsItsMemory(bytes)).toBe(true);
      expect(kept.received).toBe(body.length);
    }
  });

  it('keeps a body stated below the size its chunks, and takes no buffer for a stated length it has not seen', () => {
    const small = new BodyBytes(3_000, 4_096);
    for (const chunk of chunksOf(body.subarray(0, 3_000), [1_000, 1_000])) small.add(chunk);
    expect(small.bytes().equals(body.subarray(0, 3_000))).toBe(true);
    // A client that states 10 MB and sends 1,000 bytes makes the deck hold its 1,000 bytes, nothing more.
    const claimed = new BodyBytes(10 * 1024 * 1024, 4_096);
    claimed.add(body.subarray(0, 1_000));
    expect(claimed.bytes().buffer.byteLength).toBeLessThan(10 * 1024 * 1024);
    expect(claimed.bytes().equals(body.subarray(0, 1_000))).toBe(true);
  });

  it('answers what arrived of a body cut short, and never more than the stated length of one that ran over', () => {
    const short = new BodyBytes(body.length, 4_096);
    for (const chunk of chunksOf(body.subarray(0, 6_000), [5_000])) short.add(chunk);
    expect(short.bytes().equals(body.subarray(0, 6_000))).toBe(true);
    const over = new BodyBytes(5_000, 4_096);
    for (const chunk of chunksOf(body.subarray(0, 7_000), [4_500, 2_000])) over.add(chunk);
    expect(over.received).toBe(7_000);
    expect(over.bytes().equals(body.subarray(0, 5_000))).toBe(true);
  });

  it('lets go of what it kept', () => {
    const kept = new BodyBytes(body.length, 4_096);
    kept.add(body.subarray(0, 5_000));
    kept.drop();
    expect(kept.bytes().length).toBe(0);
  });
});
