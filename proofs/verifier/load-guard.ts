// LOAD-DISCARD: where the value of a checked read `load(a[ι])` is used (docs/language.md §4).
// A `load` of a cell holding ⊥ is poison; poison flows through every operation to the written
// value except through a `select` that chooses its other operand. So the read's value is used
// exactly where every select on the path from the right-hand side's root to the `load` chooses
// the operand holding it: the conjunction of those selects' conditions (c for `then`, ¬c for
// `else`). That is the read's *guard*: S-ASSIGN's read-defined obligation for a `load` holds
// under it only, and outside it the read's value is free in the value obligations (a select
// discards it, so the written value does not depend on it).
//
// A select condition that is not affine (it compares values) is left out of the guard, which
// then holds on more points: the read-defined obligation is stronger, still sound for `valid`,
// but its refutation is not by itself a counterexample (`exact: false`; a run must show it).

import { isLoad, type ArrayRead, type Expr } from '../../core/language/ast.ts';
import { type AffineEnv, formulaOf } from '../../core/language/affine.ts';
import { andAll, not, orAll } from '../../core/presburger/formula.ts';
import type { Formula } from '../../core/presburger/types.ts';
import { children } from '../../core/language/walk.ts';

export interface LoadGuard {
  /** Where the load's value is used (an over-approximation when not exact). */
  readonly guard: Formula;
  /** Whether every select condition on the path was affine (the guard is exactly where it is used). */
  readonly exact: boolean;
}

/** The guard of each `load` read of `e` (lets inlined), keyed by its array read node. */
export function loadGuards(e: Expr, env: AffineEnv): Map<ArrayRead, LoadGuard> {
  const out = new Map<ArrayRead, LoadGuard>();
  const walk = (x: Expr, path: readonly Formula[], exact: boolean): void => {
    if (isLoad(x)) {
      // A node met on two paths (a shared subtree) is used where either path uses it.
      const seen = out.get(x.args[0]);
      const guard = andAll(path);
      out.set(x.args[0], seen === undefined ? { guard, exact } : { guard: orAll([seen.guard, guard]), exact: exact && seen.exact });
      return; // its indices are affine: no reads in them
    }
    if (x.kind === 'select') {
      walk(x.cond, path, exact);
      const c = x.cond.ty?.kind === 'cond' ? formulaOf(x.cond, env) : null;
      walk(x.then, c === null ? path : [...path, c], exact && c !== null);
      walk(x.else, c === null ? path : [...path, not(c)], exact && c !== null);
      return;
    }
    for (const y of children(x)) walk(y, path, exact);
  };
  walk(e, [], true);
  return out;
}
