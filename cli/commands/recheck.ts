// `sched recheck DIR [--solver wasm|z3|cvc5|all]`: re-run a certificate bundle's files with the
// named solvers and compare with the recorded status (docs/commands.md).

import { type AnswerCache, available, bundleVerdict, findBundles, type RecheckRow, recheckBundle, type SolverName } from '../../proofs/certificates/recheck.ts';
import { type ParsedArgs, single, UsageError } from '../args.ts';
import { budgetOption, budgetOptions } from '../budget.ts';
import { budgetRecord } from '../../smt/identity.ts';
import { cvc5RlimitOf, rlimitOf, solverLimits } from '../../smt/limits.ts';
import { type Command, EXIT_FOUND, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';
import { JOBS_OPTION, jobsOption } from './verify.ts';
import { setSolverJobs } from '../../smt/z3.ts';

export const recheckCommand: Command = {
  name: 'recheck',
  summary: 'Re-check a certificate bundle (from verify --certs) with in-process Z3 and/or the z3 and cvc5 command lines.',
  usage: 'sched recheck DIR… [--solver wasm|z3|cvc5|all] [--budget B | --timeout-ms T] [--jobs N] [--json]',
  options: [
    { name: 'solver', value: true, metavar: 'S', help: 'wasm (in-process Z3, default), z3, cvc5, or all' },
    ...budgetOptions(60_000, 'per-file solver budget'),
    { name: 'only-valid', value: false, help: "re-check only the bundles of 'valid' verdicts" },
    { ...JOBS_OPTION, help: 're-check N bundles at once (default SCHED_JOBS or the cores); rows are printed in the order of a sequential run' },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const want = single(args, 'solver') ?? 'wasm';
    if (!['wasm', 'z3', 'cvc5', 'all'].includes(want)) throw new UsageError(`--solver must be wasm, z3, cvc5 or all, got '${want}'`);
    const timeoutMs = budgetOption(args, 60_000);
    if (args.positional.length === 0) throw new UsageError('no bundle directory given');
    const asked: SolverName[] = want === 'all' ? ['wasm', 'z3', 'cvc5'] : [want as SolverName];
    const solvers: SolverName[] = [];
    const notes: string[] = [];
    for (const s of asked) {
      if (await available(s)) solvers.push(s);
      else notes.push(`${s}: not installed (apt-get install -y ${s}); skipped`);
    }
    if (solvers.length === 0) {
      notes.push('no command-line solver available: using the in-process Z3 (wasm)');
      solvers.push('wasm');
    }
    if (!json) for (const n of notes) process.stderr.write(`sched recheck: ${n}\n`);
    let bundles = args.positional.flatMap(findBundles);
    if (args.flags.has('only-valid')) bundles = bundles.filter((b) => bundleVerdict(b) === 'valid');
    if (bundles.length === 0) throw new UsageError(`no bundle (a directory with manifest.json) under ${args.positional.join(', ')}`);
    const jobs = jobsOption(args);
    setSolverJobs(jobs);
    // Up to `jobs` bundles at once (each file is an independent query), printed in order as soon
    // as every bundle before them is done.
    const pending = bundles.map(() => {
      let settle!: (p: Promise<RecheckRow[]>) => void;
      const started = new Promise<Promise<RecheckRow[]>>((k) => (settle = k));
      return { started, settle };
    });
    const answers: AnswerCache = new Map();
    void (async () => {
      const running = new Set<Promise<unknown>>();
      for (const [i, b] of bundles.entries()) {
        if (running.size >= jobs) await Promise.race(running);
        const p = recheckBundle(b, solvers, timeoutMs, undefined, answers);
        const done = p.then(() => undefined, () => undefined).then(() => void running.delete(done));
        running.add(done);
        pending[i]!.settle(p);
      }
    })();
    const rows: RecheckRow[] = [];
    for (const p of pending) {
      for (const r of await (await p.started)) {
        rows.push(r);
        if (json) continue;
        const mark = r.status === 'agree' ? 'ok  ' : r.status === 'unconfirmed' ? '??  ' : 'FAIL';
        process.stdout.write(`${mark} ${r.bundle} ${r.id.padEnd(8)} ${r.solver.padEnd(5)} expected ${r.expected.padEnd(7)} got ${r.got}${r.note ? ` (${r.note})` : ''} ${r.ms ? `${r.ms.toFixed(0)} ms` : ''}\n`);
      }
    }
    const fail = rows.filter((r) => r.status === 'fail').length;
    const unconfirmed = rows.filter((r) => r.status === 'unconfirmed').length;
    const agree = rows.filter((r) => r.status === 'agree' && r.solver !== '-').length;
    if (json) process.stdout.write(toJson({ bundles, solvers, notes, agree, unconfirmed, fail, rows, budget: { ...budgetRecord(timeoutMs), ...(solverLimits() === 'rlimit' ? { commandLines: { z3: rlimitOf(timeoutMs, 'native'), cvc5: cvc5RlimitOf(timeoutMs) } } : {}) } }) + '\n');
    else process.stdout.write(`\n${bundles.length} bundle(s), solvers ${solvers.join(', ')}: ${agree} agree, ${unconfirmed} unconfirmed (unknown), ${fail} fail\n`);
    return fail > 0 ? EXIT_FOUND : unconfirmed > 0 ? EXIT_UNKNOWN : EXIT_OK;
  },
};
