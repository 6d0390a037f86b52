// `sched check FILE…`: parse, type-check and check the well-formedness of every spec, then the
// interface of every implementation against its spec (proofs/verifier/interface.ts: a violation is an
// error of the implementation, exit 1, not of the file's syntax, exit 3).

import type { Diagnostic } from '../../core/language/diagnostics.ts';
import { formatDiagnostic, SchedInputError } from '../../core/language/diagnostics.ts';
import { expandFiles, type ParsedArgs, single } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_INPUT, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { checkInterface } from '../../proofs/verifier/interface.ts';
import { displayName, loadChecked } from '../../core/language/load.ts';
import { SPEC_OPTION, toJson } from '../io.ts';

interface InterfaceProblem {
  impl: string;
  rule: string;
  line: number;
  col: number;
  message: string;
}

interface FileResult {
  file: string;
  ok: boolean;
  specs: number;
  impls: number;
  diagnostics: Diagnostic[];
  /** Implementations whose declarations break the interface rules. */
  interface: InterfaceProblem[];
  /** Interface conditions the solver could not decide. */
  undecided: string[];
}

export const checkCommand: Command = {
  name: 'check',
  summary: "Parse, type-check, check spec well-formedness (disjoint domains, well-foundedness) and each impl's interface against its spec.",
  usage: 'sched check FILE|DIR|-… [--spec FILE] [--json]',
  options: [SPEC_OPTION, JSON_OPTION],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const files = expandFiles(args.positional);
    const results: FileResult[] = [];
    for (const file of files) {
      try {
        const checked = await loadChecked(file, single(args, 'spec'));
        const prog = checked.program;
        const problems: InterfaceProblem[] = [];
        const undecided: string[] = [];
        for (const ci of checked.impls) {
          const r = await checkInterface(ci);
          for (const v of r.violations) problems.push({ impl: ci.impl.name, rule: v.rule, line: v.line, col: v.col, message: v.message });
          for (const u of r.undecided) undecided.push(`impl ${ci.impl.name}: ${u}`);
        }
        results.push({ file: displayName(file), ok: problems.length === 0 && undecided.length === 0, specs: prog.specs.length, impls: prog.impls.length, diagnostics: [], interface: problems, undecided });
      } catch (e) {
        if (!(e instanceof SchedInputError)) throw e;
        results.push({ file: displayName(file), ok: false, specs: 0, impls: 0, diagnostics: [...e.diagnostics], interface: [], undecided: [] });
      }
    }
    const ok = results.every((r) => r.ok);
    if (json) process.stdout.write(toJson({ ok, files: results }) + '\n');
    else {
      for (const r of results) {
        for (const d of r.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
        for (const p of r.interface) process.stderr.write(`${r.file}:${p.line}:${p.col}: interface error: impl ${p.impl}: ${p.message} (${p.rule})\n`);
        for (const u of r.undecided) process.stderr.write(`${r.file}: interface not decided: ${u}\n`);
        if (r.diagnostics.length === 0) {
          const what = `${r.specs} spec${r.specs === 1 ? '' : 's'}, ${r.impls} impl${r.impls === 1 ? '' : 's'}`;
          process.stdout.write(`${r.file}: ${r.interface.length > 0 ? `${r.interface.length} interface error(s)` : r.undecided.length > 0 ? 'interface not decided' : 'ok'} (${what})\n`);
        }
      }
      if (files.length === 0) process.stderr.write('sched check: no .sched files given\n');
    }
    if (files.length === 0 || results.some((r) => r.diagnostics.length > 0)) return EXIT_INPUT;
    if (results.some((r) => r.interface.length > 0)) return EXIT_FOUND;
    if (results.some((r) => r.undecided.length > 0)) return EXIT_UNKNOWN;
    return EXIT_OK;
  },
};
