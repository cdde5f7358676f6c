import { readdirSync, readFileSync } from 'node:fs';
import { codeOf, irOf, scriptOfReading, seedHash, type DeciderIR, type Script } from '../../engine/decider/index.js';
import { readRule, type RuleReading } from '../../engine/reader/index.js';
import { EMA_CROSS } from '../fixtures/scripts.js';

/** Forged code and the rules of the reader's corpus, for the forge's review and scan tests. */

export const FORGE_VERSION = 'forge.test.v1';

export interface Forged {
  ir: DeciderIR;
  code: string;
}

/** Script blocks that between them reach every kind of series, stop, target, trail, time exit and rule exit. */
export const VARIETY: Record<string, Script> = {
  emaCross: EMA_CROSS,
  marks: {
    version: 'script.v1',
    market: 'NQ',
    timeframe: '1m',
    session: { kind: 'windows', zone: 'America/New_York', windows: [{ from: '09:35', to: '10:30' }] },
    side: 'long',
    entry: { triggers: [{ side: 'long', when: { op: 'breaks_above', level: { kind: 'mark', shape: 'zone' } } }] },
    stop: { kind: 'level', where: 'below', level: { kind: 'mark', shape: 'zone' }, breakeven: { unit: 'points', n: 10 } },
    exit: {
      target: { kind: 'level', level: { kind: 'mark', shape: 'any' } },
      trail: { kind: 'level', level: { kind: 'ema', n: 9 } },
      when: { op: 'crosses', left: { kind: 'price', field: 'close' }, right: { kind: 'vwap' } },
    },
  },
  openingRange: {
    version: 'script.v1',
    market: 'ES',
    timeframe: '1m',
    session: { kind: 'always' },
    side: 'both',
    entry: { triggers: [{ side: null, when: { op: 'breaks', level: { kind: 'opening_range', field: 'range', minutes: 30 } } }] },
    stop: { kind: 'level', where: 'at', level: { kind: 'bar', bar: 'signal', field: 'low' } },
    exit: {
      trail: { kind: 'distance', distance: { unit: 'percent', n: 0.5 } },
      time: [{ kind: 'session_close' }, { kind: 'hours', n: 2 }, { kind: 'bars', n: 90 }],
    },
  },
  priorDay: {
    version: 'script.v1',
    market: 'ES',
    timeframe: '5m',
    session: { kind: 'windows', zone: 'America/Chicago', windows: [{ from: '08:30', to: '15:00' }] },
    side: 'short',
    entry: {
      triggers: [
        {
          side: 'short',
          when: {
            op: 'and',
            args: [
              { op: 'touches', level: { kind: 'prior_day', field: 'high' } },
              { op: 'above', left: { kind: 'rsi', n: 14 }, right: { kind: 'constant', value: 70 } },
            ],
          },
        },
      ],
    },
    stop: { kind: 'level', where: 'above', level: { kind: 'prior_day', field: 'high' }, offset: { unit: 'ticks', n: 8 }, breakeven: { unit: 'r', n: 1 } },
    exit: {
      target: { kind: 'level', level: { kind: 'prior_day', field: 'close' } },
      trail: { kind: 'distance', distance: { unit: 'atr', n: 3, period: 14 } },
      time: [
        { kind: 'clock', at: '14:50', zone: 'America/Chicago' },
        { kind: 'minutes', n: 90 },
      ],
    },
  },
  /** The range both ways: a stop beyond its other side, a target in ranges, a clock exit that closes the window's entries. */
  range: {
    version: 'script.v1',
    market: 'ES',
    timeframe: '1m',
    session: { kind: 'windows', zone: 'America/New_York', windows: [{ from: '09:30', to: '16:00' }] },
    side: 'both',
    entry: { triggers: [{ side: null, when: { op: 'breaks', level: { kind: 'opening_range', field: 'range', minutes: 15 } } }] },
    stop: { kind: 'level', where: 'beyond', level: { kind: 'opening_range', field: 'range', minutes: 15 } },
    exit: {
      target: { kind: 'distance', distance: { unit: 'range', n: 1.5, of: { kind: 'opening_range', field: 'range', minutes: 15 } } },
      time: [{ kind: 'clock', at: '11:30', zone: 'America/New_York' }],
    },
  },
  /** Structure and bands: a stop under the swing low, an entry at the lower band, out at the middle or the upper. */
  bands: {
    version: 'script.v1',
    market: 'BTC',
    timeframe: '5m',
    session: { kind: 'always' },
    side: 'long',
    entry: { triggers: [{ side: 'long', when: { op: 'touches', level: { kind: 'bollinger', band: 'lower', n: 20, k: 2 } } }] },
    stop: { kind: 'level', where: 'below', level: { kind: 'swing', field: 'low', strength: 2 } },
    exit: {
      target: { kind: 'level', level: { kind: 'bollinger', band: 'upper', n: 20, k: 2 } },
      when: { op: 'touches', level: { kind: 'bollinger', band: 'middle', n: 20, k: 2.5 } },
    },
  },
};

/** A script's IR and code, as the forge makes them. */
export function forged(script: Script): Forged {
  const ir = irOf(script);
  return { ir, code: codeOf(ir, seedHash(ir, FORGE_VERSION), FORGE_VERSION) };
}

/** Every rule of test/fixtures/rules whose seven parts all read, with its reading and script. */
export function wholeRules(): { where: string; text: string; reading: RuleReading; script: Script }[] {
  const dir = new URL('../fixtures/rules/', import.meta.url);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) =>
      (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { text: string }[]).flatMap(({ text }, i) => {
        const reading = readRule(text);
        const s = scriptOfReading(reading);
        return s.ok ? [{ where: `${f}#${i}`, text, reading, script: s.script }] : [];
      }),
    );
}

/** The 1-based line of the first line holding `text`; throws when none does, so a test cannot pass on a miss. */
export function lineWith(code: string, text: string, after = 0): number {
  const k = code.split('\n').findIndex((l, i) => i >= after && l.includes(text));
  if (k === -1) throw new Error(`no line holds ${JSON.stringify(text)}`);
  return k + 1;
}

/** The code with one line rewritten (its first occurrence of `from` becomes `to`). */
export function editLine(code: string, line: number, from: string, to: string): string {
  const lines = code.split('\n');
  if (!lines[line - 1]!.includes(from)) throw new Error(`line ${line} does not hold ${JSON.stringify(from)}`);
  lines[line - 1] = lines[line - 1]!.replace(from, to);
  return lines.join('\n');
}

/** The code with a line put after the first line holding `anchor`; answers the code and the new line's number. */
export function insertAfter(code: string, anchor: string, text: string): { code: string; line: number } {
  const at = lineWith(code, anchor);
  const lines = code.split('\n');
  lines.splice(at, 0, text);
  return { code: lines.join('\n'), line: at + 1 };
}
