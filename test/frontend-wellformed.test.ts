// Spec well-formedness (W2 disjoint domains, W5 well-foundedness) decided with Z3: accepted and
// rejected SAREs, names that clash with SMT-LIB, lexicographic rankings, batched queries, the
// solver budget.

import { afterAll, describe, expect, it } from 'vitest';
import { checkSource } from '../core/check.ts';
import { type Diagnostic, SchedInputError } from '../core/diagnostics.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(shutdownZ3);

async function diags(text: string, opts: { maxQueries?: number } = {}): Promise<readonly Diagnostic[]> {
  try {
    await checkSource('w.sched', text, opts);
    return [];
  } catch (e) {
    if (e instanceof SchedInputError) return e.diagnostics;
    throw e;
  }
}

describe('well-founded specs are accepted', () => {
  it.each([
    ['a recurrence with a base case (S3)', 'tensor A(i): f32; A(i) = A(i - 1) + 1.0 where i > 0; A(i) = 0.0 where i <= 0;'],
    ['a downward recurrence (S5)', 'tensor A(i): f32; A(i) = A(i + 1) where i < 10; A(i) = 0.0 where i >= 10;'],
    ['halving', 'tensor A(i): f32; A(i) = A(i / 2) + 1.0 where i > 0; A(i) = 0.0 where i <= 0;'],
    ['mutual recursion through two tensors', 'tensor E(i): f32; tensor O(i): f32; E(i) = O(i - 1) where i > 0; E(i) = 1.0 where i <= 0; O(i) = E(i - 1) * 2.0 where i > 0; O(i) = 0.0 where i <= 0;'],
    ['a chain of stages read at the same point', 'tensor S0(i): f32; tensor S1(i): f32; tensor S2(i): f32; S0(i) = 1.0; S1(i) = S0(i) + S0(i + 1); S2(i) = S1(i) * S1(i - 1);'],
    ['reads outside every domain (unconstrained values)', 'param N; tensor A(i): f32; A(i) = A(i + 1) where 0 <= i && i < N;'],
    ['a lexicographic ranking within one read (thesis C12, select)', 'param X, Y; input A(x, y): f32; tensor D(ry, rx): f32; D(ry, rx) = 0.0 where ry < 0; D(ry, rx) = D(select(rx <= 0, ry - 1, ry), select(rx <= 0, X - 1, rx - 1)) + A(rx, ry) where 0 <= rx && rx < X && 0 <= ry && ry < Y;'],
    ['a lexicographic ranking over two reads', 'param X; tensor D(a, b): f32; D(a, b) = 0.0 where a < 0 || b < 0; D(a, b) = D(a - 1, X) + D(a, b - 1) where a >= 0 && b >= 0;'],
    ['disjoint thanks to an assumption', 'param N, M; assume M < N; tensor R(i): f32; R(i) = 0.0 where i < M; R(i) = 1.0 where i >= N;'],
    ['modular domains', 'tensor R(i): f32; R(i) = 0.0 where i % 2 == 0; R(i) = 1.0 where i % 2 == 1;'],
  ])('%s', async (_what, body) => {
    expect(await diags(`spec s { ${body} }`)).toEqual([]);
  });
});

describe('ill-formed specs are rejected', () => {
  it.each([
    ['A(i) = A(i) + 1', 'tensor A(i): f32; A(i) = A(i) + 1.0;', "equation 1 of 'A' (line 1)"],
    ['a recurrence without a base case over all integers', 'tensor A(i): f32; A(i) = A(i - 1);', 'not well founded'],
    ['halving from 0 reads itself', 'tensor A(i): f32; A(i) = A(i / 2) + 1.0 where i >= 0;', 'not well founded'],
    ['a cycle through two tensors at the same point', 'tensor E(i): f32; tensor O(i): f32; E(i) = O(i); O(i) = E(i);', 'recursive group'],
    ['a 0-ary self-reference', 'tensor S(): f32; S() = S() + 1.0;', 'not well founded'],
    ['a lexicographic read that stays in place at one point', 'param X, Y; tensor D(ry, rx): f32; D(ry, rx) = 0.0 where ry < 0; D(ry, rx) = D(ry, select(rx <= 0, rx, rx - 1)) where 0 <= rx && rx < X && 0 <= ry && ry < Y;', 'not well founded'],
    ['overlapping domains', 'param N; tensor R(i): f32; R(i) = 0.0 where i <= N; R(i) = 1.0 where i >= N;', 'overlap'],
  ])('%s', async (_what, body, message) => {
    const ds = await diags(`spec s { ${body} }`);
    expect(ds.length).toBeGreaterThan(0);
    expect(ds[0]!.message).toContain(message);
    expect(ds[0]!.phase).toBe('spec');
  });

  it('names the overlapping pair among many equations answered in one batch', async () => {
    const eqs = ['i < 0', '0 <= i && i < 10', '10 <= i && i < 20', '20 <= i && i < 30', '25 <= i && i < 40', 'i >= 40'];
    const text = `spec s {\n  tensor R(i): f32;\n${eqs.map((w, k) => `  R(i) = ${k}.0 where ${w};`).join('\n')}\n}\n`;
    const ds = await diags(text);
    expect(ds.map((d) => d.message)).toEqual([expect.stringContaining("the domains of equation 4 of 'R' (line 6) and equation 5 of 'R' (line 7) overlap")]);
    expect(ds[0]!.message).toMatch(/both define R\(2\d\)/);
    expect([ds[0]!.line, ds[0]!.col]).toEqual([7, 3]);
  });
});

describe('names', () => {
  it('accepts SCHED names that are SMT-LIB builtins or Z3 constants', async () => {
    // Z3 refused `(declare-const and Int)` ("builtin symbol"), and `|and|` is the same symbol.
    const ps = ['and', 'or', 'xor', 'distinct', 'as', '_', 'e', 'pi', 'ite', 'div', 'mod', 'not', 'Int'];
    const text = `spec s { param ${ps.join(', ')}; tensor R(i): f32; R(i) = 0.0 where i < 0; R(i) = R(i - 1) where i >= 0 && i < ${ps.join(' + ')}; }`;
    expect(await diags(text)).toEqual([]);
    const vars = `spec t { param N; tensor R(and, e): f32; R(and, e) = 0.0 where and < 0; R(and, e) = R(and - 1, e) where and >= 0 && e < N; }`;
    expect(await diags(vars)).toEqual([]);
  });
});

describe('the solver budget', () => {
  const spec = 'spec s { param N; tensor R(i): f32; R(i) = 0.0 where i < 0; R(i) = R(i - 1) + 1.0 where 0 <= i && i < N; }';
  it('reports a spec it could not check within the budget as an input error', async () => {
    const ds = await diags(spec, { maxQueries: 1 });
    expect(ds).toHaveLength(1);
    expect(ds[0]!.message).toContain("could not check that spec 's' is well formed");
    expect(ds[0]!.message).toContain('within 1 solver queries');
    expect([ds[0]!.line, ds[0]!.col]).toEqual([1, 1]);
  });
  it('gives the same answer when the queries come from the cache', async () => {
    expect(await diags(spec)).toEqual([]);
    expect(await diags(spec)).toEqual([]);
    expect((await diags(spec, { maxQueries: 1 }))[0]!.message).toContain('within 1 solver queries');
  });
});
