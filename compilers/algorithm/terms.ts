// Index arithmetic for the reference scheduling compiler: AST index expressions ↔ quasi-affine
// Terms of the Presburger layer (normal forms make `hi − lo + 1` of a shifted tile fold to a
// constant), a simplifier that drops min/max arguments dominated under known parameter bounds,
// symbolic interval bounds of a term over a loop variable (bounds inference), and a monotonicity
// test (sliding windows).

import type { Expr } from '../../core/language/ast.ts';
import { formulaToExpr, IndexError, termToExpr } from '../../core/language/affine.ts';
import { and, andAll, bool, cong, eq, eqT, ge, geT, gtT, leT, ltT, neT, not, or, orAll } from '../../core/presburger/formula.ts';
import { intervalOf, type Bounds, type Interval } from '../../core/presburger/interval.ts';
import { mapAtoms, substTerm } from '../../core/presburger/subst.ts';
import { add, addConst, atomTerm, constant, floorT, linear, maxT, minT, modT, neg, scale, selectT, sub, variable, without } from '../../core/presburger/term.ts';
import type { Atom, Formula, Term } from '../../core/presburger/types.ts';
import { formulaVars, termHasVar, termVars } from '../../core/presburger/vars.ts';

export type { Formula, Term, Bounds, Interval };
export { add, addConst, atomTerm, and, andAll, bool, constant, eq, eqT, floorT, ge, geT, gtT, leT, linear, ltT, maxT, minT, modT, neT, neg, not, or, orAll, scale, selectT, sub, substTerm, termHasVar, termVars, variable, formulaVars };

export { formulaToExpr, IndexError, termToExpr };

/** The constant value of a term, or null. */
export function constOf(t: Term): bigint | null {
  return t.parts.length === 0 ? t.c : null;
}

// ---------------------------------------------------------------------------------------------
// AST → Term / Formula

export type TermEnv = (name: string) => Term | undefined;

export function exprToTerm(e: Expr, env: TermEnv): Term {
  switch (e.kind) {
    case 'int':
      return constant(e.value);
    case 'var': {
      const t = env(e.name);
      if (t === undefined) throw new IndexError(`unknown variable '${e.name}' in an index expression`);
      return t;
    }
    case 'unary':
      if (e.op === '-') return neg(exprToTerm(e.arg, env));
      break;
    case 'binary': {
      if (['+', '-', '*', '/', '%'].includes(e.op)) {
        const a = exprToTerm(e.left, env);
        const b = exprToTerm(e.right, env);
        if (e.op === '+') return add(a, b);
        if (e.op === '-') return sub(a, b);
        if (e.op === '*') {
          const ca = constOf(a);
          const cb = constOf(b);
          if (ca !== null) return scale(b, ca);
          if (cb !== null) return scale(a, cb);
          throw new IndexError('product of two variables in an index expression (not affine)');
        }
        const c = constOf(b);
        if (c === null || c <= 0n) throw new IndexError(`'${e.op}' by a non-constant or non-positive divisor in an index expression`);
        return e.op === '/' ? floorT(a, c) : modT(a, c);
      }
      break;
    }
    case 'call':
      if ((e.fn === 'min' || e.fn === 'max') && e.args.length === 2) {
        const a = exprToTerm(e.args[0]!, env);
        const b = exprToTerm(e.args[1]!, env);
        return e.fn === 'min' ? minT(a, b) : maxT(a, b);
      }
      break;
    case 'select':
      return selectT(exprToFormula(e.cond, env), exprToTerm(e.then, env), exprToTerm(e.else, env));
    default:
      break;
  }
  throw new IndexError(`not an affine index expression: ${e.kind}`);
}

export function exprToFormula(e: Expr, env: TermEnv): Formula {
  switch (e.kind) {
    case 'bool':
      return bool(e.value);
    case 'unary':
      if (e.op === '!') return not(exprToFormula(e.arg, env));
      break;
    case 'binary': {
      if (e.op === '&&') return and(exprToFormula(e.left, env), exprToFormula(e.right, env));
      if (e.op === '||') return or(exprToFormula(e.left, env), exprToFormula(e.right, env));
      const cmp = { '==': eqT, '!=': neT, '<': ltT, '<=': leT, '>': gtT, '>=': geT } as const;
      if (e.op in cmp) return cmp[e.op as keyof typeof cmp](exprToTerm(e.left, env), exprToTerm(e.right, env));
      break;
    }
    default:
      break;
  }
  throw new IndexError(`not an affine condition: ${e.kind}`);
}

// ---------------------------------------------------------------------------------------------
// Simplification under bounds

/** Interval bounds of variables (parameters: lower bounds from assumptions; loop counters ≥ 0). */
export type VarBounds = ReadonlyMap<string, Interval>;

export function provablyNonneg(t: Term, b: VarBounds): boolean {
  const i = intervalOf(t, b);
  return i.lo !== null && i.lo >= 0n;
}

