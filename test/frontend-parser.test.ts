// Lexer and parser: tokens and positions, the shapes the parser builds (blocks, sequences,
// dangling else, negative literals, comparison chains), and bad input that must end in a
// diagnostic rather than another exception (deep nesting, out-of-range literals, reserved names).

import { describe, expect, it } from 'vitest';
import type { Cmd, Expr, Program } from '../core/language/ast.ts';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { lex } from '../core/language/lexer.ts';
import { MAX_HEIGHT, MAX_NESTING, parseExpr, parseProgram } from '../core/language/parser.ts';
import { printProgram } from '../core/language/printer.ts';
import { typecheckProgram } from '../core/language/typecheck.ts';
import { stripPositions } from '../proofs/metatheory/gen/syntax.ts';

function firstError(f: () => unknown): { line: number; col: number; message: string; expected: string | null; found: string | null } {
  try {
    f();
  } catch (e) {
    if (e instanceof SchedInputError) return e.diagnostics[0]!;
    throw e;
  }
  throw new Error('expected a SchedInputError');
}

const SPEC = 'spec s { param N; input A(i): f32; output C(i): f32 = A(i) where 0 <= i && i < N; }\n';
const DECLS = 'input a: f32[N] = A; output c: f32[N] = C;';
function body(prog: Program): Cmd {
  return prog.impls[0]!.body;
}
function implOf(code: string): Program {
  return parseProgram('t.sched', `${SPEC}impl m of s { ${DECLS} ${code} }`);
}

describe('lexer', () => {
  it('gives every token its line and column, skipping both kinds of comment', () => {
    const toks = lex('t', 'a /* x\n y */ b // c\n  :=');
    expect(toks.map((t) => [t.text, t.pos.line, t.pos.col])).toEqual([
      ['a', 1, 1],
      ['b', 2, 7],
      [':=', 3, 3],
      ['', 3, 5],
    ]);
  });
  it('reads the number forms of the printer: 1.0, 1., 1e+21, 5e-324', () => {
    expect(lex('t', '1.0 1. 1e+21 5e-324 7').map((t) => t.kind)).toEqual(['float', 'float', 'float', 'float', 'int', 'eof']);
  });
  it('rejects a number glued to a name, an unterminated comment, a lone & or |', () => {
    expect(firstError(() => lex('t', 'x = 2.5f;')).message).toBe('malformed number');
    expect(firstError(() => lex('t', 'a\n  /* open')).line).toBe(2);
    expect(firstError(() => lex('t', 'a | b')).message).toContain("'|' is not an operator");
  });
  it('reads \\n, \\r\\n and lone \\r line ends alike (a // comment used to swallow a whole \\r file)', () => {
    const text = '// a comment\nspec s {\n  param N;\n  input A(i): f32; // another\n  output C(i): f32 = A(i) + ;\n}\n';
    const lf = firstError(() => parseProgram('t', text));
    expect([lf.line, lf.col]).toEqual([5, 29]);
    for (const eol of ['\r\n', '\r']) {
      const d = firstError(() => parseProgram('t', text.replaceAll('\n', eol)));
      expect([d.line, d.col, d.message]).toEqual([lf.line, lf.col, lf.message]);
      const ok = text.replace(' + ;', ';').replaceAll('\n', eol);
      expect(stripPositions(parseProgram('t', ok))).toEqual(stripPositions(parseProgram('t', text.replace(' + ;', ';'))));
    }
    expect(firstError(() => parseProgram('t', 'spec s {\r\r  param N;\u0000'))).toMatchObject({ line: 3, col: 11 });
  });
  it('skips a byte-order mark at the start of the file, and only there', () => {
    expect(lex('t', '\uFEFFspec s')[0]!).toEqual({ kind: 'keyword', text: 'spec', pos: { line: 1, col: 1 } });
    expect(firstError(() => lex('t', 'spec \uFEFF')).found).toContain('U+FEFF');
    expect(firstError(() => parseProgram('t', '\uFEFFspec\u0000')).col).toBe(5);
  });
  it('names control characters and non-ASCII characters it does not accept', () => {
    expect(firstError(() => lex('t', 'a \u0007')).found).toBe('control character U+0007');
    expect(firstError(() => lex('t', 'λ')).found).toContain('U+03BB');
  });
});

