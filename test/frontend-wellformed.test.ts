// Spec well-formedness (W2 disjoint domains, W5 well-foundedness) decided with Z3: accepted and
// rejected SAREs, names that clash with SMT-LIB, lexicographic rankings, batched queries, the
// solver budget; and a property: no random recurrence the check accepts has an overlap or a
// dependence cycle inside a box (brute force).

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Expr } from '../core/language/ast.ts';
import { checkSource } from '../core/language/check.ts';
import { type Diagnostic, SchedInputError } from '../core/language/diagnostics.ts';
import { parseProgram } from '../core/language/parser.ts';
import { type CheckedSpec, type NormEquation, typecheckProgram } from '../core/language/typecheck.ts';
import { checkSpecWellFormed } from '../core/language/wellformed.ts';
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

describe('tables and ranges', () => {
  it('accepts a 300-entry table without asking the solver about its 44,850 pairs', async () => {
    const eqs = Array.from({ length: 300 }, (_, k) => `  W(${k}, j) = ${k}.5 where 0 <= j && j < 4;`).join('\n');
    expect(await diags(`spec s {\n  tensor W(i, j): f32;\n${eqs}\n}\n`, { maxQueries: 10 })).toEqual([]);
  });
  it('still finds two entries of a table that define the same point', async () => {
    const eqs = ['W(0) = 1.0;', 'W(1) = 2.0;', 'W(2 - 1) = 3.0;', 'W(i) = 0.0 where i >= 3;'].map((q) => `  ${q}`).join('\n');
    const ds = await diags(`spec s {\n  tensor W(i): f32;\n${eqs}\n}\n`);
    expect(ds.map((d) => d.message)).toEqual([expect.stringContaining("equation 2 of 'W' (line 4) and equation 3 of 'W' (line 5) overlap: both define W(1)")]);
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

// -- soundness against brute force ------------------------------------------------------------

type Val = bigint | boolean;
const floorDiv = (a: bigint, b: bigint): bigint => (a % b !== 0n && a < 0n !== b < 0n ? a / b - 1n : a / b);

/** Concrete value of an affine expression. */
function evalAffine(e: Expr, env: ReadonlyMap<string, Val>): Val {
  switch (e.kind) {
    case 'int':
    case 'bool':
      return e.value;
    case 'var':
      return env.get(e.name)!;
    case 'unary':
      return e.op === '-' ? -(evalAffine(e.arg, env) as bigint) : !evalAffine(e.arg, env);
    case 'binary': {
      if (e.op === '&&') return (evalAffine(e.left, env) as boolean) && (evalAffine(e.right, env) as boolean);
      if (e.op === '||') return (evalAffine(e.left, env) as boolean) || (evalAffine(e.right, env) as boolean);
      const a = evalAffine(e.left, env) as bigint;
      const b = evalAffine(e.right, env) as bigint;
      const ops: Record<string, () => Val> = {
        '+': () => a + b, '-': () => a - b, '*': () => a * b, '/': () => floorDiv(a, b), '%': () => a - floorDiv(a, b) * b,
        '==': () => a === b, '!=': () => a !== b, '<': () => a < b, '<=': () => a <= b, '>': () => a > b, '>=': () => a >= b,
      };
      return ops[e.op]!();
    }
    case 'call': {
      const [a, b] = e.args.map((x) => evalAffine(x, env) as bigint) as [bigint, bigint];
      return e.fn === 'min' ? (a < b ? a : b) : a > b ? a : b;
    }
    case 'select':
      return evalAffine(e.cond, env) ? evalAffine(e.then, env) : evalAffine(e.else, env);
    case 'let':
      return evalAffine(e.body, new Map([...env, [e.name, evalAffine(e.value, env)]]));
    default:
      throw new Error(`not affine: ${e.kind}`);
  }
}

/** Tensor reads of a right-hand side at a point (both branches of a select: it is eager). */
function readsAt(e: Expr, env: ReadonlyMap<string, Val>, out: string[]): void {
  switch (e.kind) {
    case 'tensor':
      out.push(`${e.name}(${e.indices.map((i) => evalAffine(i, env)).join(',')})`);
      return;
    case 'binary':
      readsAt(e.left, env, out);
      readsAt(e.right, env, out);
      return;
    case 'select':
      readsAt(e.then, env, out);
      readsAt(e.else, env, out);
      return;
    default:
      return;
  }
}

/** An overlap or a dependence cycle inside the box [-4, 4]^n, for a few parameter values. */
function bruteForceFlaw(cs: CheckedSpec): string | null {
  for (const n of [-1n, 0n, 1n, 2n, 3n, 5n]) {
    const params = new Map<string, Val>(cs.params.map((p) => [p, n]));
    if (!cs.spec.assumes.every((a) => evalAffine(a, params))) continue;
    const owner = new Map<string, { eq: NormEquation; env: Map<string, Val> }>();
    for (const eq of cs.equations) {
      const points: bigint[][] = eq.vars.reduce<bigint[][]>((acc) => acc.flatMap((p) => [-4n, -3n, -2n, -1n, 0n, 1n, 2n, 3n, 4n].map((v) => [...p, v])), [[]]);
      for (const pt of points) {
        const env = new Map([...params, ...eq.vars.map((v, i) => [v, pt[i]!] as const)]);
        if (!evalAffine(eq.guard, env)) continue;
        const key = `${eq.tensor}(${pt.join(',')})`;
        if (owner.has(key)) return `${key} is in two domains when N = ${n}`;
        owner.set(key, { eq, env });
      }
    }
    const state = new Map<string, 'open' | 'done'>();
    const visit = (u: string): string | null => {
      state.set(u, 'open');
      const { eq, env } = owner.get(u)!;
      const rs: string[] = [];
      readsAt(eq.rhs, env, rs);
      for (const w of rs.filter((r) => owner.has(r))) {
        if (state.get(w) === 'open') return `a cycle through ${w} when N = ${n}`;
        if (!state.has(w)) {
          const r = visit(w);
          if (r) return r;
        }
      }
      state.set(u, 'done');
      return null;
    };
    for (const u of owner.keys()) {
      if (state.has(u)) continue;
      const r = visit(u);
      if (r) return r;
    }
  }
  return null;
}

/** Random recurrences over A(x, y) and B(x): guards, shifted / halved / selected reads. */
function recurrenceArb(): fc.Arbitrary<string> {
  const atom = (vs: readonly string[]): fc.Arbitrary<string> =>
    fc.oneof(
      fc.tuple(fc.constantFrom(...vs), fc.constantFrom('<', '<=', '>', '>=', '==', '!='), fc.integer({ min: -3, max: 3 })).map(([v, o, k]) => `${v} ${o} ${k}`),
      fc.tuple(fc.constantFrom(...vs), fc.constantFrom('<', '>='), fc.constantFrom('N', 'N - 1', '0')).map(([v, o, k]) => `${v} ${o} ${k}`),
      fc.tuple(fc.constantFrom(...vs), fc.constantFrom(...vs), fc.constantFrom('<', '<=', '==')).map(([a, b, o]) => `${a} ${o} ${b}`),
      fc.tuple(fc.constantFrom(...vs), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 0, max: 1 })).map(([v, m, r]) => `${v} % ${m} == ${r}`),
    );
  const index = (vs: readonly string[]): fc.Arbitrary<string> =>
    fc.oneof(
      fc.tuple(fc.constantFrom(...vs), fc.integer({ min: -2, max: 2 })).map(([v, k]) => (k === 0 ? v : `${v} + ${k}`)),
      fc.tuple(fc.constantFrom(...vs), fc.constantFrom(2, 3)).map(([v, k]) => `${v} / ${k}`),
      fc.constantFrom('N - 1', '0', '-1'),
      fc.tuple(atom(vs), fc.constantFrom(...vs), fc.integer({ min: -1, max: 1 })).map(([c, v, k]) => `select(${c}, ${v}, ${v} + ${k})`),
    );
  const read = (vs: readonly string[]): fc.Arbitrary<string> =>
    fc.oneof(fc.tuple(index(vs), index(vs)).map(([i, j]) => `A(${i}, ${j})`), index(vs).map((i) => `B(${i})`));
  const equation = (t: string, vs: readonly string[]): fc.Arbitrary<{ t: string; text: string }> =>
    fc.tuple(fc.array(read(vs), { maxLength: 2 }), fc.array(atom(vs), { maxLength: 3 })).map(([rs, g]) => ({
      t,
      text: `  ${t}(${vs.join(', ')}) = ${rs.length > 0 ? rs.join(' + ') : '1.0'}${g.length > 0 ? ` where ${g.join(' && ')}` : ''};`,
    }));
  return fc.array(fc.oneof(equation('A', ['x', 'y']), equation('B', ['x'])), { minLength: 1, maxLength: 4 }).map((eqs) => {
    const role = (t: string): string => (eqs.some((q) => q.t === t) ? 'tensor' : 'input');
    return ['spec r {', '  param N;', '  assume N >= 0;', `  ${role('A')} A(x, y): f32;`, `  ${role('B')} B(x): f32;`, ...eqs.map((q) => q.text), '}', ''].join('\n');
  });
}

describe('soundness of the well-formedness check against brute force', () => {
  it('the brute force sees the flaws it looks for', () => {
    const spec = (body: string): CheckedSpec => typecheckProgram(parseProgram('r', `spec r { param N; ${body} }`)).specs.get('r')!;
    expect(bruteForceFlaw(spec('tensor B(x): f32; B(x) = B(x / 2) where x >= 0;'))).toContain('a cycle through B(0)');
    expect(bruteForceFlaw(spec('tensor B(x): f32; B(x) = 0.0 where x <= N; B(x) = 1.0 where x >= N;'))).toContain('in two domains');
    expect(bruteForceFlaw(spec('tensor B(x): f32; B(x) = B(x - 1) where x > 0; B(x) = 0.0 where x <= 0;'))).toBeNull();
  });
  it('accepts no random recurrence that overlaps or cycles inside a box', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(recurrenceArb(), async (text) => {
        const cs = typecheckProgram(parseProgram('r.sched', text)).specs.get('r')!;
        if ((await checkSpecWellFormed(cs, 'r.sched', { queryMs: 3000 })).length > 0) return;
        accepted++;
        expect(bruteForceFlaw(cs)).toBeNull();
      }),
      { numRuns: Number(process.env.SCHED_WF_RUNS ?? 150) },
    );
    expect(accepted).toBeGreaterThan(10);
  });
});
