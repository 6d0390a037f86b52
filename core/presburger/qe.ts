// Exact quantifier elimination, without a solver. With floor, min and max available in terms,
// eliminating one variable q from a conjunction is exact and closed-form:
//   • an equality a·q + t = 0 gives t ≡ 0 (mod a) and, multiplying the other constraints by a,
//     substitutes a·q = −t (no division needed);
//   • congruences c·q + t ≡ 0 (mod m) become q ≡ r (mod m') (after gcd side conditions) and are
//     combined by the Chinese remainder theorem;
//   • bounds are normalised to unit coefficient (q ≥ ⌈L/a⌉, q ≤ ⌊U/b⌋) and
//       ∃q. ⋀ q ≥ Lᵢ ∧ ⋀ q ≤ Uⱼ  ⇔  ⋀ Lᵢ ≤ Uⱼ                       (no congruence)
//       ∃q ≡ r (m). …            ⇔  ⋀ⱼ M + ((r − M) mod m) ≤ Uⱼ, M = max Lᵢ
//     (pairs where a or b is 1 stay linear: b·(−tₗ) ≤ a·tᵤ);
//   • q inside ⌊s/d⌋ is flattened through a fresh f with d·f ≤ s ≤ d·f + d − 1, inside min, max
//     or select by case splitting; disjunctions go through DNF (bounded).
// When a budget is exceeded the quantifier is kept (never approximated).

import type { Atom, Formula, Literal, Term } from './types.ts';
import {
  FALSE, andAll, cong, conjuncts, exists, forall, ge, isLiteral, not, orAll, relit,
} from './formula.ts';
import {
  addConst, atomTerm, coeff, constant, floorT, linear, maxT, minT, modT, neg, scale, sub, variable, without,
} from './term.ts';
import { gcd, lcm, modInverse } from './bigint.ts';
import { fresh } from './names.ts';
import { hasQuantifier, formulaVars, termVars } from './vars.ts';
import { replaceAtom, substFormula } from './subst.ts';
import { simplify } from './simplify.ts';
import { logElimination } from './elimlog.ts';

export interface QeBudget {
  steps: number;
  /** Floors named by a fresh variable so far (each adds a variable: bounded to ensure progress). */
  flattens: number;
  readonly maxSteps: number;
  readonly maxDnf: number;
}

export function newBudget(maxSteps = 400, maxDnf = 128): QeBudget {
  return { steps: 0, flattens: 0, maxSteps, maxDnf };
}

const MAX_FLATTENS = 6;
const MAX_CASES = 48;

class BudgetExceeded extends Error {}

function tick(b: QeBudget): void {
  if (++b.steps > b.maxSteps) throw new BudgetExceeded();
}

// ---------------------------------------------------------------- DNF

/** Disjunctive normal form of a quantifier-free NNF formula, or null past `limit` disjuncts. */
export function toDnf(f: Formula, limit: number): Literal[][] | null {
  switch (f.kind) {
    case 'true': return [[]];
    case 'false': return [];
    case 'ge': case 'eq': case 'cong': return [[f]];
    case 'or': {
      const out: Literal[][] = [];
      for (const a of f.args) {
        const d = toDnf(a, limit);
        if (!d) return null;
        out.push(...d);
        if (out.length > limit) return null;
      }
      return out;
    }
    case 'and': {
      let acc: Literal[][] = [[]];
      for (const a of f.args) {
        const d = toDnf(a, limit);
        if (!d) return null;
        const next: Literal[][] = [];
        for (const x of acc) for (const y of d) next.push([...x, ...y]);
        if (next.length > limit) return null;
        acc = next;
      }
      return acc;
    }
    case 'exists': case 'forall': return null;
  }
}

// ---------------------------------------------------------------- occurrences

/** A top-level non-variable atom of some literal whose variables include q. */
function nonLinearAtom(q: string, lits: readonly Literal[]): Atom | null {
  for (const l of lits) {
    for (const [a] of l.t.parts) if (a.kind !== 'var' && termVars(atomTerm(a)).has(q)) return a;
  }
  return null;
}

