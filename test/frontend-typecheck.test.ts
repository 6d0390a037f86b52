// The type rules (thesis Fig. 4.7 as extended by docs/language.md §4): affine judgements
// (indices 𝔸, conditions 𝔹), semantic judgements (array reads, code only) and prophetic ones
// (tensor reads, specs and annotations only); untyped literals take the type of their context;
// casts are the only way from an index to a value; select, let, shadowing, shapes and ranks,
// literal ranges; and the normalisation of equations.

import { describe, expect, it } from 'vitest';
import type { Expr, Program } from '../core/language/ast.ts';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { parseProgram } from '../core/language/parser.ts';
import { printExpr } from '../core/language/printer.ts';
import { typecheckProgram } from '../core/language/typecheck.ts';
import { forEachExpr, stripPositions } from '../proofs/metatheory/gen/syntax.ts';

const SPEC = `spec s {
  param N, M;
  input A(i): f32;
  input D(i): f64;
  input K(i): i32;
  output C(i): f32 = A(i) where 0 <= i && i < N;
}
`;
const DECLS = 'input a: f32[N] = A; input d: f64[N] = D; input k: i32[N] = K; output c: f32[N] = C; array g: f32[N, M]; array u: u8[4]; array flag: bool[N];';

function impl(code: string): string {
  return `${SPEC}impl m of s { ${DECLS} ${code} }\n`;
}
function ok(text: string): Program {
  const p = parseProgram('t.sched', text);
  typecheckProgram(p);
  return p;
}
function err(text: string): { line: number; col: number; message: string; expected: string | null; found: string | null; phase: string } {
  try {
    typecheckProgram(parseProgram('t.sched', text));
  } catch (e) {
    if (e instanceof SchedInputError) return e.diagnostics[0]!;
    throw e;
  }
  throw new Error('expected a type error');
}
/** The right-hand side of the last assignment of the (single) impl. */
function rhs(p: Program): Expr {
  let c = p.impls[0]!.body;
  while (c.kind !== 'assign') {
    if (c.kind === 'seq') c = c.cmds[c.cmds.length - 1]!;
    else if (c.kind === 'for' || c.kind === 'par' || c.kind === 'let' || c.kind === 'allocate') c = c.body;
    else if (c.kind === 'if') c = c.then;
    else throw new Error('no assignment');
  }
  return c.rhs;
}
function tyOf(e: Expr): string {
  return e.ty === undefined ? 'none' : e.ty.kind === 'value' ? e.ty.vt : e.ty.kind;
}

describe('affine, semantic and prophetic expressions', () => {
  it('types indices as int and conditions as bool (affine), reads as their element type', () => {
    const p = ok(impl('for i < N do if 0 <= i && i < N then c[i] {C(i)} := a[i]'));
    const b = p.impls[0]!.body;
    expect(b.kind === 'for' && tyOf(b.bound)).toBe('index');
    const cond = b.kind === 'for' && b.body.kind === 'if' ? b.body.cond : null;
    expect(cond && tyOf(cond)).toBe('cond');
    expect(tyOf(rhs(p))).toBe('f32');
  });
  it('allows quasi-affine indices: c * i, i * c, i / c, i % c, min, max, select, let', () => {
    ok(impl('for i < N do c[max(0, min(N - 1, 2 * i - i * 1 + i / 2 - i % 3 + select(i < 2, 0, 1) + (let j = i in j - i)))] := a[i]'));
  });
  it('accepts a product by a constant expression (4 / 2 is a constant)', () => {
    ok(impl('for i < N do c[i * (4 / 2) - i] := a[i]'));
    ok(impl('for i < N do c[i * max(1, 2) - i] := a[i]'));
  });
  it('rejects products of two variables, division by a variable, by 0, by a negative constant', () => {
    expect(err(impl('for i < N do c[i * i] := a[i]')).message).toContain('not affine');
    expect(err(impl('for i < N do c[N * i] := a[i]')).message).toContain('not affine');
    expect(err(impl('for i < N do c[i / N] := a[i]')).found).toBe('a non-constant divisor');
    expect(err(impl('for i < N do c[i % 0] := a[i]')).found).toBe('0');
    expect(err(impl('for i < N do c[i / (1 - 3)] := a[i]')).found).toBe('-2');
  });
  it('keeps arrays out of specs and annotations and tensors out of code', () => {
    expect(err(impl('c[0] := A(0)')).message).toContain('in implementation code');
    expect(err(impl('c[0] {a[0]} := a[0]')).message).toContain('in a prophetic expression');
    expect(err(`spec t { param N; input A(i): f32; output C(i): f32 = a[i]; }`).message).toContain('in a prophetic expression');
  });
  it('keeps reads, casts and value functions out of indices, bounds and conditions', () => {
    expect(err(impl('for i < a[0] do skip')).message).toContain("array read 'a[…]' in an index expression");
    expect(err(impl('if A(0) > 0.0 then skip')).message).toContain("tensor read 'A(…)' in an index expression");
    expect(err(impl('c[i32(0)] := 1.0')).message).toContain("cast 'i32(…)' in an index expression");
    expect(err(impl('c[abs(0)] := 1.0')).message).toContain("function 'abs' in an index expression");
    expect(err(impl('c[1.5] := 1.0')).message).toContain('floating-point literal cannot be an index');
  });
  it('distinguishes indices from conditions', () => {
    expect(err(impl('if N then skip')).expected).toBe('bool (affine condition)');
    expect(err(impl('for i < N > 0 do skip')).expected).toBe('int (index)');
    expect(err(impl('for i < N do c[i < 2] := 1.0')).expected).toBe('int (index)');
  });
});

