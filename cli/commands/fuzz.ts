// `sched fuzz`: differential fuzzing of a scheduling compiler. Random algorithms and legal
// schedules are compiled (by the reference compiler, optionally with an injected bug, or by an
// external command) and cross-checked by the verifier, big-step runs and small-step exploration;
// disagreements are written as shrunk, replayable bundles (proofs/fuzz/).

import { appendFileSync } from 'node:fs';
import { BUG_NAMES, BUGS, isBugName } from '../../compilers/reference/bugs.ts';
import { type Compiler, externalCompiler, referenceCompiler } from '../../proofs/fuzz/compilers.ts';
import { HALIDE_COMPILER, halideCompiler } from '../../proofs/fuzz/halide.ts';
import { CPU_GUARD_FACTOR, FUZZ_PRUNE_MS, MLIR_VERIFY_BUDGET_MS } from '../../proofs/fuzz/budgets.ts';
import { HalideError } from '../../compilers/halide/run.ts';
import { type CaseRecord, fuzz, type FuzzSummary, replayBundle, SHRINK_CANDIDATES } from '../../proofs/fuzz/harness.ts';
import type { Profile } from '../../proofs/fuzz/gen.ts';
import { DEFAULT_ORACLES } from '../../proofs/fuzz/oracles.ts';
import { intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_OK, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';
import { mergeLogs, type MergedSummary, type RunInfo } from '../../proofs/fuzz/logstats.ts';
import { parseLimits, setSolverLimits, solverLimits } from '../../smt/limits.ts';
import { budgetOption, budgetOptions } from '../budget.ts';
import { solverIdentity } from '../../smt/identity.ts';
import { fuzzMlir, isMlirLog, mergeMlir } from './fuzz-mlir.ts';

function progressLine(r: CaseRecord, s: FuzzSummary, total: number): string {
  const rate = s.iterations > 0 ? `${(s.ms / 1000 / s.iterations).toFixed(2)} s/case` : '';
  return `  case ${s.iterations}/${total}: ${s.ok} ok, ${s.bugsFound} bugs, ${s.disagreements} disagreements, ${s.unknowns} unknown, ${s.rejected} rejected — last ${r.outcome} (${r.ms} ms), ${rate}`;
}

/** The lines of a summary that do not depend on how the run was split (nor on times). */
function summaryText(s: Omit<MergedSummary, 'firstDetection' | 'indices' | 'notOk'> & { firstDetection: { case: number; oracles: readonly string[] } | null }): string {
  return (
    `  compiler ${s.compiler}, profile ${s.profile}, seed ${s.seed}${s.inject ? `, injected bug ${s.inject}` : ''}\n` +
    `  ${s.ok} ok, ${s.bugsFound} bugs found, ${s.disagreements} disagreements, ${s.unknowns} unknown verdicts, ${s.rejected} rejected by the compiler, ${s.redraws} illegal draws redrawn\n` +
    `  verdicts: ${s.verdicts.valid} valid, ${s.verdicts.invalid} invalid, ${s.verdicts.unknown} unknown${s.verifierCrashes || s.verifierBudget ? ` (${s.verifierCrashes} verifier crashes, ${s.verifierBudget} over the time budget)` : ''}\n` +
    (s.native.ran + s.native.notCompared > 0 ? `  jit oracle: compared on ${s.native.ran} cases, agreed with big-step on ${s.native.agreed}${s.native.notCompared ? `; not compared on ${s.native.notCompared} (our big-step run stopped on an error)` : ''}\n` : '') +
    (s.firstDetection ? `  first detection: case ${s.firstDetection.case}, by ${s.firstDetection.oracles.join(', ')}\n` : '') +
    (s.repros.length ? `  bundles: ${s.repros.join(', ')}\n` : '')
  );
}

/** `--compiler`: `halide` is real Halide 14 (proofs/fuzz/halide.ts), anything else a command. */
function compilerNamed(cmd: string): Compiler {
  if (cmd !== HALIDE_COMPILER) return externalCompiler(cmd);
  try {
    return halideCompiler();
  } catch (e) {
    if (e instanceof HalideError) throw new UsageError(`--compiler halide: ${e.message}`);
    throw e;
  }
}

/** `--shard K/N`. */
export function shardOption(v: string | undefined): { k: number; n: number } | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const k = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || k < 1 || k > n) throw new UsageError(`--shard needs K/N with 1 <= K <= N, got '${v}'`);
  return { k, n };
}

