// Reading programs: a file (or standard input, `-`) parsed, type-checked and checked for
// well-formedness, with the specs of another file first (`--spec`). A file that cannot be read is
// an input error with a location, like any other.

import { readFileSync } from 'node:fs';
import type { Program } from './ast.ts';
import { diag, SchedInputError } from './diagnostics.ts';
import { parseProgram } from './parser.ts';
import { type CheckedProgram, typecheckProgram } from './typecheck.ts';
import { checkProgramFull } from './check.ts';

/** The text of a file, or of standard input for `-` (a compiler's output, piped). */
export function readSource(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const what = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : code;
    throw new SchedInputError([diag(file, { line: 1, col: 1 }, 'io', 'cannot read file', 'a readable .sched file', what)]);
  }
}

/** The name `-` (standard input) goes by in diagnostics. */
export function displayName(file: string): string {
  return file === '-' ? '<stdin>' : file;
}

/**
 * A file's program; with `specFile`, the specs of that file come first, so that an implementation
 * printed by a compiler can be checked against a spec kept elsewhere (`--spec SPEC`). The spec
 * file's implementations are left out; a spec defined in both files is an error (defined twice).
 */
export function loadProgram(file: string, specFile?: string): Program {
  const prog = parseProgram(displayName(file), readSource(file));
  if (specFile === undefined) return prog;
  if (specFile === '-' && file === '-') throw new SchedInputError([diag('<stdin>', { line: 1, col: 1 }, 'io', 'standard input can be read once', 'the spec or the implementation from a file', "'-' twice")]);
  const specs = parseProgram(displayName(specFile), readSource(specFile));
  // Errors in the spec file are reported there (the combined program names the impl file).
  typecheckProgram({ ...specs, impls: [] });
  return { ...prog, specs: [...specs.specs, ...prog.specs] };
}

/**
 * Parse, type-check and check well-formedness, with `--spec`: the spec file on its own first (its
 * errors are located there). Also returns the file's text (hashed into certificate manifests).
 */
export async function loadChecked(file: string, specFile?: string): Promise<CheckedProgram & { readonly text: string }> {
  if (specFile === '-' && file === '-') throw new SchedInputError([diag('<stdin>', { line: 1, col: 1 }, 'io', 'standard input can be read once', 'the spec or the implementation from a file', "'-' twice")]);
  const text = readSource(file);
  const prog = parseProgram(displayName(file), text);
  if (specFile === undefined) return { ...(await checkProgramFull(prog)), text };
  const specs = parseProgram(displayName(specFile), readSource(specFile));
  await checkProgramFull({ ...specs, impls: [] });
  return { ...(await checkProgramFull({ ...prog, specs: [...specs.specs, ...prog.specs] })), text };
}