describe('untyped literals take the type their context expects', () => {
  it('from the array written', () => {
    expect(tyOf(rhs(ok(impl('c[0] := 1'))))).toBe('f32');
    expect(tyOf(rhs(ok(impl('k[0] := -7'))))).toBe('i32');
    expect(tyOf(rhs(ok(impl('flag[0] := true'))))).toBe('bool');
  });
  it('from the other operand, on either side of a comparison', () => {
    const e = rhs(ok(impl('flag[0] := 1.5 < d[0]')));
    expect(e.kind === 'binary' && tyOf(e.left)).toBe('f64');
    const f = rhs(ok(impl('flag[0] := -(1) < k[0]')));
    expect(f.kind === 'binary' && f.left.kind === 'unary' && tyOf(f.left.arg)).toBe('i32');
    const g = rhs(ok(impl('flag[0] := abs(1) <= k[0] + 2')));
    expect(g.kind === 'binary' && tyOf(g.left)).toBe('i32');
  });
  it('two untyped integer operands, or one alone under a cast, are an error; floats default to f32', () => {
    expect(err(impl('flag[0] := abs(1) < abs(2)')).message).toContain('both are untyped integer literals');
    expect(err(impl('c[0] := f32(abs(3))')).message).toContain('cannot tell the type of the integer literal 3');
    const e = rhs(ok(impl('flag[0] := 1.5 < abs(2)')));
    expect(e.kind === 'binary' && tyOf(e.right)).toBe('f32');
  });
  it('reports a mismatch naming both types and the position', () => {
    const d = err(impl('c[0] := a[0] + k[0]'));
    expect(d.message).toBe('type mismatch: this expression has type i32');
    expect([d.expected, d.found]).toEqual(['f32', 'i32']);
    expect(d.col).toBe(impl('c[0] := a[0] + k[0]').split('\n').at(-2)!.indexOf('k[0]') + 1);
  });
  it('checks that literals fit their type', () => {
    ok(impl('u[0] := 255'));
    expect(err(impl('u[0] := 256')).message).toBe('integer literal 256 does not fit in u8');
    expect(err(impl('u[0] := -1')).message).toBe('integer literal -1 does not fit in u8');
    ok(`spec t { output C(): i8 = -128; output D(): u64 = 18446744073709551615; output E(): f32 = 3.4e38; }`);
    expect(err(`spec t { output C(): i8 = 128; }`).message).toContain('does not fit in i8');
    expect(err(`spec t { output E(): f32 = 3.5e38; }`).message).toContain('does not fit in f32');
    expect(err(`spec t { output E(): f32 = 1000000000000000000000000000000000000000; }`).message).toContain('does not fit in f32');
    expect(err(impl('flag[0] := 1')).message).toBe('an integer literal cannot be a bool value');
    expect(err(impl('k[0] := 1.5')).message).toBe('a floating-point literal cannot have type i32');
  });
  it('leaves no expression of a well-typed program without a type (no silent failure)', () => {
    // Before the fix, an untyped literal under unary minus or abs on the left of a comparison
    // was left untyped and the program accepted without any diagnostic.
    for (const code of ['flag[0] := -(1) < a[0]', 'flag[0] := abs(1) < a[0]', 'flag[0] := (let x = 0 in 2) < k[0]', 'flag[0] := select(true, 1, 2) < k[0]']) {
      const p = ok(impl(code));
      forEachExpr(p, (e) => {
        if (e.ty === undefined) throw new Error(`${code}: ${printExpr(e)} has no type`);
      });
    }
  });
});

