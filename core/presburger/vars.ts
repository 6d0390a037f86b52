// Free variables of terms and formulas (memoised per node: nodes are immutable).

import type { Atom, Formula, Term } from './types.ts';

const termCache = new WeakMap<Term, ReadonlySet<string>>();
const formulaCache = new WeakMap<Formula, ReadonlySet<string>>();
const EMPTY: ReadonlySet<string> = new Set();

function atomVars(a: Atom, out: Set<string>): void {
  switch (a.kind) {
    case 'var': out.add(a.name); break;
    case 'floor': for (const v of termVars(a.arg)) out.add(v); break;
    case 'min': case 'max': for (const t of a.args) for (const v of termVars(t)) out.add(v); break;
    case 'select':
      for (const v of formulaVars(a.cond)) out.add(v);
      for (const v of termVars(a.then)) out.add(v);
      for (const v of termVars(a.else)) out.add(v);
      break;
  }
}

export function termVars(t: Term): ReadonlySet<string> {
  if (t.parts.length === 0) return EMPTY;
  let s = termCache.get(t);
  if (s) return s;
  const out = new Set<string>();
  for (const [a] of t.parts) atomVars(a, out);
  termCache.set(t, out);
  return out;
}

export function formulaVars(f: Formula): ReadonlySet<string> {
  let s = formulaCache.get(f);
  if (s) return s;
  let out: Set<string>;
  switch (f.kind) {
    case 'true': case 'false': out = new Set(); break;
    case 'ge': case 'eq': case 'cong': out = new Set(termVars(f.t)); break;
    case 'and': case 'or':
      out = new Set();
      for (const g of f.args) for (const v of formulaVars(g)) out.add(v);
      break;
    case 'exists': case 'forall':
      out = new Set(formulaVars(f.body));
      for (const v of f.vars) out.delete(v);
      break;
  }
  formulaCache.set(f, out);
  return out;
}

export function termHasVar(t: Term, v: string): boolean {
  return termVars(t).has(v);
}

export function formulaHasVar(f: Formula, v: string): boolean {
  return formulaVars(f).has(v);
}

/** Does the formula contain a quantifier anywhere (including inside select conditions)? */
export function hasQuantifier(f: Formula): boolean {
  const cached = quantCache.get(f);
  if (cached !== undefined) return cached;
  let r: boolean;
  switch (f.kind) {
    case 'true': case 'false': r = false; break;
    case 'ge': case 'eq': case 'cong': r = termHasQuantifier(f.t); break;
    case 'and': case 'or': r = f.args.some(hasQuantifier); break;
    case 'exists': case 'forall': r = true; break;
  }
  quantCache.set(f, r);
  return r;
}
const quantCache = new WeakMap<Formula, boolean>();

function termHasQuantifier(t: Term): boolean {
  for (const [a] of t.parts) {
    if (a.kind === 'floor' && termHasQuantifier(a.arg)) return true;
    if ((a.kind === 'min' || a.kind === 'max') && a.args.some(termHasQuantifier)) return true;
    if (a.kind === 'select' && (hasQuantifier(a.cond) || termHasQuantifier(a.then) || termHasQuantifier(a.else))) return true;
  }
  return false;
}
