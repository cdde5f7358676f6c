/**
 * What a JSON body may hold: how deep its objects and arrays nest, how many entries they hold together (an object's
 * keys and an array's items, at every depth), and how long one string may be (in bytes as sent, escapes included). A
 * route reads its body only within them: what is beyond is refused before anything walks it (JSON.parse, a schema, an
 * error listing its keys), so a body's cost to the deck is bounded by its route, never by what a client puts in it.
 */
export interface JsonBounds {
  depth: number;
  entries: number;
  string: number;
}

/** A tool's input: small. A route that takes more (a forge script, an image) says so in its binding. */
export const TOOL_INPUT_BOUNDS: JsonBounds = { depth: 16, entries: 1_024, string: 64 * 1024 };

/** The first bound a body passed, in words. */
export interface Excess {
  bound: keyof JsonBounds;
  message: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

const tooMany = (b: JsonBounds): Excess => ({ bound: 'entries', message: `it holds more than ${b.entries.toLocaleString('en-US')} keys and array items` });
const tooDeep = (b: JsonBounds): Excess => ({ bound: 'depth', message: `objects and arrays nest deeper than ${b.depth} levels` });
const tooLong = (b: JsonBounds): Excess => ({ bound: 'string', message: `a string is longer than ${b.string.toLocaleString('en-US')} bytes` });

/**
 * Reads a JSON body's shape as its bytes arrive, against `bounds`, and stops at the first bound passed: so what the
 * deck spends on a body beyond its bounds is bounded by them, not by the body (the rest is neither kept, decoded nor
 * parsed). UTF-8 needs no decoding for this: every byte of a multi-byte character is above 0x7f, never one of JSON's
 * marks. It does not validate the JSON (the parser does, after it); on bytes that are not JSON it answers whatever
 * it found, and the parser refuses them as it would have.
 */
export class JsonShape {
  private depth = 0;
  private entries = 0;
  /** Whether each open container is an array, by depth (never deeper than the bound: that is refused first). */
  private readonly arrays: boolean[] = [false];
  /** An array just opened: its first value, if any, is an entry (the others follow a comma). */
  private opened = false;
  private inString = false;
  /** The byte after a backslash in a string: escaped, whatever it is. */
  private escaped = false;
  private stringBytes = 0;
  private excess: Excess | null = null;

  constructor(private readonly bounds: JsonBounds) {}

  /** The keys and array items read so far, at every depth. */
  get entriesRead(): number {
    return this.entries;
  }

  /** Reads the next bytes; answers the first bound the body has passed so far (and after it, the same), or null. */
  read(bytes: Uint8Array): Excess | null {
    if (this.excess) return this.excess;
    const b = this.bounds;
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        i = this.readString(bytes, i);
        if (this.stringBytes > b.string) return (this.excess = tooLong(b));
        continue;
      }
      const c = bytes[i++]!;
      if (isSpace(c)) continue;
      if (this.opened) {
        this.opened = false;
        if (c !== CLOSE_ARRAY && ++this.entries > b.entries) return (this.excess = tooMany(b));
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          this.stringBytes = 0;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          if (++this.depth > b.depth) return (this.excess = tooDeep(b));
          this.arrays[this.depth] = c === OPEN_ARRAY;
          this.opened = c === OPEN_ARRAY;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          if (this.depth > 0) this.depth--;
          break;
        case COLON:
          if (++this.entries > b.entries) return (this.excess = tooMany(b));
          break;
        case COMMA:
          if (this.arrays[this.depth] && ++this.entries > b.entries) return (this.excess = tooMany(b));
          break;
      }
    }
    return null;
  }

  /**
   * Reads a string's bytes from `i` up to its closing quote or the end of these bytes, counting them; answers where
   * to go on. The next quote and backslash are each found once with indexOf (native), so a long string costs two
   * searches, and a string of many escapes one step per escape.
   */
  private readString(bytes: Uint8Array, from: number): number {
    const n = bytes.length;
    let i = from;
    let quote = -1;
    let slash = -1;
    while (i < n) {
      if (this.escaped) {
        this.escaped = false;
        this.stringBytes++;
        i++;
        continue;
      }
      if (quote < i) quote = indexOf(bytes, QUOTE, i);
      if (slash < i) slash = indexOf(bytes, BACKSLASH, i);
      const stop = Math.min(quote, slash);
      if (stop === n) {
        this.stringBytes += n - i;
        return n;
      }
      this.stringBytes += stop - i;
      if (stop === slash) {
        this.escaped = true;
        this.stringBytes++;
        i = stop + 1;
        continue;
      }
      this.inString = false;
      return stop + 1;
    }
    return n;
  }
}

/** Where `byte` is next from `from`, or the length when it is not there. */
function indexOf(bytes: Uint8Array, byte: number, from: number): number {
  const at = bytes.indexOf(byte, from);
  return at < 0 ? bytes.length : at;
}

/**
 * The same bounds held to a value already parsed (an MCP call's arguments, read with its whole body under the
 * endpoint's wider bounds): a walk that stops at the first bound passed. A string's length is counted in UTF-16 units
 * here, never more than its bytes as sent.
 */
export function excessOfValue(value: unknown, bounds: JsonBounds): Excess | null {
  let entries = 0;
  const walk = (v: unknown, depth: number): Excess | null => {
    if (typeof v === 'string') return v.length > bounds.string ? tooLong(bounds) : null;
    if (typeof v !== 'object' || v === null) return null;
    if (depth > bounds.depth) return tooDeep(bounds);
    if (Array.isArray(v)) {
      if ((entries += v.length) > bounds.entries) return tooMany(bounds);
      for (const item of v) {
        const excess = walk(item, depth + 1);
        if (excess) return excess;
      }
      return null;
    }
    for (const key of Object.keys(v)) {
      if (++entries > bounds.entries) return tooMany(bounds);
      if (key.length > bounds.string) return tooLong(bounds);
      const excess = walk((v as Record<string, unknown>)[key], depth + 1);
      if (excess) return excess;
    }
    return null;
  };
  return walk(value, 1);
}
