import { describe, expect, it } from 'vitest';
import type { Script } from '../decider/script.js';
import { rehearseScript, toyBars } from './toy-bars.js';

// A quiet ES tape (every bar 100 flat) with one rise to a cross above 100 and one drop: the rule buys the cross,
// is stopped on the drop for -1R after one bar. A random entry anywhere else rides a flat bar for 0R (no costs),
// and one drawn at the rule's own bar does what the rule did; so every null run does at least as well as the
// rule: k = N.
const T0 = Date.UTC(2024, 5, 3, 13, 29) / 1000;
const flat: [number, number, number, number] = [100, 100, 100, 100];
const rows: [number, number, number, number][] = [
  [99.75, 99.75, 99.75, 99.75],
  [99.75, 100.25, 99.75, 100.25],
  [100.25, 100.25, 98, 98.5],
  ...Array.from({ length: 40 }, () => flat),
];
const rule: Script = {
  version: 'script.v1',
  market: 'ES',
  timeframe: '1m',
  session: { kind: 'always' },
  side: 'long',
  entry: { triggers: [{ side: 'long', when: { op: 'crosses_above', left: { kind: 'price', field: 'close' }, right: { kind: 'constant', value: 100 } } }] },
  stop: { kind: 'distance', distance: { unit: 'points', n: 2 } },
  exit: { time: [{ kind: 'bars', n: 1 }] },
};

describe('the random null', () => {
  it('counts the runs doing at least as well and states p = (k + 1) / (N + 1)', () => {
    const r = rehearseScript(rule, toyBars(rows, T0), { nullRuns: 199 });
    expect(r.trades.map((x) => [x.r, x.why])).toEqual([[-1, 'stop']]);
    expect(r.null).toMatchObject({ runs: 199, k: 199, p: 1, percentile: 0, rule_total_r: -1 });
    expect(r.null.matched).toEqual({ trades: 1, long: 1, short: 0, holding_bars: { min: 1, median: 1, max: 1 } });
    // Every bar from 1 to the one before last can arm a long with its stop beyond the fill.
    expect(r.null.eligible).toEqual({ long: rows.length - 2, short: 0 });
  });

  it('is the same for the same seed and window, byte for byte, and moves with either', () => {
    const bars = toyBars(
      Array.from({ length: 300 }, (_, i) => {
        const mid = 100 + 4 * Math.sin(i / 7) + ((i * 37) % 11) / 4;
        return [mid, mid + 0.75, mid - 0.75, mid + (i % 2 ? 0.25 : -0.25)] as [number, number, number, number];
      }),
      T0,
    );
    const once = (seed: string, from?: number) => JSON.stringify(rehearseScript(rule, bars, { nullRuns: 500, seed, ...(from ? { from } : {}) }));
    const a = once('a'.repeat(64));
    expect(once('a'.repeat(64))).toBe(a);
    expect(once('b'.repeat(64))).not.toBe(a);
    expect(once('a'.repeat(64), T0 + 60 * 100)).not.toBe(a);
    const { null: n, stats } = JSON.parse(a) as ReturnType<typeof rehearseScript>;
    expect(n.runs).toBe(500);
    expect(n.matched.trades).toBe(stats.n);
    expect(n.p).toBe(Math.round(((n.k + 1) / 501) * 1e4) / 1e4);
    expect(n.percentile).toBe(Math.round((1000 * (500 - n.k)) / 500) / 10);
  });

  it('runs no null when the rule took no trades, and says so', () => {
    const r = rehearseScript(rule, toyBars(Array.from({ length: 20 }, () => flat), T0), { nullRuns: 100 });
    expect(r.null).toMatchObject({ runs: 0, p: null, percentile: null, total_r: null });
    expect(r.summary).toContain('took no trades');
    expect(r.summary).toContain('never a forecast');
  });
});
