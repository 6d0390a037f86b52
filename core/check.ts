// Everything `sched check` establishes about a file: parse errors are raised by the parser;
// this adds types and scopes (typecheck.ts) and spec well-formedness (wellformed.ts).

import type { Program } from './ast.ts';
import { SchedInputError } from './diagnostics.ts';
import { type CheckedProgram, typecheckProgram } from './typecheck.ts';
import { checkSpecWellFormed } from './wellformed.ts';


/** Type-check `prog` and check every spec's well-formedness; throws SchedInputError. */
export async function checkProgramFull(prog: Program): Promise<CheckedProgram> {
  const checked = typecheckProgram(prog);
  const diags = [];
  for (const cs of checked.specs.values()) diags.push(...(await checkSpecWellFormed(cs, prog.file)));
  if (diags.length > 0) throw new SchedInputError(diags);
  return checked;
}

