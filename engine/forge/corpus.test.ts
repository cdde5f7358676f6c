import { describe, expect, it } from 'vitest';
import { forged, wholeRules } from '../../test/support/forged.js';
import { DeciderRefusal } from '../decider/index.js';
import { review } from './review.js';
import { scan } from './scan.js';

// The corpus of trader rules, read, forged, reviewed and scanned: readRule -> scriptOfReading -> irOf -> codeOf.

describe('every corpus rule that reads whole and forges', () => {
  const forgeable = wholeRules().flatMap((r) => {
    try {
      return [{ ...r, ...forged(r.script) }];
    } catch (error) {
      if (!(error instanceof DeciderRefusal)) throw error;
      return [];
    }
  });

  it('is enough rules to mean something', () => {
    expect(forgeable.length).toBeGreaterThanOrEqual(12);
  });

  it('passes all nine review classes', () => {
    for (const r of forgeable) {
      const flagged = review(r.ir, r.code).classes.filter((c) => c.status === 'flagged');
      expect(flagged, `${r.where}: ${r.text}`).toEqual([]);
    }
  });

  it('scans clean against its words, every trace quoting the text, and against its script', () => {
    for (const r of forgeable) {
      const words = scan(r.code, { text: r.text, parts: r.reading });
      expect(words.invented, `${r.where}: ${r.text}`).toEqual([]);
      expect(words.traced.length).toBeGreaterThan(5);
      for (const t of words.traced) {
        if (!('spans' in t.from)) throw new Error('a reading traces to spans');
        for (const s of t.from.spans) expect(r.text.slice(s.from, s.to)).toBe(s.text);
      }
      // Every rule names its market, timeframe, side and a stop: those reach the code and are traced.
      for (const kind of ['market', 'time', 'side', 'number'] as const) expect(words.traced.some((t) => t.kind === kind), `${r.where} ${kind}`).toBe(true);
      expect(scan(r.code, { script: r.script }).invented, r.where).toEqual([]);
    }
  });
});
