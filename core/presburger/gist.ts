// Simplification under what is known (a "gist"): terms and formulas rewritten into equivalent
// ones given a context of facts, with the entailment of entail.ts. Every step is an equivalence
// under the context: a min/max argument is dropped only when another one is shown to be at most
// (at least) it, a select only when its condition is shown to hold or fail, a floor folded only
// when its argument is shown to lie in one quotient's range, a literal replaced by true/false
// only when shown to hold or fail, a conjunct dropped only when the others entail it. What cannot
// be shown stays as it is.
//
// `gist(f, context)` also splits min, max and select out of literals (`min(a, b) ≥ c` is
// `a ≥ c ∧ b ≥ c`, `select(p, a, b) ≥ c` is `(p ∧ a ≥ c) ∨ (¬p ∧ b ≥ c)`), so that what a
// condition says about each parameter can be seen and compared: Halide's asserts on required
// regions become plain bounds on buffer fields.

import type { Atom, Formula, Literal, Term } from './types.ts';
import { FALSE, TRUE, and, andAll, conjuncts, cong, eq, ge, not, orAll, relit } from './formula.ts';
import { addConst, atomTerm, constant, floorT, linear, maxT, minT, neg, selectT, solveUnit, sub, variable } from './term.ts';
import { floorDiv } from './bigint.ts';
import { entails, plain, rangeOf } from './entail.ts';
import { replaceAtom, substFormula, substTerm } from './subst.ts';
import { termVars } from './vars.ts';

/** What is known: a conjunction of facts. */
export class Known {
  constructor(readonly facts: readonly Formula[] = []) {}
  with(...fs: Formula[]): Known {
    const add = fs.filter((f) => f.kind !== 'true');
    return add.length === 0 ? this : new Known([...this.facts, ...add]);
  }
  /** Facts that do not mention any of `vars` (a binder that shadows them). */
  without(vars: ReadonlySet<string>, varsOf: (f: Formula) => ReadonlySet<string>): Known {
    return new Known(this.facts.filter((f) => ![...varsOf(f)].some((v) => vars.has(v))));
  }
  entails(f: Formula): boolean {
    if (f.kind === 'true') return true;
    if (f.kind === 'false') return false;
    return entails(this.facts, f);
  }
}

function hasNonVarAtom(t: Term): boolean {
  for (const [a] of t.parts) if (a.kind !== 'var') return true;
  return false;
}

/** `t` simplified under `k`. */
export function simplifyTerm(t: Term, k: Known): Term {
  if (!hasNonVarAtom(t)) return t;
  return linear(t.parts.map(([a, c]) => [simplifyAtom(a, k), c] as const), t.c);
}

function simplifyAtom(a: Atom, k: Known): Term {
  switch (a.kind) {
    case 'var':
      return atomTerm(a);
    case 'floor': {
      // floorT may take a constant out: ⌊(s + 31)/16⌋ is ⌊(s + 15)/16⌋ + 1.
      const r = floorT(simplifyTerm(a.arg, k), a.div);
      const at = r.parts.length === 1 && r.parts[0]![1] === 1n ? r.parts[0]![0] : null;
      if (at?.kind !== 'floor') return r;
      const range = rangeOf(k.facts, at.arg);
      if (range !== 'empty' && range.lo !== null && range.hi !== null && floorDiv(range.lo, at.div) === floorDiv(range.hi, at.div)) return constant(floorDiv(range.lo, at.div) + r.c);
      return r;
    }
    case 'min':
    case 'max': {
      const built = (a.kind === 'min' ? minT : maxT)(...a.args.map((x) => simplifyTerm(x, k)));
      const at = built.parts.length === 1 && built.parts[0]![1] === 1n && built.c === 0n ? built.parts[0]![0] : null;
      if (at?.kind !== a.kind) return built;
      // Drop an argument another one is shown to beat; of two equal ones the first is kept.
      let args = [...at.args];
      for (let i = 0; i < args.length && args.length > 1; ) {
        const x = args[i]!;
        const beaten = args.some((y, j) => j !== i && k.entails(a.kind === 'min' ? leTerm(y, x) : leTerm(x, y)));
        if (beaten) args = args.filter((_, j) => j !== i);
        else i++;
      }
      return a.kind === 'min' ? minT(...args) : maxT(...args);
    }
    case 'select': {
      const c = simplifyFormula(a.cond, k);
      if (c.kind === 'true' || k.entails(c)) return simplifyTerm(a.then, k);
      const nc = not(c);
      if (c.kind === 'false' || k.entails(nc)) return simplifyTerm(a.else, k);
      const kt = k.with(c);
      const ke = k.with(nc);
      const th = simplifyTerm(a.then, kt);
      const el = simplifyTerm(a.else, ke);
      if (th.key === el.key) return th;
      // One branch's value is the other's where it is taken: no select is needed.
      if (kt.entails(eq(sub(th, el)))) return el;
      if (ke.entails(eq(sub(th, el)))) return th;
      return selectT(c, th, el);
    }
  }
}

