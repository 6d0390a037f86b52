// smt/z3.ts, the default mode: the Z3 command line answers, and the WASM build is asked again on
// what it leaves undecided. Debian's z3 4.8.12 does not know `ubv_to_int` (an SMT-LIB 2.7 name
// that z3-solver's newer Z3 reads): the command line answers it with an error, so only the
// fallback can decide it.

import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSat, checkSatBatch, nativeSolverInstalled, runZ3, setSolverJobs, shutdownZ3, solverName } from '../smt/z3.ts';

afterAll(() => shutdownZ3());

const mode = process.env.SCHED_SOLVER ?? 'auto';
const skip = !nativeSolverInstalled() ? 'the Z3 command line is not installed (apt-get install -y z3)' : mode !== 'auto' ? `SCHED_SOLVER=${mode}` : null;
if (skip) console.warn(`z3-fallback: skipped, ${skip}`);

// 8-bit x read as an integer cannot be 300: unsat; 200 can: sat.
const NEWER_ONLY = (n: number): string => `(declare-const x (_ BitVec 8))\n(assert (= (ubv_to_int x) ${n}))`;
const PLAIN = '(declare-const y Int)\n(assert (> y 3))\n(assert (< y 4))';

describe.skipIf(skip !== null)('the command line first, the WASM build on what it leaves undecided', () => {
  it('names both solvers', () => {
    expect(solverName()).toBe('z3, z3-wasm');
  });

  it('the command line alone does not decide the script', () => {
    const r = spawnSync('z3', ['-in', '-smt2'], { input: `${NEWER_ONLY(300)}\n(check-sat)\n`, encoding: 'utf8' });
    expect(r.stdout).toMatch(/error/);
  });

  it('decides it through the fallback, both ways', async () => {
    expect((await checkSat(NEWER_ONLY(300))).status).toBe('unsat');
    const sat = await checkSat(NEWER_ONLY(200), { model: true });
    expect(sat.status).toBe('sat');
    expect(sat.output).toMatch(/x/);
  });

  it('in a batch, the scripts the command line left undecided are decided by the WASM build', async () => {
    const rs = await checkSatBatch([PLAIN, NEWER_ONLY(300), NEWER_ONLY(17), PLAIN]);
    expect(rs.map((r) => r.status)).toEqual(['unsat', 'unsat', 'sat', 'unsat']);
    expect(rs.every((r) => r.reason === null)).toBe(true);
  });

  it('a script\'s expected status does not outlive it in the long-lived command line', async () => {
    // z3 4.8.12's (reset) keeps `(set-info :status unsat)`: every later sat of that process was an
    // error ("check annotation that says unsat"), which the well-formedness check took for a
    // broken batch and asked again query by query (a fuzz case's work depended on the one before).
    setSolverJobs(1);
    const SAT = '(declare-const y Int)\n(assert (> y 3))';
    expect((await checkSat(`(set-info :status unsat)\n${SAT}`)).status).toBe('sat');
    const next = await runZ3(`(push 1)\n${SAT}\n(check-sat)\n(pop 1)\n(push 1)\n${PLAIN}\n(check-sat)\n(pop 1)`);
    expect(next.output.trim().split('\n')).toEqual(['sat', 'unsat']);
  });
});