describe('diagnostics', () => {
  it('come in source order (an assignment is index, annotation, right-hand side)', () => {
    try {
      typecheckProgram(parseProgram('t', impl('for i < N do c[q] {Z(i)} := y[i]')));
      expect.unreachable();
    } catch (e) {
      const ds = (e as SchedInputError).diagnostics;
      expect(ds.map((d) => d.found)).toEqual(["'q'", "'Z'", "'y'"]);
      expect(ds.map((d) => d.col)).toEqual([...ds.map((d) => d.col)].sort((a, b) => a - b));
    }
  });
  it('print float literals as written', () => {
    expect(err(impl('c[0.0] := 1.0')).found).toBe('0.0');
  });
});

describe('casts', () => {
  it('are the only way to turn an index into a value', () => {
    const d = err(impl('for i < N do c[i] := i'));
    expect(d.message).toContain("cast it, e.g. i32(i) or f32(i)");
    expect(d.found).toBe('int (index)');
    expect(tyOf(rhs(ok(impl('for i < N do c[i] := f32(i + 1)'))))).toBe('f32');
    ok(impl('for i < N do k[i] := i32(2 * i) + 1'));
  });
  it('convert between value types, and take exactly one argument', () => {
    expect(tyOf(rhs(ok(impl('c[0] := f32(d[0]) + f32(k[0]) + f32(flag[0])'))))).toBe('f32');
    expect(err(impl('c[0] := f32(a[0], a[1])')).message).toBe("'f32' takes 1 argument");
    expect(err(impl('c[0] := f32()')).found).toBe('0 arguments');
  });
});

describe('select', () => {
  it('is affine when its three arguments are', () => {
    const p = ok(impl('for i < N do c[select(i < 1, 0, i)] := a[i]'));
    const b = p.impls[0]!.body;
    const ix = b.kind === 'for' && b.body.kind === 'assign' ? b.body.indices[0]! : null;
    expect(ix && tyOf(ix)).toBe('index');
  });
  it('takes an affine or a value condition in values, branches of one type', () => {
    ok(impl('for i < N do c[i] := select(i < 2, a[i], 0.0)'));
    ok(impl('for i < N do c[i] := select(a[i] > 0.0 && i > 1, a[i], -a[i])'));
    expect(err(impl('for i < N do c[i] := select(a[i], a[i], 0.0)'))).toMatchObject({ expected: 'bool', found: 'f32' });
    expect(err(impl('for i < N do c[i] := select(k[i] + 1, a[i], 0.0)'))).toMatchObject({ expected: 'bool', found: 'i32' });
    expect(err(impl('for i < N do c[i] := select(i < 2, a[i], d[i])')).message).toContain('type mismatch');
  });
});

describe('let and shadowing', () => {
  it('binds an index or a condition, in expressions and commands', () => {
    ok(impl('for i < N do let j = i + 1 in let b = j < N in if b then c[j] := a[j]'));
    ok(`spec t { param N; input A(i): f32; output C(i): f32 = let j = i + 1 in A(j - 1) where 0 <= i && i < N; }`);
    expect(err(impl('let x = a[0] in skip')).message).toContain('in an index expression');
  });
  it('lets loop and let variables be shadowed (the inner binding wins)', () => {
    ok(impl('for i < N do for i < 2 do c[i] := a[i]'));
    ok(impl('for i < N do let i = 0 in c[i] := a[i]'));
    ok(impl('for i < N do let b = i < 2 in let b = 3 in c[b] := a[b]'));
    expect(err(impl('for i < N do let i = i < 2 in c[i] := a[0]')).expected).toBe('int (index)');
  });
  it('does not let anything shadow a parameter', () => {
    expect(err(impl('for N < 4 do skip')).message).toContain("shadows the parameter 'N'");
    expect(err(impl('let M = 1 in skip')).message).toContain("shadows the parameter 'M'");
    expect(err(impl('c[let N = 0 in N] := 1.0')).message).toContain("shadows the parameter 'N'");
  });
  it('lets an allocation shadow an array in scope (U-ALLOCATE), with its own type and shape inside', () => {
    ok(impl('allocate a: f32[4] in skip'));
    ok(impl('allocate t: f32[4] in allocate t: i32[2] in t[1] := 2'));
    expect(err(impl('allocate t: f32[4] in allocate t: i32[2] in t[1] := 2.5')).message).toContain('i32');
    ok(impl('allocate t: f32[4] in t[0] := 1.0; allocate t: i32[2] in t[1] := 2'));
  });
  it('scopes loop variables to their loop', () => {
    expect(err(impl('for i < N do skip; c[i] := 1.0')).message).toBe("unknown variable 'i'");
  });
});