describe('parser: shapes of commands', () => {
  it('`{}` is skip, `{ c }` is c, and `for k < P do c1; c2` runs c2 after the loop', () => {
    expect(body(implOf('{}')).kind).toBe('skip');
    expect(body(implOf('{ c[0] := 1.0 }')).kind).toBe('assign');
    const b = body(implOf('for k < N do c[k] := 1.0; c[0] := 2.0'));
    expect(b.kind).toBe('seq');
    expect(b.kind === 'seq' && b.cmds.map((x) => x.kind)).toEqual(['for', 'assign']);
  });
  it('keeps a braced sequence inside a sequence, and accepts a trailing semicolon', () => {
    const b = body(implOf('{ c[0] := 1.0; c[1] := 1.0 }; c[2] := 2.0;'));
    expect(b.kind === 'seq' && b.cmds.map((x) => x.kind)).toEqual(['seq', 'assign']);
  });
  it('gives a dangling else to the nearest if', () => {
    const b = body(implOf('if N > 0 then if N > 1 then c[0] := 1.0 else c[0] := 2.0'));
    expect(b.kind === 'if' && b.else).toBeNull();
    expect(b.kind === 'if' && b.then.kind === 'if' && b.then.else?.kind).toBe('assign');
  });
});

describe('parser: expressions', () => {
  it('reads -3 as a literal and -(3), -x as negations', () => {
    expect(stripPositions(parseExpr('t', '-3'))).toEqual({ kind: 'int', value: -3n });
    expect(stripPositions(parseExpr('t', '-(3)'))).toEqual({ kind: 'unary', op: '-', arg: { kind: 'int', value: 3n } });
    expect(stripPositions(parseExpr('t', 'x - -2.5'))).toMatchObject({ kind: 'binary', op: '-', right: { kind: 'float', value: -2.5 } });
  });
  it('binds * tighter than +, + tighter than comparisons, && tighter than ||', () => {
    const e = stripPositions(parseExpr('t', 'a || b && 1 + 2 * 3 < 4'));
    expect(e).toMatchObject({ op: '||', right: { op: '&&', right: { op: '<', left: { op: '+', right: { op: '*' } } } } });
  });
  it('reads a comparison chain as a conjunction, without sharing the middle operand', () => {
    const e = parseExpr('t', '0 <= i < N');
    expect(stripPositions(e)).toEqual(stripPositions(parseExpr('t', '0 <= i && i < N')));
    // One node per occurrence: the type checker records a type on each.
    expect(e.kind === 'binary' && e.left.kind === 'binary' && e.right.kind === 'binary' && e.left.right !== e.right.left).toBe(true);
  });
  it('gives each occurrence of a chain operand its own type', () => {
    const p = parseProgram('t', 'spec s { param N; input A(i): f32; output C(i): f32 = select(i < 3 < A(i), 1.0, 0.0) where 0 <= i && i < N; }');
    typecheckProgram(p);
    const rhs = p.specs[0]!.equations[0]!.rhs;
    const chain = rhs.kind === 'select' ? rhs.cond : null;
    const first = chain?.kind === 'binary' && chain.left.kind === 'binary' ? chain.left.right : null;
    const second = chain?.kind === 'binary' && chain.right.kind === 'binary' ? chain.right.left : null;
    expect(first?.ty).toEqual({ kind: 'index' });
    expect(second?.ty).toEqual({ kind: 'value', vt: 'f32' });
  });
  it('rejects float literals beyond f64, also when negative (was read as -Infinity)', () => {
    expect(firstError(() => parseExpr('t', '1e999')).message).toContain('out of range');
    expect(firstError(() => parseExpr('t', '-1e999')).message).toContain('out of range');
    expect(firstError(() => parseExpr('t', '2 * -1e400')).col).toBe(6);
  });
  it('rejects names reserved for the toolkit in expressions too', () => {
    // `__a1` is the name the checker gives to the second argument of R(i, 0); it must not leak.
    const d = firstError(() => parseProgram('t', 'spec s { input A(i): f32; tensor R(i, j): f32; R(i, 0) = A(i) where __a1 == 0; }'));
    expect(d.message).toContain("reserved for the toolkit");
    expect(d.found).toBe("'__a1'");
  });
  it("says that only an output declaration defines its tensor inline", () => {
    const d = firstError(() => parseProgram('t', 'spec s { tensor R(i): f32 = 0.0; }'));
    expect(d.message).toContain("only an 'output' declaration");
    expect(d.message).toContain("'R(…) = …;'");
  });
});

