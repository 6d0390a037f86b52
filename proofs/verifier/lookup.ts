// Reading a symbolic heap at a location, for value obligations: ⟦a[ι]⟧_h (thesis Fig. 5.1) as a
// list of alternatives "when cond, the value is E⟨t1, …, tm⟩", with the hole values *solved*
// (explicit terms of the loop variables) wherever the piece's guard determines them by an
// equality. The solver then sees ground tensor terms at known indices, plus linear conditions,
// instead of skolem constants tied to the location by disjunctions of congruences (which is where
// Z3 spent its time on the Halide kernels). Alternatives that contradict the context are pruned
// by Presburger queries before the value obligation is written.

import type { Formula, Literal, PRel, Term } from '../../core/presburger/types.ts';
import { and, andAll, conjuncts } from '../../core/presburger/formula.ts';
import { lexOptimum } from '../../core/presburger/lexopt.ts';
import { solveUnit, variable } from '../../core/presburger/term.ts';
import { fresh } from '../../core/presburger/names.ts';
import { tupleVars } from '../../core/presburger/tuple.ts';
import { substFormula, substTerm } from '../../core/presburger/subst.ts';
import { hasQuantifier, termVars } from '../../core/presburger/vars.ts';
import { toDnf } from '../../core/presburger/qe.ts';
import { norm } from './heap.ts';

export interface Alternative {
  /** Over the free variables (and the unsolved `skolems`). */
  readonly cond: Formula;
  /** The range space: the interned template key. */
  readonly template: string;
  /** The hole values: solved terms, or unsolved skolem variables. */
  readonly holes: readonly Term[];
  /** Hole variables no equality determined (existential: any witness gives the same value). */
  readonly skolems: readonly string[];
}

const DNF_LIMIT = 32;

/**
 * Solve the hole variables `ys` from the equalities of a formula's top-level conjunction (after
 * simplification, which turns `t ≥ 0 ∧ −t ≥ 0` into `t = 0`); returns the substitution and the
 * remaining condition.
 */
function solveTop(f: Formula, ys: readonly string[]): { cond: Formula; solved: Map<string, Term> } {
  let cur = norm(f);
  const solved = new Map<string, Term>();
  for (let progress = true; progress && cur.kind !== 'false'; ) {
    progress = false;
    for (const y of ys) {
      if (solved.has(y)) continue;
      const lit = conjuncts(cur).find((l): l is Literal => l.kind === 'eq' && solveUnit(l.t, y) !== null);
      if (!lit) continue;
      const t = solveUnit(lit.t, y)!;
      const s = new Map([[y, t]]);
      for (const [z, u] of solved) solved.set(z, substTerm(u, s));
      solved.set(y, t);
      cur = norm(substFormula(cur, s));
      progress = true;
    }
  }
  return { cond: cur, solved };
}

function alternative(cond: Formula, template: string, ys: readonly string[], solved: ReadonlyMap<string, Term>): Alternative {
  return { cond, template, holes: ys.map((y) => solved.get(y) ?? variable(y)), skolems: ys.filter((y) => !solved.has(y)) };
}

/**
 * Hole values that no equality gives (a last writer chosen by a congruence, as in storage
 * folding: `y ≡ r (mod 8)` within a window of 8 rows) are given by the lexicographic maximum of
 * the values the condition allows: the heap is functional, so every allowed value gives the same
 * contents, and the maximum is one of them, in closed form (piece-wise quasi-affine).
 */
function solveByLexmax(a: Alternative): Alternative[] {
  if (a.skolems.length === 0) return [a];
  const pw = lexOptimum(a.skolems, a.cond, true);
  if (pw === null) return [a];
  const out: Alternative[] = [];
  for (const piece of pw) {
    const s = new Map(a.skolems.map((y, k) => [y, piece.values[k]!] as const));
    if (piece.values.some((t) => a.skolems.some((y) => termVars(t).has(y)))) return [a];
    const cond = norm(and(piece.cond, substFormula(a.cond, s)));
    if (cond.kind === 'false') continue;
    out.push({ cond, template: a.template, holes: a.holes.map((h) => substTerm(h, s)), skolems: [] });
  }
  return out;
}

/** The alternatives of reading `array⟨at⟩` in `h`. */
export function readAlternatives(h: PRel, array: string, at: readonly Term[]): Alternative[] {
  const out: Alternative[] = [];
  for (const p of h.pieces) {
    if (p.dom.name !== array) continue;
    const xs = tupleVars(p.dom);
    if (xs.length !== at.length) continue;
    const ys = tupleVars(p.ran).map((y) => fresh(y));
    const sub = new Map<string, Term>([...xs.map((x, k) => [x, at[k]!] as const), ...tupleVars(p.ran).map((y, k) => [y, variable(ys[k]!)] as const)]);
    const top = solveTop(substFormula(p.guard, sub), ys);
    if (top.cond.kind === 'false') continue;
    const rest = ys.filter((y) => !top.solved.has(y));
    const dnf = rest.length === 0 || hasQuantifier(top.cond) ? null : toDnf(top.cond, DNF_LIMIT);
    if (dnf === null) {
      out.push(...solveByLexmax(alternative(top.cond, p.ran.name, ys, top.solved)));
      continue;
    }
    // Holes still unsolved: case by case, each disjunct may determine them.
    for (const conj of dnf) {
      const inner = solveTop(andAll(conj), rest);
      if (inner.cond.kind === 'false') continue;
      const all = new Map(top.solved);
      for (const [y, t] of top.solved) all.set(y, substTerm(t, inner.solved));
      for (const [y, t] of inner.solved) all.set(y, t);
      out.push(...solveByLexmax(alternative(inner.cond, p.ran.name, ys, all)));
    }
  }
  return out;
}

export { substFormula };
