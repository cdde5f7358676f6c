/**
 * Long strings of ASCII cross between the event loop and a pool thread as their bytes, moved, and become strings again
 * where they arrive. A string that crosses by structured clone is copied twice, into the message and out of it into
 * new heap memory: for the some megabytes of an image's base64 each copy held the loop 15-30 ms here, nearly all of
 * it the first touch of fresh pages. Made from bytes with Latin-1, a string of a megabyte or more is external, in
 * memory the process reuses.
 */

/** Where a long string sat in a value (its keys and indexes from the top; none: the value itself), and its bytes. */
export interface LongString {
  at: (string | number)[];
  bytes: Uint8Array;
}

/** From this length on a string crosses as bytes (Node makes an external string from about a megabyte). */
export const LONG_STRING_CHARS = 1 << 20;

type Container = Record<string, unknown> | unknown[];

/** Sets a slot as a data property, whatever its name (a JSON key may be `__proto__`). */
const setSlot = (container: Container, key: string | number, value: unknown): void =>
  void Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });

const asciiOnly = (s: string): boolean => Buffer.byteLength(s, 'utf8') === s.length;

/** An object as JSON and structured clone make them (a typed array, say, is crossed as it is, never walked). */
const plainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && [Object.prototype, null].includes(Object.getPrototypeOf(v) as object | null);

/**
 * The value with each long string of ASCII left empty, and those strings as bytes (each its own buffer, to move).
 * The value itself is left as it is: where it holds one, the arrays and objects on the way to it are copies.
 */
export function takeLongStrings(value: unknown): { value: unknown; strings: LongString[] } {
  const strings: LongString[] = [];
  const take = (v: unknown, at: (string | number)[]): unknown => {
    if (typeof v === 'string') {
      if (v.length < LONG_STRING_CHARS || !asciiOnly(v)) return v;
      strings.push({ at, bytes: Buffer.from(v, 'latin1') });
      return '';
    }
    if (Array.isArray(v)) return v.map((inner, i) => take(inner, [...at, i]));
    if (!plainObject(v)) return v;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v)) setSlot(copy, key, take(inner, [...at, key]));
    return copy;
  };
  const taken = take(value, []);
  return { value: strings.length ? taken : value, strings };
}

/** The value with its long strings put back where they sat. */
export function putLongStrings(value: unknown, strings: readonly LongString[]): unknown {
  let top = value;
  for (const { at, bytes } of strings) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    if (at.length === 0) {
      top = text;
      continue;
    }
    let container = top as Container;
    for (const key of at.slice(0, -1)) container = (container as Record<string, unknown>)[key] as Container;
    setSlot(container, at.at(-1)!, text);
  }
  return top;
}