describe('parser: nesting limits turn stack overflows into diagnostics', () => {
  const pre = 'spec s { param N; input A(i): f32; output C(i): f32 = ';
  const post = ' where 0 <= i && i < N; }';
  const deep: Record<string, string> = {
    parentheses: pre + '('.repeat(20000) + 'A(i)' + ')'.repeat(20000) + post,
    negations: pre + '-'.repeat(20000) + 'A(i)' + post,
    lets: pre + 'let x = 1 in '.repeat(20000) + 'A(x)' + post,
    blocks: SPEC + 'impl m of s { ' + '{'.repeat(20000) + 'skip' + '}'.repeat(20000) + ' }',
    loops: SPEC + 'impl m of s { ' + 'for i < N do '.repeat(20000) + 'skip }',
  };
  for (const [what, text] of Object.entries(deep)) {
    it(`${what}, 20000 deep`, () => {
      const d = firstError(() => parseProgram('t', text));
      expect(d.message).toContain('nested too deeply');
      expect(d.expected).toBe(`at most ${MAX_NESTING} nested levels`);
    });
  }
  it('a chain is not nesting: a 5000-term sum parses, a chain taller than MAX_HEIGHT is a diagnostic', () => {
    expect(() => parseProgram('t', pre + Array(5000).fill('A(i)').join(' + ') + post)).not.toThrow();
    const d = firstError(() => parseProgram('t', pre + Array(MAX_HEIGHT + 5).fill('A(i)').join(' + ') + post));
    expect(d.message).toContain('expression too long');
  });
  it('accepts, type-checks and prints a 300-term sum inside 150 nested loops', () => {
    const text =
      pre + Array(300).fill('A(i)').join(' + ') + post +
      ' impl m of s { input a: f32[N] = A; output c: f32[N] = C; ' + 'for i < N do '.repeat(150) + 'c[0] := ' + Array(300).fill('a[0]').join(' + ') + ' }';
    const p = parseProgram('t', text);
    typecheckProgram(p);
    expect(stripPositions(parseProgram('t', printProgram(p)))).toEqual(stripPositions(p));
  });
});

describe('printer: declarations and equations come back in order', () => {
  it('prints an inline output equation on its declaration, between ordinary equations', () => {
    const text = [
      'spec s {',
      '  param N;',
      '  tensor R(i): f32;',
      '  R(i) = 0.0 where i < 0;',
      '  output C(i): f32 = R(i - 1) where 0 <= i && i < N;',
      '  R(i) = R(i - 1) where i >= 0;',
      '  output D(i): f32;',
      '  D(i) = C(i);',
      '  output E(): f32 = D(0);',
      '}',
      '',
    ].join('\n');
    const p = parseProgram('t', text);
    const printed = printProgram(p);
    expect(stripPositions(parseProgram('t', printed))).toEqual(stripPositions(p));
    expect(printed).toContain('output C(i): f32 = R(i - 1) where 0 <= i && i < N;');
    expect(printed).toContain('output D(i): f32;');
  });
  it('keeps both inline equations of a tensor declared twice (an ill-typed program)', () => {
    const p = parseProgram('t', 'spec s { output C(i): f32 = 1.0; output C(i): f32 = 2.0; }');
    expect(stripPositions(parseProgram('t', printProgram(p)))).toEqual(stripPositions(p));
  });
});

describe('every parse failure is a SchedInputError', () => {
  it.each([
    ['empty impl body then junk', `${SPEC}impl m of s { } }`],
    ['a declaration after a command', 'impl m of s { skip; input a: f32[N] = A; }'],
    ['eof in select', 'spec s { output C(): f32 = select(true, 1.0'],
    ['eof in annotation', `${SPEC}impl m of s { c[0] {C(0) := 1.0 }`],
    ['binary NUL', 'spec s {\u0000}'],
  ])('%s', (_what, text) => {
    expect(() => parseProgram('t', text)).toThrow(SchedInputError);
  });
  it('reports a NUL byte at its line and column', () => {
    const d = firstError(() => parseProgram('t', 'spec s {\n  param N;\u0000\n}'));
    expect([d.line, d.col]).toEqual([2, 11]);
  });
});

// Silence "unused" for the type-only import used in helper signatures.
export type { Expr };
