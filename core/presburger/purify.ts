// Quotient naming for certificates: every ⌊t/k⌋ (and every congruence t ≡ 0 mod k) whose t
// mentions a quantified variable becomes a new variable q of the same quantifier, defined by
// 0 ≤ t − k·q ≤ k − 1. The quotient is unique, so `∃x. φ` becomes `∃x q. def ∧ φ[q]` and
// `∀x. φ` becomes `∀x q. def ⇒ φ[q]`, equivalences that hold whatever the polarity of the
// occurrence. Solvers without a strong div/mod theory under quantifiers (z3 4.8, cvc5 1.0) then
// see linear arithmetic only under the binders: a quantified equivalence that timed out for
// minutes is proved in milliseconds (thesis Example 9's last-writer elimination, for instance).

import type { Atom, Formula, Term } from './types.ts';
import { andAll, eq, exists, forall, ge, implies, orAll, relit } from './formula.ts';
import { addConst, scale, sub, variable } from './term.ts';
import { mapAtoms } from './subst.ts';
import { formulaVars, termVars } from './vars.ts';

type Floor = Extract<Atom, { kind: 'floor' }>;

/** The prefix of the quotient names: `!` appears in no SCHED identifier and in no name of the
 *  Presburger layer (`base$n`), and reserved SMT words get a bare `!` suffix, never `!<digits>`. */
const QUOTIENT = 'quot!';

export function purifyQuantifiers(f: Formula): Formula {
  let n = 0;
  const go = (g: Formula): Formula => {
    switch (g.kind) {
      case 'and': return andAll(g.args.map(go));
      case 'or': return orAll(g.args.map(go));
      case 'exists': case 'forall': {
        const bound = new Set(g.vars);
        const { defs, formulas: [body] } = nameQuotients([go(g.body)], bound, () => `${QUOTIENT}${++n}`, (t) => mentions(t, bound));
        return g.kind === 'exists' ? exists([...bound], andAll([defs, body!])) : forall([...bound], implies(defs, body!));
      }
      default: return g;
    }
  };
  return go(f);
}

/**
 * Outside the quantifiers: every ⌊t/k⌋ and congruence left (their t mentions free variables only,
 * once `purifyQuantifiers` has run) is named by a new free constant `quot!topN` with its
 * definition returned apart. `defs ∧ φ[q]` is satisfiable exactly when `φ` is (q is determined by
 * the free variables), so a certificate may assert `defs` beside its claim. cvc5 1.0 times out on
 * `∃…` next to a top-level `div` (a two-line elimination certificate of a 4-lane dot product) and
 * proves the named form at once. `prefix` keeps apart names given to another set of formulas
 * (`quot!hintN`: certificate.ts names its instances on their own).
 */
export function purifyFree(fs: readonly Formula[], prefix = 'top'): { readonly defs: Formula; readonly formulas: readonly Formula[] } {
  const free = new Set<string>();
  for (const f of fs) for (const v of formulaVars(f)) free.add(v);
  let n = 0;
  // Only arguments over free variables (and quotients named here): a bound variable left by a
  // caller that did not purify first must not escape its binder.
  return nameQuotients(fs, free, () => `${QUOTIENT}${prefix}${++n}`, (t) => termVars(t).size > 0 && [...termVars(t)].every((v) => free.has(v)));
}

/** Name, innermost first, every floor and congruence of `fs` whose argument `takes` (given the
 *  quotients named so far in `scope`); one name per quotient ⌊t/k⌋, however many floors and
 *  congruences of t modulo k mention it. Each new quotient joins `scope` and gets
 *  `0 ≤ t − k·q ≤ k − 1` in `defs`. */
