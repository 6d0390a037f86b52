// Symbolic sets (thesis §3.3–3.4): unions of guarded pieces over named-tuple spaces. Every
// constructor returns normalised pieces (exact elimination + simplification, empty pieces
// dropped). Pieces of different spaces never interact; a space missing on one side is empty.

import type { Formula, PSet, SetPiece, Space, Term, Tuple } from './types.ts';
import { TRUE, and, andAll, eqT, exists, leT, ltT, not, orAll } from './formula.ts';
import { mkSet } from './normalize.ts';
import { alignment, flat, freshTuple, refreshTuple, sameSpace, spaceOf, tupleSpace, tupleVars } from './tuple.ts';
import { renameFormula } from './subst.ts';
import { eliminate } from './qe.ts';
import { simplify } from './simplify.ts';
import { fresh } from './names.ts';
import { variable } from './term.ts';

export const EMPTY_SET: PSet = { kind: 'set', pieces: [] };

/** Build a set from raw pieces (normalised). */
export function setOf(pieces: readonly SetPiece[]): PSet {
  return mkSet(pieces);
}

/** `{ name[t1, …, tn] : guard }` for terms over parameters: a location or a value template. */
export function tupleSet(name: string, terms: readonly Term[], guard: Formula = TRUE): PSet {
  const vars = terms.map((t) => fresh(hintOf(t)));
  return mkSet([{ tuple: flat(name, vars), guard: andAll([...terms.map((t, i) => eqT(variable(vars[i]!), t)), guard]) }]);
}

function hintOf(t: Term): string {
  const a = t.parts.length === 1 && t.parts[0]![1] === 1n ? t.parts[0]![0] : null;
  return a && a.kind === 'var' ? a.name : 'i';
}

/** The whole space: `{ t : true }`. */
export function universeSet(s: Space): PSet {
  return { kind: 'set', pieces: [{ tuple: freshTuple(s), guard: TRUE }] };
}

/** The guard of `p` rewritten over the variables of `to` (same space). */
export function guardOver(p: SetPiece, to: Tuple): Formula {
  return renameFormula(p.guard, alignment(p.tuple, to));
}

export function unionSet(...ss: readonly PSet[]): PSet {
  return mkSet(ss.flatMap((s) => s.pieces));
}

export function intersectSet(a: PSet, b: PSet): PSet {
  const out: SetPiece[] = [];
  for (const pa of a.pieces) {
    for (const pb of b.pieces) {
      if (sameSpace(pa.tuple, pb.tuple)) out.push({ tuple: pa.tuple, guard: and(pa.guard, guardOver(pb, pa.tuple)) });
    }
  }
  return mkSet(out);
}

export function subtractSet(a: PSet, b: PSet): PSet {
  return mkSet(a.pieces.map((pa) => {
    const bs = b.pieces.filter((pb) => sameSpace(pa.tuple, pb.tuple)).map((pb) => guardOver(pb, pa.tuple));
    return { tuple: pa.tuple, guard: and(pa.guard, not(orAll(bs))) };
  }));
}

/** S ∩ {: φ}. */
export function restrictSet(s: PSet, phi: Formula): PSet {
  return mkSet(s.pieces.map((p) => ({ tuple: p.tuple, guard: and(p.guard, phi) })));
}

/** S − {: φ}. */
export function subtractUnitSet(s: PSet, phi: Formula): PSet {
  return restrictSet(s, not(phi));
}

/** ∃S (Def. 3.4.2): the unit set, as a formula over the parameters, true iff S is nonempty. */
export function nonEmptyCondition(s: PSet): Formula {
  return simplify(eliminate(orAll(s.pieces.map((p) => exists(tupleVars(p.tuple), p.guard)))));
}

/** S1 ▷ S2 = S2 ∪ (S1 − ∃S2) (Def. 3.4.3). */
export function updateSet(s1: PSet, s2: PSet): PSet {
  return unionSet(s2, subtractUnitSet(s1, nonEmptyCondition(s2)));
}

/** Space decomposition (Def. 3.3.3): one piece per space (emptiness is not decided here). */
export function decomposeSet(s: PSet): PSet {
  const groups = new Map<string, SetPiece[]>();
  for (const p of s.pieces) {
    const k = tupleSpace(p.tuple);
    const g = groups.get(k);
    if (g) g.push(p);
    else groups.set(k, [p]);
  }
  return mkSet([...groups.values()].map((ps) => {
    const t = refreshTuple(ps[0]!.tuple);
    return { tuple: t, guard: orAll(ps.map((p) => guardOver(p, t))) };
  }));
}

/** Complement of a homogeneous set within its space (throws on a heterogeneous set). */
export function complementSet(s: PSet, space?: Space): PSet {
  const sp = space ?? (s.pieces[0] ? spaceOf(s.pieces[0].tuple) : undefined);
  if (!sp) throw new Error('complement of an empty set needs its space');
  const t = freshTuple(sp);
  const gs: Formula[] = [];
  for (const p of s.pieces) {
    if (!sameSpace(p.tuple, t)) throw new Error('complement of a heterogeneous set');
    gs.push(guardOver(p, t));
  }
  return mkSet([{ tuple: t, guard: not(orAll(gs)) }]);
}

/** ⋃_{lo ≤ x < hi} S = { t : ∃x. lo ≤ x < hi ∧ φ } (x a parameter of S). */
export function iteratedUnionSet(s: PSet, x: string, lo: Term, hi: Term): PSet {
  return mkSet(s.pieces.map((p) => ({ tuple: p.tuple, guard: boundedExists(x, lo, hi, p.guard) })));
}

/** ∃x'. lo ≤ x' < hi ∧ φ[x := x'] with a fresh x'. */
export function boundedExists(x: string, lo: Term, hi: Term, phi: Formula): Formula {
  const y = fresh(x);
  const yv = variable(y);
  const body = renameFormula(phi, new Map([[x, y]]));
  return exists([y], andAll([body, rangeOf(yv, lo, hi)]));
}

/** lo ≤ v < hi. */
export function rangeOf(v: Term, lo: Term, hi: Term): Formula {
  return and(leT(lo, v), ltT(v, hi));
}

