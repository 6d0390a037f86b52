// `sched step FILE --param … [--seed S]`: one small-step run (thesis Fig. 4.6) under a seeded
// random interleaving, printing the trace with the rules of every step; the final memory is
// compared with the spec like `run` does.

import type { RunError } from '../../semantics/errors.ts';
import { formatRunError } from '../../semantics/errors.ts';
import { finalMemory, runSmallStep, type ScheduleStep, smallSetup } from '../../semantics/explore.ts';
import { compareOutputs, type Mismatch } from '../../semantics/run.ts';
import { type ParsedArgs, single, UsageError } from '../args.ts';
import type { Command } from '../command.ts';
import { emitJson, exitFor, IMPL_OPTION, interfaceError, jsonOption, loadImpls, ModelCache, numberOption, PARAM_OPTION, paramsOption, type RefusedReport, SEED_OPTION, seedJson, seedOption } from './run.ts';
import { SPEC_OPTION } from '../io.ts';

interface StepReport {
  readonly impl: string;
  readonly spec: string;
  readonly params: Record<string, number | string>;
  readonly seed: number | string;
  readonly scheduler: 'random' | 'leftmost';
  readonly outcome: 'match' | 'mismatch' | 'stuck' | 'limit';
  readonly steps: number;
  readonly trace: ScheduleStep[];
  readonly traceTruncated: boolean;
  readonly stuck: RunError[];
  readonly checked: number;
  readonly mismatchCount: number;
  readonly mismatches: Mismatch[];
  readonly limit: string | null;
  readonly ms: number;
}

export const stepCommand: Command = {
  name: 'step',
  summary: 'One small-step run (Fig. 4.6) under a seeded random interleaving, printing the trace with rule names.',
  usage: 'sched step FILE --param NAME=VALUE… [--impl NAME] [--seed S] [--scheduler random|leftmost] [--json]',
  options: [
    PARAM_OPTION,
    SPEC_OPTION,
    IMPL_OPTION,
    { ...SEED_OPTION, help: 'seed of the input generator and of the scheduler (an integer; default 0)' },
    { name: 'scheduler', value: true, metavar: 'random|leftmost', help: 'random: each step uniformly among the enabled ones (default); leftmost: always the leftmost (the schedule of Thm 4.3.3)' },
    { name: 'max-steps', value: true, metavar: 'K', help: 'give up (exit 2) after K steps (default 1e8)' },
    { name: 'trace-limit', value: true, metavar: 'K', help: 'print (and put in the JSON) only the first K steps (default 1000)' },
    jsonOption('step'),
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const params = paramsOption(args);
    const seed = seedOption(args);
    const sched = single(args, 'scheduler') ?? 'random';
    if (sched !== 'random' && sched !== 'leftmost') throw new UsageError(`--scheduler must be random or leftmost, got '${sched}'`);
    const maxSteps = numberOption(args, 'max-steps', 1);
    const traceLimit = numberOption(args, 'trace-limit', 0) ?? 1000;
    const loaded = loadImpls(args, 'step');
    const models = new ModelCache();
    const reports: (StepReport | RefusedReport)[] = [];
    const outcomes: ('ok' | 'found' | 'limit')[] = [];
    for (const l of loaded) {
      for (const ci of l.impls) {
        const t0 = performance.now();
        const refused = await interfaceError(ci, params);
        if (refused !== null) {
          // The declarations break the spec's interface (proofs/verifier/interface.ts): nothing to compare.
          reports.push({ impl: ci.impl.name, spec: ci.spec.spec.name, params: Object.fromEntries([...params].map(([k, v]) => [k, seedJson(v)])), seed: seedJson(seed), outcome: 'interface', error: refused });
          outcomes.push('found');
          if (!json) process.stdout.write(`${l.file}: impl ${ci.impl.name}: error (interface)\n  ${formatRunError(l.file, refused)}\n`);
          continue;
        }
        const model = models.get(l.file, ci, params, seed);
        const setup = smallSetup(ci, params, model, { mutable: true, file: l.file });
        const run = runSmallStep(setup.prog, setup.space, setup.init, { seed, scheduler: sched, maxSteps, traceLimit });
        const cmp = run.outcome === 'final' ? compareOutputs(ci, model, finalMemory(run.state, setup.globals)) : { checked: 0, mismatchCount: 0, mismatches: [] };
        const outcome: StepReport['outcome'] = run.outcome === 'final' ? (cmp.mismatchCount > 0 ? 'mismatch' : 'match') : run.outcome;
        const report: StepReport = {
          impl: ci.impl.name,
          spec: ci.spec.spec.name,
          params: Object.fromEntries([...params].map(([k, v]) => [k, seedJson(v)])),
          seed: seedJson(seed),
          scheduler: sched,
          outcome,
          steps: run.steps,
          trace: run.trace,
          traceTruncated: run.steps > run.trace.length,
          stuck: run.blocked,
          ...cmp,
          limit: run.limit,
          ms: Math.round((performance.now() - t0) * 1000) / 1000,
        };
        reports.push(report);
        outcomes.push(outcome === 'match' ? 'ok' : outcome === 'limit' ? 'limit' : 'found');
        if (!json) {
          const ps = Object.entries(report.params).map(([k, v]) => `${k} = ${v}`);
          process.stdout.write(`${l.file}: impl ${ci.impl.name} (${[...ps, `seed ${report.seed}`].join(', ')}), ${sched} scheduler\n`);
          run.trace.forEach((s, i) => process.stdout.write(`  ${String(i + 1).padStart(5)}  ${s.text}\n`));
          if (report.traceTruncated) process.stdout.write(`  … ${run.steps - run.trace.length} more steps (--trace-limit)\n`);
          if (outcome === 'stuck') {
            process.stdout.write(`  stuck after ${run.steps} steps: no rule applies, and the command is not skip\n`);
            for (const b of run.blocked) process.stdout.write(`    ${formatRunError(l.file, b)}\n`);
          } else if (outcome === 'limit') process.stdout.write(`  limit: ${run.limit}\n`);
          else if (outcome === 'mismatch') {
            process.stdout.write(`  skip after ${run.steps} steps: mismatch — ${cmp.mismatchCount} of ${cmp.checked} output cells differ from the spec\n`);
            for (const m of cmp.mismatches) process.stdout.write(`    ${m.array}[${m.index.join(', ')}]: expected ${m.expected}, got ${m.actual === null ? '⊥ (never written)' : m.actual}\n`);
          } else process.stdout.write(`  skip after ${run.steps} steps: match — ${cmp.checked} output cells equal the spec\n`);
        }
      }
    }
    if (json) emitJson(reports);
    return exitFor(outcomes);
  },
};
