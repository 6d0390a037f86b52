// Capture-avoiding substitution of terms for variables, and a generic bottom-up term rewriter.
// Results are rebuilt with the smart constructors, so they are in normal form again.

import type { Atom, Formula, Term } from './types.ts';
import { andAll, cong, eq, exists, forall, ge, orAll, relit } from './formula.ts';
import { atomTerm, floorT, linear, maxT, minT, selectT, variable } from './term.ts';
import { fresh } from './names.ts';
import { formulaVars, termVars } from './vars.ts';

export type Subst = ReadonlyMap<string, Term>;

class Substituter {
  private readonly termMemo = new Map<string, Term>();
  private readonly formulaMemo = new Map<string, Formula>();
  constructor(private readonly s: Subst) {}

  term(t: Term): Term {
    if (t.parts.length === 0) return t;
    if (!this.touches(termVars(t))) return t;
    const hit = this.termMemo.get(t.key);
    if (hit) return hit;
    const items: [Term, bigint][] = [];
    for (const [a, k] of t.parts) items.push([this.atom(a), k]);
    const r = linear(items, t.c);
    this.termMemo.set(t.key, r);
    return r;
  }

  private touches(vs: ReadonlySet<string>): boolean {
    for (const v of vs) if (this.s.has(v)) return true;
    return false;
  }

  private atom(a: Atom): Term {
    switch (a.kind) {
      case 'var': return this.s.get(a.name) ?? atomTerm(a);
      case 'floor': return floorT(this.term(a.arg), a.div);
      case 'min': return minT(...a.args.map((x) => this.term(x)));
      case 'max': return maxT(...a.args.map((x) => this.term(x)));
      case 'select': return selectT(this.formula(a.cond), this.term(a.then), this.term(a.else));
    }
  }

  formula(f: Formula): Formula {
    if (!this.touches(formulaVars(f))) return f;
    const hit = this.formulaMemo.get(f.key);
    if (hit) return hit;
    let r: Formula;
    switch (f.kind) {
      case 'true': case 'false': r = f; break;
      case 'ge': r = ge(this.term(f.t)); break;
      case 'eq': r = eq(this.term(f.t)); break;
      case 'cong': r = cong(this.term(f.t), f.m); break;
      case 'and': r = andAll(f.args.map((g) => this.formula(g))); break;
      case 'or': r = orAll(f.args.map((g) => this.formula(g))); break;
      case 'exists': case 'forall': {
        // Drop the bound variables from the substitution, rename those that would capture.
        const inner = new Map(this.s);
        for (const v of f.vars) inner.delete(v);
        const fv = formulaVars(f.body);
        const incoming = new Set<string>();
        for (const [x, t] of inner) if (fv.has(x)) for (const v of termVars(t)) incoming.add(v);
        const vars: string[] = [];
        for (const v of f.vars) {
          if (incoming.has(v)) {
            const w = fresh(v);
            inner.set(v, variable(w));
            vars.push(w);
          } else vars.push(v);
        }
        const body = inner.size === 0 ? f.body : new Substituter(inner).formula(f.body);
        r = f.kind === 'exists' ? exists(vars, body) : forall(vars, body);
        break;
      }
    }
    this.formulaMemo.set(f.key, r);
    return r;
  }
}

export function substTerm(t: Term, s: Subst): Term {
  return s.size === 0 ? t : new Substituter(s).term(t);
}

export function substFormula(f: Formula, s: Subst): Formula {
  return s.size === 0 ? f : new Substituter(s).formula(f);
}

/** Rename variables (a substitution by variables). */
export function renameFormula(f: Formula, m: ReadonlyMap<string, string>): Formula {
  const s = new Map<string, Term>();
  for (const [a, b] of m) if (a !== b) s.set(a, variable(b));
  return substFormula(f, s);
}

export function renameTerm(t: Term, m: ReadonlyMap<string, string>): Term {
  const s = new Map<string, Term>();
  for (const [a, b] of m) if (a !== b) s.set(a, variable(b));
  return substTerm(t, s);
}

export function subst1(f: Formula, v: string, t: Term): Formula {
  return substFormula(f, new Map([[v, t]]));
}

/** Rewrite every atom of a term bottom-up with `f` (used by interval simplification). */
export function mapAtoms(t: Term, f: (a: Atom, rebuilt: Term) => Term, g: (c: Formula) => Formula): Term {
  if (t.parts.length === 0) return t;
  const items: [Term, bigint][] = [];
  for (const [a, k] of t.parts) {
    let rebuilt: Term;
    switch (a.kind) {
      case 'var': rebuilt = atomTerm(a); break;
      case 'floor': rebuilt = floorT(mapAtoms(a.arg, f, g), a.div); break;
      case 'min': rebuilt = minT(...a.args.map((x) => mapAtoms(x, f, g))); break;
      case 'max': rebuilt = maxT(...a.args.map((x) => mapAtoms(x, f, g))); break;
      case 'select': rebuilt = selectT(g(a.cond), mapAtoms(a.then, f, g), mapAtoms(a.else, f, g)); break;
    }
    items.push([f(a, rebuilt), k]);
  }
  return linear(items, t.c);
}

/** Replace every occurrence of the atom with key `key` (nested ones too) by `by`, in a
 *  quantifier-free formula (quantified subformulas are left alone). */
export function replaceAtom(f: Formula, key: string, by: Term): Formula {
  const rt = (t: Term): Term => mapAtoms(t, (a, rebuilt) => (a.key === key ? by : rebuilt), (c) => replaceAtom(c, key, by));
  switch (f.kind) {
    case 'ge': case 'eq': case 'cong': return relit(f, rt(f.t));
    case 'and': return andAll(f.args.map((g) => replaceAtom(g, key, by)));
    case 'or': return orAll(f.args.map((g) => replaceAtom(g, key, by)));
    default: return f;
  }
}
