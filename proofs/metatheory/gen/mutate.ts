// Mutations of .sched source text for robustness properties: delete, insert, replace, swap and
// duplicate tokens; delete, insert and swap characters (any code point, lone surrogates and NUL
// included); truncate; delete, duplicate and splice lines (from other files). The tokens are
// found by a small regular expression of their own, so that a bug of the lexer cannot hide
// mutants from it.

import fc from 'fast-check';

export type Mutation =
  | { readonly op: 'deleteToken' | 'duplicateToken'; readonly at: number }
  | { readonly op: 'insertToken' | 'replaceToken'; readonly at: number; readonly token: string }
  | { readonly op: 'swapTokens'; readonly at: number; readonly other: number }
  | { readonly op: 'deleteChar' | 'swapChars' | 'truncate'; readonly at: number }
  | { readonly op: 'insertChar'; readonly at: number; readonly ch: string }
  | { readonly op: 'deleteLine' | 'duplicateLine'; readonly at: number }
  | { readonly op: 'spliceLine'; readonly at: number; readonly line: number };

const TOKEN_RE = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|:=|==|!=|<=|>=|&&|\|\||\S/gu;

/** Tokens that make interesting insertions and replacements. */
export const MUTATION_TOKENS: readonly string[] = [
  // keywords and punctuation of the format
  'spec', 'impl', 'of', 'param', 'assume', 'input', 'output', 'tensor', 'array', 'where', 'in', 'do',
  'for', 'par', 'let', 'if', 'then', 'else', 'skip', 'allocate', 'select', 'true', 'false',
  '{', '}', '(', ')', '[', ']', ',', ';', ':', ':=', '=', '==', '!=', '<', '<=', '>', '>=',
  '+', '-', '*', '/', '%', '!', '&&', '||',
  // types, builtins, names (declared ones, reserved ones, unknown ones)
  'f32', 'f64', 'i8', 'i32', 'u8', 'u64', 'bool', 'min', 'max', 'abs', 'sqrt', 'pow', 'floor',
  'N', 'M', 'P', 'i', 'j', 'k', 'a', 'b', 'c', 'A', 'B', 'C', 'R', 'x', '__d0', '__a1', 'and', 'e',
  // numbers, including ones out of every range
  '0', '1', '-1', '2', '4', '8', '255', '256', '1.5', '-0.0', '1.', '1e39', '1e999', '-1e999',
  '99999999999999999999999', '2147483648', '0.1', '3e-7',
  // text that is not SCHED
  '/*', '*/', '//', '@', '#', '"', "'", '&', '|', '.', '..', '$', '\\', '\u0000', 'λ', '\uD800', '\uFEFF',
  '\n', '\r', '\t', '  ',
];

function tokens(text: string): { start: number; end: number }[] {
  return [...text.matchAll(TOKEN_RE)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function lines(text: string): string[] {
  return text.split('\n');
}

/** Apply one mutation; `spliceSource` holds the lines other files offer for `spliceLine`. */
export function mutateOnce(text: string, m: Mutation, spliceSource: readonly string[]): string {
  const n = text.length;
  switch (m.op) {
    case 'deleteChar': {
      if (n === 0) return text;
      const i = m.at % n;
      return text.slice(0, i) + text.slice(i + 1);
    }
    case 'insertChar': {
      const i = m.at % (n + 1);
      return text.slice(0, i) + m.ch + text.slice(i);
    }
    case 'swapChars': {
      if (n < 2) return text;
      const i = m.at % (n - 1);
      return text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
    }
    case 'truncate':
      return text.slice(0, m.at % (n + 1));
    case 'deleteLine':
    case 'duplicateLine': {
      const ls = lines(text);
      const i = m.at % ls.length;
      const out = m.op === 'deleteLine' ? [...ls.slice(0, i), ...ls.slice(i + 1)] : [...ls.slice(0, i + 1), ...ls.slice(i)];
      return out.join('\n');
    }
    case 'spliceLine': {
      const ls = lines(text);
      const i = m.at % (ls.length + 1);
      const extra = spliceSource.length > 0 ? spliceSource[m.line % spliceSource.length]! : '';
      return [...ls.slice(0, i), extra, ...ls.slice(i)].join('\n');
    }
    default:
      break;
  }
  const toks = tokens(text);
  if (toks.length === 0) return m.op === 'insertToken' || m.op === 'replaceToken' ? m.token : text;
  const t = toks[m.at % toks.length]!;
  switch (m.op) {
    case 'deleteToken':
      return text.slice(0, t.start) + text.slice(t.end);
    case 'duplicateToken':
      return text.slice(0, t.end) + ' ' + text.slice(t.start, t.end) + text.slice(t.end);
    case 'insertToken':
      return `${text.slice(0, t.start)}${m.token} ${text.slice(t.start)}`;
    case 'replaceToken':
      return text.slice(0, t.start) + m.token + text.slice(t.end);
    case 'swapTokens': {
      const u = toks[m.other % toks.length]!;
      if (u.start === t.start) return text;
      const [x, y] = t.start < u.start ? [t, u] : [u, t];
      return text.slice(0, x.start) + text.slice(y.start, y.end) + text.slice(x.end, y.start) + text.slice(x.start, x.end) + text.slice(y.end);
    }
  }
}

export function mutate(text: string, ms: readonly Mutation[], spliceSource: readonly string[]): string {
  return ms.reduce((t, m) => mutateOnce(t, m, spliceSource), text);
}

const anyChar = fc.oneof(
  fc.constantFrom(...MUTATION_TOKENS.filter((t) => [...t].length === 1)),
  fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
);

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('deleteToken' as const, 'duplicateToken' as const), at: fc.nat() }),
  fc.record({ op: fc.constantFrom('insertToken' as const, 'replaceToken' as const), at: fc.nat(), token: fc.constantFrom(...MUTATION_TOKENS) }),
  fc.record({ op: fc.constant('swapTokens' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constantFrom('deleteChar' as const, 'swapChars' as const, 'truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insertChar' as const), at: fc.nat(), ch: anyChar }),
  fc.record({ op: fc.constantFrom('deleteLine' as const, 'duplicateLine' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('spliceLine' as const), at: fc.nat(), line: fc.nat() }),
);

/** A source index and a short list of mutations to apply to it. */
export function mutantArb(sources: number): fc.Arbitrary<{ src: number; muts: Mutation[] }> {
  return fc.record({ src: fc.nat({ max: Math.max(0, sources - 1) }), muts: fc.array(mutationArb, { minLength: 1, maxLength: 4 }) });
}
