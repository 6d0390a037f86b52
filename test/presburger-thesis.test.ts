// The thesis's worked examples (§5.2 Examples 8 and 9, Fig. 5.5), as printed there — with the
// erratum on Example 9 (the domain is 0 ≤ i < min(N, 4), not ≤) — and proved equal to
// our closed forms with Z3.

import { afterAll, describe, expect, it } from 'vitest';
import {
  apply, bind, constant, domain, evalRel, heapOf, isDisjoint, isEqual, isSingleValued, isSubset,
  iteratedUnionRel, iteratedUnionSet, iteratedUpdate, lexmax, parseFormula, parseRel, parseSet,
  printRel, printSet, singleValuedRestriction, substitute, tupleSet, unionSet, update, variable,
  type Decision,
} from '../core/presburger/index.ts';
import { shutdownZ3 } from '../smt/z3.ts';

afterAll(async () => { await shutdownZ3(); });

const v = variable;
const holds = (d: Decision) => expect(d, JSON.stringify(d, (_, x) => (typeof x === 'bigint' ? `${x}` : x instanceof Map ? Object.fromEntries(x) : x))).toEqual({ status: 'holds' });

describe('Example 8: one writer per location (lexmax = the single value)', () => {
  const h = parseRel('[x, N] -> { a[i] -> "A(□)"[j] : 0 <= x < N and i = x and j = x + 2 }');
  const bound = bind(domain(h), ['x'], [{ lo: constant(0), hi: constant(4) }]);

  it('bind, lexmax and ▶ give the thesis closed forms', async () => {
    holds(await isEqual(bound, parseRel('[N] -> { a[i] -> [x] : 0 <= x < min(4, N) and i = x }')));
    const last = lexmax(bound);
    expect(printRel(last)).toBe('[N] -> { a[i] -> [i] : 0 <= i <= 3 and i < N }');
    holds(await isEqual(last, parseRel('[N] -> { a[i] -> [i] : 0 <= i < min(4, N) }')));
    const it8 = iteratedUpdate(h, 'x', constant(4));
    expect(printRel(it8)).toBe('[N] -> { a[i] -> "A(□)"[i + 2] : 0 <= i <= 3 and i < N }');
    holds(await isEqual(it8, parseRel('[N] -> { a[i] -> "A(□)"[i + 2] : 0 <= i < min(4, N) }')));
  });

  it('for N ≥ 4 it is the heap a[0..3] ↦ A(2..5)', () => {
    const it8 = iteratedUpdate(h, 'x', constant(4));
    for (const n of [4n, 7n]) {
      expect(evalRel(it8, new Map([['N', n]]), { box: [-2n, 9n] })).toEqual(['a[0]->A(□)[2]', 'a[1]->A(□)[3]', 'a[2]->A(□)[4]', 'a[3]->A(□)[5]']);
    }
  });
});

describe('Example 9: several writers per location (lexmax = the last one)', () => {
  const h = parseRel('[x] -> { a[i] -> "A(□)"[j] : j = x + 3 and i = x mod 4 }');
  const bound = bind(domain(h), ['x'], [{ lo: constant(0), hi: v('N') }]);

  it('lexmax is the thesis closed form (with the erratum: i < min(N, 4))', async () => {
    const last = lexmax(bound);
    expect(printRel(last)).toBe('[N] -> { a[i] -> [N - 1 - (N + 3i + 3) mod 4] : 0 <= i <= 3 and i < N }');
    holds(await isEqual(last, parseRel('[N] -> { a[i] -> [N - 1 - (N - 1 + 3i) mod 4] : 0 <= i < min(N, 4) }')));
  });

  it('▶_{0≤x<N} h is the thesis closed form', async () => {
    const it9 = iteratedUpdate(h, 'x', v('N'));
    expect(printRel(it9)).toBe('[N] -> { a[i] -> "A(□)"[N + 2 - (N + 3i + 3) mod 4] : 0 <= i <= 3 and i < N }');
    expect(printRel(it9, { thesis: true })).toBe('{ a⟨i⟩ → A(□)⟨N + 2 - (N + 3i + 3) mod 4⟩ : 0 ≤ i ≤ 3 ∧ i < N }');
    holds(await isEqual(it9, parseRel('[N] -> { a[i] -> "A(□)"[N + 2 - (N - 1 + 3i) mod 4] : 0 <= i < min(N, 4) }')));
  });

  it('the domain as printed in the thesis (i ≤ min(N, 4)) is wrong, with a counter-model', async () => {
    const printed = parseRel('[N] -> { a[i] -> "A(□)"[N + 2 - (N - 1 + 3i) mod 4] : 0 <= i <= min(N, 4) }');
    const d = await isSubset(printed, iteratedUpdate(h, 'x', v('N')));
    expect(d.status).toBe('fails');
    if (d.status === 'fails') expect(d.witness).toMatch(/^a\[\d\] -> A\(□\)\[-?\d+\]$/);
  });

  it('for N ≥ 4: a[k] ↦ A(N + 2 − (N + 3 − k) mod 4)', () => {
    const it9 = iteratedUpdate(h, 'x', v('N'));
    for (let n = 4n; n <= 9n; n++) {
      const want = [0n, 1n, 2n, 3n].map((k) => `a[${k}]->A(□)[${n + 2n - (((n + 3n - k) % 4n) + 4n) % 4n}]`);
      expect(evalRel(it9, new Map([['N', n]]), { box: [-2n, 12n] })).toEqual(want.sort());
    }
  });
});

