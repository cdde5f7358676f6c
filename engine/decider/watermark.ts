/**
 * The watermark of generated code, in three places: the header comment, the SEED_HASH and VERSION constants, and
 * SEAL, the seed hash as eight 32-bit words that the logic itself reads (arm writes one into the state). Comments
 * and string constants may be dropped or reformatted by a copier's tools; SEAL is code, so it stays, in whatever
 * radix and spacing a formatter leaves it.
 */

const HEX64 = /^[0-9a-f]{64}$/;
/** What a version may be: it is written into code as a string literal, so nothing that could end one. */
export const VERSION_PATTERN = /^[A-Za-z0-9._:/+-]{1,64}$/;

/** The seed hash (64 hex digits) as eight unsigned 32-bit words. */
export function sealWords(seedHash: string): number[] {
  if (!HEX64.test(seedHash)) throw new RangeError('a seed hash is 64 lowercase hex digits');
  return Array.from({ length: 8 }, (_, i) => Number.parseInt(seedHash.slice(i * 8, i * 8 + 8), 16));
}

const wordsToHash = (words: number[]): string => words.map((w) => w.toString(16).padStart(8, '0')).join('');

/** A numeric literal as a formatter may leave it: hex, octal, binary or decimal, with separators. */
function literal(text: string): number | null {
  const s = text.trim().replaceAll('_', '');
  if (!/^(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 0 && n <= 0xffffffff ? n : null;
}

function sealOf(code: string): string | null {
  const m = /\bSEAL\b[^=]*=\s*\[([^\]]*)\]/.exec(code);
  if (!m) return null;
  const words = m[1]!
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')
    .map(literal);
  if (words.length !== 8 || words.some((w) => w === null)) return null;
  return wordsToHash(words as number[]);
}

const stringConst = (code: string, name: string, body: string): string | null =>
  new RegExp(`\\b${name}\\b[^=]*=\\s*(['"\`])(${body})\\1`).exec(code)?.[2] ?? null;

/**
 * The seed hash and version a piece of generated code carries, or null when it carries none, or when its parts
 * disagree (a SEED_HASH constant that is not what SEAL says: the code was altered).
 */
export function verifyWatermark(code: string): { seed_hash: string; version: string } | null {
  const sealed = sealOf(code);
  const stated = stringConst(code, 'SEED_HASH', '[0-9a-f]{64}');
  const version = stringConst(code, 'VERSION', '[A-Za-z0-9._:/+-]{1,64}');
  if (sealed === null || version === null) return null;
  if (stated !== null && stated !== sealed) return null;
  return { seed_hash: sealed, version };
}
