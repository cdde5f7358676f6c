import { describe, expect, it, vi } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { EMA_CROSS, TRAILED_EMA_CROSS } from '../../test/fixtures/scripts.js';
import { compileDecider, DECIDER_VERSION, irOf, seedHash, type Script } from '../decider/index.js';
import { rehearse } from '../stepper/index.js';

vi.setConfig({ testTimeout: 120_000 });

// A thread keeps the deciders it compiled (engine/decider/compile.ts) and hands them to the rule's next rehearsal and
// to every neighbourhood of the same shapes. Whatever ran on them before, a rehearsal gives the bytes it gave with
// deciders compiled afresh: this file's module graph is its own, so its first rehearsal compiles every one.

const ES = sampleFile('ES-1m');
const FROM = ES.t[ES.length - 1]! + 60 - 24 * 3600;

function rehearsed(script: Script): string {
  const ir = irOf(script);
  const seed = seedHash(ir, DECIDER_VERSION);
  const trials = { rules: 2, sharpes: [0.04, -0.02] };
  return JSON.stringify(rehearse(ir, compileDecider(ir, seed, DECIDER_VERSION), ES, { seed, from: FROM, nullRuns: 300, verdict: { script, version: DECIDER_VERSION, trials } }));
}

describe('a rehearsal on kept deciders', () => {
  it('gives the bytes it gave on deciders compiled afresh, after other rules ran on them and their neighbourhoods', () => {
    const cross: Script = { ...EMA_CROSS, market: 'ES' };
    const trailed: Script = { ...TRAILED_EMA_CROSS, market: 'ES' };
    const fresh = rehearsed(cross);
    const trailedFresh = rehearsed(trailed);
    expect(rehearsed(cross)).toBe(fresh);
    expect(rehearsed(trailed)).toBe(trailedFresh);
    expect(rehearsed(cross)).toBe(fresh);
    expect(fresh).not.toBe(trailedFresh);
  });
});
