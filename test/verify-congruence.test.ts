// Value obligations proved by congruence (proofs/verifier/congruence.ts): the two-stage stencil chain of
// thesis Table 6.1, whose output obligations time out as whole value queries, is proved through
// index equalities alone; and the shortcut never proves what is false: mutants with a wrong row, a
// wrong column or a wrong coefficient are not valid. Closed terms (Gaussian weights written by the
// algorithm as a function of x, by Halide as folded constants) compare by their machine values.

import { afterAll, describe, expect, it } from 'vitest';
import { checkProgramFull } from '../core/language/check.ts';
import { parseProgram } from '../core/language/parser.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import type { FloatMode } from '../proofs/verifier/smt-values.ts';
import { shutdownZ3 } from '../smt/z3.ts';
import { type Cmd, type Expr, T_INDEX } from '../core/language/ast.ts';
import { visit } from '../core/language/walk.ts';
import { substitute } from '../proofs/verifier/inline.ts';
import { constantValue } from '../semantics/constant.ts';
import { chain } from '../corpus/halide/gen/stencil_chain.mjs';

afterAll(async () => {
  await shutdownZ3();
});

async function verify(text: string, float: FloatMode = 'ieee') {
  const prog = await checkProgramFull(parseProgram('sc2.sched', text));
  return verifyImpl(prog.impls[0]!, { timeoutMs: 5000, float });
}

const SC2 = chain(2);
// The output assignment of the generated program: 25 reads of the folded buffer b1.
const OUTPUT = /out\[xs \+ v, y\] \{Out\(xs \+ v, y\)\} :=[^}]*/;

function mutateOutput(f: (rhs: string) => string): string {
  const m = OUTPUT.exec(SC2);
  if (!m) throw new Error('the generator changed: no output assignment found');
  const changed = f(m[0]);
  if (changed === m[0]) throw new Error('the mutation changed nothing');
  return SC2.replace(m[0], changed);
}

describe('value obligations by congruence', () => {
  it('proves the 2-stage stencil chain, output values included, by index equalities', async () => {
    const r = await verify(SC2);
    expect(r.verdict).toBe('valid');
    const parts = r.outcomes.filter((o) => /by congruence/.test(o.obligation.rule));
    expect(parts.length).toBeGreaterThan(25);
    expect(parts.every((o) => o.status === 'proved' && o.obligation.float === null)).toBe(true);
    expect(parts.some((o) => o.obligation.line === OUTPUT_LINE())).toBe(true);
  });

  const mutants: [string, (s: string) => string][] = [
    ['a wrong row of the folded buffer', (s) => s.replace('b1[xs + v - x0 + 4, (y + 2) % 8]', 'b1[xs + v - x0 + 4, (y + 1) % 8]')],
    ['a wrong column', (s) => s.replace('b1[xs + v - x0 + 3, (y - 1) % 8]', 'b1[xs + v - x0 + 2, (y - 1) % 8]')],
    ['a wrong coefficient', (s) => s.replace('12 * b1[xs + v - x0 + 2, (y + 1) % 8]', '13 * b1[xs + v - x0 + 2, (y + 1) % 8]')],
  ];
  for (const [what, f] of mutants) {
    it(`does not prove the chain with ${what} in the output stage`, async () => {
      const r = await verify(mutateOutput(f));
      expect(r.verdict).not.toBe('valid');
    });
  }
});

function OUTPUT_LINE(): number {
  const at = SC2.indexOf('out[xs + v, y] {Out(xs + v, y)} :=');
  return SC2.slice(0, at).split('\n').length;
}

