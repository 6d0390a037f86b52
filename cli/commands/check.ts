// `sched check FILE…`: parse, type-check and check the well-formedness of every spec.

import type { Diagnostic } from '../../core/diagnostics.ts';
import { formatDiagnostic, SchedInputError } from '../../core/diagnostics.ts';
import { checkProgramFull } from '../../core/check.ts';
import { expandFiles, type ParsedArgs } from '../args.ts';
import { type Command, EXIT_INPUT, EXIT_OK, JSON_OPTION } from '../command.ts';
import { loadProgram, toJson } from '../io.ts';

interface FileResult {
  file: string;
  ok: boolean;
  specs: number;
  impls: number;
  diagnostics: Diagnostic[];
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'Parse, type-check and check spec well-formedness (disjoint domains, well-foundedness).',
  usage: 'sched check FILE|DIR… [--json]',
  options: [JSON_OPTION],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const files = expandFiles(args.positional);
    const results: FileResult[] = [];
    for (const file of files) {
      try {
        const prog = loadProgram(file);
        await checkProgramFull(prog);
        results.push({ file, ok: true, specs: prog.specs.length, impls: prog.impls.length, diagnostics: [] });
      } catch (e) {
        if (!(e instanceof SchedInputError)) throw e;
        results.push({ file, ok: false, specs: 0, impls: 0, diagnostics: [...e.diagnostics] });
      }
    }
    const ok = results.every((r) => r.ok);
    if (json) process.stdout.write(toJson({ ok, files: results }) + '\n');
    else {
      for (const r of results) {
        if (r.ok) process.stdout.write(`${r.file}: ok (${r.specs} spec${r.specs === 1 ? '' : 's'}, ${r.impls} impl${r.impls === 1 ? '' : 's'})\n`);
        else for (const d of r.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
      }
      if (files.length === 0) process.stderr.write('sched check: no .sched files given\n');
    }
    return ok && files.length > 0 ? EXIT_OK : EXIT_INPUT;
  },
};
