// The wall-clock limits of the test suite: safety nets only, far beyond what any test takes on a
// loaded machine, so that no test's outcome depends on how long it ran (issue 32: at load 5–7 on
// 2 cores the suite took 14 minutes). A test's outcome is decided by what it computes; solver
// budgets are Z3 resource limits (smt/limits.ts), the same at any load. A test that hangs is
// still stopped, after half an hour.
export const SAFETY_NET_MS = 30 * 60_000;
