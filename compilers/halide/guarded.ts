// Verdicts on a translation with guarded stores. Halide 14 lowers an RDom predicate that reads
// memory to `if (c) f(ι) = v`; SCHED's conditions are affine, so the translation writes
// `f[ι] := select(c, v, f[ι])` (translate.ts, guarded()). Same sequential values, more accesses:
// when c fails the cell is still read and written and v still evaluated. A valid verdict covers
// Halide's code (fewer accesses, same values); a race, out-of-bounds or uninitialized read may be
// one of the extra accesses only, so its counterexample is not shown to be Halide's: unknown.

import type { VerifyResult } from '../../proofs/verify.ts';
import { UNCONFIRMED_CLASS } from '../../proofs/verify.ts';

/** The classes an access the translation added can cause. */
const ACCESS_CLASSES = new Set(['race', 'out-of-bounds', 'uninitialized-read']);

export function overApproximated(r: VerifyResult, guardedStores: number): VerifyResult {
  if (guardedStores === 0 || r.verdict !== 'invalid' || r.class === null || !ACCESS_CLASSES.has(r.class)) return r;
  return {
    ...r,
    verdict: 'unknown',
    class: UNCONFIRMED_CLASS,
    reason: `${r.reason ?? r.class} — a ${r.class} of the translation, not shown of Halide's code: ${guardedStores} store(s) under a data-dependent if (an RDom predicate) are translated as select(c, v, cell), which also reads and writes the cell and evaluates v when c fails (the replay command runs the translation)`,
  };
}