/** (a ∧ b) ∨ (a ∧ c) is a ∧ (b ∨ c): conjuncts common to every disjunct written once. */
function factorOut(args: readonly Formula[]): Formula {
  if (args.length < 2) return orAll(args);
  const common = conjuncts(args[0]!).filter((c) => args.every((d) => conjuncts(d).some((x) => x.key === c.key)));
  if (common.length === 0) return orAll(args);
  const keys = new Set(common.map((c) => c.key));
  return andAll([...common, orAll(args.map((d) => andAll(conjuncts(d).filter((x) => !keys.has(x.key)))))]);
}

function dropOrder(f: Formula): number {
  return f.kind === 'eq' ? 3 : f.kind === 'cong' ? 2 : f.kind === 'ge' ? 1 : 0;
}

function leTerm(x: Term, y: Term): Formula {
  // x ≤ y as a literal (ge's normalisation may fold it to a constant).
  const d = sub(y, x);
  return d.parts.length === 0 ? (d.c >= 0n ? TRUE : FALSE) : { kind: 'ge', t: d, key: `≥${d.key}` };
}

/**
 * `f` simplified under `k`. In a conjunction each conjunct is simplified under the others (as
 * they are at that point, so that of two equivalent conjuncts one stays), in a disjunction each
 * disjunct under the negation of the others.
 */
export function simplifyFormula(f: Formula, k: Known): Formula {
  switch (f.kind) {
    case 'true':
    case 'false':
      return f;
    case 'ge':
    case 'eq':
    case 'cong': {
      const l = remainderBound(relit(f, simplifyTerm(f.t, k)));
      if (l.kind === 'true' || l.kind === 'false') return l;
      if (k.entails(l)) return TRUE;
      if (k.entails(not(l))) return FALSE;
      // t ≥ 0 where t ≤ 0 is known: t = 0 (which then solves and substitutes).
      if (l.kind === 'ge' && k.entails(ge(neg(l.t)))) return eq(l.t);
      return l;
    }
    case 'and':
    case 'or': {
      const isAnd = f.kind === 'and';
      // Compound arguments are simplified (and dropped) first, equalities last: of `x = 0`,
      // `x ≤ 0` and `x + y ≥ 128` with `y = 128`, the bounds go and the equality stays.
      let args = [...f.args].sort((x, y) => dropOrder(x) - dropOrder(y));
      for (let pass = 0; pass < 2; pass++) {
        let changed = false;
        for (let i = 0; i < args.length; i++) {
          const others = args.filter((_, j) => j !== i);
          const ki = k.with(...(isAnd ? others : others.map(not)));
          const s = simplifyFormula(args[i]!, ki);
          if (s.key !== args[i]!.key) changed = true;
          if (s.kind === (isAnd ? 'false' : 'true')) return s;
          if (s.kind === (isAnd ? 'true' : 'false')) {
            args = others;
            i--;
          } else args[i] = s;
        }
        if (!changed) break;
      }
      if (isAnd) {
        // Equalities solved and substituted into their siblings (x = 0 ∧ y + x ≥ W: y ≥ W).
        const { rest, solved } = solveEqualities(args);
        if (solved.size === 0) return andAll(args);
        return andAll([...rest, ...[...solved].map(([x, e]) => eq(sub(variable(x), e)))]);
      }
      return factorOut(args);
    }
    case 'exists':
    case 'forall':
      return f;
  }
}

// ---------------------------------------------------------------- splitting min/max/select

/** The first min, max or select atom of a term (innermost first), or null. */
function firstSplittable(t: Term): Atom | null {
  for (const [a] of t.parts) {
    switch (a.kind) {
      case 'var':
        break;
      case 'floor': {
        const inner = firstSplittable(a.arg);
        if (inner) return inner;
        break;
      }
      case 'min':
      case 'max': {
        for (const x of a.args) {
          const inner = firstSplittable(x);
          if (inner) return inner;
        }
        return a;
      }
      case 'select': {
        const inner = firstSplittable(a.then) ?? firstSplittable(a.else);
        return inner ?? a;
      }
    }
  }
  return null;
}

