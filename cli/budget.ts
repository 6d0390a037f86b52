// The solver budget options every command that asks a solver shares (docs/commands.md, "Solver
// budgets"): `--budget B`, deterministic (Z3's resource limits, smt/limits.ts: the same verdict on
// any machine at any load), and `--timeout-ms T`, the same budget as wall-clock time, for those who
// want it (machine-dependent: near the limit, verdicts vary with the load).

import { setSolverLimits } from '../smt/limits.ts';
import { intOption, type OptionSpec, type ParsedArgs, UsageError } from './args.ts';

export function budgetOptions(dflt: number, what = 'per-query solver budget'): OptionSpec[] {
  return [
    { name: 'budget', value: true, metavar: 'B', help: `${what} in deterministic units: Z3 resource limits of about B ms of the reference machine, the same verdict on any machine at any load (default ${dflt})` },
    { name: 'timeout-ms', value: true, metavar: 'T', help: `${what} as wall-clock time instead (machine-dependent: near the limit a verdict depends on the machine and its load)` },
  ];
}

/**
 * The budget in milliseconds (of the reference machine under resource limits, of the wall clock
 * under `--timeout-ms`), after setting how it is enforced for this process. Without either option,
 * SCHED_SOLVER_LIMIT decides (`rlimit` unless it says `time`).
 */
export function budgetOption(args: ParsedArgs, dflt: number): number {
  const b = args.values.has('budget');
  const t = args.values.has('timeout-ms');
  if (b && t) throw new UsageError('--budget and --timeout-ms are two ways to give one budget: give one');
  if (t) {
    setSolverLimits('time');
    return intOption(args, 'timeout-ms', dflt, 1);
  }
  if (b) setSolverLimits('rlimit');
  return intOption(args, 'budget', dflt, 1);
}
