import pngjs from 'pngjs';
import { describe, expect, it } from 'vitest';
import { EMA_CROSS } from '../../test/fixtures/scripts.js';
import { barsIn, sampleFile } from '../../test/support/tape-file.js';
import { compileDecider } from '../decider/compile.js';
import { irOf } from '../decider/ir.js';
import { rehearse } from '../stepper/rehearse.js';
import { statsOf } from '../stepper/stats.js';
import { PlateError } from './error.js';
import { readRule } from '../reader/index.js';
import { scriptOfReading } from '../decider/script.js';
import { sessionGate } from '../decider/series.js';
import type { DeciderIR } from '../decider/ir.js';
import { rehearsalSvg, renderRehearsalPlate, type RehearsalPlateInput } from './rehearsal.js';
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
  return { rehearsal, ir, bars, nullTotals };
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

// The panes' heights as drawn for a rule without an oscillator and a legend in one row: the price from 74 to 358, the
// equity from 384 to 502, the null from 528 to 674.
const PRICE = [76, 356] as const;
const EQUITY = [384, 502] as const;
const NULL = [528, 674] as const;
const PRICE_PANE = { y: 74, h: 284 };

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

/** The y of a price on a plate's price pane, from the range it states (5% padding either side). */
const priceY = (state: { price: { low: number; high: number } }, p: number, pane = PRICE_PANE): number => {
  const pad = 0.05 * (state.price.high - state.price.low);
  const [min, max] = [state.price.low - pad, state.price.high + pad];
  return pane.y + ((max - p) / (max - min)) * pane.h;
};

const images = new WeakMap<Buffer, pngjs.PNG>();
/** A PNG decoded once however many times it is read. */
const decoded = (png: Buffer): pngjs.PNG => images.get(png) ?? (images.set(png, pngjs.PNG.sync.read(png)), images.get(png)!);

/** Pixels of exactly this colour in a rectangle of the picture. */
function pixelsIn(png: Buffer, hex: string, x0: number, x1: number, y0: number, y1: number): number {
  const image = decoded(png);
  const [r, g, b] = rgb(hex);
  let count = 0;
  for (let y = Math.max(0, y0); y < Math.min(image.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(image.width, x1); x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i] === r && image.data[i + 1] === g && image.data[i + 2] === b) count++;
    }
  }
  return count;
}

describe('what the rule reads, drawn on its rehearsal plate', () => {
  const input = rehearsed();
  const { svg, state } = rehearsalSvg(input);
  const png = renderRehearsalPlate(input).png;
  const { trades } = input.rehearsal;

  it("draws the rule's own averages over the price, named in its words, and not the ATR its stop only measures with", () => {
    expect(state.rule.lines).toEqual([
      { label: 'EMA(9)', pane: 'price', ids: ['ema_9'] },
      { label: 'EMA(21)', pane: 'price', ids: ['ema_21'] },
    ]);
    expect(state.rule).toMatchObject({ stop: 'stop 2 x ATR(14)', target: 'target 2R', session: 'always', thresholds: [] });
    for (const colour of REHEARSAL_COLOURS.lines.slice(0, 2)) expect(pixelsOf(png, colour, ...PRICE), colour).toBeGreaterThan(300);
    for (const words of ['EMA(9)', 'EMA(21)', 'stop 2 x ATR(14)', 'target 2R']) expect(svg).toContain(`>${words}</text>`);
    expect(svg).not.toContain('ATR(14) (pane below)');
  });

  it('draws each trade\'s stop and target on their own rows, at the prices the trades state', () => {
    expect(state.levels).toEqual({ stops: trades.length, targets: trades.length });
    for (const t of trades.slice(0, 5)) {
      expect(t.target).toBeCloseTo(t.entry + (t.entry - t.stop) * 2, 1);
      for (const [price, colour] of [[t.stop, REHEARSAL_COLOURS.stop], [t.target!, REHEARSAL_COLOURS.target]] as const) {
        const y = Math.round(priceY(state, price));
        expect(pixelsIn(png, colour, 0, THEME.width, y - 1, y + 1), `${colour} at ${price}`).toBeGreaterThan(0);
      }
    }
    // Without trades, no level is drawn.
    const none = renderRehearsalPlate({ ...input, rehearsal: { ...input.rehearsal, trades: [], stats: statsOf([]), null: { ...input.rehearsal.null, runs: 0, histogram: null } } });
    expect(none.state.levels).toEqual({ stops: 0, targets: 0 });
    expect(pixelsOf(none.png, REHEARSAL_COLOURS.stop, ...PRICE)).toBe(0);
  });

  it('says where the rule could first decide and why bars could not, from the rehearsal', () => {
    expect(state.readiness).toEqual({ ready_at: '2018-04-06T00:00:00Z', idle: input.rehearsal.window.idle, shaded: { warm_up: 0, session: 0 } });
    expect(svg).toContain('first decision at 2018-04-06 00:01 UTC');
  });
});

