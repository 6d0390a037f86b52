// smt/limits.ts: a solver budget enforced as Z3's resource limit (SCHED_SOLVER_LIMIT=rlimit, the
// default) instead of the wall clock (`--timeout-ms`). What it must give: the same answer whatever
// the load, the reason of an exhausted limit (an `unknown` is a timeout, never "the solver gave
// up", and never decided by how long the query took), outputs free of the reason it asks for,
// and decided queries answered as under a time limit.

import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RLIMIT_PER_MS, limitOptions, rlimitOf, setSolverLimits, solverLimits, splitLimitInfo, unitsToWorkMs, wallMs } from '../smt/limits.ts';
import { checkSat, checkSatBatch, shutdownZ3, workMs, workSince, z3Stats } from '../smt/z3.ts';

afterAll(() => shutdownZ3());
const initial = solverLimits();
afterEach(() => setSolverLimits(initial));

// x³ + y³ + z³ = 33 with bounded x, y, z: nonlinear, far beyond a 500 ms budget.
const HARD = '(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)\n(assert (= (+ (* x x x) (* y y y) (* z z z)) 33))\n(assert (< (- 0 100000) x 100000))\n(assert (< (- 0 100000) y 100000))\n(assert (< (- 0 100000) z 100000))';
const PIGEONS = pigeonhole(11, 10);
const SAT = '(declare-const y Int)\n(assert (> y 3))\n(assert (< y 5))';
const UNSAT = '(declare-const y Int)\n(assert (> y 3))\n(assert (< y 4))';

/** n pigeons in m holes, one per hole: unsat for n > m, and exponential for resolution. */
function pigeonhole(n: number, m: number): string {
  const p = (i: number, j: number): string => `p${i}_${j}`;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) lines.push(`(declare-const ${p(i, j)} Bool)`);
  for (let i = 0; i < n; i++) lines.push(`(assert (or ${Array.from({ length: m }, (_, j) => p(i, j)).join(' ')}))`);
  for (let j = 0; j < m; j++) for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) lines.push(`(assert (or (not ${p(a, j)}) (not ${p(b, j)})))`);
  return lines.join('\n');
}

