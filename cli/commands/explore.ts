// `sched explore FILE --param … [--seed S] [--max-states K]`: every small-step interleaving
// (thesis Fig. 4.6), with state hashing and partial-order reduction. Outcomes: deterministic (one
// final memory, compared with the big-step result), nondeterministic (two schedules reaching
// different memories are printed), stuck (a reachable state where no rule applies), or limit.

import { formatRunError, type RunError } from '../../semantics/errors.ts';
import { explore, type ExploreResult, namedMemoryKey, smallSetup } from '../../semantics/explore.ts';
import { runImpl } from '../../semantics/run.ts';
import type { ParsedArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { emitJson, exitFor, IMPL_OPTION, interfaceError, jsonOption, loadImpls, ModelCache, numberOption, PARAM_OPTION, paramsOption, type RefusedReport, SEED_OPTION, seedJson, seedOption } from './run.ts';
import { SPEC_OPTION } from '../io.ts';

interface ExploreReport extends Omit<ExploreResult, 'witnesses'> {
  readonly impl: string;
  readonly spec: string;
  readonly params: Record<string, number | string>;
  readonly seed: number | string;
  readonly ms: number;
  readonly witnesses: { readonly arrays: ExploreResult['witnesses'][number]['arrays']; readonly schedule: ExploreResult['witnesses'][number]['schedule'] }[];
  /** The big-step run on the same inputs: its outcome, and whether the final memory agrees. */
  readonly bigStep: { readonly outcome: 'ok' | 'error'; readonly error: RunError | null; readonly agrees: boolean | null };
}

function showArrays(a: Record<string, unknown[]>): string {
  return Object.entries(a)
    .map(([k, v]) => `${k} = [${v.map((x) => (x === null ? '⊥' : String(x))).join(', ')}]`)
    .join('; ');
}

export const exploreCommand: Command = {
  name: 'explore',
  summary: 'Exhaustive small-step exploration (Fig. 4.6) with partial-order reduction: deterministic, nondeterministic, stuck or limit.',
  usage: 'sched explore FILE --param NAME=VALUE… [--impl NAME] [--seed S] [--max-states K] [--no-por] [--json]',
  options: [
    PARAM_OPTION,
    SPEC_OPTION,
    IMPL_OPTION,
    SEED_OPTION,
    { name: 'max-states', value: true, metavar: 'K', help: 'stop after K distinct states (exit 2 unless two final memories were found; default 1000000)' },
    { name: 'no-por', value: false, help: 'explore every interleaving (no partial-order reduction)' },
    { name: 'schedules', value: true, metavar: 'K', help: 'print at most K steps of each witness schedule (default 60; the JSON has them all)' },
    jsonOption('explore'),
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const params = paramsOption(args);
    const seed = seedOption(args);
    const maxStates = numberOption(args, 'max-states', 1);
    const show = numberOption(args, 'schedules', 0) ?? 60;
    const loaded = loadImpls(args, 'explore');
    const models = new ModelCache();
    const reports: (ExploreReport | RefusedReport)[] = [];
    const outcomes: ('ok' | 'found' | 'limit')[] = [];
    const progress = !json && process.stderr.isTTY === true;
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
        const setup = smallSetup(ci, params, model, { mutable: false, file: l.file });
        const t1 = performance.now();
        const res = explore(setup.prog, setup.space, setup.init, setup.globals, {
          maxStates,
          por: !args.flags.has('no-por'),
          progressEvery: 5000,
          onProgress: progress
            ? (states, finals) => {
                const s = (performance.now() - t1) / 1000;
                process.stderr.write(`\r  ${ci.impl.name}: ${states} states, ${finals} final memories, ${Math.round(states / Math.max(s, 1e-3))} states/s `);
              }
            : undefined,
        });
        if (progress) process.stderr.write('\r\x1b[K');
        // The big-step on the same inputs (Thm 4.3.7: a deterministic exploration must end in μ ▷ δμ).
        const big = runImpl(ci, params, { seed, model, file: l.file });
        let agrees: boolean | null = null;
        if (big.result.ok && res.witnesses.length === 1 && res.outcome === 'deterministic') {
          agrees = namedMemoryKey(big.memory, setup.globals) === res.witnesses[0]!.key;
        }
        const report: ExploreReport = {
          impl: ci.impl.name,
          spec: ci.spec.spec.name,
          params: Object.fromEntries([...params].map(([k, v]) => [k, seedJson(v)])),
          seed: seedJson(seed),
          outcome: res.outcome,
          states: res.states,
          transitions: res.transitions,
          finals: res.finals,
          stuckStates: res.stuckStates,
          stuck: res.stuck,
          por: res.por,
          limit: res.limit,
          ms: Math.round((performance.now() - t0) * 1000) / 1000,
          witnesses: res.witnesses.map((w) => ({ arrays: w.arrays, schedule: w.schedule })),
          bigStep: { outcome: big.result.ok ? 'ok' : 'error', error: big.result.ok ? null : big.result.error, agrees },
        };
        reports.push(report);
        outcomes.push(res.outcome === 'deterministic' ? (agrees === false ? 'found' : 'ok') : res.outcome === 'limit' ? 'limit' : 'found');
        if (!json) {
          const ps = Object.entries(report.params).map(([k, v]) => `${k} = ${v}`);
          const head = `${l.file}: impl ${ci.impl.name} (${[...ps, `seed ${report.seed}`].join(', ')})`;
          const stats = `${res.states} states, ${res.transitions} transitions${res.por ? ', partial-order reduction' : ''}, ${report.ms} ms`;
          process.stdout.write(`${head}: ${res.outcome} — ${res.finals} final memor${res.finals === 1 ? 'y' : 'ies'}${res.stuckStates ? `, ${res.stuckStates} stuck state(s)` : ''}; ${stats}\n`);
          if (res.limit) process.stdout.write(`  limit: ${res.limit}\n`);
          res.witnesses.forEach((w, i) => {
            process.stdout.write(`  final memory ${i + 1}: ${showArrays(w.arrays)}\n`);
            if (res.outcome === 'nondeterministic') {
              process.stdout.write(`    schedule (${w.schedule.length} steps):\n`);
              w.schedule.slice(0, show).forEach((s, j) => process.stdout.write(`    ${String(j + 1).padStart(5)}  ${s.text}\n`));
              if (w.schedule.length > show) process.stdout.write(`      … ${w.schedule.length - show} more steps (--schedules)\n`);
            }
          });
          if (res.stuck) {
            process.stdout.write(`  stuck state after ${res.stuck.schedule.length} steps; no rule applies:\n`);
            for (const b of res.stuck.blocked) process.stdout.write(`    ${formatRunError(l.file, b)}\n`);
            res.stuck.schedule.slice(-show).forEach((s) => process.stdout.write(`           ${s.text}\n`));
          }
          if (big.result.ok) process.stdout.write(`  big-step: a derivation exists${agrees === null ? '' : agrees ? '; its final memory is the one explored' : '; ITS FINAL MEMORY DIFFERS (a bug: Thm 4.3.7)'}\n`);
          else process.stdout.write(`  big-step: no derivation — ${formatRunError(l.file, big.result.error)}\n`);
        }
      }
    }
    if (json) emitJson(reports);
    return exitFor(outcomes);
  },
};