function nameQuotients(fs: readonly Formula[], scope: Set<string>, fresh: () => string, takes: (t: Term) => boolean): { defs: Formula; formulas: Formula[] } {
  const defs: Formula[] = [];
  // Two names for one quotient are equal only through their definitions, and a solver must find
  // that: cvc5 1.0.3 gave no answer in 30 s on sc1_shared_window's elim077.1, whose three
  // congruences `H ≡ 0 (mod 16)` had three names, and refutes it in 0.2 s with one (and splits).
  const named = new Map<string, Term>();
  const name = (arg: Term, k: bigint): Term => {
    const key = `${k}|${arg.key}`;
    const known = named.get(key);
    if (known) return known;
    const q = fresh();
    named.set(key, variable(q));
    scope.add(q);
    const r = sub(arg, scale(variable(q), k));
    defs.push(ge(r), ge(addConst(scale(r, -1n), k - 1n)));
    return variable(q);
  };
  let cur = [...fs];
  const next = (): Floor | null => {
    for (const f of cur) {
      const a = innermostFloor(f, takes);
      if (a) return a;
    }
    return null;
  };
  // Each round removes one floor (its replacement mentions only the new quotient), so this ends;
  // the bound only turns a bug into an error instead of a hang.
  for (let a = next(), round = 0; a; a = next(), round++) {
    if (round > 10_000) throw new Error('purify: no progress naming quotients');
    const q = name(a.arg, a.div);
    const key = a.key;
    cur = cur.map((f) => replaceFloor(f, key, q));
  }
  const formulas = cur.map((f) => replaceCongruences(f, takes, name));
  return { defs: andAll(defs), formulas };
}

const mentions = (t: Term, bound: ReadonlySet<string>): boolean => [...termVars(t)].some((v) => bound.has(v));

/** A floor atom of `f` (anywhere, nested quantifiers and select conditions included) whose
 *  argument `takes` and contains no such floor itself. */
function innermostFloor(f: Formula, takes: (t: Term) => boolean): Floor | null {
  let found: Floor | null = null;
  const inTerm = (t: Term): void => {
    for (const [a] of t.parts) {
      if (found) return;
      switch (a.kind) {
        case 'var': break;
        case 'floor':
          inTerm(a.arg);
          if (!found && takes(a.arg)) found = a;
          break;
        case 'min': case 'max': a.args.forEach(inTerm); break;
        case 'select': inFormula(a.cond); inTerm(a.then); inTerm(a.else); break;
      }
    }
  };
  const inFormula = (g: Formula): void => {
    if (found) return;
    switch (g.kind) {
      case 'ge': case 'eq': case 'cong': inTerm(g.t); break;
      case 'and': case 'or': g.args.forEach(inFormula); break;
      case 'exists': case 'forall': inFormula(g.body); break;
      default: break;
    }
  };
  inFormula(f);
  return found;
}

/** Rebuild `f` with `rt` applied to every literal's term, and `lit` deciding literals first. */
function mapLiterals(f: Formula, rt: (t: Term) => Term, lit: (l: Extract<Formula, { kind: 'ge' | 'eq' | 'cong' }>) => Formula | null): Formula {
  const rec = (g: Formula): Formula => mapLiterals(g, rt, lit);
  switch (f.kind) {
    case 'ge': case 'eq': case 'cong': return lit(f) ?? relit(f, rt(f.t));
    case 'and': return andAll(f.args.map(rec));
    case 'or': return orAll(f.args.map(rec));
    // Bound names are unique (`base$n`, `quot!n`), so rewriting under a binder cannot capture.
    case 'exists': return exists(f.vars, rec(f.body));
    case 'forall': return forall(f.vars, rec(f.body));
    default: return f;
  }
}

function replaceFloor(f: Formula, key: string, by: Term): Formula {
  const rt = (t: Term): Term => mapAtoms(t, (a, rebuilt) => (a.key === key ? by : rebuilt), (c) => replaceFloor(c, key, by));
  return mapLiterals(f, rt, () => null);
}

/** t ≡ 0 (mod k) with t taken ⇔ t − k·q = 0 for the named quotient q. */
function replaceCongruences(f: Formula, takes: (t: Term) => boolean, name: (arg: Term, k: bigint) => Term): Formula {
  return mapLiterals(f, (t) => t, (l) => (l.kind === 'cong' && takes(l.t) ? eq(sub(l.t, scale(name(l.t, l.m), l.m))) : null));
}