describe('Fig. 5.5: matrix product', () => {
  const R = (k: ReturnType<typeof v>) => heapOf([{ array: 'c', index: [v('i'), v('j')], ctx: 'R', args: [v('i'), v('j'), k] }]);
  const afterK = iteratedUpdate(R(v('k')), 'k', v('P'));
  const seq = update(R(constant(-1)), afterK);
  const afterJ = iteratedUpdate(seq, 'j', v('M'));

  it('S-SeqLoop(k): ▶_{0≤k<P} {c⟨i,j⟩ → R⟨i,j,k⟩} = {c⟨i,j⟩ → R⟨i,j,P−1⟩ : P > 0}', () => {
    expect(printRel(afterK)).toBe('[P, i, j] -> { c[i, j] -> R[i, j, P - 1] : P > 0 }');
    expect(printRel(afterK, { thesis: true })).toBe('{ c⟨i, j⟩ → R⟨i, j, P - 1⟩ : P > 0 }');
  });

  it('S-Seq: {c⟨i,j⟩ → R⟨i,j,−1⟩} ▷ … = R⟨i,j,−1⟩ : P ≤ 0 ; R⟨i,j,P−1⟩ : P > 0 = R⟨i,j,max(P,0)−1⟩', async () => {
    expect(printRel(seq)).toBe('[P, i, j] -> { c[i, j] -> R[i, j, P - 1] : P > 0; c[i, j] -> R[i, j, -1] : P <= 0 }');
    holds(await isEqual(seq, parseRel('[P, i, j] -> { c[i, j] -> R[i, j, max(P, 0) - 1] }')));
  });

  it('S-SeqLoop(j) and S-ParLoop(i)', async () => {
    expect(printRel(afterJ)).toBe('[M, P, i] -> { c[i, j] -> R[i, j, P - 1] : 0 <= j < M and P > 0; c[i, j] -> R[i, j, -1] : 0 <= j < M and P <= 0 }');
    const union = iteratedUnionRel(afterJ, 'i', constant(0), v('N'));
    holds(await isSingleValued(union));
    const par = singleValuedRestriction(union);
    holds(await isEqual(par, parseRel('[M, N, P] -> { c[i, j] -> R[i, j, max(P, 0) - 1] : 0 <= i < N and 0 <= j < M }')));
    expect(printRel(par)).toBe('[M, N, P] -> { c[i, j] -> R[i, j, P - 1] : 0 <= i < N and 0 <= j < M and P > 0; c[i, j] -> R[i, j, -1] : 0 <= i < N and 0 <= j < M and P <= 0 }');
  });

  it('the loop-invariant heap h ▷ ▶_{0≤j′<j} Δh[j := j′] and the read c[i, j]', async () => {
    const dh = parseRel('[i, j, P] -> { c[i, j] -> R[i, j, max(P, 0) - 1] }');
    const jp = 'j$prev';
    const inv = iteratedUpdate(substitute(dh, ['j'], [v(jp)]), jp, v('j'));
    holds(await isEqual(inv, parseRel("[i, j, P] -> { c[i, j'] -> R[i, j', max(P, 0) - 1] : 0 <= j' < j }")));
    // Inside the k loop: h ▷ {c⟨i,j⟩ → R⟨i,j,−1⟩} ▷ {c⟨i,j⟩ → R⟨i,j,k−1⟩ : k > 0}; reading c[i, j]
    // gives R(i, j, k − 1) for every 0 ≤ k < P (at k = 0 that is the initial R(i, j, −1)).
    const prev = parseRel('[i, j, k] -> { c[i, j] -> R[i, j, k - 1] : k > 0 }');
    const h = update(update(inv, R(constant(-1))), prev);
    const read = apply(h, tupleSet('c', [v('i'), v('j')]));
    expect(printSet(read)).toBe('[i, j, k] -> { R[i, j, k - 1] : k > 0; R[i, j, -1] : k <= 0 }');
    holds(await isEqual(read, parseSet('[i, j, k] -> { R[i, j, k - 1] }'), { context: parseFormula('0 <= k < P') }));
  });

  it('reads, rw-safe and the verification condition sets', async () => {
    const reads = unionSet(
      tupleSet('c', [v('i'), v('j')]),
      iteratedUnionSet(parseSet('[i, k] -> { a[i, k] }'), 'k', constant(0), v('P')),
      iteratedUnionSet(parseSet('[j, k] -> { b[k, j] }'), 'k', constant(0), v('P')),
    );
    expect(printSet(reads)).toBe('[P, i, j] -> { c[i, j]; a[i, k] : 0 <= k < P; b[k, j] : 0 <= k < P }');
    const overJ = iteratedUnionSet(reads, 'j', constant(0), v('M'));
    // rw-safe for the par loop on i: writes of thread i and reads of thread i' ≠ i are disjoint.
    const writes = iteratedUnionSet(parseSet('[i, j] -> { c[i, j] }'), 'j', constant(0), v('M'));
    const other = substitute(overJ, ['i'], [v("i'")]);
    holds(await isDisjoint(writes, other, { context: parseFormula("0 <= i < N and 0 <= i' < N and i != i'") }));
  });
});

