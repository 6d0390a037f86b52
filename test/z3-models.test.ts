// smt/z3.ts: a model is asked for in the same run as the answer (`(get-model)` after the
// check-sat: one solver context, where asking again cost a second). After unsat or unknown, Z3's
// "model is not available" is that answer, not a malformed script; the same complaint anywhere
// else still makes the answer untrustworthy. In the solver mode of the run (SCHED_SOLVER), and
// through the WASM build as the second solver when the default mode has two.

import { afterAll, describe, expect, it } from 'vitest';
import { checkSat, runZ3, shutdownZ3, withSecondSolver, z3Stats } from '../smt/z3.ts';

afterAll(() => shutdownZ3());

const SAT = '(declare-const x Int)\n(assert (> x 41))\n(assert (< x 43))';
const UNSAT = '(declare-const y Int)\n(assert (> y 3))\n(assert (< y 4))';

async function checks(): Promise<void> {
  const c0 = z3Stats().calls;
  const sat = await checkSat(SAT, { model: true });
  expect(sat.status).toBe('sat');
  expect(sat.reason).toBeNull();
  expect(sat.output).toMatch(/\(define-fun x \(\) Int\s+42\)/);
  const unsat = await checkSat(UNSAT, { model: true });
  expect(unsat.status).toBe('unsat');
  expect(unsat.reason).toBeNull();
  // One query each, the model included.
  expect(z3Stats().calls - c0).toBe(2);
}

describe('models with their answer', () => {
  it('sat comes with its model, unsat with no error, one query each', checks, 60_000);

  it('the same through the second solver', async () => {
    // null when the run has one solver (SCHED_SOLVER=z3 or wasm, or no command line).
    await withSecondSolver(checks);
  });

  it('a model asked for before any answer is still a solver error', async () => {
    const r = await runZ3(`${SAT}\n(get-model)\n(check-sat)`);
    expect(r.status).toBe('unknown');
    expect(r.reason).toMatch(/solver error: .*model is not available/);
  });

  it('after a sat answer, a later unsat with its model asked for is not an error', async () => {
    const r = await runZ3(`${SAT}\n(check-sat)\n(assert (> x 50))\n(check-sat)\n(get-model)`);
    expect(r.output.split('\n').filter((l) => /^(sat|unsat|unknown)$/.test(l.trim()))).toEqual(['sat', 'unsat']);
    expect(r.status).toBe('sat');
    expect(r.reason).toBeNull();
  });
});