describe('shapes and ranks', () => {
  it('checks the number of indices of arrays and tensors', () => {
    expect(err(impl('g[0] := 1.0')).message).toBe("array 'g' has 2 dimensions");
    expect(err(impl('g[0, 0, 0] := 1.0')).found).toBe('3 indices');
    expect(err(impl('c[0] := g[0]')).expected).toBe('2 indices');
    expect(err(impl('c[0] {A()} := 1.0')).message).toBe("tensor 'A' has arity 1");
    ok(impl('allocate r: f32[] in { r[] := 1.0; c[0] := r[] }'));
  });
  it('checks declarations: index names against the shape, the shorthand against the arity', () => {
    expect(err(`${SPEC}impl m of s { input a[i, j]: f32[N] = A(i); skip }`).message).toContain('names 2 indices but its shape has 1 dimension');
    expect(err(`${SPEC}impl m of s { input a: f32[N, N] = A; skip }`).message).toContain("has 2 dimensions but tensor 'A' has arity 1");
    expect(err(`${SPEC}impl m of s { input a: f32[N] = D; skip }`).message).toContain('type mismatch');
    expect(err(`${SPEC}impl m of s { array a: f32[a[0]]; skip }`).message).toContain('in an index expression');
  });
  it('keeps a declaration with an error in scope (one error, not a cascade)', () => {
    try {
      typecheckProgram(parseProgram('t', `${SPEC}impl m of s { input a[i, j]: f32[N] = A(i); a[0] := 1.0; a[1] := a[0] }`));
      expect.unreachable();
    } catch (e) {
      expect((e as SchedInputError).diagnostics.map((d) => d.message)).toEqual(["'a[i, j]' names 2 indices but its shape has 1 dimension"]);
    }
  });
});

describe('specs', () => {
  it('normalise a left-hand-side index expression to a fresh variable and an equality', () => {
    const p = parseProgram('t', 'spec t { param P; tensor R(i, k): f32; R(i, P - 1) = 0.0 where i >= 0; }');
    const c = typecheckProgram(p);
    const eq = c.specs.get('t')!.equations[0]!;
    expect(eq.vars).toEqual(['i', '__a1']);
    expect(stripPositions(eq.guard)).toMatchObject({ kind: 'binary', op: '&&', left: { op: '==', left: { kind: 'var', name: '__a1' } } });
  });
  it('reject left-hand sides that are not fresh variables or expressions over parameters', () => {
    expect(err('spec t { tensor D(i, j): f32; D(i, i) = 0.0; }').message).toContain("variable 'i' appears twice");
    expect(err('spec t { param N; tensor D(i, j): f32; D(i, i + N) = 0.0; }').message).toContain("uses 'i', which is not a parameter");
    expect(err('spec t { tensor D(i): f32; D(i + Q) = 0.0; }').message).toContain("uses 'i', which is not a parameter");
    ok('spec t { tensor D(i): f32; D(Q) = 0.0; }'); // Q is a fresh variable here
  });
  it('check roles: inputs are never defined, computed tensors are', () => {
    expect(err('spec t { input A(i): f32; A(i) = 0.0; }').message).toContain('is an input tensor');
    expect(err('spec t { tensor R(i): f32; }').message).toContain("computed tensor 'R' has no equation");
    expect(err('spec t { R(i) = 0.0; }').message).toContain("equation for undeclared tensor 'R'");
  });
  it('type equations in their tensor type, domains as affine conditions over the equation variables', () => {
    expect(err('spec t { param N; input A(i): f32; output C(i): f64 = A(i); }').message).toContain('type mismatch');
    expect(err('spec t { param N; output C(i): f32 = 0.0 where j < N; }').message).toBe("unknown variable 'j'");
    expect(err('spec t { param N; assume N * N > 0; }').message).toContain('not affine');
  });
  it('report duplicates', () => {
    expect(err('spec t { param N, N; }').message).toBe("parameter 'N' declared twice");
    expect(err('spec t { input A(i, i): f32; }').message).toContain("argument 'i' appears twice");
    expect(err(`${SPEC}${SPEC}`).message).toBe("spec 's' defined twice");
    expect(err(impl('skip') + 'impl m of s { skip }').message).toBe("impl 'm' defined twice");
  });
});
