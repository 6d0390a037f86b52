// Reduction heaps (thesis §7.5), in the form this verifier keeps them: the ordinary symbolic heap
// of chapter 5 plus, for every array a and reduction tensor T accumulated into it, a ghost array
// `__acc_a_T` indexed by (cell ℓ, reduction point c, position κ) — the thesis's accumulation
// relation R (the "ghost table result'" of §7.3.1). A ghost location holds `true` while the
// contribution of position κ to T(c) is in a[ℓ] (live), `false` once it was moved out by a
// transfer or the cell was overwritten by `:=`.
//
// The cell a[ℓ] itself holds a *marker*: the context T(□…) under the name `acc:…` (the cell holds
// T's initial value at c combined with the live contributions), `part:…` (the operator's neutral
// element combined with them: a partial accumulator), or `moved:…` (a partial accumulator whose
// contributions a transfer moved elsewhere). In SMT a marker is its context T(c); the rules
// (proofs/verifier/symbolic.ts, sAccumulate and the completion checks) make sure a marker is only ever
// read as a value where it equals T(c): when its live positions are exactly T's domain at c.

import type { Expr, ReductionDef, Spec, ValueType } from '../../core/language/ast.ts';
import { tValue } from '../../core/language/ast.ts';
import type { Formula, PRel, Term } from '../../core/presburger/types.ts';
import { exists, iff, orAll } from '../../core/presburger/formula.ts';
import { variable } from '../../core/presburger/term.ts';
import { tupleVars } from '../../core/presburger/tuple.ts';
import { substFormula } from '../../core/presburger/subst.ts';
import { domainCondition, operatorOf } from '../../core/language/reductions.ts';
import { formulaOf, type AffineEnv } from '../../core/language/affine.ts';

export type MarkerKind = 'acc' | 'part' | 'moved';

/** What the verifier needs of one reduction tensor. */
export interface ReductionInfo {
  readonly def: ReductionDef;
  readonly type: ValueType;
  /** The initial value as the desugared spec holds it (T's init, or the neutral element). */
  readonly init: Expr;
  /** Whether the operator reorders exactly at T's type (core/language/reductions.ts). */
  readonly exact: boolean;
}

export function reductionInfos(spec: Spec): Map<string, ReductionInfo> {
  const out = new Map<string, ReductionInfo>();
  for (const def of spec.reductions ?? []) {
    const decl = spec.tensors.find((t) => t.name === def.tensor)!;
    const base = spec.equations.find((e) => e.tensor === def.acc)!;
    out.set(def.tensor, { def, type: decl.type, init: base.rhs, exact: operatorOf(def.op).exact(decl.type) });
  }
  // A tensor defined by several reduction equations (disjoint domains) is not supported: one
  // reduction per tensor keeps "the reduction T(c)" unambiguous.
  for (const def of spec.reductions ?? []) if ((spec.reductions ?? []).filter((d) => d.tensor === def.tensor).length > 1) out.delete(def.tensor);
  return out;
}

export function ghostName(array: string, tensor: string): string {
  return `__acc_${array}_${tensor}`;
}

export function markerPrefix(k: MarkerKind): string {
  return `${k}:`;
}

/** The typed literal `true`/`false`, the value of a ghost location. */
export function ghostLiteral(live: boolean): Expr {
  return { kind: 'bool', value: live, pos: { line: 0, col: 0 }, ty: tValue('bool') };
}

/**
 * "h holds, at array⟨at⟩, the context `key` with these hole values" (null holes: any), as a
 * formula over the free variables of `at` and `holes`. The heap is functional, so this is exact.
 */
export function holds(h: PRel, array: string, at: readonly Term[], key: string, holes: readonly Term[] | null): Formula {
  const alts: Formula[] = [];
  for (const p of h.pieces) {
    if (p.dom.name !== array || p.ran.name !== key) continue;
    const xs = tupleVars(p.dom);
    const ys = tupleVars(p.ran);
    if (xs.length !== at.length || (holes !== null && ys.length !== holes.length)) continue;
    const sub = new Map<string, Term>(xs.map((x, k) => [x, at[k]!] as const));
    if (holes !== null) ys.forEach((y, k) => sub.set(y, holes[k]!));
    const g = substFormula(p.guard, sub);
    alts.push(holes === null && ys.length > 0 ? exists(ys, g) : g);
  }
  return orAll(alts);
}

/** The position κ of T(c)'s domain: box ∧ φ with x := c and j := κ. */
export function inReductionDomain(info: ReductionInfo, c: readonly Term[], k: readonly Term[]): Formula {
  const m = new Map<string, Term>();
  info.def.vars.forEach((x, i) => m.set(x, c[i]!));
  info.def.dims.forEach((d, i) => m.set(d.var, k[i]!));
  const env: AffineEnv = (n) => m.get(n) ?? variable(n);
  return formulaOf(domainCondition(info.def), env);
}

/** "the cell's live positions of T(c) are exactly T's domain at c", with κ free. */
export function liveIffDomain(live: Formula, domain: Formula): Formula {
  return iff(live, domain);
}
