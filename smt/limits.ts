// How a query's budget is enforced (SCHED_SOLVER_LIMIT; the commands' `--budget` and
// `--timeout-ms`, docs/commands.md "Solver budgets").
//
// `rlimit` (the default): Z3's resource limit, a count of its own steps. The same script with the
// same Z3 build gets the same answer on any host at any load, which is what makes a verdict, a
// test, a certificate bundle's claims and a campaign split across processes or machines the same
// on an idle or a loaded machine, fast or slow. The budget is given in milliseconds of the
// reference machine and turned into a count by a rate per build, measured on the 2-core machine
// (bench/RESULTS.md, Performance: "Deterministic solver budgets"). A query that its limit does not stop
// (z3 4.8.12 misses it on some nonlinear queries) is stopped by a safety net that the load does
// not move either: the CPU time of its Z3 process past CPU_FACTOR times its budget (smt/z3.ts);
// the wall clock only at WALL_FACTOR times. Units per millisecond vary a lot from query to query: a
// quantified value obligation of fuzz case 664 (seed 1) counted 114 units per ms of CPU on the
// WASM build, a seventh of its rate; under a load of 3 on 2 cores it reached the wall-clock net
// (then ten times its budget) in one run, and its answer in the other.
// `time` (`--timeout-ms`): Z3's wall-clock `:timeout`. Near the limit an answer then depends on
// the machine's load: a fuzz case decided within its budget in one run was `unknown` in a shard
// running beside another (docs/campaigns.md), and the test suite failed at load 5–7 (issue 32).

export type SolverLimits = 'time' | 'rlimit';
export type Build = 'native' | 'wasm';

/**
 * Resource units per millisecond of budget. Measured on the 2-core machine (2026-11-27) over the
 * queries of five corpus files (ieee, casts, verifier_incompleteness, harris, unsharp) that took
 * 40 ms or more, each alone with `(get-info :all-statistics)`: the decided ones counted 1,100–3,900
 * units per ms with Debian's z3 4.8.12 and 760–970 with z3-solver's WASM build; those that ran into
 * a 20 s limit, 1,000–2,200 and 500–850. The rates chosen sit in the upper part of the decided
 * ones: a query decided within its time budget is decided within its resource limit, and a hopeless
 * one runs at most a few times its budget before it answers `unknown`.
 */
export const RLIMIT_PER_MS: Readonly<Record<Build, number>> = { native: 3000, wasm: 800 };

/**
 * cvc5's resource units per millisecond of budget (`sched recheck --solver cvc5`). cvc5 1.0.3
 * does not report the units a query used, so the rate was measured as the least `--rlimit` that
 * answers (bisection) over the CPU time of the answer without a limit, on the 514 certificates of
 * four corpus files (ch5-matmul, ch7-reductions, soundness/ieee, soundness/casts; 2026-11-28):
 * the 8 that took 40 ms or more counted 50–302 units per ms (median 218). Like RLIMIT_PER_MS, the
 * rate is in the upper part, so that a certificate answered within its time budget is answered
 * within its resource limit.
 */
export const CVC5_RLIMIT_PER_MS = 300;

/** The cvc5 resource limit (`--rlimit`) standing for a budget of `timeoutMs`. */
export function cvc5RlimitOf(timeoutMs: number): number {
  return Math.max(1, Math.round(timeoutMs * CVC5_RLIMIT_PER_MS));
}

/**
 * Under a resource limit, the safety net of a query: this many times its budget in CPU time of
 * its Z3 process… Far beyond the limit: a query that the limit stops reaches it first on any host
 * (the slowest rates measured: z3 4.8.12 816 units per ms of CPU on an IEEE value obligation of
 * corpus/soundness/ieee.sched, a quarter of its rate; the WASM build 114), so that the net only
 * decides the queries z3 4.8.12 does not stop at its limit. Their count is reported (netStops).
 */
export const CPU_FACTOR = 20;

