import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileDecider } from '../engine/decider/compile.js';
import { irOf } from '../engine/decider/ir.js';
import { scriptOfReading } from '../engine/decider/script.js';
import { renderRehearsalPlate } from '../engine/plate/index.js';
import { readRule } from '../engine/reader/index.js';
import { rehearse } from '../engine/stepper/rehearse.js';
import { barsIn, sampleFile } from './support/tape-file.js';

// The three rehearsal plates docs/plates.md shows, drawn from the shipped sample as a rehearsal draws them: a trending
// BTC day with trades, the ES week from its Sunday reopen, and an ES day where the rule never fired. With
// DECK_SHOTS=<folder> the PNGs are written there (docs/images/ holds the ones the page shows, and each must be the
// very bytes drawn here); none otherwise.
const SHOTS = process.env.DECK_SHOTS;

const at = (iso: string): number => Date.parse(iso) / 1000;

function plateOf(words: string, bars: ReturnType<typeof sampleFile>, from: number) {
  const read = scriptOfReading(readRule(words));
  if (!read.ok) throw new Error(`${words}: ${read.message}`);
  const ir = irOf(read.script);
  const seed = 'd'.repeat(64);
  const rehearsal = rehearse(ir, compileDecider(ir, seed, 'test.v1'), bars, { seed, from, nullRuns: 400 });
  const plate = renderRehearsalPlate({ rehearsal, ir, bars });
  return { rehearsal, plate };
}

const PLATES = {
  'rehearsal-btc-trend': () =>
    plateOf(
      'BTC 1m, long and short: go long when the 20 EMA crosses above the 50 EMA, go short when the 20 EMA crosses below the 50 EMA. Stop 2 ATR(14). Target 3R.',
      barsIn(sampleFile('BTC-1m'), at('2018-04-04T00:00Z'), at('2018-04-05T06:00Z')),
      at('2018-04-04T06:00Z'),
    ),
  'rehearsal-es-week': () =>
    plateOf(
      'ES 1m, long and short, during the cash session: go long when price crosses above VWAP, go short when price crosses below VWAP. Stop 3 points. Target 6 points.',
      sampleFile('ES-1m'),
      at('2013-10-06T22:00Z'),
    ),
  'rehearsal-no-trade': () =>
    plateOf(
      'ES 1m, long only, during the cash session: go long when RSI(14) crosses above 15 and the close is above the 200 EMA. Stop 4 points. Target 8 points.',
      barsIn(sampleFile('ES-1m'), at('2013-10-06T22:00Z'), at('2013-10-09T00:00Z')),
      at('2013-10-08T00:00Z'),
    ),
};

describe('the rehearsal plates the docs show', () => {
  for (const [name, draw] of Object.entries(PLATES)) {
    it(`draws ${name}, with the rule's lines, levels and session`, () => {
      const { rehearsal, plate } = draw();
      if (SHOTS) writeFileSync(join(SHOTS, `${name}.png`), plate.png);
      expect(plate.state.rule.lines.length).toBeGreaterThan(0);
      expect(plate.state.levels.stops).toBe(rehearsal.trades.length);
      expect(plate.state.readiness.idle).toEqual(rehearsal.window.idle);
      // The page shows what the code draws: the same bytes (refresh them with DECK_SHOTS=docs/images).
      expect(plate.png.equals(readFileSync(new URL(`../docs/images/${name}.png`, import.meta.url))), `docs/images/${name}.png`).toBe(true);
    });
  }
});
