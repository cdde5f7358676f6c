/**
 * Long strings of ASCII cross from a thread to the event loop as their bytes, moved, and become strings again outside
 * the JS heap. A string the loop takes by structured clone is copied into new heap memory of its own: for the some
 * megabytes of an image's base64 that held the loop about 25 ms here, nearly all of it the first touch of fresh
 * pages. Made from bytes with Latin-1, a string of a megabyte or more is external, in memory the process reuses.
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

/**
 * The value with each long string of ASCII left empty, and those strings as bytes (each its own buffer, to move).
 * The value is changed in place: it is the thread's to hand over.
 */
export function takeLongStrings(value: unknown): { value: unknown; strings: LongString[] } {
  const strings: LongString[] = [];
  const long = (v: unknown): v is string => typeof v === 'string' && v.length >= LONG_STRING_CHARS && asciiOnly(v);
  const walk = (container: Container, at: (string | number)[]): void => {
    for (const [key, inner] of Object.entries(container)) {
      const slot = Array.isArray(container) ? Number(key) : key;
      if (long(inner)) {
        strings.push({ at: [...at, slot], bytes: Buffer.from(inner, 'latin1') });
        setSlot(container, slot, '');
      } else if (typeof inner === 'object' && inner !== null) walk(inner as Container, [...at, slot]);
    }
  };
  if (long(value)) return { value: '', strings: [{ at: [], bytes: Buffer.from(value, 'latin1') }] };
  if (typeof value === 'object' && value !== null) walk(value as Container, []);
  return { value, strings };
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
