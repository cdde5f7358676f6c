import { describe, expect, it } from 'vitest';
import { accountClauses, ClauseAccountSchema } from './account.js';
import { readRule } from './read.js';
import type { Part, PartName, RuleReading } from './schema.js';

/** A clause of the vocabulary and the part it must land in. */
const CLAUSES: readonly (readonly [string, PartName])[] = [
  ['take profit 1.1 percent', 'exit'],
  ['take 1.2%', 'exit'],
  ['take 40 points', 'exit'],
  ['bank 2R', 'exit'],
  ['target 2R', 'exit'],
  ["target the prior day's close", 'exit'],
  ['target one and a half times the range', 'exit'],
  ['target twice the opening range', 'exit'],
  ['exit when price tags the upper Bollinger band', 'exit'],
  ['exit at the middle Bollinger band', 'exit'],
  ['close after 2 hours', 'exit'],
  ['exit after 12 bars', 'exit'],
  ['hold 40 bars max', 'exit'],
  ['out by the close', 'exit'],
  ['exit at 11:30 ET', 'exit'],
  ['flat at 15:55 New York time', 'exit'],
  ['trail by 2 ATR(14)', 'exit'],
  ['stop 10 points', 'stop'],
  ['stop below the lowest low of the last 5 bars', 'stop'],
  ['stop under the swing low', 'stop'],
  ['stop above the most recent swing high', 'stop'],
  ['stop beyond the other side of the range', 'stop'],
  ['stop at the range low', 'stop'],
  ['stop 1.5 ATR(14)', 'stop'],
  ['move the stop to breakeven at 1R', 'stop'],
  ['between 09:45 and 15:30 Chicago', 'session'],
  ['from 10:00 to 12:00 London', 'session'],
  ['from 09:00 to 11:30 Tokyo', 'session'],
  ['in the first hour', 'session'],
  ['on the five-minute chart', 'timeframe'],
  ['fifteen-second bars', 'timeframe'],
  ['hourly', 'timeframe'],
];

/** A rule's market, timeframe, side and entry, with a range for the range's words to be of. */
const BASE = 'ES 1m: buy a break above the 15-minute opening range high.';
const JOINS = ['; ', ', ', '. ', ' and '];

/** Every span the part cites: its own and each reading's. */
const cited = (part: Part<unknown>) => [...part.spans, ...(part.readings ?? []).flatMap((r) => r.spans)];
const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;

/** Whether the clause at [from, to) lands in its part, and nothing of it is left unused. */
function lands(reading: RuleReading, text: string, from: number, to: number, part: PartName): { cited: boolean; unused: string[] } {
  const at = { from, to };
  return {
    cited: cited(reading[part] as Part<unknown>).some((s) => overlaps(s, at)),
    unused: accountClauses(text, reading)
      .flatMap((c) => c.unused)
      .filter((u) => overlaps(u.span, at))
      .map((u) => `${u.span.text}: ${u.why}`),
  };
}

describe('the clauses of the words, accounted for', () => {
  it('lands both clauses of every pair of the vocabulary, in either order and joined every way', () => {
    const misses: string[] = [];
    let k = 0;
    for (const [a, pa] of CLAUSES) {
      for (const [b, pb] of CLAUSES) {
        if (a === b) continue;
        const join = JOINS[k++ % JOINS.length]!;
        const head = `${BASE} ${a}${join}`;
        const text = `${head}${b}.`;
        const reading = readRule(text);
        for (const [clause, part, from] of [[a, pa, BASE.length + 1] as const, [b, pb, head.length] as const]) {
          const got = lands(reading, text, from, from + clause.length, part);
          if (!got.cited || got.unused.length > 0) misses.push(`${text} -> "${clause}" ${got.cited ? '' : `not in ${part} `}${got.unused.join('; ')}`);
        }
      }
    }
    expect(misses.length, misses.slice(0, 40).join("\n")).toBe(0);
    expect(k).toBe(CLAUSES.length * (CLAUSES.length - 1));
  });

  it('reads a target and a time exit in one sentence, and says so clause by clause', () => {
    const text = 'YM 1m. Long when price crosses above VWAP. Take profit 1.1 percent; close after 2 hours. Stop 40 points.';
    const reading = readRule(text);
    expect(reading.exit).toMatchObject({ status: 'read', value: { target: { kind: 'distance', distance: { unit: 'percent', n: 1.1 } }, time: [{ kind: 'hours', n: 2 }] } });
    const account = accountClauses(text, reading);
    expect(account.map((c) => [c.span.text, c.parts, c.unused])).toEqual([
      ['YM 1m', ['market', 'timeframe', 'session'], []],
      ['Long when price crosses above VWAP', ['side', 'entry'], []],
      ['Take profit 1.1 percent', ['exit'], []],
      ['close after 2 hours', ['exit'], []],
      ['Stop 40 points', ['stop'], []],
    ]);
    for (const c of account) expect(ClauseAccountSchema.parse(c)).toEqual(c);
  });

  it('says why a clause was not used, with the words that would read', () => {
    const text = 'NQ 5 minute. Long when price breaks above the prior day high. Short the prior day low. Risk $500 per trade, stop 15 points. Fade the open. Exit after 30 minutes';
    const account = accountClauses(text, readRule(text));
    const unused = account.flatMap((c) => c.unused.map((u) => [u.span.text, u.why, u.hint ?? null]));
    expect(unused).toEqual([
      ['prior day low', "a level or indicator in a trigger's clause that no part took", "say it as a condition ('when price closes above VWAP') or with its unit ('10 points')"],
      ['Risk', 'names a stop, but nothing after it reads as one', "say where: 'stop 10 points', 'stop below the swing low'"],
      ['$500 per trade', 'position sizing: the rule trades one contract or coin, and the reader does not read sizing', null],
      ['Fade the open', 'none of these words is one the reader reads', null],
    ]);
    // every clause lands somewhere or says why
    for (const c of account) expect(c.parts.length + c.unused.length).toBeGreaterThan(0);
  });

  it('notes an amount and a length of time said where nothing takes them', () => {
    const text = 'BTC 1m: buy when price crosses above VWAP after 2 hours, 40 points. Stop 1%. Target 2%.';
    const unused = accountClauses(text, readRule(text)).flatMap((c) => c.unused.map((u) => [u.span.text, u.hint]));
    expect(unused).toEqual([
      ['2 hours', "say it as a way out: 'exit after 2 hours'"],
      ['40 points', "say what it is: 'stop 10 points', 'target 10 points'"],
    ]);
  });

  it("accounts any lane's reading by its own spans: a clause its reading does not cite is unused", () => {
    const text = 'ES 1m: buy when price crosses above VWAP, stop 2 points, take 4 points.';
    const reading = readRule(text);
    const blind = { ...reading, exit: { status: 'missing', value: null, spans: [] } } as RuleReading;
    expect(accountClauses(text, blind).find((c) => c.span.text === 'take 4 points')).toEqual({
      span: { from: 57, to: 70, text: 'take 4 points' },
      parts: [],
      unused: [
        { span: { from: 57, to: 61, text: 'take' }, why: 'names a target, but nothing after it reads as one', hint: "say how far: 'target 2R', 'take 40 points', 'target the prior day's close'" },
        { span: { from: 62, to: 70, text: '4 points' }, why: 'an amount in a target clause that its part did not take' },
      ],
    });
  });
});
