// Which Z3 builds answer, with their versions: a resource limit (smt/limits.ts) gives the same
// answers only with the same builds, so a fuzz campaign's shards record it and merging refuses
// shards answered by other ones. Node only (the browser build of smt/z3.ts does not import it).

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rlimitOf, type SolverLimits, solverLimits } from './limits.ts';
import { solverName } from './z3.ts';

let cached: string | null = null;

/** E.g. "z3 4.8.12, z3-wasm (z3-solver 5.2.0)". */
export function solverIdentity(): string {
  if (cached !== null) return cached;
  const names = solverName().split(', ');
  const out = names.map((n) => {
    if (n === 'z3') {
      const v = /version (\S+)/.exec(spawnSync('z3', ['-version'], { encoding: 'utf8' }).stdout ?? '');
      return `z3 ${v ? v[1] : 'unknown version'}`;
    }
    const pkg = createRequire(import.meta.url)('z3-solver/package.json') as { version: string };
    return `z3-wasm (z3-solver ${pkg.version})`;
  });
  cached = out.join(', ');
  return cached;
}

/** A budget as JSON output, fuzz logs and certificate manifests record it: what answers mean. */
export interface BudgetRecord {
  /** How it is enforced: `rlimit` (Z3's resource limits: deterministic) or `time` (wall clock). */
  readonly limits: SolverLimits;
  /** The per-query budget in ms (of the reference machine under resource limits). */
  readonly ms: number;
  /** Under resource limits, a query's limit on each build: in the default mode the command line
   *  is asked first with half the budget, the WASM build with all of it. */
  readonly rlimit: Readonly<Record<string, number>> | null;
  /** The Z3 builds that answer, with their versions. */
  readonly solvers: string;
}

export function budgetRecord(ms: number): BudgetRecord {
  const solvers = solverIdentity();
  const builds = solvers.split(', ');
  const both = builds.length > 1;
  const rlimit = solverLimits() !== 'rlimit' ? null : Object.fromEntries(builds.map((b) => (b.startsWith('z3-wasm') ? [b, rlimitOf(ms, 'wasm')] : [b, rlimitOf(both ? Math.max(1, Math.round(ms / 2)) : ms, 'native')])));
  return { limits: solverLimits(), ms, rlimit, solvers };
}
