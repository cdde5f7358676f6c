import { describe, expect, it } from 'vitest';
import { barsIn, sampleFile } from '../../test/support/tape-file.js';
import { compileDecider } from '../decider/compile.js';
import { irOf } from '../decider/ir.js';
import { scriptOfReading } from '../decider/script.js';
import { readRule } from '../reader/index.js';
import { rehearse } from '../stepper/rehearse.js';
import { rehearsalSvg } from './rehearsal.js';
import { exitWords, ruleLinesOf, thresholdsOf } from './rule-lines.js';

// Each kind of series the forge reads, drawn and named on a rehearsal plate, with the rule's ways out: rules in a
// trader's words (ES without a session named trades the cash session), forged and rehearsed on a day of the shipped
// ES sample with the day before to warm them, then drawn.

const ES = sampleFile('ES-1m');
const DAY = Date.UTC(2013, 9, 9) / 1000;
const bars = barsIn(ES, DAY - 86_400, DAY + 86_400);

const irOfWords = (words: string) => {
  const read = scriptOfReading(readRule(words));
  if (!read.ok) throw new Error(`${words}: ${read.message}`);
  return irOf(read.script);
};

/** The plate's SVG of a rule rehearsed over the day. */
const plateSvgOf = (ir: ReturnType<typeof irOfWords>): string => {
  const seed = 'e'.repeat(64);
  return rehearsalSvg({ rehearsal: rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, from: DAY, nullRuns: 0 }), ir, bars }).svg;
};

const RULES: [string, { label: string; pane: string; ids: string[] }[], string, string | null, string[]][] = [
  [
    'ES 1m: buy when price crosses above VWAP, stop below the swing low, target 2R.',
    [
      { label: 'VWAP', pane: 'price', ids: ['vwap'] },
      { label: 'swing low (2 bars each side)', pane: 'price', ids: ['swing_low_2'] },
    ],
    'stop below swing low (2 bars each side)',
    'target 2R',
    ['flat at window end'],
  ],
  [
    'ES 1m: trade the 15 minute opening range breakout both ways, stop beyond the other side of the range, target 1.5 times the range, out by the close.',
    [{ label: '15-minute opening range from 09:30 America/New_York', pane: 'price', ids: ['opening_range_15_high', 'opening_range_15_low'] }],
    'stop beyond 15-minute opening range from 09:30 America/New_York',
    'target 1.5 x the opening range',
    ['out at session end'],
  ],
  [
    'ES 1m: buy when price tags the lower Bollinger band, stop 1%, exit when price tags the middle band.',
    [{ label: 'Bollinger(20, 2)', pane: 'price', ids: ['bollinger_20_2_lower', 'bollinger_20_2_middle'] }],
    'stop 1%',
    null,
    ['exit rule', 'flat at window end'],
  ],
  [
    'ES 1m, around the clock: go long when price breaks above the prior day high. Stop 2 ATR(14). Exit after 30 bars.',
    [{ label: 'prior day high', pane: 'price', ids: ['prior_day_high'] }],
    'stop 2 x ATR(14)',
    null,
    ['out after 30 bars'],
  ],
];

describe('the lines a rehearsal plate draws for each kind of series the forge reads', () => {
  for (const [words, lines, stop, target, others] of RULES) {
    it(words, () => {
      const ir = irOfWords(words);
      expect(ruleLinesOf(ir)).toEqual(lines);
      expect(exitWords(ir)).toEqual({ stop, target, others });
      for (const said of others) expect(plateSvgOf(ir)).toContain(`>${said}</text>`);
      const seed = 'e'.repeat(64);
      const rehearsal = rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, from: DAY, nullRuns: 50 });
      const { svg, state } = rehearsalSvg({ rehearsal, ir, bars });
      expect(state.rule.lines).toEqual(lines);
      for (const l of lines) expect(svg).toContain(`>${l.label}</text>`);
      // Every line drawn has a path with points in it.
      expect(svg.match(/<path d="M[\d.]+ [\d.]+L/g)?.length ?? 0).toBeGreaterThanOrEqual(lines.length);
    });
  }

  it('puts an oscillator in a pane of its own, and the constants it is compared with on that pane', () => {
    const ir = irOfWords('BTC 5m: go long when RSI(14) crosses above 30, stop 1%, target 2%.');
    expect(ruleLinesOf(ir)).toEqual([{ label: 'RSI(14)', pane: 'rsi', ids: ['rsi_14'] }]);
    expect(thresholdsOf(ir)).toEqual([{ pane: 'rsi', value: 30 }]);
    expect(exitWords(ir)).toEqual({ stop: 'stop 1%', target: 'target 2%', others: [] });
  });

  it('names a threshold beyond the price the window drew at the pane\'s edge', () => {
    const ir = irOfWords('ES 1m: go long when the close crosses above 2000, stop 4 points, target 8 points.');
    expect(thresholdsOf(ir)).toEqual([{ pane: 'price', value: 2000 }]);
    const seed = 'e'.repeat(64);
    const rehearsal = rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, from: DAY, nullRuns: 0 });
    expect(rehearsal.stats.n).toBe(0);
    const { svg } = rehearsalSvg({ rehearsal, ir, bars });
    expect(svg).toContain('>2000 above</text>');
  });
});
