// Why an execution has no semantics (big-step: no derivation exists; small-step: a stuck state),
// or why it was cut short. Every failure names the rule whose premise fails, the location, the
// iterations involved and the source position, so that it can be shown to a user as is.

import type { Pos } from '../core/language/ast.ts';

/**
 * `interface`: the impl's declarations break the spec's interface (checked before running, see
 * proofs/verifier/interface.ts); `annotation`: with `run --check-annotations`, a value written differs
 * from its prophetic annotation (the outputs may still be right).
 */
export type RunErrorKind = 'race' | 'out-of-bounds' | 'uninitialized' | 'limit' | 'interface' | 'annotation';

export interface RaceIterations {
  /** The `par` loop whose side condition fails, its variable and position. */
  readonly loop: string;
  readonly line: number;
  readonly col: number;
  /** The two iterations (values of the loop variable), the earlier first. */
  readonly first: number;
  readonly second: number;
}

export interface RunError {
  readonly kind: RunErrorKind;
  /** `read-write`, `write-write` (δμ_i, δμ_j incompatible), `write-set` (ω variant), or null. */
  readonly detail: string | null;
  /** The rule whose premise or side condition fails (U-PARLOOP, U-ASSIGN, …). */
  readonly rule: string;
  /** The location involved, e.g. `c[1, 2]`, or null (limits). */
  readonly location: string | null;
  /** Position of the access or command that fails (1-based; 0 when none). */
  readonly line: number;
  readonly col: number;
  /** For races: the two iterations and the loop. */
  readonly iterations: RaceIterations | null;
  /** For races: the position of the other access. */
  readonly other: { readonly line: number; readonly col: number } | null;
  /** Values of the variables in scope at the failing access (affine variables only). */
  readonly env: Readonly<Record<string, string>>;
  readonly message: string;
}

/** Thrown inside an evaluator to abandon the derivation; caught at its entry point. */
export class Stuck extends Error {
  constructor(readonly error: RunError) {
    super(error.message);
    this.name = 'Stuck';
  }
}

export function runError(
  kind: RunErrorKind,
  rule: string,
  pos: Pos | null,
  location: string | null,
  message: string,
  extra: { detail?: string; iterations?: RaceIterations; other?: Pos; env?: Record<string, string> } = {},
): RunError {
  return {
    kind,
    detail: extra.detail ?? null,
    rule,
    location,
    line: pos?.line ?? 0,
    col: pos?.col ?? 0,
    iterations: extra.iterations ?? null,
    other: extra.other ? { line: extra.other.line, col: extra.other.col } : null,
    env: extra.env ?? {},
    message,
  };
}

/** `file:line:col: kind: message` (no position for limits). */
export function formatRunError(file: string, e: RunError): string {
  const where = e.line > 0 ? `${file}:${e.line}:${e.col}` : file;
  const env = Object.entries(e.env);
  const ctx = env.length > 0 ? ` [${env.map(([k, v]) => `${k} = ${v}`).join(', ')}]` : '';
  return `${where}: ${e.kind}: ${e.message} (rule ${e.rule})${ctx}`;
}