/**
 * …and this many times its budget of wall-clock time (Z3's own `:timeout`), a backstop. Far beyond
 * the CPU net even on a loaded machine: at load 18–20 on 2 cores, a query gets a tenth of a core,
 * and a net of 60 times the budget fired before the CPU net of 20 times (the WASM build on a
 * nonlinear query, test/smt-limits.test.ts).
 */
export const WALL_FACTOR = 300;

/** How much CPU time a query's Z3 process may use under a resource limit before it is stopped. */
export function cpuNetMs(timeoutMs: number): number {
  return timeoutMs * CPU_FACTOR;
}

let limits: SolverLimits = parseLimits(process.env.SCHED_SOLVER_LIMIT) ?? 'rlimit';

export function parseLimits(v: string | undefined): SolverLimits | null {
  return v === 'time' || v === 'rlimit' ? v : null;
}

export function solverLimits(): SolverLimits {
  return limits;
}

/** For this process (thread); a child process or worker thread is given SCHED_SOLVER_LIMIT. */
export function setSolverLimits(l: SolverLimits): void {
  limits = l;
}

/** The limits a fresh process starts with (SCHED_SOLVER_LIMIT, else rlimit). */
export function resetSolverLimits(): void {
  limits = parseLimits(process.env.SCHED_SOLVER_LIMIT) ?? 'rlimit';
}

/** The resource limit standing for a budget of `timeoutMs` on a build. */
export function rlimitOf(timeoutMs: number, build: Build): number {
  return Math.max(1, Math.round(timeoutMs * RLIMIT_PER_MS[build]));
}

/** How long the wall clock lets a query with this budget run. */
export function wallMs(timeoutMs: number): number {
  return limits === 'rlimit' ? timeoutMs * WALL_FACTOR : timeoutMs;
}

/** The options that set a query's budget, for the SMT-LIB script. */
export function limitOptions(timeoutMs: number, build: Build): string {
  if (limits === 'time') return `(set-option :timeout ${timeoutMs})`;
  return `(set-option :timeout ${wallMs(timeoutMs)})\n(set-option :rlimit ${rlimitOf(timeoutMs, build)})`;
}

const REASON_MARK = 'sched-reason-unknown';

/**
 * What to append to a script under a resource limit: why its last `check-sat` was unknown, after
 * a marker, so that an exhausted limit is told from the solver giving up (the wall clock cannot
 * tell them apart any more), and how many resource units the whole script used (`:rlimit`, which
 * starts from zero in each fresh context or after `(reset)`). Both are taken out of the output.
 */
export function limitSuffix(): string {
  return limits === 'rlimit' ? `\n(echo "${REASON_MARK}")\n(get-info :reason-unknown)\n(get-info :rlimit)` : '';
}

/**
 * The script's own output; whether the resource limit ran out (see limitSuffix): z3 4.8.12 says
 * "max. resource limit exceeded", z3-solver's newer build "canceled" (its own `:timeout` says
 * "timeout"; an interruption by the host's timer is a timed-out reply, not read here); and the
 * resource units the script used, or null when the output does not say.
 */
export function splitLimitInfo(output: string): { output: string; limitReached: boolean; interrupted: boolean; units: number | null } {
  const k = output.lastIndexOf(REASON_MARK);
  if (k < 0) return { output, limitReached: false, interrupted: false, units: null };
  const tail = output.slice(k + REASON_MARK.length);
  const m = /\(:rlimit\s+(\d+)\)/.exec(tail);
  const limitReached = /resource limit|canceled/.test(tail);
  // Stopped by either limit, the resource limit or the wall clock (its safety net).
  const interrupted = limitReached || /reason-unknown\s+"?timeout/.test(tail);
  return { output: output.slice(0, k).replace(/\r?\n$/, ''), limitReached, interrupted, units: m ? Number(m[1]) : null };
}

/**
 * Solver work in milliseconds of budget: resource units over the build's rate. A function of the
 * script and the Z3 build only (never of the load), so that a sum of it over a verification's
 * queries is a budget that every run of the same case spends alike (the fuzzer's per-case budget).
 */
export function unitsToWorkMs(units: number, build: Build): number {
  return units / RLIMIT_PER_MS[build];
}
