// What commands share about their input and output: the `--spec` option, JSON printing, and the
// one document every command prints for an error under --json (docs/commands.md, JSON output).

import { type Diagnostic, formatDiagnostic } from '../core/language/diagnostics.ts';

/** `--spec FILE`: specs to check implementations against (for every command that reads files). */
export const SPEC_OPTION = { name: 'spec', value: true, metavar: 'FILE', help: "read the specs from FILE too (an implementation printed by a compiler need not contain its spec); FILE or an input may be '-' for standard input" } as const;

/** Print JSON with bigints as numbers when safe, else as strings. */
export function toJson(x: unknown): string {
  return JSON.stringify(
    x,
    (_k, v: unknown) => (typeof v === 'bigint' ? (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v),
    2,
  );
}

/**
 * A located diagnostic of the command line: the language's phases (syntax, type, scope, spec,
 * io), and `usage` (the arguments: file `<command line>`, the column of the argument), `setup` (a
 * missing package), `algorithm`/`schedule`/`unsupported`/`compiler` (what a compiler front end
 * rejects).
 */
export type DocDiagnostic = Omit<Diagnostic, 'phase'> & { readonly phase: Diagnostic['phase'] | 'usage' | 'setup' | 'algorithm' | 'schedule' | 'unsupported' | 'compiler' };

/**
 * The error document: what stdout holds under --json when a command stops on an input error
 * (exit 3) or an internal one (exit 4), and the fields a result document adds when some of its
 * inputs were input errors (verify, check, corpus). Every command prints this one shape.
 */
export interface ErrorDocument {
  readonly error: 'input' | 'internal';
  readonly exit: 3 | 4;
  /** One line a person can read: the first diagnostic, and how many more. */
  readonly message: string;
  /** Every diagnostic, located (input errors have at least one). */
  readonly diagnostics: readonly DocDiagnostic[];
}

export function errorDocument(diagnostics: readonly DocDiagnostic[], exit: 3 | 4 = 3, message?: string): ErrorDocument {
  const first = diagnostics[0];
  const text = message ?? (first === undefined ? 'error' : `${formatDiagnostic(first as Diagnostic)}${diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : ''}`);
  return { error: exit === 3 ? 'input' : 'internal', exit, message: text, diagnostics };
}
