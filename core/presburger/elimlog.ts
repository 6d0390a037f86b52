// The elimination log: every quantifier eliminated by the layer (exactly, or by Z3's qe tactic)
// is recorded as (original, result, method) so that the certificate layer can export it as an
// SMT-LIB equivalence check `(assert (not (= original result)))`, expected `unsat`.

import type { Formula } from './types.ts';

export type ElimMethod =
  /** Closed-form single-variable elimination (equalities, bounds, congruences), in TypeScript. */
  | 'exact'
  /** Z3's `qe` tactic, result checked equivalent by a second Z3 call before use. */
  | 'z3-qe'
  /** A lexmax / lexmin closed form: `original` is the implicit definition
   *  φ(d, r) ∧ ¬∃r'. φ(d, r') ∧ r <lex r' (resp. >lex), `result` the piece-wise closed form. */
  | 'lexopt';

export interface ElimEntry {
  readonly original: Formula;
  readonly result: Formula;
  readonly method: ElimMethod;
}

let recording = true;
/** Entries whose `original` is built only when the log is read (it can be costly to build). */
const entries: { original: Formula | (() => Formula); result: Formula; method: ElimMethod }[] = [];
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

/** Record an elimination whose original formula is built on demand; `id` de-duplicates. */
export function logEliminationLazily(original: () => Formula, result: Formula, method: ElimMethod, id: string): void {
  if (!recording) return;
  const k = `${id}=>${result.key}`;
  if (seen.has(k) || entries.length >= LIMIT) return;
  seen.add(k);
  entries.push({ original, result, method });
}

/** The eliminations recorded so far (oldest first, each distinct pair once). */
export function eliminationLog(): readonly ElimEntry[] {
  for (const e of entries) if (typeof e.original === 'function') e.original = e.original();
  return entries as ElimEntry[];
}

export function clearEliminationLog(): void {
  entries.length = 0;
  seen.clear();
}
