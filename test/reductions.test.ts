// Reductions (thesis chapter 7): the syntax round-trips, the desugared fold is the lexicographic
// left fold, the float modes qualify a reordered float reduction, and what is outside the rules
// is `unknown`, never valid. Verdicts on whole schedules are in corpus/halide/reductions.sched and
// corpus/thesis/ch7-reductions.sched; the property over random schedules in props-reductions.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { parseProgram } from '../core/language/parser.ts';
import { printProgram } from '../core/language/printer.ts';
import { typecheckProgram } from '../core/language/typecheck.ts';
import { runImpl } from '../semantics/run.ts';
import { verifyImpl } from '../proofs/verifier/verify.ts';
import { compile } from '../proofs/metatheory/properties/harness.ts';
import { operatorFn } from '../proofs/metatheory/properties/reductions.ts';
import { operatorOf } from '../core/language/reductions.ts';
import type { Value } from '../semantics/values.ts';

const SPEC = `spec s {
  param N, M;
  assume N >= 1 && M >= 1;
  input A(i, j): i32;
  tensor T(i): i32;
  T(i) = 5 + sum{0 <= j < N, 0 <= k < M where (j + k) % 2 == 0}(A(j, k) * i32(i)) where 0 <= i && i < 3;
  output O(i): i32 = max{0 <= j < N}(A(j, i)) where 0 <= i && i < M;
  output P(): i32 = min(7, min{0 <= j < N}(A(j, 0)));
}
`;

describe('reductions', () => {
  it('the registry calls IEEE +, min and max inexact, with a reason: reordering changes the result', () => {
    const add = operatorFn('+', 'f32');
    const fold = (xs: number[]): unknown => xs.reduce<Value>((a, b) => add(a, b), 0);
    const forward = fold([1e20, -1e20, 1]);
    const backward = fold([1, -1e20, 1e20]);
    expect(forward).not.toBe(backward);
    expect(operatorOf('+').exact('f32')).toBe(false);
    const min = operatorFn('min', 'f64');
    expect(Number.isNaN(min(1, NaN) as number)).not.toBe(Number.isNaN(min(NaN, 1) as number));
    expect(operatorOf('min').exact('f64')).toBe(false);
    expect(operatorOf('+').exact('i8')).toBe(true);
  });

  it('print and parse back to themselves (specs, accumulations, transfers, partial)', () => {
    const src = `${SPEC}
impl p of s {
  input a: i32[N, M] = A;
  output o: i32[M] = O;
  output q: i32[] = P;
  allocate t: i32[2] in {
    par l < 2 do {
      t[l] {-2147483647 - 1} := -2147483647 - 1;
      for j < (N - l + 1) / 2 do t[l] {partial O(0)@(2 * j + l)} max= a[2 * j + l, 0]
    };
    o[0] {-2147483647 - 1} := -2147483647 - 1;
    for l < 2 do o[0] {O(0)} max= t[l]
  };
  q[] {7} := 7;
  for j < N do q[] {P()@(j)} min= a[j, 0]
}
`;
    const once = printProgram(parseProgram('a.sched', src));
    expect(printProgram(parseProgram('b.sched', once))).toBe(once);
    expect(once).toContain('sum{0 <= j < N, 0 <= k < M where (j + k) % 2 == 0}(A(j, k) * i32(i))');
    expect(once).toContain('{partial O(0)@(2 * j + l)} max= a[2 * j + l, 0]');
    expect(once).toContain('o[0] {O(0)} max= t[l]');
    expect(once).not.toContain('__red');
  });

  it('a reduction is the lexicographic left fold from its initial value (checked on runs)', () => {
    // An implementation that folds in lexicographic order, written with ordinary assignments,
    // must match the spec on every run: T(1) = 5 + Σ over (j, k) with j + k even of A(j, k).
    const src = `spec s {
  param N, M;
  assume N >= 1 && M >= 1;
  input A(i, j): i32;
  output T(): i32 = 5 + sum{0 <= j < N, 0 <= k < M where (j + k) % 2 == 0}(A(j, k));
}
impl p of s {
  input a: i32[N, M] = A;
  output t: i32[] = T;
  t[] := 5;
  for j < N do for k < M do if (j + k) % 2 == 0 then t[] := t[] + a[j, k]
}
`;
    const ci = compile(src);
    for (const [n, m] of [[1n, 1n], [3n, 2n], [4n, 5n]] as const) {
      for (const seed of [0, 1]) expect(runImpl(ci, new Map([['N', n], ['M', m]]), { seed }).report.outcome).toBe('match');
    }
  });

  it('rejects an operator that does not apply to the array type, and a reduction inside an expression', () => {
    const bad1 = `${SPEC}\nimpl p of s { input a: i32[N, M] = A; output q: i32[] = P; q[] {7} := 7; for j < N do q[] {P()@(j)} &&= a[j, 0] }\n`;
    expect(() => typecheckProgram(parseProgram('x.sched', bad1))).toThrow(SchedInputError);
    const bad2 = 'spec s { param N; input A(i): i32; output S(): i32 = 1 + 2 * sum{0 <= i < N}(A(i)); }\n';
    expect(() => parseProgram('x.sched', bad2)).toThrow(/whole right-hand side/);
  });

  it('an accumulation annotated with a tensor that is not a reduction is unknown (unsupported)', async () => {
    const src = `spec s { param N; assume N >= 1; input A(i): i32; tensor R(i): i32; R(-1) = 0; R(i) = R(i - 1) + A(i) where 0 <= i && i < N; output S(): i32 = R(N - 1); }
impl p of s { input a: i32[N] = A; output r: i32[] = S; r[] {R(-1)} := 0; for i < N do r[] {S()@(i)} += a[i] }
`;
    const v = await verifyImpl(compile(src));
    expect(v.verdict).toBe('unknown');
    expect(v.class).toBe('unsupported');
  });

  it('a reordered f32 reduction: valid up to reassociation under --float real, invalid by a replayed run under ieee', async () => {
    const text = readFileSync(new URL('../corpus/halide/reductions.sched', import.meta.url), 'utf8');
    const cp = typecheckProgram(parseProgram('reductions.sched', text));
    const ci = cp.impls.find((i) => i.impl.name === 'rfactor_f32')!;
    const real = await verifyImpl(ci, { float: 'real' });
    expect(real.verdict).toBe('valid');
    expect(real.qualifier).toBe('up to reassociation');
    const ieee = await verifyImpl(ci, { float: 'ieee' });
    expect(ieee.verdict).toBe('invalid');
    expect(ieee.replay).not.toBeNull();
    // In the spec's order the same f32 reduction is exact: valid without a qualifier.
    const inOrder = cp.impls.find((i) => i.impl.name === 'split_k_parallel_cells_f32')!;
    const v = await verifyImpl(inOrder);
    expect(v.verdict).toBe('valid');
    expect(v.qualifier ?? null).toBeNull();
  });
});