export const fuzzCommand: Command = {
  name: 'fuzz',
  summary: 'Differential fuzzing of a scheduling compiler: verifier vs. big-step runs vs. small-step exploration.',
  usage: 'sched fuzz [--iterations K] [--seed S] [--start I] [--shard K/N] [--compiler CMD] [--inject BUG] [--profile smoke|full|halide] [--budget B | --timeout-ms T] [--log FILE] [--json] | --merge LOG… | --replay DIR | --list-bugs',
  options: [
    { name: 'iterations', value: true, metavar: 'K', help: 'number of cases (default 100)' },
    { name: 'seed', value: true, metavar: 'S', help: 'seed of the whole run (default 0); case i is reproducible from (S, i)' },
    { name: 'start', value: true, metavar: 'I', help: 'index of the first case (default 0): split one long run across processes' },
    { name: 'shard', value: true, metavar: 'K/N', help: 'run only shard K of N (1 ≤ K ≤ N): the cases i with i mod N = K - 1; the --log files of the N shards merge (--merge) into the summary of the whole run' },
    { name: 'merge', value: false, help: 'merge the --log files given (the shards of one run) into its summary, as the run unsplit would print it' },
    { name: 'compiler', value: true, metavar: 'CMD', help: 'the compiler under test: `halide` (real Halide 14 through its Python bindings, plus the jit oracle), `mlir` (MLIR 16\'s mlir-opt on random affine functions and pass pipelines, with mlir-cpu-runner as an oracle; docs/mlir.md), or an external command: `sh -c CMD`, JSON request on stdin, .sched on stdout (exit 2: unsupported)' },
    { name: 'inject', value: true, metavar: 'BUG', help: 'inject a known bug into the reference compiler (see --list-bugs)' },
    { name: 'profile', value: true, metavar: 'P', help: 'smoke (1-D, small), full (the default), or halide (every type, casts, Euclidean division, several updates; the default with --compiler halide)' },
    ...budgetOptions(DEFAULT_ORACLES.timeoutMs, "per-query solver budget of the verifier"),
    { name: 'limits', value: true, metavar: 'L', help: 'how the budget is enforced (the older spelling; --budget and --timeout-ms say it too): rlimit (default: as a count of Z3 steps, so that a query\'s answer does not depend on the load or the host; --verify-budget-ms then counts solver work in those steps) or time (wall clock); with --limits, --timeout-ms T is the budget enforced that way' },
    { name: 'runs', value: true, metavar: 'R', help: `random parameter sets for big-step runs (default ${DEFAULT_ORACLES.runs})` },
    { name: 'max-param', value: true, metavar: 'P', help: `parameters are drawn from [0, P] (default ${DEFAULT_ORACLES.maxParam})` },
    { name: 'explore-states', value: true, metavar: 'K', help: `state budget of the small-step exploration (default ${DEFAULT_ORACLES.exploreStates})` },
    { name: 'no-verify', value: false, help: 'skip the verifier (concrete oracles only)' },
    { name: 'verify-budget-ms', value: true, metavar: 'T', help: `budget of one verification, in a worker process (default 180000): under --limits rlimit, the solver work of its queries in Z3 steps (as ms of solver budget, the same in every run of the case) and, apart, the CPU time of the worker itself (on Linux); wall-clock time under --limits time. With --compiler mlir the default is ${MLIR_VERIFY_BUDGET_MS}, and the CPU guard counts the worker's solvers too, at ${CPU_GUARD_FACTOR} times the budget (docs/campaigns.md)` },
    { name: 'repro', value: true, metavar: 'DIR', help: 'where to write bundles (default repro/)' },
    { name: 'no-shrink', value: false, help: 'write bundles without shrinking them first' },
    { name: 'shrink-ms', value: true, metavar: 'T', help: `wall-clock safety net of shrinking one case (default 1200000); a shrink stops after ${SHRINK_CANDIDATES} candidates, so that the bundle does not depend on the machine` },
    { name: 'stop-on-first', value: false, help: 'stop at the first bug or disagreement' },
    { name: 'log', value: true, metavar: 'FILE', help: 'append one JSON line per case (index, seed, outcome, verdict, oracles, ms) for long runs' },
    { name: 'replay', value: true, metavar: 'DIR', help: 're-run the case of a bundle written by an earlier run' },
    { name: 'list-bugs', value: false, help: 'list the injectable bugs' },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    if (args.flags.has('merge')) {
      if (args.positional.length === 0) throw new UsageError('--merge needs the --log files of the shards');
      if (isMlirLog(args.positional)) return mergeMlir(args);
      let m: MergedSummary;
      try {
        m = mergeLogs(args.positional);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      if (json) process.stdout.write(toJson(m) + '\n');
      else {
        process.stdout.write(`${m.iterations} cases (indices ${m.indices}) from ${args.positional.length} log${args.positional.length === 1 ? '' : 's'}, ${(m.ms / 1000).toFixed(1)} s of cases (${(m.msPerCase / 1000).toFixed(2)} s/case)\n`);
        process.stdout.write(summaryText(m));
        for (const c of m.notOk) process.stdout.write(`  case ${c.index} (seed ${c.seed}): ${c.outcome}; verify ${c.verdict ?? 'skipped'}${c.verifyClass ? ` (${c.verifyClass})` : ''}${c.disagreements.length ? `; disagreements ${c.disagreements.join(', ')}` : ''}${c.detectedBy.length ? `; detected by ${c.detectedBy.join(', ')}` : ''}\n`);
      }
      return m.disagreements > 0 || m.bugsFound > 0 ? EXIT_FOUND : EXIT_OK;
    }
    if (args.positional.length > 0) throw new UsageError(`fuzz takes no files (got '${args.positional[0]}'; --merge takes log files)`);
    if (single(args, 'compiler') === 'mlir') return fuzzMlir(args, shardOption(single(args, 'shard')));
    if (args.flags.has('list-bugs')) {
      if (json) process.stdout.write(toJson({ bugs: BUGS }) + '\n');
      else for (const b of BUG_NAMES) process.stdout.write(`${b.padEnd(24)} ${BUGS[b]}\n`);
      return EXIT_OK;
    }
    const inject = single(args, 'inject');
    if (inject !== undefined && !isBugName(inject)) throw new UsageError(`unknown bug '${inject}' (see --list-bugs)`);
    const cmd = single(args, 'compiler');
    if (cmd !== undefined && inject !== undefined) throw new UsageError('--inject applies to the reference compiler, not to --compiler');
    // Before a bundle's replay too: it verifies the case again.
    const given = single(args, 'limits');
    if (given !== undefined && parseLimits(given) === null) throw new UsageError(`--limits must be rlimit or time, got '${given}'`);
    let timeoutMs: number;
    if (given !== undefined) {
      // The older spelling: --limits says how, --timeout-ms (or --budget) how much.
      if (args.values.has('budget') && args.values.has('timeout-ms')) throw new UsageError('--budget and --timeout-ms are two ways to give one budget: give one');
      setSolverLimits(parseLimits(given)!);
      timeoutMs = intOption(args, args.values.has('budget') ? 'budget' : 'timeout-ms', DEFAULT_ORACLES.timeoutMs, 1);
    } else timeoutMs = budgetOption(args, DEFAULT_ORACLES.timeoutMs);
    const limits = solverLimits();
    const replayDir = single(args, 'replay');
    if (replayDir !== undefined) {
      const { meta, evaluation } = await replayBundle(replayDir, (m) => (m.compiler.startsWith('reference') ? referenceCompiler(m.inject ?? undefined) : compilerNamed(m.compiler)));
      const r = evaluation.report;
      if (json) process.stdout.write(toJson({ bundle: replayDir, meta, outcome: evaluation.outcome, compileError: evaluation.compileError, report: r }) + '\n');
      else {
        process.stdout.write(`${replayDir}: ${evaluation.outcome}${evaluation.compileError ? ` — ${evaluation.compileError}` : ''}\n`);
        if (r) {
          process.stdout.write(`  verify: ${r.verify ? `${r.verify.verdict}${r.verify.class ? ` (${r.verify.class})` : ''}${r.verify.reason ? ` — ${r.verify.reason}` : ''}` : 'skipped'}\n`);
          for (const x of r.runs) process.stdout.write(`  run ${JSON.stringify(x.params)}: ${x.finding ? `${x.finding.class} — ${x.finding.detail}` : 'match'}\n`);
          if (r.explore) process.stdout.write(`  explore ${JSON.stringify(r.explore.params)}: ${r.explore.outcome}, ${r.explore.states} states; big-step ${r.explore.bigStep}${r.explore.agrees === false ? ', FINAL MEMORIES DIFFER' : ''}\n`);
          const n = r.native;
          if (n) process.stdout.write(`  jit ${JSON.stringify(n.params)}: big-step ${n.bigstep}; ${!n.compared ? 'not compared' : n.error ? `the native run failed: ${n.error.split('\n')[0]}` : n.beyondTolerance > 0 ? `DIFFERS on ${n.beyondTolerance}/${n.cells} output cells` : `agrees on ${n.cells} output cells${n.differences ? ` (within the tolerance on ${n.differences})` : ''}`}\n`);
          process.stdout.write(`  detected by: ${r.detectedBy.join(', ') || 'nothing'}; disagreements: ${r.disagreements.join(', ') || 'none'}\n`);
        }
      }
      return evaluation.outcome === 'ok' || evaluation.outcome === 'unknown' || evaluation.outcome === 'rejected' ? EXIT_OK : EXIT_FOUND;
    }
    // With real Halide, the halide profile (proofs/fuzz/gen-halide.ts) by default.
    const profile = (single(args, 'profile') ?? (cmd === HALIDE_COMPILER ? 'halide' : 'full')) as Profile;
    if (profile !== 'smoke' && profile !== 'full' && profile !== 'halide') throw new UsageError(`--profile must be smoke, full or halide, got '${profile}'`);
    const iterations = intOption(args, 'iterations', 100, 1);
    const seed = intOption(args, 'seed', 0, 0);
    const compiler = cmd !== undefined ? compilerNamed(cmd) : referenceCompiler(inject);
    const progress = !json && process.stderr.isTTY === true;
    const log = single(args, 'log');
    const shard = shardOption(single(args, 'shard'));
    // A shard of another budget, or answered by other Z3 builds, is another run: merging refuses it.
    const run: RunInfo = { seed, profile, compiler: compiler.name, inject: inject ?? null, limits, timeoutMs, solver: solverIdentity() };
    const summary = await fuzz({
      iterations,
      start: intOption(args, 'start', 0, 0),
      seed,
      shard,
      profile,
      compiler,
      injected: inject ?? null,
      oracles: {
        timeoutMs,
        runs: intOption(args, 'runs', DEFAULT_ORACLES.runs, 0),
        maxParam: intOption(args, 'max-param', DEFAULT_ORACLES.maxParam, 1),
        exploreStates: intOption(args, 'explore-states', DEFAULT_ORACLES.exploreStates, 1),
        noVerify: args.flags.has('no-verify'),
        verifyBudgetMs: intOption(args, 'verify-budget-ms', 180_000, 1),
        ...(cmd === HALIDE_COMPILER ? { pruneMs: FUZZ_PRUNE_MS } : {}),
      },
      reproDir: single(args, 'repro') ?? 'repro',
      shrink: !args.flags.has('no-shrink'),
      shrinkBudgetMs: intOption(args, 'shrink-ms', 1_200_000, 0),
      stopOnFirst: args.flags.has('stop-on-first'),
      onCase: (r, s) => {
        if (log !== undefined) appendFileSync(log, JSON.stringify({ ...r, run, totals: { iterations: s.iterations, ok: s.ok, bugs: s.bugsFound, disagreements: s.disagreements, unknown: s.unknowns, ms: s.ms } }) + '\n');
        if (progress) process.stderr.write(`\r\x1b[K${progressLine(r, s, iterations)}`);
        if (!json && (r.outcome === 'disagreement' || r.outcome === 'bug' || r.outcome === 'compile-failure')) {
          if (progress) process.stderr.write('\r\x1b[K');
          const what = r.outcome === 'disagreement' ? `DISAGREEMENT (${r.disagreements.join(', ')})` : r.outcome === 'compile-failure' ? 'compiler failure' : `bug found by ${r.detectedBy.join(', ')}`;
          process.stdout.write(`case ${r.index} (seed ${r.seed}): ${what}${r.bundle ? ` — ${r.bundle}` : ''}\n`);
        }
      },
    });
    if (progress) process.stderr.write('\r\x1b[K');
    if (json) process.stdout.write(toJson(summary) + '\n');
    else {
      const s = summary;
      process.stdout.write(`${s.iterations} cases in ${(s.ms / 1000).toFixed(1)} s (${(s.msPerCase / 1000).toFixed(2)} s/case)${shard ? `, shard ${shard.k}/${shard.n}` : ''}\n` + summaryText(s));
    }
    return summary.disagreements > 0 || summary.bugsFound > 0 ? EXIT_FOUND : EXIT_OK;
  },
};
