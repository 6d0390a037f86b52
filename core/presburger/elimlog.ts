// The elimination log: every quantifier eliminated by the layer (exactly, or by Z3's qe tactic)
// is recorded as (original, result, method) so that the certificate layer can export it as an
// SMT-LIB equivalence check `(assert (not (= original result)))`, expected `unsat`.

import type { Formula } from './types.ts';

export type ElimMethod =
  /** Closed-form single-variable elimination (equalities, bounds, congruences), in TypeScript. */
  | 'exact'
  /** Z3's `qe` tactic, result checked equivalent by a second Z3 call before use. */
  | 'z3-qe';

export interface ElimEntry {
  readonly original: Formula;
  readonly result: Formula;
  readonly method: ElimMethod;
}

let recording = true;
const entries: ElimEntry[] = [];
const seen = new Set<string>();
const LIMIT = 100_000;

/** Turn recording on or off (on by default); returns the previous setting. */
export function recordEliminations(on: boolean): boolean {
  const prev = recording;
  recording = on;
  return prev;
}

export function logElimination(e: ElimEntry): void {
  if (!recording) return;
  const k = `${e.original.key}=>${e.result.key}`;
  if (seen.has(k) || entries.length >= LIMIT) return;
  seen.add(k);
  entries.push(e);
}

/** The eliminations recorded so far (oldest first, each distinct pair once). */
export function eliminationLog(): readonly ElimEntry[] {
  return entries;
}

export function clearEliminationLog(): void {
  entries.length = 0;
  seen.clear();
}