// ---------------------------------------------------------------- one linear variable

export interface Analysis {
  /** Literals without q. */
  readonly rest: Formula[];
  /** Side conditions produced while normalising congruences. */
  readonly sides: Formula[];
  /** Equalities a·q + t = 0 with a > 0. */
  readonly eqs: { a: bigint; t: Term; lit: Literal }[];
  /** q ≡ r (mod m), after combining; null if none. */
  readonly cong: { r: Term; m: bigint } | null;
  /** a·q + t ≥ 0 with a > 0. */
  readonly lowers: { a: bigint; t: Term }[];
  /** −b·q + t ≥ 0 with b > 0. */
  readonly uppers: { b: bigint; t: Term }[];
  readonly others: Literal[];
}

/** Split the literals by how the (linearly occurring) variable q appears in them. */
export function analyze(q: string, lits: readonly Literal[]): Analysis {
  const rest: Formula[] = [];
  const sides: Formula[] = [];
  const eqs: { a: bigint; t: Term; lit: Literal }[] = [];
  const lowers: { a: bigint; t: Term }[] = [];
  const uppers: { b: bigint; t: Term }[] = [];
  const congs: { r: Term; m: bigint }[] = [];
  const others: Literal[] = [];
  for (const l of lits) {
    const a = coeff(l.t, q);
    if (a === 0n) { rest.push(l); continue; }
    const t = without(l.t, q);
    switch (l.kind) {
      case 'eq': eqs.push(a > 0n ? { a, t, lit: l } : { a: -a, t: neg(t), lit: l }); break;
      case 'ge': if (a > 0n) lowers.push({ a, t }); else uppers.push({ b: -a, t }); break;
      case 'cong': {
        // c·q + t ≡ 0 (mod m), c in [1, m): needs t ≡ 0 (mod g), then q ≡ −c'⁻¹·(t/g) (mod m/g).
        const m = l.m;
        const g = gcd(a, m);
        if (g > 1n) sides.push(cong(t, g));
        const mm = m / g;
        if (mm === 1n) break;
        const inv = modInverse(a / g, mm);
        congs.push({ r: scale(floorT(t, g), -inv), m: mm });
        break;
      }
    }
    others.push(l);
  }
  // Chinese remaindering: q ≡ r1 (m1) ∧ q ≡ r2 (m2) ⇔ r1 ≡ r2 (g) ∧ q ≡ r (lcm).
  let c: { r: Term; m: bigint } | null = null;
  for (const k of congs) {
    if (!c) { c = k; continue; }
    const g = gcd(c.m, k.m);
    const diff = sub(k.r, c.r);
    if (g > 1n) sides.push(cong(diff, g));
    const m2 = k.m / g;
    const inv = modInverse(c.m / g, m2);
    const step = modT(scale(floorT(diff, g), inv), m2);
    c = { r: linear([[c.r, 1n], [step, c.m]]), m: lcm(c.m, k.m) };
  }
  if (c) c = { r: modT(c.r, c.m), m: c.m };
  return { rest, sides, eqs, cong: c, lowers, uppers, others };
}

