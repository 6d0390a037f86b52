// A verification from a clean slate: the Presburger layer's caches emptied, its fresh-variable
// numbering restarted and its elimination log cleared. Formula normal forms order literals by
// variable names, so this is what makes a certificate bundle byte-identical whatever else the
// process verified before, and what makes the bundle's elimination log exactly this
// verification's (a cache hit would not log again).

import { clearDecisionCache } from '../../core/presburger/decide.ts';
import { clearEliminationLog } from '../../core/presburger/elimlog.ts';
import { resetFreshNames } from '../../core/presburger/names.ts';
import { clearEliminationCache } from '../../core/presburger/qe.ts';
import { clearSimplifyMemo } from '../../core/presburger/simplify.ts';
import { clearZ3QeCache } from '../../core/presburger/z3qe.ts';
import { forgetRememberedAnswers } from '../../smt/z3.ts';

export function startFromScratch(): void {
  clearSimplifyMemo();
  clearEliminationCache();
  clearZ3QeCache();
  clearEliminationLog();
  resetFreshNames();
}

/**
 * Also forget the solver answers kept across verifications (and across the well-formedness checks
 * of the sources), for the fuzzer's verifier: the queries a case asks, and so the solver work it
 * is charged (smt/z3.ts, Work), must not depend on the cases that worker verified before it
 * (another shard sees others).
 */
export function forgetSolverAnswers(): void {
  forgetRememberedAnswers();
  clearDecisionCache();
}
