/**
 * The trader's text as tokens, each with its character offsets so every reading can cite its words.
 * Letters and digits split apart ("9ema" is 9 and ema, "rsi14" is rsi and 14, "2R" is 2 and R); a clock time
 * (H:MM or HH:MM) is one token; every other mark is a token of its own. A newline ends a sentence as a full stop does.
 */

export type TokenKind = 'word' | 'num' | 'time' | 'punct';

export interface Token {
  kind: TokenKind;
  /** As written. */
  text: string;
  /** Words lower-cased, without apostrophes or a possessive 's ("Yesterday's" is "yesterday"); a newline is "\n". */
  norm: string;
  from: number;
  to: number;
  /** Whitespace stands between this token and the one before it ("15 m" yes, "15m" no). */
  spaced: boolean;
  /** num: its value; time: minutes since midnight. */
  value: number;
}

const SCAN = /(\s+)|(\d{1,2}):(\d{2})(?!\d)|(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)|([A-Za-z]+(?:['’][A-Za-z]+)*)|([^\s\w])/y;

const wordNorm = (w: string): string =>
  w
    .toLowerCase()
    .replace(/['’]s$/, '')
    .replace(/['’]/g, '');

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let spaced = true;
  const push = (kind: TokenKind, t: string, norm: string, from: number, value = 0): void => {
    tokens.push({ kind, text: t, norm, from, to: from + t.length, spaced, value });
    spaced = false;
  };
  SCAN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    SCAN.lastIndex = at;
    const m = SCAN.exec(text);
    if (!m) {
      // An underscore or other word character the scan does not name: one mark of its own.
      push('punct', text[at]!, text[at]!, at);
      at += 1;
      continue;
    }
    const [all, space, hh, mm, num, word] = m;
    if (space !== undefined) {
      const nl = space.indexOf('\n');
      if (nl >= 0) push('punct', '\n', '\n', at + nl);
      spaced = true;
    } else if (hh !== undefined && mm !== undefined) {
      const h = Number(hh);
      const min = Number(mm);
      if (h <= 24 && min <= 59 && (h < 24 || min === 0)) push('time', all, all, at, h * 60 + min);
      else {
        // Not a time of day (a ratio such as 10:30 of nothing): the digits and the colon as they are.
        push('num', hh, hh, at, h);
        push('punct', ':', ':', at + hh.length);
        push('num', mm, mm, at + hh.length + 1, min);
      }
    } else if (num !== undefined) push('num', all, all, at, Number(num.replace(/,/g, '')));
    else if (word !== undefined) push('word', all, wordNorm(all), at);
    else push('punct', all, all, at);
    at += all.length;
  }
  return tokens;
}
