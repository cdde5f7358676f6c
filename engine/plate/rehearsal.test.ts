import pngjs from 'pngjs';
import { describe, expect, it } from 'vitest';
import { EMA_CROSS } from '../../test/fixtures/scripts.js';
import { barsIn, sampleFile } from '../../test/support/tape-file.js';
import { compileDecider } from '../decider/compile.js';
import { irOf } from '../decider/ir.js';
import { rehearse } from '../stepper/rehearse.js';
import { statsOf } from '../stepper/stats.js';
import { PlateError } from './error.js';
import { renderRehearsalPlate, type RehearsalPlateInput } from './rehearsal.js';
import { REHEARSAL_COLOURS, THEME } from './theme.js';

// A day of real BTC 1m bars rehearsed with the 9/21 EMA cross (2 ATR stop, 2R target) and 300 null runs, drawn.
// 6 April 2018, a day of the shipped Coinbase minutes where every minute traded, with the day before to warm up on.
const month = sampleFile('BTC-1m');
const FROM = Date.UTC(2018, 3, 6) / 1000;
const TO = FROM + 86_400;
const ir = irOf(EMA_CROSS);
const seed = 'a'.repeat(64);
const bars = barsIn(month, FROM - 3600, TO);

/** A rehearsal to draw, and each of its null runs' total R. */
function rehearsed(): RehearsalPlateInput & { nullTotals: Float64Array } {
  let nullTotals: Float64Array = new Float64Array(0);
  const rehearsal = rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, from: FROM, nullRuns: 300, nullTotals: (t) => void (nullTotals = t) });
  return { rehearsal, bars, nullTotals };
}

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** Pixels of exactly this colour between two heights of the picture. */
function pixelsOf(png: Buffer, hex: string, top: number, bottom: number): number {
  const image = pngjs.PNG.sync.read(png);
  const [r, g, b] = rgb(hex);
  let count = 0;
  for (let y = top; y < bottom; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i] === r && image.data[i + 1] === g && image.data[i + 2] === b) count++;
    }
  }
  return count;
}

// The panes' heights as drawn: the price from 58 to 358, the equity from 384 to 502, the null from 528 to 674.
const PRICE = [60, 356] as const;
const EQUITY = [384, 502] as const;
const NULL = [528, 674] as const;

describe("a rehearsal's plate", () => {
  const input = rehearsed();
  const plate = renderRehearsalPlate(input);
  const { trades, stats } = input.rehearsal;

  it('rehearses trades on both sides, winners and losers, weighed against 300 null runs', () => {
    expect(stats.long).toBeGreaterThan(0);
    expect(stats.short).toBeGreaterThan(0);
    expect(stats.wins).toBeGreaterThan(0);
    expect(stats.losses).toBeGreaterThan(0);
    expect(input.nullTotals).toHaveLength(300);
  });

  it('is a 1200 x 700 PNG with the candles, every entry by side and every exit by outcome drawn over the price', () => {
    const image = pngjs.PNG.sync.read(plate.png);
    expect([image.width, image.height]).toEqual([THEME.width, THEME.height]);
    for (const colour of [THEME.up, THEME.down, REHEARSAL_COLOURS.long, REHEARSAL_COLOURS.short, REHEARSAL_COLOURS.win, REHEARSAL_COLOURS.loss]) {
      expect(pixelsOf(plate.png, colour, ...PRICE), colour).toBeGreaterThan(0);
    }
    // One long trade alone draws no short entry, and less of the long colour than all of them.
    const oneSided = renderRehearsalPlate({ ...input, rehearsal: { ...input.rehearsal, trades: trades.filter((t) => t.side === 'long').slice(0, 1) } });
    expect(pixelsOf(oneSided.png, REHEARSAL_COLOURS.short, ...PRICE)).toBe(0);
    expect(pixelsOf(oneSided.png, REHEARSAL_COLOURS.long, ...PRICE)).toBeLessThan(pixelsOf(plate.png, REHEARSAL_COLOURS.long, ...PRICE));
  });

  it('draws the equity curve in R under the price, and the null with the rule marked where it falls', () => {
    expect(pixelsOf(plate.png, REHEARSAL_COLOURS.equity, ...EQUITY)).toBeGreaterThan(100);
    expect(pixelsOf(plate.png, REHEARSAL_COLOURS.rule, ...NULL)).toBeGreaterThan(100);
    expect(pixelsOf(plate.png, REHEARSAL_COLOURS.below, ...NULL) + pixelsOf(plate.png, REHEARSAL_COLOURS.atLeast, ...NULL)).toBeGreaterThan(1000);
  });

  it('states what it drew: the trades, the equity, and the null runs binned around the rule', () => {
    const { state } = plate;
    expect(state).toMatchObject({
      market: 'BTC',
      tf: '1m',
      from: '2018-04-06T00:00:00Z',
      size: { width: 1200, height: 700 },
      trades: { count: stats.n, long: stats.long, short: stats.short, wins: stats.wins, losses: stats.losses },
      equity: { final_r: stats.total_r, max_drawdown_r: stats.max_drawdown_r },
      null: { runs: 300, rule_total_r: input.rehearsal.null.rule_total_r, k: input.rehearsal.null.k, percentile: input.rehearsal.null.percentile },
    });
    expect(state.bars.count).toBe(input.rehearsal.window.bars);
    expect(state.null!.bins.counts.reduce((a, b) => a + b, 0)).toBe(300);
    const { from, width, counts } = state.null!.bins;
    expect(from).toBeLessThanOrEqual(Math.min(stats.total_r, ...input.nullTotals));
    expect(from + width * counts.length).toBeGreaterThanOrEqual(Math.max(stats.total_r, ...input.nullTotals));
    // The bins the rehearsal states are the ones drawn.
    expect(state.null!.bins).toEqual(input.rehearsal.null.histogram);
  });

  it('draws the same rehearsal to the same bytes, rehearsed again from scratch', () => {
    const again = renderRehearsalPlate(rehearsed());
    expect(Buffer.compare(again.png, plate.png)).toBe(0);
    expect(JSON.stringify(again.state)).toBe(JSON.stringify(plate.state));
    const otherSeed = rehearse(ir, compileDecider(ir, 'b'.repeat(64), 'test.v1'), bars, { seed: 'b'.repeat(64), from: FROM, nullRuns: 300 });
    expect(otherSeed.null.total_r).not.toEqual(input.rehearsal.null.total_r);
  });

  it('says there is no null without trades, and refuses a window without bars', () => {
    const none = renderRehearsalPlate({
      ...input,
      rehearsal: { ...input.rehearsal, trades: [], stats: statsOf([]), null: { ...input.rehearsal.null, runs: 0, histogram: null } },
    });
    expect(none.state.null).toBeNull();
    expect(pixelsOf(none.png, REHEARSAL_COLOURS.long, ...PRICE)).toBe(0);
    expect(() => renderRehearsalPlate({ ...input, rehearsal: { ...input.rehearsal, window: { ...input.rehearsal.window, from: TO + 3600, to: TO + 7200 } } })).toThrow(PlateError);
  });
});

describe("a rehearsal plate's words", () => {
  it('counts in the singular for one and the plural otherwise', async () => {
    const { counted } = await import('./rehearsal.js');
    expect(counted(1, 'trade')).toBe('1 trade');
    expect(counted(0, 'trade')).toBe('0 trades');
    expect(counted(1365, 'bar')).toBe('1,365 bars');
  });
});