/** Decide a formula from bounds: true, false, or null (unknown). */
export function decide(f: Formula, b: VarBounds): boolean | null {
  switch (f.kind) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'ge': {
      const i = intervalOf(f.t, b);
      if (i.lo !== null && i.lo >= 0n) return true;
      if (i.hi !== null && i.hi < 0n) return false;
      return null;
    }
    case 'eq': {
      const i = intervalOf(f.t, b);
      if (i.lo !== null && i.hi !== null && i.lo === 0n && i.hi === 0n) return true;
      if ((i.lo !== null && i.lo > 0n) || (i.hi !== null && i.hi < 0n)) return false;
      return null;
    }
    case 'and': {
      let all = true;
      for (const g of f.args) {
        const d = decide(g, b);
        if (d === false) return false;
        if (d === null) all = false;
      }
      return all ? true : null;
    }
    case 'or': {
      let none = true;
      for (const g of f.args) {
        const d = decide(g, b);
        if (d === true) return true;
        if (d === null) none = false;
      }
      return none ? false : null;
    }
    default:
      return null;
  }
}

export function simplifyFormula(f: Formula, b: VarBounds): Formula {
  const d = decide(f, b);
  if (d !== null) return bool(d);
  switch (f.kind) {
    case 'ge':
      return ge(simplify(f.t, b));
    case 'eq':
      return eq(simplify(f.t, b));
    case 'cong':
      return cong(simplify(f.t, b), f.m);
    case 'and':
      return andAll(f.args.map((g) => simplifyFormula(g, b)));
    case 'or':
      return orAll(f.args.map((g) => simplifyFormula(g, b)));
    default:
      return f;
  }
}

/** Drop min/max arguments dominated under `b`, decide select conditions, push sums into a select. */
export function simplify(t: Term, b: VarBounds): Term {
  const r = mapAtoms(
    t,
    (a, rebuilt) => {
      const at = rebuilt.parts.length === 1 && rebuilt.c === 0n && rebuilt.parts[0]![1] === 1n ? rebuilt.parts[0]![0] : null;
      if (at === null) return rebuilt;
      if (at.kind === 'min' || at.kind === 'max') {
        const isMin = at.kind === 'min';
        // y ≤ x (for min) when some upper bound of y is ≤ x; y ≥ x (max) symmetrically.
        const better = (y: Term, x: Term): boolean =>
          isMin ? upperCands(y).some((u) => provablyNonneg(sub(x, u), b)) : lowerCands(y).some((l) => provablyNonneg(sub(l, x), b));
        const keep = at.args.filter((x, i) =>
          !at.args.some((y, j) => {
            if (i === j || !better(y, x)) return false;
            // On ties keep the first.
            return !(better(x, y) && j > i);
          }),
        );
        return keep.length === at.args.length ? rebuilt : at.kind === 'min' ? minT(...keep) : maxT(...keep);
      }
      if (at.kind === 'select') {
        const c = simplifyFormula(at.cond, b);
        return selectT(c, at.then, at.else);
      }
      void a;
      return rebuilt;
    },
    (c) => simplifyFormula(c, b),
  );
  return distributeSelect(r, b);
}

/** Terms known to be ≥ t: t itself, and t with one min atom (positive coefficient) or max atom
 *  (negative coefficient) replaced by one of its arguments. */
function upperCands(t: Term): Term[] {
  const out = [t];
  for (const [a, k] of t.parts) {
    if (!((a.kind === 'min' && k > 0n) || (a.kind === 'max' && k < 0n))) continue;
    const rest = without(t, a.key);
    for (const x of a.args) out.push(linear([[rest, 1n], [x, k]]));
  }
  return out;
}

/** Terms known to be ≤ t (the mirror of upperCands). */
function lowerCands(t: Term): Term[] {
  const out = [t];
  for (const [a, k] of t.parts) {
    if (!((a.kind === 'max' && k > 0n) || (a.kind === 'min' && k < 0n))) continue;
    const rest = without(t, a.key);
    for (const x of a.args) out.push(linear([[rest, 1n], [x, k]]));
  }
  return out;
}

/** R + k·select(c, a, b) → select(c, R + k·a, R + k·b) when the select is the only one. */
function distributeSelect(t: Term, b: VarBounds): Term {
  const sels = t.parts.filter(([a]) => a.kind === 'select');
  if (sels.length !== 1 || t.parts.length === 1 && t.c === 0n && sels[0]![1] === 1n) return t;
  const [a, k] = sels[0]!;
  if (a.kind !== 'select') return t;
  const rest = without(t, a.key);
  // Only a linear rest: pushing e.g. −3·⌊sel/3⌋ into the branches would duplicate the select.
  if (rest.parts.some(([x]) => x.kind !== 'var')) return t;
  return selectT(a.cond, simplify(linear([[rest, 1n], [a.then, k]]), b), simplify(linear([[rest, 1n], [a.else, k]]), b));
}

// ---------------------------------------------------------------------------------------------
// Symbolic intervals (bounds inference) and monotonicity