/** ∃q. ⋀ lits, q occurring only as a plain variable: a conjunction (list) of formulas. */
export function eliminateLinear(q: string, lits: readonly Literal[]): Formula[] {
  const an = analyze(q, lits);
  if (an.eqs.length > 0) {
    let e = an.eqs[0]!;
    for (const x of an.eqs) if (x.a < e.a) e = x;
    const out: Formula[] = [...an.rest];
    if (e.a === 1n) {
      const s = new Map([[q, neg(e.t)]]);
      for (const l of an.others) if (l !== e.lit) out.push(substFormula(l, s));
      return out;
    }
    // a·q = −t: multiply each other literal b·q + u by a and replace a·q.
    out.push(cong(e.t, e.a));
    for (const l of an.others) {
      if (l === e.lit) continue;
      const b = coeff(l.t, q);
      const u = without(l.t, q);
      const t2 = linear([[u, e.a], [e.t, -b]]);
      out.push(l.kind === 'cong' ? cong(t2, l.m * e.a) : relit(l, t2));
    }
    return out;
  }
  const out: Formula[] = [...an.rest, ...an.sides];
  const L = an.lowers.map((x) => neg(floorT(x.t, x.a))); // q ≥ ⌈−t/a⌉
  const U = an.uppers.map((x) => floorT(x.t, x.b)); // q ≤ ⌊t/b⌋
  if (!an.cong) {
    for (const lo of an.lowers) {
      for (const up of an.uppers) {
        if (lo.a === 1n || up.b === 1n) out.push(ge(linear([[up.t, lo.a], [lo.t, up.b]])));
        else out.push(ge(sub(floorT(up.t, up.b), neg(floorT(lo.t, lo.a)))));
      }
    }
    return out;
  }
  if (L.length === 0 || U.length === 0) return out;
  const { r, m } = an.cong;
  // Put the simpler side inside the remainder (it then often folds under the other bounds).
  const costOf = (ts: readonly Term[]) => ts.reduce((n, t) => n + t.parts.length, 0);
  if (costOf(U) < costOf(L) || (costOf(U) === costOf(L) && U.length <= L.length)) {
    // The largest q ≤ min U with q ≡ r is above every lower bound.
    const top = greatestBelow(minT(...U), r, m);
    for (const l of L) out.push(ge(sub(top, l)));
  } else {
    const bot = leastAbove(maxT(...L), r, m);
    for (const u of U) out.push(ge(sub(u, bot)));
  }
  return out;
}

/** The greatest q ≤ u with q ≡ r (mod m): u − ((u − r) mod m). */
export function greatestBelow(u: Term, r: Term, m: bigint): Term {
  return sub(u, modT(sub(u, r), m));
}

/** The least q ≥ l with q ≡ r (mod m): l + ((r − l) mod m). */
export function leastAbove(l: Term, r: Term, m: bigint): Term {
  return linear([[l, 1n], [modT(sub(r, l), m), 1n]]);
}

// ---------------------------------------------------------------- conjunctions

function literalsOf(f: Formula): Literal[] | null {
  const out: Literal[] = [];
  for (const c of conjuncts(f)) {
    if (!isLiteral(c)) return null;
    out.push(c);
  }
  return out;
}

function occurrences(v: string, lits: readonly Literal[]): number {
  let n = 0;
  for (const l of lits) if (termVars(l.t).has(v)) n++;
  return n;
}

/** Which variable to eliminate first: cheapest exact step. */
function pickVar(vs: readonly string[], lits: readonly Literal[]): string {
  let best = vs[0]!;
  let bestScore = Infinity;
  for (const v of vs) {
    let score: number;
    if (nonLinearAtom(v, lits)) score = 100;
    else {
      const an = analyze(v, lits);
      if (an.eqs.some((e) => e.a === 1n)) score = 0;
      else if (an.eqs.length > 0) score = 1;
      else {
        const exact = an.lowers.every((x) => x.a === 1n) || an.uppers.every((x) => x.b === 1n);
        score = (exact && !an.cong ? 2 : 10) + an.lowers.length * an.uppers.length;
      }
    }
    score += occurrences(v, lits) / 1000;
    if (score < bestScore) { best = v; bestScore = score; }
  }
  return best;
}

/** Distinct floor atoms containing q, nested ones included. */
function floorsWith(q: string, t: Term, out: Map<string, Atom & { kind: 'floor' }>): void {
  for (const [a] of t.parts) {
    if (a.kind !== 'floor' || !termVars(a.arg).has(q)) continue;
    out.set(a.key, a);
    floorsWith(q, a.arg, out);
  }
}

/** Constant bounds on q given by single-variable literals. */
function constantRange(q: string, lits: readonly Literal[]): [bigint, bigint] | null {
  let lo: bigint | null = null;
  let hi: bigint | null = null;
  for (const l of lits) {
    if (l.kind === 'cong' || l.t.parts.length !== 1) continue;
    const [a, k] = l.t.parts[0]!;
    if (a.kind !== 'var' || a.name !== q || (k !== 1n && k !== -1n)) continue;
    const v = -k * l.t.c;
    if (l.kind === 'eq') return [v, v];
    if (k === 1n) lo = lo === null || v > lo ? v : lo;
    else hi = hi === null || l.t.c < hi ? l.t.c : hi;
  }
  return lo !== null && hi !== null ? [lo, hi] : null;
}

