// Set-up for every test file (vitest.config.ts): the test files share their worker processes
// (`isolate: false`: each module is loaded once per worker, not once per file, which saved about a
// minute of `npm test`), so each file starts from the state a fresh process has: the Presburger
// layer's caches and fresh names, the solver answers kept across verifications, and the solver
// settings (mode, jobs, limits) a property run or a test may have changed.

import { beforeAll } from 'vitest';
import { forgetSolverAnswers, startFromScratch } from '../proofs/verifier/fresh-state.ts';
import { recordEliminations } from '../core/presburger/elimlog.ts';
import { resetSolverSettings } from '../smt/z3.ts';

beforeAll(() => {
  startFromScratch();
  forgetSolverAnswers();
  recordEliminations(true);
  resetSolverSettings();
});
