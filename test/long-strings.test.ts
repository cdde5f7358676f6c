import { describe, expect, it } from 'vitest';
import { LONG_STRING_CHARS, putLongStrings, takeLongStrings } from '../core/pool/long-strings.js';
import { ownsItsMemory } from '../core/pool/own-memory.js';

// Long strings of ASCII cross from a pool's thread as their bytes and are put back as strings: the value that arrives
// is the value that left, wherever they sat.

const long = (c: string, extra = 0) => c.repeat(LONG_STRING_CHARS + extra);

describe('long strings across threads', () => {
  it('takes every long ASCII string as bytes of its own and puts each back where it sat', () => {
    const value = () => JSON.parse(
      JSON.stringify({ data: long('A'), short: 'kept', nested: { list: [1, long('b', 3), { deep: long('=') }] }, wide: long('é'), ['__proto__']: long('p') }),
    ) as unknown;
    const sent = value();
    const { value: left, strings } = takeLongStrings(sent);
    expect(strings.map((s) => s.at)).toEqual([['data'], ['nested', 'list', 1], ['nested', 'list', 2, 'deep'], ['__proto__']]);
    for (const s of strings) expect(ownsItsMemory(s.bytes)).toBe(true);
    // What crosses as a value holds none of them; a long string that is not ASCII crosses as it is.
    expect(left).toMatchObject({ data: '', short: 'kept', nested: { list: [1, '', { deep: '' }] }, wide: long('é') });
    expect(Object.getPrototypeOf(left)).toBe(Object.prototype);
    // The value taken from is left as it was.
    expect(sent).toEqual(value());
    const arrived = putLongStrings(structuredClone(left), strings);
    expect(arrived).toEqual(value());
    expect(Object.getPrototypeOf(arrived)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(arrived, '__proto__')?.value).toBe(long('p'));
  });

  it('takes a value that is itself a long string, and leaves values with none as they are', () => {
    const { value, strings } = takeLongStrings(long('x'));
    expect(value).toBe('');
    expect(putLongStrings(value, strings)).toBe(long('x'));
    // A typed array beside a long string crosses as it is, never walked.
    const columns = new Float64Array(4);
    expect((takeLongStrings({ columns, s: long('z') }).value as { columns: unknown }).columns).toBe(columns);
    for (const plain of [null, 7, 'short', { a: [long('y').slice(1)] }, [] as unknown[]]) {
      const taken = takeLongStrings(plain);
      expect(taken.strings).toEqual([]);
      expect(putLongStrings(taken.value, taken.strings)).toEqual(plain);
    }
  });
});
