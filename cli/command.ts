// What every `sched` subcommand provides to the dispatcher in cli/main.ts.

import type { OptionSpec, ParsedArgs } from './args.ts';

export const EXIT_OK = 0;
export const EXIT_FOUND = 1; // invalid / mismatch / runtime error found
export const EXIT_UNKNOWN = 2; // unknown, or a resource limit reached
export const EXIT_INPUT = 3; // unreadable file, parse/type/well-formedness error, bad option
export const EXIT_INTERNAL = 4; // a bug in sched itself

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly options: readonly OptionSpec[];
  /** Returns the exit code; writes its own output (one JSON document with --json). */
  run(args: ParsedArgs): Promise<number>;
}

export const JSON_OPTION: OptionSpec = { name: 'json', value: false, help: 'print one JSON document on stdout, nothing else' };
