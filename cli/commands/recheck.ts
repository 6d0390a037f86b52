// `sched recheck DIR [--solver wasm|z3|cvc5|all]`: re-run a certificate bundle's files with the
// named solvers and compare with the recorded status (docs/commands.md).

import { available, bundleVerdict, findBundles, type RecheckRow, recheckBundle, type SolverName } from '../../proofs/recheck.ts';
import { intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';

export const recheckCommand: Command = {
  name: 'recheck',
  summary: 'Re-check a certificate bundle (from verify --certs) with in-process Z3 and/or the z3 and cvc5 command lines.',
  usage: 'sched recheck DIR… [--solver wasm|z3|cvc5|all] [--timeout-ms T] [--json]',
  options: [
    { name: 'solver', value: true, metavar: 'S', help: 'wasm (in-process Z3, default), z3, cvc5, or all' },
    { name: 'timeout-ms', value: true, metavar: 'T', help: 'per-file solver budget (default 60000)' },
    { name: 'only-valid', value: false, help: "re-check only the bundles of 'valid' verdicts" },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const want = single(args, 'solver') ?? 'wasm';
    if (!['wasm', 'z3', 'cvc5', 'all'].includes(want)) throw new UsageError(`--solver must be wasm, z3, cvc5 or all, got '${want}'`);
    const timeoutMs = intOption(args, 'timeout-ms', 60_000, 1);
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
    const rows: RecheckRow[] = [];
    for (const b of bundles) {
      rows.push(
        ...(await recheckBundle(b, solvers, timeoutMs, json ? undefined : (r) => {
          const mark = r.status === 'agree' ? 'ok  ' : r.status === 'unconfirmed' ? '??  ' : 'FAIL';
          process.stdout.write(`${mark} ${r.bundle} ${r.id.padEnd(8)} ${r.solver.padEnd(5)} expected ${r.expected.padEnd(7)} got ${r.got}${r.note ? ` (${r.note})` : ''} ${r.ms ? `${r.ms.toFixed(0)} ms` : ''}\n`);
        })),
      );
    }
    const fail = rows.filter((r) => r.status === 'fail').length;
    const unconfirmed = rows.filter((r) => r.status === 'unconfirmed').length;
    const agree = rows.filter((r) => r.status === 'agree' && r.solver !== '-').length;
    if (json) process.stdout.write(toJson({ bundles, solvers, notes, agree, unconfirmed, fail, rows }) + '\n');
    else process.stdout.write(`\n${bundles.length} bundle(s), solvers ${solvers.join(', ')}: ${agree} agree, ${unconfirmed} unconfirmed (unknown), ${fail} fail\n`);
    return fail > 0 ? EXIT_FOUND : unconfirmed > 0 ? EXIT_UNKNOWN : EXIT_OK;
  },
};
