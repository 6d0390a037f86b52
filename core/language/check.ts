// Everything `sched check` establishes about a file: parse errors are raised by the parser;
// this adds types and scopes (typecheck.ts) and spec well-formedness (wellformed.ts).

import type { Program } from './ast.ts';
import { type Diagnostic, SchedInputError } from './diagnostics.ts';
import { parseProgram } from './parser.ts';
import { type CheckedProgram, typecheckProgram } from './typecheck.ts';
import { checkSpecWellFormed, type WellFormedOptions } from './wellformed.ts';

export type CheckOptions = WellFormedOptions;

/** Type-check `prog` and check every spec's well-formedness; throws SchedInputError. */
export async function checkProgramFull(prog: Program, opts: CheckOptions = {}): Promise<CheckedProgram> {
  const checked = typecheckProgram(prog);
  const diags: Diagnostic[] = [];
  for (const cs of checked.specs.values()) diags.push(...(await checkSpecWellFormed(cs, prog.file, opts)));
  if (diags.length > 0) throw new SchedInputError(diags);
  return checked;
}

/**
 * The in-process `sched check` of one file's text: resolves with the checked program, or rejects
 * with a SchedInputError (exit code 3). Anything else it throws is a bug in sched.
 */
export async function checkSource(file: string, text: string, opts: CheckOptions = {}): Promise<CheckedProgram> {
  return checkProgramFull(parseProgram(file, text), opts);
}
