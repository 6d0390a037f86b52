// Tokens of the .sched format: identifiers, keywords, integer and float literals, punctuation;
// `//` and `/* … */` comments are skipped. Errors (a stray character, an unterminated comment,
// a NUL byte from a binary file) are diagnostics, never exceptions of another kind.

import type { Pos } from './ast.ts';
import { diag, SchedInputError } from './diagnostics.ts';

export const KEYWORDS = [
  'in', 'do', 'for', 'par', 'let', 'if', 'then', 'else', 'skip', 'allocate', 'input', 'output',
  'array', 'param', 'assume', 'tensor', 'spec', 'impl', 'of', 'where', 'select', 'true', 'false',
] as const;
export type Keyword = (typeof KEYWORDS)[number];
const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

export type TokenKind = 'ident' | 'keyword' | 'int' | 'float' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly pos: Pos;
}

// Longest first, so that `:=` wins over `:` and `<=` over `<`.
const PUNCTS = [
  '&&=', '||=',
  ':=', '==', '!=', '<=', '>=', '&&', '||', '+=', '*=',
  '@', '(', ')', '[', ']', '{', '}', ',', ';', ':', '=', '<', '>', '+', '-', '*', '/', '%', '!',
];

export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of file';
    case 'ident':
      return `identifier '${t.text}'`;
    case 'keyword':
      return `keyword '${t.text}'`;
    case 'int':
    case 'float':
      return `number ${t.text}`;
    case 'punct':
      return `'${t.text}'`;
  }
}

function printable(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`;
  if (code === 0xfffd) return 'U+FFFD, which stands for bytes that are not UTF-8 text';
  if (code > 0x7e) return `character '${ch}' (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
  return `'${ch}'`;
}

export function lex(file: string, text: string): Token[] {
  const toks: Token[] = [];
  // A byte-order mark (U+FEFF, written by some editors) before the first line is not text.
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  let line = 1;
  let col = 1;
  const n = text.length;
  const here = (): Pos => ({ line, col });
  // Lines end with \n, \r\n or a lone \r (old Mac files).
  const advance = (k: number): void => {
    for (let j = 0; j < k; j++) {
      const ch = text.charCodeAt(i);
      if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) {
        line++;
        col = 1;
      } else col++;
      i++;
    }
  };
  const fail = (pos: Pos, message: string, expected: string | null, found: string | null): never => {
    throw new SchedInputError([diag(file, pos, 'syntax', message, expected, found)]);
  };
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\f') {
      advance(1);
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') advance(1);
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const start = here();
      advance(2);
      while (i < n && !(text[i] === '*' && text[i + 1] === '/')) advance(1);
      if (i >= n) fail(start, 'unterminated comment', "'*/'", 'end of file');
      advance(2);
      continue;
    }
    const pos = here();
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(text[j]!)) j++;
      const word = text.slice(i, j);
      toks.push({ kind: KEYWORD_SET.has(word) ? 'keyword' : 'ident', text: word, pos });
      advance(j - i);
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      let j = i;
      while (j < n && /[0-9]/.test(text[j]!)) j++;
      let isFloat = false;
      if (text[j] === '.' && /[0-9]/.test(text[j + 1] ?? '')) {
        isFloat = true;
        j++;
        while (j < n && /[0-9]/.test(text[j]!)) j++;
      } else if (text[j] === '.' && !/[A-Za-z_.]/.test(text[j + 1] ?? '')) {
        // `1.` is a float literal too.
        isFloat = true;
        j++;
      }
      if ((text[j] === 'e' || text[j] === 'E') && /^[eE][+-]?[0-9]/.test(text.slice(j, j + 3))) {
        isFloat = true;
        j++;
        if (text[j] === '+' || text[j] === '-') j++;
        while (j < n && /[0-9]/.test(text[j]!)) j++;
      }
      if (j < n && /[A-Za-z_]/.test(text[j]!)) {
        let k = j;
        while (k < n && /[A-Za-z0-9_]/.test(text[k]!)) k++;
        fail(pos, 'malformed number', 'a number followed by an operator or separator', `'${text.slice(i, k)}'`);
      }
      toks.push({ kind: isFloat ? 'float' : 'int', text: text.slice(i, j), pos });
      advance(j - i);
      continue;
    }
    const p = PUNCTS.find((q) => text.startsWith(q, i));
    if (p !== undefined) {
      toks.push({ kind: 'punct', text: p, pos });
      advance(p.length);
      continue;
    }
    if (c === '&' || c === '|') fail(pos, `'${c}' is not an operator`, `'${c}${c}'`, `'${c}'`);
    fail(pos, 'unexpected character', 'a name, number, operator or separator', printable(String.fromCodePoint(text.codePointAt(i)!)));
  }
  toks.push({ kind: 'eof', text: '', pos: here() });
  return toks;
}