describe("a rule with a session and an oscillator, on a plate where it never traded", () => {
  // ES 1m, 8 October 2013 with no history before it: the 200 EMA warms up inside the window, RSI(14) never
  // dips under 15 in the cash session, so the rule never fires.
  const ES = sampleFile('ES-1m');
  const DAY = Date.UTC(2013, 9, 8) / 1000;
  const words = 'ES 1m, long only, during the cash session: go long when RSI(14) crosses above 15 and the close is above the 200 EMA. Stop 4 points. Target 8 points.';
  const read = scriptOfReading(readRule(words));
  if (!read.ok) throw new Error(read.message);
  const esIr: DeciderIR = irOf(read.script);
  const esBars = barsIn(ES, DAY, DAY + 86_400);
  const rehearsal = rehearse(esIr, compileDecider(esIr, seed, 'test.v1'), esBars, { seed, nullRuns: 100 });
  const input = { rehearsal, ir: esIr, bars: esBars };
  const { svg, state } = rehearsalSvg(input);
  const png = renderRehearsalPlate(input).png;

  it('took no trade, and its plate names the lines, the RSI pane with its threshold, and the session', () => {
    expect(rehearsal.stats.n).toBe(0);
    expect(state.rule.lines).toEqual([
      { label: 'EMA(200)', pane: 'price', ids: ['ema_200'] },
      { label: 'RSI(14)', pane: 'rsi', ids: ['rsi_14'] },
    ]);
    expect(state.rule.thresholds).toEqual([{ pane: 'rsi', value: 15 }]);
    expect(state.rule.session).toBe('09:30-16:00 America/New_York');
    for (const words of ['EMA(200)', 'RSI(14) (pane below)', 'outside session 09:30-16:00 America/New_York', 'warming up']) expect(svg).toContain(`>${words}</text>`);
    // The RSI pane under the price (the price from 92, 234 high; the RSI from 334, 64 high): its line.
    expect(pixelsIn(png, REHEARSAL_COLOURS.lines[1], 10, 1110, 334, 398)).toBeGreaterThan(300);
    expect(pixelsIn(png, REHEARSAL_COLOURS.lines[1], 10, 1110, 92, 326)).toBe(0);
    expect(svg).toMatch(/RSI\(14\) \d+\.\d to \d+\.\d where the rule could decide/);
  });

  it('shades the hours it may not trade: the columns of bars closing outside 09:30-16:00 New York, and the warm-up', () => {
    const gate = sessionGate(esBars, esIr.session.kind === 'windows' ? esIr.session : { zone: 'UTC', windows: [] }, 60);
    const per = state.bars.per_column;
    const slot = 1102 / state.bars.columns;
    let outside = 0;
    let inside = 0;
    for (let k = 0; k < state.bars.columns; k++) {
      const bars = Array.from({ length: Math.min(per, esBars.length - k * per) }, (_, j) => k * per + j);
      const cx = Math.floor(10 + (k + 0.5) * slot);
      // The pixel column at its centre down the price pane (where a time tick's grid line runs, the grid hides it).
      const shaded = pixelsIn(png, REHEARSAL_COLOURS.session, cx, cx + 1, 93, 326) + pixelsIn(png, REHEARSAL_COLOURS.warmUp, cx, cx + 1, 93, 326);
      if (bars.every((i) => gate[i] === 0)) {
        outside++;
        expect(shaded + pixelsIn(png, THEME.grid, cx, cx + 1, 93, 326), `column ${k}`).toBeGreaterThan(0);
      } else if (bars.every((i) => gate[i] === 1)) {
        inside++;
        expect(shaded, `column ${k}`).toBe(0);
      }
    }
    expect(outside).toBeGreaterThan(100);
    expect(inside).toBeGreaterThan(100);
    expect(state.readiness.shaded.warm_up).toBeGreaterThan(0);
    expect(state.readiness.idle).toEqual(rehearsal.window.idle);
  });

  it('says why nothing fired in the pane the null would fill, with the rehearsal\'s own counts', () => {
    expect(svg).toContain('WHY NO TRADE');
    expect(svg).toContain(`${rehearsal.window.idle.session.toLocaleString('en-US')} outside its session`);
    expect(svg).toMatch(/RSI\(14\) stayed between (\d+\.\d) and \d+\.\d on the bars the rule could decide on; the rule compares/);
    expect(Number(/RSI\(14\) stayed between (\d+\.\d)/.exec(svg)![1])).toBeGreaterThan(15);
  });

  it('draws the same rule and rehearsal to the same bytes', () => {
    expect(Buffer.compare(renderRehearsalPlate(input).png, png)).toBe(0);
  });
});