/**
 * q occurs inside floors. One plain floor: name it (f with d·f ≤ s ≤ d·f + d − 1). Several, or
 * nested: split q into cases that make every floor linear, without adding variables — q ranging
 * over a small constant interval, or q = L·k + r for r in [0, L) where L is the product of the
 * divisors (then ⌊(a·q + t)/d⌋ = (a·L/d)·k + ⌊(a·r + t)/d⌋).
 */
function elimFloors(q: string, vs: readonly string[], lits: readonly Literal[], budget: QeBudget): Formula {
  const floors = new Map<string, Atom & { kind: 'floor' }>();
  for (const l of lits) floorsWith(q, l.t, floors);
  const list = [...floors.values()];
  const plain = list.length === 1 && list[0]!.arg.parts.every(([a]) => a.kind === 'var' || !termVars(atomTerm(a)).has(q));
  if (plain && budget.flattens < MAX_FLATTENS) {
    budget.flattens++;
    const a = list[0]!;
    const f = fresh('f');
    const fl = variable(f);
    const replaced = lits.map((l) => replaceAtom(l, a.key, fl));
    const defs = [ge(sub(a.arg, scale(fl, a.div))), ge(addConst(sub(scale(fl, a.div), a.arg), a.div - 1n))];
    return elimFormula([...vs, f], andAll([...replaced, ...defs]), budget);
  }
  let L = 1n;
  for (const a of list) L *= a.div;
  const range = constantRange(q, lits);
  const rest = vs.filter((v) => v !== q);
  const body = andAll(lits);
  if (range && range[1] - range[0] + 1n <= BigInt(MAX_CASES) && range[1] - range[0] + 1n <= L) {
    const cases: Formula[] = [];
    for (let c = range[0]; c <= range[1]; c++) cases.push(elimFormula(rest, substFormula(body, new Map([[q, constant(c)]])), budget));
    return simplify(orAll(cases));
  }
  if (L <= BigInt(MAX_CASES)) {
    const cases: Formula[] = [];
    for (let r = 0n; r < L; r++) {
      const k = fresh(q);
      const sub1 = substFormula(body, new Map([[q, linear([[variable(k), L]], r)]]));
      cases.push(elimFormula([...rest, k], sub1, budget));
    }
    return simplify(orAll(cases));
  }
  throw new BudgetExceeded();
}

/** ∃vars. ⋀ lits (quantifier-free literals). Throws BudgetExceeded. */
function elimConj(vars: readonly string[], lits0: readonly Literal[], budget: QeBudget): Formula {
  tick(budget);
  const simp = simplify(andAll(lits0));
  if (simp.kind === 'false') return FALSE;
  const lits = literalsOf(simp);
  if (!lits) {
    // The simplifier produced a disjunction (or kept a quantifier): split again.
    return elimFormula(vars, simp, budget);
  }
  const fv = formulaVars(simp);
  const vs = vars.filter((v) => fv.has(v));
  if (vs.length === 0) return simp;
  const q = pickVar(vs, lits);
  const a = nonLinearAtom(q, lits);
  if (a) {
    switch (a.kind) {
      case 'floor': return elimFloors(q, vs, lits, budget);
      case 'min': case 'max': {
        const cases: Formula[] = [];
        a.args.forEach((x, i) => {
          const conds = a.args.filter((_, j) => j !== i).map((y) => (a.kind === 'min' ? ge(sub(y, x)) : ge(sub(x, y))));
          cases.push(andAll([...conds, ...lits.map((l) => replaceAtom(l, a.key, x))]));
        });
        return elimFormula(vs, orAll(cases), budget);
      }
      case 'select': {
        const yes = andAll([a.cond, ...lits.map((l) => replaceAtom(l, a.key, a.then))]);
        const no = andAll([not(a.cond), ...lits.map((l) => replaceAtom(l, a.key, a.else))]);
        return elimFormula(vs, orAll([yes, no]), budget);
      }
      case 'var': break;
    }
  }
  const step = eliminateLinear(q, lits);
  return elimFormula(vs.filter((v) => v !== q), andAll(step), budget);
}

