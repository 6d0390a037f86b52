// smt/z3.ts for property runs: the fastest solver installed, and answers remembered by script
// (only decided ones, only inside withRememberedAnswers).

import { afterAll, describe, expect, it } from 'vitest';
import { checkSat, nativeSolverInstalled, preferNativeSolver, shutdownZ3, withRememberedAnswers, z3Stats } from '../smt/z3.ts';

afterAll(() => shutdownZ3());

describe('solver choice and remembered answers', () => {
  it('prefers the Z3 command line when it is installed (before the first query)', () => {
    const expected = process.env.SCHED_SOLVER === 'wasm' || (process.env.SCHED_SOLVER !== 'z3' && !nativeSolverInstalled()) ? 'z3-wasm' : 'z3';
    expect(preferNativeSolver()).toBe(expected);
  });

  it('asks again outside withRememberedAnswers', async () => {
    const script = '(declare-const x Int)(assert (> x 41))';
    const c0 = z3Stats().calls;
    await checkSat(script);
    await checkSat(script);
    expect(z3Stats().calls - c0).toBe(2);
  });

  it('answers a decided script once inside, with the same answer, and again the next time', async () => {
    const script = '(declare-const y Int)(assert (> y 7))(assert (< y 7))';
    const c0 = z3Stats().calls;
    const h0 = z3Stats().remembered;
    const [a, b] = await withRememberedAnswers(async () => [await checkSat(script), await checkSat(script)]);
    const c = await withRememberedAnswers(() => checkSat(script));
    expect(a.status).toBe('unsat');
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(z3Stats().calls - c0).toBe(1);
    expect(z3Stats().remembered - h0).toBe(2);
  });

  it('never remembers an undecided answer (here a solver error)', async () => {
    const script = '(assert (> undeclared 0))';
    const c0 = z3Stats().calls;
    const [a, b] = await withRememberedAnswers(async () => [await checkSat(script), await checkSat(script)]);
    expect(a.status).toBe('unknown');
    expect(b.status).toBe('unknown');
    expect(z3Stats().calls - c0).toBe(2);
  });
});
