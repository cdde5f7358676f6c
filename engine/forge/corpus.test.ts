import { describe, expect, it } from 'vitest';
import { forged, wholeRules } from '../../test/support/forged.js';
import { DeciderRefusal } from '../decider/index.js';
import { PARTS } from '../reader/schema.js';
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

  it('scans clean against its words, every trace quoting the text or naming a default its reading took, and against its script', () => {
    for (const r of forgeable) {
      const words = scan(r.code, { text: r.text, parts: r.reading });
      expect(words.invented, `${r.where}: ${r.text}`).toEqual([]);
      expect(words.traced.length).toBeGreaterThan(5);
      const taken = new Set(PARTS.flatMap((p) => (r.reading[p].defaults ?? []).map((d) => d.rule)));
      for (const t of words.traced) {
        if ('script' in t.from) throw new Error('a reading traces to spans or to a default');
        if ('default' in t.from) expect(taken, `${r.where} ${t.token}`).toContain(t.from.default);
        else for (const s of t.from.spans) expect(r.text.slice(s.from, s.to)).toBe(s.text);
      }
      // Every rule names its market, timeframe, side and a stop: those reach the code and are traced (a stop's
      // number, when it is a distance or an offset; a stop at a level is its indicator).
      const numbered = r.script.stop.kind === 'distance' || r.script.stop.offset !== undefined;
      for (const kind of ['market', 'time', 'side', ...(numbered ? (['number'] as const) : [])] as const) {
        expect(words.traced.some((t) => t.kind === kind), `${r.where} ${kind}`).toBe(true);
      }
      expect(scan(r.code, { script: r.script }).invented, r.where).toEqual([]);
    }
  });
});
