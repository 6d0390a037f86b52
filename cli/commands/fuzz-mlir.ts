// `sched fuzz --compiler mlir` (proofs/fuzz/mlir.ts, docs/mlir.md): the options it shares with
// `sched fuzz`, its progress and summary lines, and `--merge` of its shard logs.

import { readFileSync } from 'node:fs';
import { mlirMissing } from '../../compilers/mlir/tools.ts';
import { MLIR_VERIFY_BUDGET_MS } from '../../proofs/fuzz/budgets.ts';
import { appendCase, type MlirCase, mlirFuzz, type MlirFuzzSummary, mergeMlirLogs } from '../../proofs/fuzz/mlir.ts';
import { intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { EXIT_FOUND, EXIT_INPUT, EXIT_OK } from '../command.ts';
import { toJson } from '../io.ts';

function summaryText(s: MlirFuzzSummary): string {
  const o = s.byOutcome;
  const list = (r: Readonly<Record<string, number>>): string => Object.entries(r).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} ${k}`).join(', ');
  return `  ${o.ok} ok, ${o.bug} MLIR bugs, ${o.disagreement} disagreements, ${o.unknown} unknown, ${o.rejected} rejected\n` +
    `  verdicts: ${list(s.verdicts) || 'none'}\n  mlir-cpu-runner: ${list(s.runner)}\n` +
    (s.bundles.length ? `  bundles: ${s.bundles.join(', ')}\n` : '');
}

export async function fuzzMlir(args: ParsedArgs, shard: { k: number; n: number } | undefined): Promise<number> {
  const json = args.flags.has('json');
  const missing = mlirMissing();
  if (missing !== null) {
    process.stderr.write(`sched fuzz --compiler mlir: ${missing}\n`);
    return EXIT_INPUT;
  }
  for (const o of ['inject', 'profile', 'replay', 'runs', 'explore-states', 'max-param']) if (args.values.has(o)) throw new UsageError(`--${o} does not apply to --compiler mlir`);
  const log = single(args, 'log');
  const iterations = intOption(args, 'iterations', 100, 1);
  const progress = !json && process.stderr.isTTY === true;
  const summary = await mlirFuzz({
    seed: intOption(args, 'seed', 0, 0),
    start: intOption(args, 'start', 0, 0),
    iterations,
    ...(shard ? { shard } : {}),
    timeoutMs: intOption(args, 'timeout-ms', 10_000, 1),
    verify: !args.flags.has('no-verify'),
    verifyBudgetMs: intOption(args, 'verify-budget-ms', MLIR_VERIFY_BUDGET_MS, 1),
    repro: single(args, 'repro') ?? 'repro',
    shrink: !args.flags.has('no-shrink'),
    onCase: (c) => {
      if (log !== undefined) appendCase(log, c);
      if (progress) process.stderr.write(`\r\x1b[K  case ${c.index}: ${c.outcome} (${c.verdict ?? c.runner}, ${c.ms} ms)`);
      if (!json && (c.outcome === 'bug' || c.outcome === 'disagreement')) {
        if (progress) process.stderr.write('\r\x1b[K');
        process.stdout.write(`case ${c.index} (seed ${c.seed}, ${c.pipeline}): ${c.outcome === 'bug' ? 'MLIR bug' : `DISAGREEMENT ${c.disagreement}`} — runner ${c.runner}, verdict ${c.verdict ?? 'not run'}${c.bundle ? ` — ${c.bundle}` : ''}\n`);
      }
    },
  });
  if (progress) process.stderr.write('\r\x1b[K');
  if (json) process.stdout.write(toJson(summary) + '\n');
  else process.stdout.write(`${summary.iterations} cases in ${(summary.ms / 1000).toFixed(1)} s${shard ? `, shard ${shard.k}/${shard.n}` : ''}\n${summaryText(summary)}`);
  return summary.byOutcome.disagreement > 0 || summary.byOutcome.bug > 0 ? EXIT_FOUND : EXIT_OK;
}

function readLogs(files: readonly string[]): MlirCase[] {
  return files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as MlirCase));
}

/** Are these the logs of an MLIR run (a case line has the runner's outcome)? */
export function isMlirLog(files: readonly string[]): boolean {
  try {
    const first = readFileSync(files[0]!, 'utf8').split('\n').find((l) => l.trim() !== '');
    return first !== undefined && 'runner' in (JSON.parse(first) as object);
  } catch {
    return false;
  }
}

export function mergeMlir(args: ParsedArgs): number {
  let s: MlirFuzzSummary;
  try {
    s = mergeMlirLogs(readLogs(args.positional));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (args.flags.has('json')) process.stdout.write(toJson(s) + '\n');
  else process.stdout.write(`${s.iterations} cases from ${args.positional.length} log(s), ${(s.ms / 1000).toFixed(1)} s of cases\n${summaryText(s)}`);
  return s.byOutcome.disagreement > 0 || s.byOutcome.bug > 0 ? EXIT_FOUND : EXIT_OK;
}
