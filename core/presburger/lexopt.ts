// Lexicographic optimisation (thesis Def. 3.7.3, with the erratum: ∀t. φ(t) ⇒ t ≤ s, not <).
// Closed form, one coordinate at a time: the later coordinates are projected out, the first is
// maximised per DNF disjunct — an equality gives its value, bounds and a congruence give
//   max q = u − ((u − r) mod m), u = min of the upper bounds  (u alone without congruence),
// feasible iff ∃q (exact elimination) — and the disjuncts are combined with max. If a step does
// not apply, the implicit form { d → r : φ(d, r) ∧ ¬∃r'. φ(d, r') ∧ r <lex r' } is kept (exact,
// and still eliminable later by Z3's qe).

import type { Formula, Literal, PRel, PSet, RelPiece, Term } from './types.ts';
import {
  and, andAll, conjuncts, eqT, exists, ge, geT, isLiteral, ltT, not, orAll, relit,
} from './formula.ts';
import { add, addConst, atomTerm, coeff, constant, floorT, maxT, minT, neg, scale, sub, variable, without } from './term.ts';
import { type QeBudget, analyze, eliminate, eliminateExists, eliminateLinear, greatestBelow, newBudget, toDnf } from './qe.ts';
import { simplify } from './simplify.ts';
import { replaceAtom, substFormula } from './subst.ts';
import { hasQuantifier, formulaVars, termVars } from './vars.ts';
import { fresh } from './names.ts';
import { mkRel, mkSet } from './normalize.ts';
import { refreshTuple, tupleSpace, tupleVars, alignment } from './tuple.ts';
import { renameFormula } from './subst.ts';
import { logEliminationLazily } from './elimlog.ts';

/** One piece of a piece-wise quasi-affine function: `values` where `cond` holds. */
export interface Piecewise {
  readonly values: readonly Term[];
  readonly cond: Formula;
}

class GiveUp extends Error {}

function tick(b: QeBudget): void {
  if (++b.steps > b.maxSteps) throw new GiveUp();
}

type Cand = { readonly value: Term; readonly cond: Formula } | { readonly value: null; readonly cond: Formula };

/** max q subject to a conjunction of literals: candidate values with their conditions. */
function maxConj(q: string, lits0: readonly Literal[], b: QeBudget): Cand[] {
  tick(b);
  const simp = simplify(andAll(lits0));
  if (simp.kind === 'false') return [];
  const lits: Literal[] = [];
  for (const c of conjuncts(simp)) {
    if (!isLiteral(c)) return maxOf(q, simp, b);
    lits.push(c);
  }
  if (!formulaVars(simp).has(q)) return [{ value: null, cond: simp }];
  for (const l of lits) {
    for (const [a] of l.t.parts) {
      if (a.kind === 'var' || !termVars(atomTerm(a)).has(q)) continue;
      switch (a.kind) {
        case 'floor': {
          // q inside ⌊s/d⌋: name it f with d·f ≤ s ≤ d·f + d − 1 and project f out.
          const f = fresh('f');
          const fv = variable(f);
          const defs = [ge(sub(a.arg, scale(fv, a.div))), ge(addConst(sub(scale(fv, a.div), a.arg), a.div - 1n))];
          const body = andAll([...lits.map((x) => replaceAtom(x, a.key, fv)), ...defs]);
          const proj = eliminateExists([f], body, b);
          if (!proj || hasQuantifier(proj)) throw new GiveUp();
          return maxOf(q, proj, b);
        }
        case 'min': case 'max': {
          const cases = a.args.map((x, i) => andAll([
            ...a.args.filter((_, j) => j !== i).map((y) => (a.kind === 'min' ? ge(sub(y, x)) : ge(sub(x, y)))),
            ...lits.map((l2) => replaceAtom(l2, a.key, x)),
          ]));
          return maxOf(q, orAll(cases), b);
        }
        case 'select': {
          const yes = andAll([a.cond, ...lits.map((l2) => replaceAtom(l2, a.key, a.then))]);
          const no = andAll([not(a.cond), ...lits.map((l2) => replaceAtom(l2, a.key, a.else))]);
          return maxOf(q, orAll([yes, no]), b);
        }
      }
    }
  }
  const an = analyze(q, lits);
  const cond = simplify(andAll(eliminateLinear(q, lits)));
  if (cond.kind === 'false') return [];
  if (an.eqs.length > 0) {
    let e = an.eqs[0]!;
    for (const x of an.eqs) if (x.a < e.a) e = x;
    return [{ value: e.a === 1n ? neg(e.t) : floorT(neg(e.t), e.a), cond }];
  }
  if (an.uppers.length === 0) return [{ value: null, cond }];
  let top = minT(...an.uppers.map((u) => floorT(u.t, u.b)));
  if (an.cong) top = greatestBelow(top, an.cong.r, an.cong.m);
  return [{ value: top, cond }];
}

