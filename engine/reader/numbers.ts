import type { Token } from './tokens.js';

/**
 * A number as the trader wrote it: digits ("21", "0.5", "1,000") or words from zero to nine hundred and
 * ninety-nine ("nine", "twenty-one", "two hundred", "one and a half", "half a").
 */

const ONES: ReadonlyMap<string, number> = new Map(
  ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'].map((w, i) => [w, i]),
);
const TENS: ReadonlyMap<string, number> = new Map(['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map((w, i) => [w, 20 + 10 * i]));

export interface NumberRead {
  value: number;
  /** The token after the number. */
  end: number;
  /** Written in digits, not words. */
  digits: boolean;
}

const norm = (tokens: readonly Token[], i: number): string | undefined => {
  const t = tokens[i];
  return t && t.kind === 'word' ? t.norm : undefined;
};

/** Index past an optional hyphen between two parts of one number ("twenty-one"). */
const pastHyphen = (tokens: readonly Token[], i: number): number => (tokens[i]?.norm === '-' && !tokens[i]!.spaced ? i + 1 : i);

/** Below one hundred, in words: "nine", "twenty", "twenty-one", "twenty one". */
function underHundred(tokens: readonly Token[], i: number): { value: number; end: number } | null {
  const w = norm(tokens, i);
  if (w === undefined) return null;
  const one = ONES.get(w);
  if (one !== undefined) return { value: one, end: i + 1 };
  const ten = TENS.get(w);
  if (ten === undefined) return null;
  const j = pastHyphen(tokens, i + 1);
  const unit = ONES.get(norm(tokens, j) ?? '');
  if (unit !== undefined && unit >= 1 && unit <= 9) return { value: ten + unit, end: j + 1 };
  return { value: ten, end: i + 1 };
}

function inWords(tokens: readonly Token[], i: number): { value: number; end: number } | null {
  if (norm(tokens, i) === 'half') {
    // "half a percent", "half an ATR"
    const a = norm(tokens, i + 1);
    return { value: 0.5, end: a === 'a' || a === 'an' ? i + 2 : i + 1 };
  }
  const head = underHundred(tokens, i);
  if (!head) return null;
  let { value, end } = head;
  if (value >= 1 && value <= 9 && norm(tokens, end) === 'hundred') {
    value *= 100;
    end += 1;
    const and = norm(tokens, end) === 'and' ? end + 1 : end;
    const rest = underHundred(tokens, and);
    if (rest && rest.value > 0) ({ value, end } = { value: value + rest.value, end: rest.end });
  }
  if (norm(tokens, end) === 'and' && norm(tokens, end + 1) === 'a' && norm(tokens, end + 2) === 'half') {
    value += 0.5;
    end += 3;
  }
  return { value, end };
}

function read(tokens: readonly Token[], i: number): NumberRead | null {
  const t = tokens[i];
  if (!t) return null;
  if (t.kind === 'num') return { value: t.value, end: i + 1, digits: true };
  const w = inWords(tokens, i);
  return w ? { ...w, digits: false } : null;
}

/** Many recognizers ask for the number at one token: read once per token list. */
const memo = new WeakMap<readonly Token[], (NumberRead | null)[]>();

export function readNumber(tokens: readonly Token[], i: number): Readonly<NumberRead> | null {
  let known = memo.get(tokens);
  if (!known) memo.set(tokens, (known = []));
  let n = known[i];
  if (n === undefined) n = known[i] = read(tokens, i);
  return n;
}