// unsharp's shape (compilers/halide/apps/unsharp.py): the spec reads the weights k(1), k(2) of a
// Func of x; Halide inlines k and prints exp(-1.0f/4.5f), with an identity cast around each term.
const WEIGHT = (c: string): string => `f32(f32(exp(f32(f32(f32(${c})) / f32(f32(4.5))))) / f32(f32(3.7599422931671143)))`;
const GAUSS = (c1: string, c2: string): string => `spec gauss {
  param n;
  input a_v(i): f32;
  tensor k(v_x): f32;
  tensor b(v_x): f32;
  k(v_x) = f32(exp(f32((0 - i32(v_x)) * i32(v_x)) / f32(4.5))) / f32(3.7599422931671143);
  b(v_x) = f32(k(1)) * f32(a_v(v_x)) + f32(k(2)) * f32(a_v(v_x + 1));
  output out_v(v_x): f32 = f32(b(v_x)) where 0 <= v_x && v_x < n;
}
impl gauss_impl of gauss {
  input a[i]: f32[n + 1] = a_v(i);
  output out: f32[n] = out_v;
  for x < n do
    out[x] {out_v(x)} := f32(${WEIGHT(c1)} * f32(a[x])) + f32(${WEIGHT(c2)} * f32(a[x + 1]));
}
`;

const GAUSS_LINE = GAUSS('', '').split('\n').findIndex((l) => l.includes('out[x] {out_v(x)} :=')) + 1;

/** The argument of each `exp` in `e`. */
function expArgs(e: Expr): Expr[] {
  const out: Expr[] = [];
  visit(e, (x) => {
    if (x.kind === 'call' && x.fn === 'exp') out.push(x.args[0]!);
  });
  return out;
}

describe('closed terms by their machine values', () => {
  it('folds casts, wrapping integers and IEEE arithmetic on literals exactly, and nothing else', async () => {
    const prog = await checkProgramFull(parseProgram('g.sched', GAUSS('(-1)', '(-4)')));
    const ci = prog.impls[0]!;
    const k = ci.spec.equations.find((e) => e.tensor === 'k')!;
    expect(constantValue(k.rhs)).toBeNull(); // exp is never folded
    const [arg] = expArgs(k.rhs);
    expect(constantValue(arg!)).toBeNull(); // v_x is free
    const at = (x: bigint): Expr => substitute(arg!, new Map([['v_x', { kind: 'int', value: x, pos: arg!.pos, ty: T_INDEX }]]));
    expect(constantValue(at(1n))).toBe(Math.fround(-1 / 4.5));
    expect(Object.is(constantValue(at(0n)), 0)).toBe(true); // (0 - 0) * 0 is +0, not -0
    // i32 wraps: (0 - 65536) * 65536 is 0 in i32
    expect(Object.is(constantValue(at(65536n)), 0)).toBe(true);
    const loop = ci.impl.body as { body: Cmd };
    const written = (loop.body as Extract<Cmd, { kind: 'assign' }>).rhs;
    expect(expArgs(written).map(constantValue)).toEqual([Math.fround(-1 / 4.5), Math.fround(-4 / 4.5)]);
  });

  for (const float of ['ieee', 'uf'] as const) {
    it(`proves weights of a Func of x against Halide's folded constants by congruence (--float ${float})`, async () => {
      const r = await verify(GAUSS('(-1)', '(-4)'), float);
      expect(r.verdict).toBe('valid');
      expect(r.outcomes.some((o) => /by congruence/.test(o.obligation.rule) && o.obligation.line === GAUSS_LINE)).toBe(true);
    });
    it(`does not prove a wrong weight (--float ${float})`, async () => {
      const r = await verify(GAUSS('(-1)', '(-5)'), float);
      expect(r.verdict).toBe('invalid');
    });
  }

  it('compares float terms by their IEEE values only where floats are IEEE (not under --float real)', async () => {
    // 0.1f + 0.2f rounds to 0.3f in binary32, but as reals the sum of the two literals is not 0.3f.
    const text = `spec s {
  param n;
  input a_v(i): f32;
  output out_v(v_x): f32 = f32(0.30000001192092896) * a_v(v_x) where 0 <= v_x && v_x < n;
}
impl s_impl of s {
  input a[i]: f32[n] = a_v(i);
  output out: f32[n] = out_v;
  for x < n do
    out[x] {out_v(x)} := f32(f32(0.1) + f32(0.2)) * a[x];
}
`;
    expect((await verify(text, 'ieee')).verdict).toBe('valid');
    expect((await verify(text, 'real')).verdict).not.toBe('valid');
  });
});