function maxOf(q: string, f: Formula, b: QeBudget): Cand[] {
  tick(b);
  if (hasQuantifier(f)) throw new GiveUp();
  const dnf = toDnf(simplify(f), b.maxDnf);
  if (!dnf) throw new GiveUp();
  return dnf.flatMap((c) => maxConj(q, c, b));
}

/** One candidate per value (the disjunction of its conditions): DNF disjuncts often share their
 *  maximum, and every distinct candidate can double the pieces `combine` makes. */
function sameValuesMerged(cands: readonly Cand[]): Cand[] {
  const byValue = new Map<string, { value: Term | null; conds: Formula[] }>();
  for (const c of cands) {
    const k = c.value === null ? '' : c.value.key;
    const g = byValue.get(k);
    if (g) g.conds.push(c.cond);
    else byValue.set(k, { value: c.value, conds: [c.cond] });
  }
  return [...byValue.values()].map((g) => ({ value: g.value, cond: g.conds.length === 1 ? g.conds[0]! : simplify(orAll(g.conds)) }) as Cand);
}

/** Pieces of one coordinate's optimum: each candidate can split every piece in two, so past this
 *  many the closed form is abandoned for the implicit one (exact) instead of growing without end. */
const MAX_PIECES = 64;

/** Merge candidates into disjoint pieces: where several apply, the max of their values. */
function combine(cands: readonly Cand[]): { value: Term; cond: Formula }[] {
  let pieces: { value: Term; cond: Formula }[] = [];
  const unbounded: Formula[] = [];
  for (const c of cands) {
    if (c.value === null) { unbounded.push(c.cond); continue; }
    const next: { value: Term; cond: Formula }[] = [];
    for (const p of pieces) {
      const both = simplify(and(p.cond, c.cond));
      if (both.kind !== 'false') next.push({ value: maxT(p.value, c.value), cond: both });
      const only = simplify(and(p.cond, not(c.cond)));
      if (only.kind !== 'false') next.push({ value: p.value, cond: only });
    }
    const fresh1 = simplify(and(c.cond, not(orAll(pieces.map((p) => p.cond)))));
    if (fresh1.kind !== 'false') next.push({ value: c.value, cond: fresh1 });
    if (next.length > MAX_PIECES) throw new GiveUp();
    pieces = next;
  }
  if (unbounded.length > 0) {
    // Where some disjunct has no upper bound there is no maximum.
    const u = orAll(unbounded);
    pieces = pieces.map((p) => ({ value: p.value, cond: simplify(and(p.cond, not(u))) })).filter((p) => p.cond.kind !== 'false');
  }
  return pieces;
}

/**
 * A top-level equality `a·A + t = 0`, A a floor atom over q (`q mod m = …` is one), rewrites every
 * other literal in which A occurs with a multiple k·a of that coefficient: subtracting k times the
 * equality (zero wherever f holds) takes A out of it. `q mod 4 = y mod 4 ∧ (q mod 4 < (y + 2) mod 4
 * ∨ …)` becomes `q mod 4 = y mod 4 ∧ (y mod 4 < (y + 2) mod 4 ∨ …)`, whose second conjunct is
 * free of q. Not under quantifiers (their variables could be the equality's).
 */
function floorEqualitiesApplied(q: string, f: Formula): Formula {
  const out = [...conjuncts(f)];
  for (let j = 0; j < out.length; j++) {
    // out[j] itself is never rewritten while its atoms are used.
    const e = out[j]!;
    if (e.kind !== 'eq') continue;
    for (const [a, ka] of e.t.parts) {
      if (a.kind !== 'floor' || !termVars(a.arg).has(q)) continue;
      for (let i = 0; i < out.length; i++) if (i !== j) out[i] = minusMultiple(out[i]!, e.t, a.key, ka);
    }
  }
  return andAll(out);
}

function minusMultiple(f: Formula, et: Term, key: string, ka: bigint): Formula {
  switch (f.kind) {
    case 'ge': case 'eq': case 'cong': {
      const k = coeff(f.t, key);
      return k !== 0n && k % ka === 0n ? relit(f, sub(f.t, scale(et, k / ka))) : f;
    }
    case 'and': return andAll(f.args.map((g) => minusMultiple(g, et, key, ka)));
    case 'or': return orAll(f.args.map((g) => minusMultiple(g, et, key, ka)));
    default: return f;
  }
}