/** ∃vars. f for quantifier-free f, one variable at a time, distributing over disjunctions and
 *  leaving conjuncts that do not mention the variables outside (so that DNF stays small).
 *  Throws BudgetExceeded. */
function elimFormula(vars: readonly string[], f: Formula, budget: QeBudget): Formula {
  tick(budget);
  const fv = formulaVars(f);
  const vs = vars.filter((v) => fv.has(v));
  if (vs.length === 0) return f;
  if (hasQuantifier(f)) throw new BudgetExceeded();
  if (f.kind === 'or') return simplify(orAll(f.args.map((a) => elimFormula(vs, a, budget))));
  if (f.kind === 'and') {
    const free = f.args.filter((a) => !vs.some((v) => formulaVars(a).has(v)));
    if (free.length > 0) {
      const dep = f.args.filter((a) => vs.some((v) => formulaVars(a).has(v)));
      return simplify(andAll([...free, elimFormula(vs, andAll(dep), budget)]));
    }
  }
  if (vs.length > 1 && !isConjunctionOfLiterals(f)) {
    // Eliminate the variable touching the fewest disjunctive conjuncts first.
    let q = vs[0]!;
    let best = Infinity;
    for (const v of vs) {
      const n = conjuncts(f).filter((c) => !isLiteral(c) && formulaVars(c).has(v)).length;
      if (n < best) { best = n; q = v; }
    }
    const inner = elimFormula([q], f, budget);
    return elimFormula(vs.filter((v) => v !== q), inner, budget);
  }
  const dnf = toDnf(f, budget.maxDnf);
  if (!dnf) throw new BudgetExceeded();
  const parts = dnf.map((c) => elimConj(vs, c, budget));
  return simplify(orAll(parts));
}

function isConjunctionOfLiterals(f: Formula): boolean {
  return conjuncts(f).every(isLiteral);
}

/** ∃vars. body (body quantifier-free) by exact methods, or null if out of budget. */
export function eliminateExists(vars: readonly string[], body: Formula, budget: QeBudget = newBudget()): Formula | null {
  try {
    return elimFormula(vars, body, budget);
  } catch (e) {
    if (e instanceof BudgetExceeded) return null;
    throw e;
  }
}

const cache = new Map<string, Formula>();

/**
 * Forget cached eliminations, so that the next ones are computed (and logged) again: certificate
 * bundles record the eliminations of one verification, and a cache hit would leave them out.
 */
export function clearEliminationCache(): void {
  cache.clear();
}
const CACHE_LIMIT = 20_000;

/**
 * Eliminate every quantifier that the exact method can, innermost first. The result is
 * equivalent to the input; quantifiers it cannot eliminate within budget are kept.
 * Each elimination is recorded in the elimination log.
 */
export function eliminate(f: Formula): Formula {
  if (!hasQuantifier(f)) return f;
  const hit = cache.get(f.key);
  if (hit) return hit;
  let r: Formula;
  switch (f.kind) {
    case 'and': r = andAll(f.args.map(eliminate)); break;
    case 'or': r = orAll(f.args.map(eliminate)); break;
    case 'exists': case 'forall': {
      const body = eliminate(f.body);
      const isEx = f.kind === 'exists';
      const inner = isEx ? body : not(body);
      const res = hasQuantifier(inner) ? null : eliminateExists(f.vars, inner);
      if (res === null) r = isEx ? exists(f.vars, body) : forall(f.vars, body);
      else {
        r = isEx ? res : not(res);
        logElimination({ original: isEx ? exists(f.vars, body) : forall(f.vars, body), result: r, method: 'exact' });
      }
      break;
    }
    default: r = f; // quantifiers inside select conditions are left alone
  }
  if (cache.size > CACHE_LIMIT) cache.clear();
  cache.set(f.key, r);
  return r;
}