describe('resource limits', () => {
  it('are calibrated for both builds, and bound the wall clock only as a safety net', () => {
    expect(RLIMIT_PER_MS.native).toBeGreaterThan(0);
    expect(RLIMIT_PER_MS.wasm).toBeGreaterThan(0);
    setSolverLimits('rlimit');
    expect(rlimitOf(5000, 'native')).toBe(Math.round(5000 * RLIMIT_PER_MS.native));
    expect(limitOptions(5000, 'wasm')).toBe(`(set-option :timeout ${wallMs(5000)})\n(set-option :rlimit ${rlimitOf(5000, 'wasm')})`);
    expect(wallMs(5000)).toBeGreaterThan(5000);
    setSolverLimits('time');
    expect(limitOptions(5000, 'wasm')).toBe('(set-option :timeout 5000)');
    expect(wallMs(5000)).toBe(5000);
  });

  it('an exhausted limit is a timeout, whatever the time taken, and the same every time', async () => {
    setSolverLimits('rlimit');
    expect(solverLimits()).toBe('rlimit');
    // PIGEONS, not HARD: neither build stops that nonlinear query at its resource limit on every
    // machine (the WASM build counts it slowly: only a safety net stops it, README, Performance).
    const a = await checkSat(PIGEONS, { timeoutMs: 100 });
    const b = await checkSat(PIGEONS, { timeoutMs: 100 });
    for (const r of [a, b]) {
      expect(r.status).toBe('unknown');
      expect(r.reason).toMatch(/^timeout: Z3's resource limit for a budget of 100 ms ran out/);
      expect(r.output).not.toMatch(/sched-reason|reason-unknown/);
    }
  });

  it('a query that a build does not stop at its limit is stopped by a safety net: a timeout too', async () => {
    setSolverLimits('rlimit');
    const n0 = z3Stats().netStops;
    const r = await checkSat(HARD, { timeoutMs: 100 });
    expect(r.status).toBe('unknown');
    expect(r.reason).toMatch(/^timeout/);
    expect(z3Stats().netStops).toBeGreaterThanOrEqual(n0);
  });

  it('decided queries answer as under a time limit, alone and in batches, with their models', async () => {
    const under = async (): Promise<unknown> => {
      const sat = await checkSat(SAT, { model: true });
      const unsat = await checkSat(UNSAT);
      const batch = await checkSatBatch([SAT, UNSAT, SAT]);
      return { sat: [sat.status, sat.reason, /define-fun y/.test(sat.output), sat.output.includes('sched-reason')], unsat: [unsat.status, unsat.reason, unsat.output.trim()], batch: batch.map((r) => [r.status, r.reason]) };
    };
    const time = await under();
    setSolverLimits('rlimit');
    expect(await under()).toEqual(time);
    expect(time).toEqual({ sat: ['sat', null, true, false], unsat: ['unsat', null, 'unsat'], batch: [['sat', null], ['unsat', null], ['sat', null]] });
  });

  it('a batch scope that exhausts its limit answers unknown, the others are decided', async () => {
    setSolverLimits('rlimit');
    const rs = await checkSatBatch([UNSAT, PIGEONS, SAT], { timeoutMs: 100 });
    expect(rs.map((r) => r.status)).toEqual(['unsat', 'unknown', 'sat']);
  });

  it('splitLimitInfo takes the asked reason and count out of the output, and reads both builds\' wording', () => {
    expect(splitLimitInfo('unknown\nsched-reason-unknown\n(:reason-unknown "max. resource limit exceeded")\n(:rlimit 1502)\n')).toEqual({ output: 'unknown', limitReached: true, interrupted: true, units: 1502 });
    expect(splitLimitInfo('unknown\nsched-reason-unknown\n(:reason-unknown "canceled")')).toEqual({ output: 'unknown', limitReached: true, interrupted: true, units: null });
    // z3-solver's own wall-clock limit, and a solver giving up, are not the resource limit.
    expect(splitLimitInfo('unknown\nsched-reason-unknown\n(:reason-unknown "timeout")')).toMatchObject({ limitReached: false, interrupted: true });
    expect(splitLimitInfo('unknown\nsched-reason-unknown\n(:reason-unknown "(incomplete (theory arithmetic))")')).toMatchObject({ limitReached: false, interrupted: false });
    expect(splitLimitInfo('sat\nsched-reason-unknown\n(:reason-unknown "")\n(:rlimit 71)')).toEqual({ output: 'sat', limitReached: false, interrupted: false, units: 71 });
    expect(splitLimitInfo('unsat')).toEqual({ output: 'unsat', limitReached: false, interrupted: false, units: null });
  });

  it('counts solver work in resource units: the same for the same queries, one at a time or all at once', async () => {
    setSolverLimits('rlimit');
    // The pigeonhole principle (11 pigeons, 10 holes): propositional, far beyond these budgets,
    // and stopped by either build at its resource limit. (Not HARD: z3 4.8.12 does not always stop
    // that one at its limits, and its incremental nonlinear arithmetic gives up after a number of
    // steps that varies from run to run, bench/RESULTS.md, Performance.)
    const queries = (): Promise<unknown>[] => [checkSat(SAT, { model: true }), checkSat(PIGEONS, { timeoutMs: 60 }), checkSatBatch([SAT, UNSAT, SAT], { timeoutMs: 300 }), checkSat(PIGEONS, { timeoutMs: 40 })];
    let w0 = z3Stats().work;
    for (const q of queries()) await q;
    const oneByOne = workSince(w0);
    w0 = z3Stats().work;
    // Concurrently on the pool (and twice over): waiting does not count, nor which process answers.
    await Promise.all([...queries(), ...queries()]);
    expect(workSince(w0)).toEqual({ native: 2 * oneByOne.native, wasm: 2 * oneByOne.wasm });
    // The two that exhausted their limits count at least their budgets (units over the rate).
    expect(workMs(oneByOne)).toBeGreaterThanOrEqual(60 + 40);
    expect(unitsToWorkMs(RLIMIT_PER_MS.native, 'native')).toBe(1);
  });
});