/**
 * A top-level equality `q − d·⌊q/d⌋ = E` (q mod d = E, E free of q; written with either sign):
 * d and E. Every solution is then q = d·t + E with t = ⌊q/d⌋, and every t gives one where
 * 0 ≤ E < d.
 */
function residueOf(q: string, f: Formula): { d: bigint; e: Term; eq: Formula } | null {
  // A variable's atom key is its name (as qe.ts's coeff(t, q)).
  const qTermKey = variable(q).key;
  for (const c of conjuncts(f)) {
    if (c.kind !== 'eq') continue;
    const cq = coeff(c.t, q);
    if (cq !== 1n && cq !== -1n) continue;
    let floor: { key: string; d: bigint; k: bigint } | null = null;
    let other = false;
    for (const [a, k] of c.t.parts) {
      if (a.key === q) continue;
      if (a.kind === 'floor' && a.arg.key === qTermKey) floor = { key: a.key, d: a.div, k };
      else if (termVars(atomTerm(a)).has(q)) other = true;
    }
    if (other || floor === null || floor.k !== -cq * floor.d) continue;
    // c.t = cq·(q − d·⌊q/d⌋) + R = 0, so q mod d = −cq·R.
    const rest = without(without(c.t, q), floor.key);
    return { d: floor.d, e: cq === 1n ? neg(rest) : rest, eq: c };
  }
  return null;
}

function max1(q: string, f0: Formula, b: QeBudget): { value: Term; cond: Formula }[] {
  // q mod d = E: the maximum of q is d·max{t : φ[q := d·t + E]} + E (q grows with t). The
  // substitution takes every floor of q whose coefficients d divides out of the floor
  // (⌊(7q + y)/8⌋ = 7t + ⌊(7E + y)/8⌋). The stencil chain's reads of an 8-row rolling buffer
  // took ~20 ms per lexmax (350 at 8 stages) when those floors were eliminated one by one.
  const r = residueOf(q, f0);
  if (r !== null) {
    // The equality itself becomes ⌊E/d⌋ = 0, written as the bounds 0 ≤ E < d, which the
    // simplifier's intervals use to fold E's own floors.
    const t = fresh(q);
    const others = andAll(conjuncts(f0).filter((c) => c !== r.eq));
    const g = andAll([geT(r.e, constant(0n)), ltT(r.e, constant(r.d)), substFormula(others, new Map([[q, add(scale(variable(t), r.d), r.e)]]))]);
    if (!formulaVars(g).has(q)) {
      const pieces = max1Direct(t, g, b);
      if (pieces.every((p) => !termVars(p.value).has(t) && !formulaVars(p.cond).has(t))) return pieces.map((p) => ({ value: add(scale(p.value, r.d), r.e), cond: p.cond }));
    }
  }
  return max1Direct(q, f0, b);
}

function max1Direct(q: string, f0: Formula, b: QeBudget): { value: Term; cond: Formula }[] {
  // Conjuncts without q only restrict where a maximum exists: max{q : A(q) ∧ B} is max{q : A(q)}
  // where B holds. Kept out of the DNF, they do not multiply its disjuncts (blur's reads of the
  // rolling buffer: 370 ms per lexmax with them in, most of the kernel's symbolic time).
  const f = floorEqualitiesApplied(q, f0);
  const dep: Formula[] = [];
  const indep: Formula[] = [];
  for (const c of conjuncts(f)) (formulaVars(c).has(q) ? dep : indep).push(c);
  if (indep.length === 0 || dep.length === 0) return combine(sameValuesMerged(maxOf(q, f, b)));
  const where = andAll(indep);
  const pieces = combine(sameValuesMerged(maxOf(q, andAll(dep), b)));
  return pieces.map((p) => ({ value: p.value, cond: simplify(and(p.cond, where)) })).filter((p) => p.cond.kind !== 'false');
}

/**
 * Lexicographic max (or min) of the variables `rs` subject to φ, as a piece-wise function of the
 * other variables, or null when the closed form does not apply within budget.
 */
export function lexOptimum(rs: readonly string[], phi: Formula, isMax: boolean, budget: QeBudget = newBudget()): Piecewise[] | null {
  try {
    return opt(rs, phi, isMax, budget);
  } catch (e) {
    if (e instanceof GiveUp) return null;
    throw e;
  }
}

