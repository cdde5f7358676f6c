/**
 * The generated decider's text as the forge's review and scan read it: tokens with their 1-based lines, the
 * functions it declares, and every read of a bar or series array (s.<array>[<index>]). The reader knows just enough
 * of TypeScript for the code the generator writes (and for code a caller altered from it): comments, string
 * literals, numbers, names and punctuation. A postfix non-null `!` after an index is dropped, so `s.c[i]!` and
 * `s.c[i]` read alike.
 */

export type TokenKind = 'number' | 'name' | 'string' | 'comment' | 'punct';

export interface Token {
  kind: TokenKind;
  text: string;
  line: number;
}

export interface FunctionSpan {
  name: string;
  /** The line of `function name(`, and the line of its closing brace. */
  line: number;
  end: number;
  /** Token indices of the body, [from, to). */
  from: number;
  to: number;
}

/** One read of s.<array>[<index>], with the index's tokens joined by single spaces ("i - 1", "st . signal"). */
export interface ArrayRead {
  line: number;
  array: string;
  index: string;
  /** The declared function holding the read, or null at module level. */
  fn: string | null;
  /** The token index of `s`. */
  at: number;
}

export interface CodeModel {
  lines: string[];
  /** Every token but comments, in order. */
  tokens: Token[];
  comments: Token[];
  functions: FunctionSpan[];
  reads: ArrayRead[];
}

const PUNCT = ['===', '!==', '>>>', '...', '=>', '>=', '<=', '==', '!=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '??', '?.'];
const NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/;
const NAME = /^[A-Za-z_$][\w$]*/;

function lex(code: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let i = 0;
  const push = (kind: TokenKind, text: string) => {
    out.push({ kind, text, line });
    line += text.split('\n').length - 1;
    i += text.length;
  };
  while (i < code.length) {
    const ch = code[i]!;
    const rest = code.slice(i, i + 200);
    if (ch === '\n') {
      line++;
      i++;
    } else if (/\s/.test(ch)) {
      i++;
    } else if (code.startsWith('//', i)) {
      const end = code.indexOf('\n', i);
      push('comment', code.slice(i, end === -1 ? code.length : end));
    } else if (code.startsWith('/*', i)) {
      const end = code.indexOf('*/', i + 2);
      push('comment', code.slice(i, end === -1 ? code.length : end + 2));
    } else if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      while (j < code.length && code[j] !== ch) j += code[j] === '\\' ? 2 : 1;
      push('string', code.slice(i, Math.min(j + 1, code.length)));
    } else if (/[\d.]/.test(ch) && NUMBER.test(rest) && !(ch === '.' && !/^\.\d/.test(rest))) {
      push('number', NUMBER.exec(rest)![0]);
    } else if (NAME.test(rest)) {
      push('name', NAME.exec(rest)![0]);
    } else {
      push('punct', PUNCT.find((p) => code.startsWith(p, i)) ?? ch);
    }
  }
  return out;
}

/** The index of the token closing the bracket opened at `open`, or the last token when it is never closed. */
export function closing(tokens: Token[], open: number): number {
  const pair: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const want = pair[tokens[open]!.text]!;
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const t = tokens[j]!.text;
    if (t === tokens[open]!.text) depth++;
    else if (t === want && --depth === 0) return j;
  }
  return tokens.length - 1;
}

export function readCode(code: string): CodeModel {
  const all = lex(code);
  const comments = all.filter((t) => t.kind === 'comment');
  const tokens = all.filter((t, k) => t.kind !== 'comment' && !(t.text === '!' && all[k - 1]?.text === ']'));
  const functions: FunctionSpan[] = [];
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k]!.text !== 'function' || tokens[k + 1]?.kind !== 'name') continue;
    const body = tokens.findIndex((t, j) => j > k && t.text === '{');
    if (body === -1) continue;
    const end = closing(tokens, body);
    functions.push({ name: tokens[k + 1]!.text, line: tokens[k]!.line, end: tokens[end]!.line, from: body + 1, to: end });
  }
  const fnAt = (k: number): string | null => functions.find((f) => k >= f.from && k < f.to)?.name ?? null;
  const reads: ArrayRead[] = [];
  for (let k = 0; k + 3 < tokens.length; k++) {
    const [s, dot, array, open] = [tokens[k]!, tokens[k + 1]!, tokens[k + 2]!, tokens[k + 3]!];
    if (s.text !== 's' || dot.text !== '.' || array.kind !== 'name' || open.text !== '[') continue;
    if (tokens[k - 1]?.text === '.') continue;
    const end = closing(tokens, k + 3);
    const index = tokens
      .slice(k + 4, end)
      .map((t) => t.text)
      .join(' ');
    reads.push({ line: s.line, array: array.text, index, fn: fnAt(k), at: k });
  }
  return { lines: code.split('\n'), tokens, comments, functions, reads };
}

/** The first line (1-based) matching `pattern`, within a function's lines when `fn` is given; null when none. */
export function lineOf(model: CodeModel, pattern: RegExp, fn?: string): number | null {
  const span = fn === undefined ? null : model.functions.find((f) => f.name === fn);
  if (fn !== undefined && !span) return null;
  const from = span ? span.line : 1;
  const to = span ? span.end : model.lines.length;
  for (let n = from; n <= to; n++) if (pattern.test(model.lines[n - 1]!)) return n;
  return null;
}

/** Every line (1-based) matching `pattern`. */
export function linesOf(model: CodeModel, pattern: RegExp): number[] {
  return model.lines.flatMap((l, k) => (pattern.test(l) ? [k + 1] : []));
}
