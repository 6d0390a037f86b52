// Solver budgets of the real-compiler fuzzers (`sched fuzz --compiler halide|mlir`) where they
// differ from the verifier's own. Measured on the 2-core machine (SCHED_Z3_TRACE=1, seed 7,
// 2026-11-29): the feasibility queries that prune a heap read's alternatives were decided within
// 25,248 resource units each (run alone in their push/pop scope), while the undecided ones spent
// their whole 2000 ms budget to stay undecided: a scope with a quantified Presburger fact used
// 6 M units of Debian's z3, 2 GB and 146 s alone, then 1.6 M units of the WASM build's second
// opinion in 32–105 s; 96% of the solver's wall-clock time (713 of 742 s) went to such queries
// and to value queries that ended undecided. An undecided feasibility query only keeps the
// alternative, so 100 ms (300,000 units of z3, twelve times the largest decided) changes no
// verdict the measured seeds reach. The per-query budget is NOT lowered: 1000 ms (a fifth) kept
// seed 7's verdicts but turned case 0 of seed 11 from valid into unknown (docs/campaigns.md).

/** Budget of each feasibility query that prunes a heap read's alternatives (VerifyOptions.pruneMs; 2000 elsewhere). */
export const FUZZ_PRUNE_MS = 100;

/**
 * Budget of one case's verification by `sched fuzz --compiler mlir` (its `--verify-budget-ms`):
 * solver work in Z3 resource units, as ms of solver budget (proofs/fuzz/mlir.ts, workerVerifier).
 */
export const MLIR_VERIFY_BUDGET_MS = 60_000;

/**
 * The runaway guard of a case's verification: the CPU time of the worker and its Z3 processes,
 * this many times the budget of solver work. Not a boundary a normal case comes near (a query
 * its resource limit stops uses at most about its budget in CPU at the calibrated rates, a
 * seventh of them on the slowest quantified queries measured): it stops the queries z3 4.8.12
 * does not stop at their limit, which are charged their budget in work but cost up to
 * CPU_FACTOR (20) times it in CPU before their own safety net ends them (docs/campaigns.md).
 */
export const CPU_GUARD_FACTOR = 4;

/** …and never less than this (ms of CPU): a small budget of work is no reason to stop a case's own computation sooner. */
export const CPU_GUARD_FLOOR_MS = 60_000;