function opt(rs: readonly string[], phi: Formula, isMax: boolean, b: QeBudget): Piecewise[] {
  if (rs.length === 0) {
    const c = simplify(phi);
    return c.kind === 'false' ? [] : [{ values: [], cond: c }];
  }
  const [r1, ...rest] = rs as [string, ...string[]];
  const proj = rest.length > 0 ? eliminate(exists(rest, phi)) : phi;
  if (hasQuantifier(proj)) throw new GiveUp();
  let firsts: { value: Term; cond: Formula }[];
  if (isMax) firsts = max1(r1, proj, b);
  else {
    // min q = −max(−q).
    const m = fresh(r1);
    const flipped = substFormula(proj, new Map([[r1, neg(variable(m))]]));
    firsts = max1(m, flipped, b).map((p) => ({ value: neg(p.value), cond: p.cond }));
  }
  const out: Piecewise[] = [];
  for (const p of firsts) {
    if (rest.length === 0) { out.push({ values: [p.value], cond: p.cond }); continue; }
    const fixed = simplify(and(substFormula(phi, new Map([[r1, p.value]])), p.cond));
    for (const s of opt(rest, fixed, isMax, b)) out.push({ values: [p.value, ...s.values], cond: s.cond });
  }
  return out;
}

/** a <lex b for equal-length variable lists. */
export function lexLess(a: readonly Term[], b: readonly Term[]): Formula {
  const ds: Formula[] = [];
  for (let p = 0; p < a.length; p++) {
    const prefix = a.slice(0, p).map((x, i) => eqT(x, b[i]!));
    ds.push(andAll([...prefix, ltT(a[p]!, b[p]!)]));
  }
  return orAll(ds);
}

function groupPieces(r: PRel): RelPiece[][] {
  const groups = new Map<string, RelPiece[]>();
  for (const p of r.pieces) {
    const k = `${tupleSpace(p.dom)}->${tupleSpace(p.ran)}`;
    const g = groups.get(k);
    if (g) g.push(p);
    else groups.set(k, [p]);
  }
  return [...groups.values()];
}

/** lexmax / lexmin of a relation: per domain point, the greatest (least) image, per range space. */
function lexRel(r: PRel, isMax: boolean): PRel {
  const out: RelPiece[] = [];
  for (const ps of groupPieces(r)) {
    const dom = refreshTuple(ps[0]!.dom);
    const ran = refreshTuple(ps[0]!.ran);
    const phi = orAll(ps.map((p) => {
      const m = alignment(p.dom, dom);
      for (const [x, y] of alignment(p.ran, ran)) m.set(x, y);
      return renameFormula(p.guard, m);
    }));
    const rv = tupleVars(ran);
    const implicit = (): Formula => {
      const other = rv.map((v) => fresh(v));
      const phi2 = renameFormula(phi, new Map(rv.map((v, i) => [v, other[i]!])));
      const mine = rv.map(variable);
      const theirs = other.map(variable);
      const better = isMax ? lexLess(mine, theirs) : lexLess(theirs, mine);
      return and(phi, not(exists(other, and(phi2, better))));
    };
    const pw = lexOptimum(rv, eliminate(phi), isMax);
    if (pw) {
      const guards = pw.map((p) => andAll([...rv.map((v, i) => eqT(variable(v), p.values[i]!)), p.cond]));
      for (const g of guards) out.push({ dom, ran, guard: g });
      logEliminationLazily(implicit, orAll(guards), 'lexopt', `${isMax ? 'max' : 'min'}:${phi.key}`);
    } else {
      out.push({ dom, ran, guard: implicit() });
    }
  }
  return mkRel(out);
}

export function lexmax(r: PRel): PRel {
  return lexRel(r, true);
}

export function lexmin(r: PRel): PRel {
  return lexRel(r, false);
}

/** lexmax / lexmin of a set (a piece-wise expression with unit domain), per space. */
export function lexmaxSet(s: PSet): PSet {
  return lexSet(s, true);
}

export function lexminSet(s: PSet): PSet {
  return lexSet(s, false);
}

function lexSet(s: PSet, isMax: boolean): PSet {
  const unitDom = { kind: 'flat', name: '', vars: [] } as const;
  const r = lexRel({ kind: 'rel', pieces: s.pieces.map((p) => ({ dom: unitDom, ran: p.tuple, guard: p.guard })) }, isMax);
  return mkSet(r.pieces.map((p) => ({ tuple: p.ran, guard: p.guard })));
}

