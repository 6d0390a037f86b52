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
 * Measured on seed 7, cases 0–39 (docs/campaigns.md): 25 valid cases used at most 901 ms of work,
 * and case 23 26,430 ms (two value queries Debian's z3 left undecided at its 15 M units, which
 * the WASM build then proved); a value query left undecided by both builds is charged 15 s.
 */
export const MLIR_VERIFY_BUDGET_MS = 45_000;

/**
 * The runaway guard of a case's verification: the CPU time of the worker and its Z3 processes,
 * this many times the budget of solver work (and at least CPU_GUARD_FLOOR_MS). It is what bounds
 * the cost of a case whose queries z3 4.8.12 does not stop at their resource limit: each is
 * charged its budget in work but runs to its own safety net, CPU_FACTOR (20) times its budget in
 * CPU (seed 7, case 1: one value query took 256 s of wall-clock time for 15 s of work, and the
 * case 3,027 s in all). The WASM build counts units slowly on quantified queries (a seventh of its
 * rate, smt/limits.ts): case 23 of seed 7 needed 120 s of CPU for its 26 s of work, which a guard
 * of twice the budget took from it (valid before, unknown (budget) at 30 s and 2 times).
 */
export const CPU_GUARD_FACTOR = 4;

/** …and never less than this (ms of CPU): a small budget of work is no reason to stop a case's own computation (symbolic evaluation, Presburger work) sooner. */
export const CPU_GUARD_FLOOR_MS = 60_000;