export interface SymInterval {
  readonly lo: Term;
  readonly hi: Term;
}

/** Bounds of t when variable v ranges over [lo, hi] (a sound over-approximation). */
export function rangeOver(t: Term, v: string, lo: Term, hi: Term): SymInterval {
  if (!termHasVar(t, v)) return { lo: t, hi: t };
  // A remainder k·⌊s/d⌋ paired with −(k/d)·s: read it as −(k/d)·(s mod d) with s mod d ∈ [0, d).
  for (const [a, k] of t.parts) {
    if (a.kind !== 'floor' || k % a.div !== 0n || !termHasVar(a.arg, v)) continue;
    const m = k / a.div;
    const restPlus = linear([[without(t, a.key), 1n], [a.arg, m]]);
    if (restPlus.parts.some(([b]) => b.key === a.key)) continue;
    const r = rangeOver(restPlus, v, lo, hi);
    // −m·(s mod d) ∈ [−m·(d−1), 0] for m > 0, [0, −m·(d−1)] for m < 0.
    const span = -m * (a.div - 1n);
    return span < 0n ? { lo: addConst(r.lo, span), hi: r.hi } : { lo: r.lo, hi: addConst(r.hi, span) };
  }
  let accLo: Term = constant(t.c);
  let accHi: Term = constant(t.c);
  for (const [a, k] of t.parts) {
    const i = atomRange(a, v, lo, hi);
    if (k > 0n) {
      accLo = add(accLo, scale(i.lo, k));
      accHi = add(accHi, scale(i.hi, k));
    } else {
      accLo = add(accLo, scale(i.hi, k));
      accHi = add(accHi, scale(i.lo, k));
    }
  }
  return { lo: accLo, hi: accHi };
}

function atomRange(a: Atom, v: string, lo: Term, hi: Term): SymInterval {
  const self = atomTerm(a);
  switch (a.kind) {
    case 'var':
      return a.name === v ? { lo, hi } : { lo: self, hi: self };
    case 'floor': {
      const i = rangeOver(a.arg, v, lo, hi);
      return { lo: floorT(i.lo, a.div), hi: floorT(i.hi, a.div) };
    }
    case 'min':
    case 'max': {
      const is = a.args.map((x) => rangeOver(x, v, lo, hi));
      const f = a.kind === 'min' ? minT : maxT;
      return { lo: f(...is.map((i) => i.lo)), hi: f(...is.map((i) => i.hi)) };
    }
    case 'select': {
      const x = rangeOver(a.then, v, lo, hi);
      const y = rangeOver(a.else, v, lo, hi);
      if (!formulaVars(a.cond).has(v)) return { lo: selectT(a.cond, x.lo, y.lo), hi: selectT(a.cond, x.hi, y.hi) };
      return { lo: minT(x.lo, y.lo), hi: maxT(x.hi, y.hi) };
    }
  }
}

export type Monotony = 'const' | 'inc' | 'dec' | 'unknown';

function combine(a: Monotony, b: Monotony): Monotony {
  if (a === 'const') return b;
  if (b === 'const') return a;
  return a === b ? a : 'unknown';
}

function flip(m: Monotony): Monotony {
  return m === 'inc' ? 'dec' : m === 'dec' ? 'inc' : m;
}

/** How t varies with v (structurally: sums with signed coefficients, monotone min/max/floor). */
export function monotony(t: Term, v: string): Monotony {
  let m: Monotony = 'const';
  for (const [a, k] of t.parts) {
    let am: Monotony;
    switch (a.kind) {
      case 'var':
        am = a.name === v ? 'inc' : 'const';
        break;
      case 'floor':
        am = monotony(a.arg, v);
        break;
      case 'min':
      case 'max':
        am = a.args.map((x) => monotony(x, v)).reduce(combine, 'const' as Monotony);
        break;
      case 'select':
        am = formulaVars(a.cond).has(v) ? 'unknown' : combine(monotony(a.then, v), monotony(a.else, v));
        break;
    }
    m = combine(m, k > 0n ? am : flip(am));
    if (m === 'unknown') return m;
  }
  return m;
}

export { termVars as varsOf };

/** `k·min(a, b) + r ≥ 0` as `k·a + r ≥ 0 ∧ k·b + r ≥ 0` (and max as a disjunction): readable facts. */
export function splitMinMax(f: Formula): Formula {
  switch (f.kind) {
    case 'and':
      return andAll(f.args.map(splitMinMax));
    case 'or':
      return orAll(f.args.map(splitMinMax));
    case 'ge': {
      for (const [a, k] of f.t.parts) {
        if (a.kind !== 'min' && a.kind !== 'max') continue;
        const rest = without(f.t, a.key);
        const parts = a.args.map((x) => splitMinMax(ge(linear([[rest, 1n], [x, k]]))));
        const conj = (a.kind === 'min') === k > 0n;
        return conj ? andAll(parts) : orAll(parts);
      }
      return f;
    }
    default:
      return f;
  }
}