function coefficientOf(t: Term, key: string): bigint {
  for (const [a, k] of t.parts) if (a.key === key) return k;
  return 0n;
}

/**
 * A literal without min, max and select: monotone cases become conjunctions (`min(a, b) ≥ c` is
 * `a ≥ c ∧ b ≥ c`) or disjunctions, the others a case split on which argument is taken.
 */
function splitLiteral(l: Literal): Formula {
  const a = firstSplittable(l.t);
  if (a === null) return l;
  const by = (x: Term): Formula => split(replaceAtom(l, a.key, x));
  if (a.kind === 'select') return orAll([and(a.cond, by(a.then)), and(not(a.cond), by(a.else))]);
  const args = (a as Extract<Atom, { kind: 'min' | 'max' }>).args;
  const k = coefficientOf(l.t, a.key);
  // The monotone rewrite needs the atom to occur only as a summand (not also inside a floor:
  // `min(N, x) mod 3 ≥ 1` is not `N mod 3 ≥ 1 ∧ x mod 3 ≥ 1`).
  if (l.kind === 'ge' && k !== 0n && !l.t.parts.some(([b]) => b.key !== a.key && b.key.includes(a.key))) {
    // k·min(…) + r ≥ 0 with k > 0 holds for every argument; with k < 0 for some (max: reversed).
    const every = (a.kind === 'min') === k > 0n;
    return every ? andAll(args.map(by)) : orAll(args.map(by));
  }
  // An equality, a congruence, or an atom nested inside a floor: which argument is taken.
  return orAll(args.map((x, i) => andAll([...args.flatMap((y, j) => (j === i ? [] : [a.kind === 'min' ? leTerm(x, y) : leTerm(y, x)])), by(x)])));
}

/** `f` with every min, max and select split out of its literals (an equivalence). */
export function split(f: Formula): Formula {
  switch (f.kind) {
    case 'ge':
    case 'eq':
    case 'cong':
      return splitLiteral(f);
    case 'and':
      return andAll(f.args.map(split));
    case 'or':
      return orAll(f.args.map(split));
    default:
      return f;
  }
}

// ---------------------------------------------------------------- equalities and remainders

/** The variable an equality literal is solved for: one with a unit coefficient, the last by
 *  name (so that chains of aliases all end at the first name), and its value. */
function solvable(f: Formula): [string, Term] | null {
  if (f.kind !== 'eq') return null;
  let best: string | null = null;
  for (const [a, k] of f.t.parts) if (a.kind === 'var' && (k === 1n || k === -1n) && (best === null || a.name > best)) best = a.name;
  if (best === null) return null;
  const v = solveUnit(f.t, best);
  return v === null ? null : [best, v];
}

/**
 * The variables a conjunction defines by a top-level equality (`x = 0`, `y = x`), each as a term
 * over variables it does not define: what can be substituted wherever the conjunction holds.
 */
export function definitions(f: Formula): Map<string, Term> {
  const defs = new Map<string, Term>();
  for (const c of conjuncts(f)) {
    const s = solvable(c);
    if (s && !defs.has(s[0])) defs.set(s[0], s[1]);
  }
  // Each defined name is the greatest of its literal, so substituting to a fixpoint terminates.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [x, e] of defs) {
      const e2 = substTerm(e, defs);
      if (e2.key !== e.key) {
        defs.set(x, e2);
        changed = true;
      }
    }
  }
  for (const [x, e] of defs) if (termVars(e).has(x)) defs.delete(x);
  return defs;
}

/**
 * Top-level equalities solved and substituted into the other conjuncts (φ ∧ x = e is
 * φ[x := e] ∧ x = e): `B.min.1 = 0` makes `B.extent.1 + B.min.1 ≥ …` a bound on B.extent.1
 * alone, and aliases (`C.extent.0 = A.extent.0`) collapse to one name.
 */
function solveEqualities(conjs: readonly Formula[]): { rest: Formula[]; solved: Map<string, Term> } {
  const solved = new Map<string, Term>();
  let rest = [...conjs];
  for (;;) {
    const i = rest.findIndex((f) => solvable(f) !== null);
    if (i < 0) break;
    const [x, e] = solvable(rest[i]!)!;
    const sub = new Map([[x, e]]);
    rest = rest.filter((_, j) => j !== i).map((f) => substFormula(f, sub));
    for (const [y, t] of solved) solved.set(y, substTerm(t, sub));
    solved.set(x, e);
    if (rest.some((f) => f.kind === 'false')) return { rest: [FALSE], solved };
    rest = rest.filter((f) => f.kind !== 'true');
  }
  return { rest, solved };
}

