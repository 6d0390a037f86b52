// What every `sched` subcommand provides to the dispatcher (cli/dispatch.ts), and the exit codes
// they share. `sched help` and docs/commands.md are generated from these definitions (cli/help.ts).

import type { OptionSpec, ParsedArgs } from './args.ts';
import type { DocDiagnostic } from './io.ts';

export const EXIT_OK = 0;
export const EXIT_FOUND = 1; // invalid / mismatch / runtime error found
export const EXIT_UNKNOWN = 2; // unknown, or a resource limit reached
export const EXIT_INPUT = 3; // unreadable file, parse/type/well-formedness error, empty input, bad option
export const EXIT_INTERNAL = 4; // a bug in sched itself

/** Every exit code and what it means: printed by `sched help`, listed in docs/commands.md. */
export const EXIT_CODES: readonly (readonly [number, string])[] = [
  [EXIT_OK, 'success: valid, match, deterministic, every verdict as expected'],
  [EXIT_FOUND, 'something wrong found: invalid, mismatch, a run error, an interface error, a wrong verdict'],
  [EXIT_UNKNOWN, 'unknown, or a limit reached'],
  [EXIT_INPUT, 'input error: a file that cannot be read or holds nothing to do, a parse, type or well-formedness error, a bad option (file:line:col diagnostics)'],
  [EXIT_INTERNAL, 'internal error: a bug in sched (please report it)'],
];

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly options: readonly OptionSpec[];
  /** Returns the exit code; writes its own output (one JSON document with --json). */
  run(args: ParsedArgs): Promise<number>;
}

export const JSON_OPTION: OptionSpec = { name: 'json', value: false, help: 'print one JSON document on stdout, nothing else (an error too: docs/commands.md, JSON output)' };

/**
 * A command that cannot do its job for a reason it can locate (a missing package, an input a
 * compiler rejects, …): the dispatcher prints it as every other input error (exit 3), or as an
 * internal error (exit 4) when sched itself is at fault.
 */
export class CommandError extends Error {
  constructor(
    readonly diagnostics: readonly DocDiagnostic[],
    readonly exit: typeof EXIT_INPUT | typeof EXIT_INTERNAL = EXIT_INPUT,
  ) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'CommandError';
  }
}
