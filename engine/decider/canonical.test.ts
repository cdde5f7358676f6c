import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';

describe('canonical JSON', () => {
  it('orders keys by code unit at every depth, leaves out undefined fields, keeps arrays in their order', () => {
    const value = { b: 1, a: [{ z: true, Z: null, é: 'x', y: undefined }, 2.5], B: { '\u{1F600}': 1, '\uFFFF': 2, '10': 3, '9': 4 }, u: undefined };
    // "10" before "9", and an astral character (a surrogate pair, \uD83D...) before \uFFFF: code units, not numbers or code points.
    expect(canonicalJson(value)).toBe('{"B":{"10":3,"9":4,"\u{1F600}":1,"\uFFFF":2},"a":[{"Z":null,"z":true,"é":"x"},2.5],"b":1}');
  });

  it('writes an object of undefined fields only as {}, and refuses a number JSON cannot carry', () => {
    expect(canonicalJson({ a: undefined })).toBe('{}');
    expect(() => canonicalJson({ a: NaN })).toThrow(RangeError);
  });
});