/** `t ≥ 0` and `−t ≥ 0` among the conjuncts become `t = 0`. */
function boundsToEqualities(conjs: readonly Formula[]): Formula[] {
  const ge = new Map<string, Formula>();
  for (const f of conjs) if (f.kind === 'ge') ge.set(f.t.key, f);
  const out: Formula[] = [];
  const done = new Set<string>();
  for (const f of conjs) {
    if (f.kind !== 'ge') {
      out.push(f);
      continue;
    }
    if (done.has(f.t.key)) continue;
    const n = linear([[f.t, -1n]]);
    if (ge.has(n.key)) {
      done.add(n.key);
      out.push(eq(f.t));
    } else out.push(f);
  }
  return out;
}

/**
 * A bound on a remainder as the congruence it is: `s − d·⌊(s + d − 1)/d⌋ ≥ 0` (s is a multiple
 * of d, written that way by Halide's rounding up to a multiple) is `s ≡ 0 (mod d)`. In general
 * j·(s mod d) + c ≥ 0 is s mod d ≥ ⌈−c/j⌉, which for d − 1 says s ≡ d − 1.
 */
function remainderBound(f: Formula): Formula {
  if (f.kind !== 'ge' && f.kind !== 'eq') return f;
  for (const [a, k] of f.t.parts) {
    if (a.kind !== 'floor' || k % a.div !== 0n) continue;
    // t = j·(s mod d) + c with j = −k/d: s's parts cancel in t − j·s + j·d·⌊s/d⌋.
    const j = -k / a.div;
    const rest = linear([[f.t, 1n], [atomTerm(a), -k], [a.arg, -j]]);
    if (rest.parts.length !== 0) continue;
    const c = rest.c;
    if (f.kind === 'eq') {
      // s mod d = −c/j
      if (c % j !== 0n) return FALSE;
      const r = -c / j;
      return r < 0n || r >= a.div ? FALSE : cong(addConst(a.arg, -r), a.div);
    }
    // j > 0: s mod d ≥ ⌈−c/j⌉; j < 0: s mod d ≤ ⌊c/−j⌋.
    const [lo, hi] = j > 0n ? [-floorDiv(c, j), a.div - 1n] : [0n, floorDiv(c, -j)];
    if (lo > hi || lo >= a.div || hi < 0n) return FALSE;
    if (lo <= 0n && hi >= a.div - 1n) return TRUE;
    if (lo === hi) return cong(addConst(a.arg, -lo), a.div);
  }
  return f;
}

/**
 * `f` simplified under `context` for a reader: equalities solved and substituted, then
 * simplified as it is (atoms the context decides are folded), then min, max and select split out
 * of its literals, then simplified again (redundant conjuncts and impossible cases removed), until
 * nothing changes. Equivalent to `f` wherever `context` holds.
 */
export function gist(f: Formula, context: readonly Formula[] = []): Formula {
  let cur = f;
  const solved = new Map<string, Term>();
  for (let round = 0; round < 4; round++) {
    const s = solveEqualities(boundsToEqualities(conjuncts(cur).map(remainderBound)));
    for (const [x, e] of s.solved) solved.set(x, e);
    for (const [y, t] of solved) solved.set(y, substTerm(t, s.solved));
    const eqs = [...solved].map(([x, e]) => eq(sub(variable(x), e)));
    const k = new Known([...context, ...eqs]);
    // Each compound conjunct (a required region's min/max/select arithmetic) simplified and split
    // under the plain ones, not under each other (their cases would multiply); then all of them
    // together, now mostly plain, to drop what the others imply.
    const plainOnes = s.rest.filter(plain);
    const kp = k.with(...plainOnes);
    const split1 = s.rest.map((c) => (plain(c) ? c : split(simplifyFormula(c, kp))));
    const next = simplifyFormula(andAll(split1), k);
    if (next.key === cur.key && s.solved.size === 0) break;
    cur = next;
  }
  const eqs = [...solved].map(([x, e]) => eq(sub(variable(x), e)));
  return andAll([...conjuncts(cur).map(remainderBound), ...eqs]);
}
