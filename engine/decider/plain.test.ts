import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIETY } from '../../test/support/forged.js';
import { CONDITION_MEANINGS } from '../reader/vocabulary.js';
import { irOf } from './ir.js';
import { FLAT_AT_WINDOW_END, inWords } from './plain.js';
import { ScriptSchema, type Script } from './script.js';

// The decider IR in plain words, as the grader is shown it: deterministic, whole (nothing left as a raw id or a
// missing value), and saying every part of the rule in the vocabulary's own definitions.

const register = (JSON.parse(readFileSync(new URL('../../config/register.json', import.meta.url), 'utf8')) as { strategies: { name: string; script: unknown }[] }).strategies;
const scripts: [string, Script][] = [...Object.entries(VARIETY), ...register.map((s) => [s.name, ScriptSchema.parse(s.script)] as [string, Script])];

describe('the decider IR in plain words', () => {
  it.each(scripts)('%s: the same IR gives the same text, with no value left unsaid', (_, script) => {
    const text = inWords(irOf(script));
    expect(inWords(irOf(structuredClone(script)))).toBe(text);
    expect(text).not.toMatch(/undefined|NaN|null|\[object|\{\w+\}|the series /);
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toMatch(/^What the forged code does \(decider\.v1\): it trades (NQ|ES|YM|BTC|ETH|SOL) on (15s|1m|5m|1h) bars/);
    expect(text).toMatch(/\nStop: /);
    expect(text).toContain("Fills (the stepper's): entries and rule exits at the next bar's open");
  });

  it('says each condition in the vocabulary\'s definition, the zone by the edge the code compares', () => {
    const or = inWords(irOf(VARIETY.openingRange!));
    expect(or).toContain(
      "Enter long when the bar's high goes above the opening range high (the highest high of the bars opening in the first 30 minutes from 09:30 America/New_York on weekdays, known from the close of its last bar), where the high of the bar before had not",
    );
    expect(or).toContain("Enter short when the bar's low goes below the opening range low");
    expect(or).toContain('When the long and the short trigger hold on the same bar, neither is taken.');
    expect(CONDITION_MEANINGS.breaks_above).toBe("the bar's high goes above {top}, where the high of the bar before had not");
    const marks = inWords(irOf(VARIETY.marks!));
    expect(marks).toContain("Enter long when the bar's high goes above the top of one of the trader's zone marks, where the high of the bar before had not");
    expect(marks).toContain('Exit rule: at the next bar\'s open after a bar where the bar\'s close crosses the VWAP of the trading day (volume-weighted typical price since 17:00 America/Chicago) either way');
  });

  it('says the stop, breakeven, target, trail and every time exit with the units the code uses', () => {
    const text = inWords(irOf(VARIETY.priorDay!));
    expect(text).toContain("When: it may enter only when a bar's close falls inside 08:30-15:00 America/Chicago");
    expect(text).toContain('Stop: 2 points (8 ticks of 0.25) above the prior trading day\'s high (trading days from 17:00 America/Chicago), as it stood at the signal bar\'s close.');
    expect(text).toContain('Breakeven: once the best price since the entry (the highest high long, the lowest low short) reaches 1R');
    expect(text).toContain("Target: at the prior trading day's close (trading days from 17:00 America/Chicago), read again at each bar's close and counted only while it lies beyond the entry.");
    expect(text).toContain("Trailing stop: 3 x ATR(14) at each bar's close behind the best price since the entry");
    expect(text).toContain('Clock exit: at the close of the bar that reaches the first 14:50 America/Chicago after the entry.');
    expect(text).toContain('Time exit: at the close of the first bar that closes 90 minutes or more after the entry fill.');
    expect(text).not.toContain('flat at window end');
    const bars = inWords(irOf(VARIETY.openingRange!));
    expect(bars).toContain('Time exit: at the close of the 90th bar of the trade (the entry bar is the first).');
    expect(bars).toContain('Close exit: at the close of the bar that reaches the first 16:00 America/New_York after the entry (the cash session\'s close).');
  });

  it('says a session window the rule gives no time exit closes a trade at its end', () => {
    const text = inWords(irOf(VARIETY.marks!));
    expect(text).toContain(`Session end: ${FLAT_AT_WINDOW_END}; the rule names no clock or close exit of its own.`);
    expect(inWords(irOf(VARIETY.emaCross!))).not.toContain('Session end');
  });
});
