// Solver budgets of the real-compiler fuzzers (`sched fuzz --compiler halide|mlir`): no larger
// than their verdicts need. Measured on the 2-core machine (SCHED_Z3_TRACE=1, seed 7, 2026-11-29):
// of 397 queries, every one decided used at most 93,108 resource units of Debian's z3 alone (31 ms
// of budget at RLIMIT_PER_MS), a batch scope at most 79,885, a feasibility scope (run alone in
// its push/pop scope) at most 25,248; the WASM build decided none that z3 had left open. 96% of
// the solver's wall-clock time (713 of 742 s) went to five queries that ended undecided anyway,
// each at 30–220 units per ms instead of the 3,000 the budgets assume: a feasibility scope with a
// quantified Presburger fact (2 GB, 146 s alone for its 6 M units), its WASM second opinion (32–
// 105 s for 1.6 M units), a quantified value query in the cheap encoding (62 s), whose verdicts
// the exact encoding or keeping the heap alternative decided. The budgets below keep more than
// ten times the largest decided query's units; bench/fuzz-speed.ts compares the verdict lists.
// Resource limits make them deterministic: the same script gets the same answer on any machine.

/** Per-query budget (ms of solver budget) of `--compiler halide` (`sched fuzz`'s own default is 5000). */
export const HALIDE_FUZZ_BUDGET_MS = 1000;

/** Per-query budget of `--compiler mlir` (was 10,000). */
export const MLIR_FUZZ_BUDGET_MS = 1000;

/** Budget of each feasibility query that prunes a heap read's alternatives (VerifyOptions.pruneMs; 2000 elsewhere). */
export const FUZZ_PRUNE_MS = 100;
