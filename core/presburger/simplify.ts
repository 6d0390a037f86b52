// The syntactic simplifier: exact rewrites only (every step is an equivalence). Within a
// conjunction it propagates equalities (Gaussian elimination on unit coefficients, solving the
// highest-ranked variable: bound > tuple > parameter), keeps the tightest bound per linear form,
// detects contradictory bounds, and uses variable intervals to decide literals and fold floors,
// mins, maxes and selects; it passes those facts down into nested disjunctions and quantifiers.
// Disjunctions get covering/merging of bounds, common-conjunct factoring and absorption.
// Quantifiers drop variables defined by an equality or bounded on one side only.

import type { Atom, Formula, Literal, Term } from './types.ts';
import {
  FALSE, TRUE, and, andAll, conjuncts, eq, eqT, exists, ge, isLiteral, not, orAll, relit,
} from './formula.ts';
import { addConst, atomTerm, constant, linearPart, maxT, minT, neg, negKey, sub, variable, without } from './term.ts';
import { type Bounds, type Interval, FULL, intervalOf, meet, unitVar } from './interval.ts';
import { emod, floorDiv, gcd } from './bigint.ts';
import { mapAtoms, substFormula, substTerm } from './subst.ts';
import { formulaVars, termVars } from './vars.ts';
import { isFresh } from './names.ts';

export interface SimplifyOptions {
  /** Preference for solving equalities: higher rank is expressed in terms of lower rank.
   *  Defaults: generated (`$`) names 1, user names 0; quantified variables always rank highest. */
  readonly rank?: ReadonlyMap<string, number>;
}

/** A chain of literal sets; a barrier (bound variables) hides the literals above it that mention
 *  those variables. Persistent, so that nested conjunctions do not copy their context. */
interface Known {
  readonly lits: ReadonlyMap<string, Formula>;
  readonly barrier: readonly string[] | null;
  readonly parent: Known | null;
}

function knows(k: Known | null, key: string): boolean {
  const hidden: string[] = [];
  for (let c = k; c; c = c.parent) {
    const f = c.lits.get(key);
    if (f && !hidden.some((v) => formulaVars(f).has(v))) return true;
    if (c.barrier) hidden.push(...c.barrier);
  }
  return false;
}

interface Ctx {
  readonly bounds: Bounds;
  /** Literals known to hold here (conjuncts of enclosing conjunctions). */
  readonly known: Known | null;
  readonly rank: (v: string) => number;
  readonly depth: number;
}

const memo = new Map<string, Formula>();

export function clearSimplifyMemo(): void {
  memo.clear();
}
const MEMO_LIMIT = 20_000;

export function simplify(f: Formula, opts: SimplifyOptions = {}): Formula {
  if (f.kind === 'true' || f.kind === 'false') return f;
  const rankKey = opts.rank ? [...opts.rank].map(([v, r]) => `${v}:${r}`).join(',') : '';
  // Without a rank the formula's own key (flat, its hash cached by the engine) is the memo key;
  // a ranked key starts with a variable name and a colon, which no formula key does.
  const memoKey = (g: Formula): string => (rankKey === '' ? g.key : `${rankKey}|${g.key}`);
  const mkey = memoKey(f);
  const hit = memo.get(mkey);
  if (hit) return hit;
  const user = opts.rank;
  const ctx: Ctx = {
    bounds: new Map(),
    known: null,
    rank: (v) => user?.get(v) ?? (isFresh(v) ? 1 : 0),
    depth: 0,
  };
  let cur: Formula = f;
  let fixed = false;
  for (let i = 0; i < 6; i++) {
    const next = simp(cur, ctx);
    if (next.key === cur.key) { fixed = true; break; }
    cur = next;
  }
  if (memo.size > MEMO_LIMIT) memo.clear();
  memo.set(mkey, cur);
  // A fixpoint simplifies to itself: norm's second simplify (after an elimination that changed
  // nothing) is then a hit.
  if (fixed && cur !== f) memo.set(memoKey(cur), cur);
  return cur;
}

function simp(f: Formula, ctx: Ctx): Formula {
  switch (f.kind) {
    case 'true': case 'false': return f;
    case 'ge': case 'eq': case 'cong': return simpLiteral(f, ctx);
    case 'and': return simpAnd(f.args, ctx);
    case 'or': return simpOr(f.args, ctx);
    case 'exists': return simpExists(f.vars, f.body, ctx);
    case 'forall': return not(simpExists(f.vars, not(f.body), ctx));
  }
}

// ---------------------------------------------------------------- terms under bounds

function hasNonVarAtom(t: Term): boolean {
  for (const [a] of t.parts) if (a.kind !== 'var') return true;
  return false;
}

function rewriteTerm(t: Term, ctx: Ctx): Term {
  if (!hasNonVarAtom(t)) return t;
  return mapAtoms(t, (_a: Atom, rebuilt: Term) => foldAtom(rebuilt, ctx), (c) => simp(c, ctx));
}

function foldAtom(t: Term, ctx: Ctx): Term {
  if (t.parts.length !== 1 || t.parts[0]![1] !== 1n || t.c !== 0n) return t;
  const a = t.parts[0]![0];
  switch (a.kind) {
    case 'floor': {
      const i = intervalOf(a.arg, ctx.bounds);
      if (i.lo !== null && i.hi !== null && floorDiv(i.lo, a.div) === floorDiv(i.hi, a.div)) return constant(floorDiv(i.lo, a.div));
      return t;
    }
    case 'min': case 'max': {
      // Drop an argument that is never the min (max) given the bounds.
      const keep = a.args.filter((x, i) => !a.args.some((y, j) => {
        if (i === j) return false;
        const d = intervalOf(sub(y, x), ctx.bounds);
        // y ≤ x always (min) ⇒ x is redundant; ties broken by index to keep one of equal args.
        if (a.kind === 'min') return d.hi !== null && (d.hi < 0n || (d.hi === 0n && j < i));
        return d.lo !== null && (d.lo > 0n || (d.lo === 0n && j < i));
      }));
      // None left only when the bounds are contradictory (an empty interval orders anything).
      if (keep.length === 0 || keep.length === a.args.length) return t;
      return a.kind === 'min' ? minT(...keep) : maxT(...keep);
    }
    default: return t;
  }
}

// ---------------------------------------------------------------- literals

function decideLiteral(l: Literal, b: Bounds): Formula {
  const i = intervalOf(l.t, b);
  switch (l.kind) {
    case 'ge':
      if (i.lo !== null && i.lo >= 0n) return TRUE;
      if (i.hi !== null && i.hi < 0n) return FALSE;
      return l;
    case 'eq':
      if ((i.lo !== null && i.lo > 0n) || (i.hi !== null && i.hi < 0n)) return FALSE;
      if (i.lo === 0n && i.hi === 0n) return TRUE;
      return l;
    case 'cong':
      if (i.lo !== null && i.lo === i.hi) return ((i.lo % l.m) + l.m) % l.m === 0n ? TRUE : FALSE;
      return l;
  }
}

function simpLiteral(l: Literal, ctx: Ctx): Formula {
  const t = rewriteTerm(l.t, ctx);
  const g = t === l.t ? l : relit(l, t);
  if (isLiteral(g)) {
    if (ctx.known) {
      if (knows(ctx.known, g.key)) return TRUE;
      if (knows(ctx.known, not(g).key)) return FALSE;
    }
    return decideLiteral(g, ctx.bounds);
  }
  return g.kind === 'and' || g.kind === 'or' ? simp(g, ctx) : g;
}

// ---------------------------------------------------------------- conjunctions

/** Bounds given by single-variable literals (the smart constructors leave their variable a unit coefficient). */
export function boundsOf(lits: readonly Formula[]): Map<string, Interval> {
  const m = new Map<string, Interval>();
  const put = (v: string, i: Interval) => m.set(v, meet(m.get(v) ?? FULL, i));
  for (const l of lits) {
    if (l.kind !== 'ge' && l.kind !== 'eq') continue;
    const u = unitVar(l.t);
    if (!u) continue;
    const [v, s, c] = u;
    if (l.kind === 'eq') put(v, { lo: -s * c, hi: -s * c });
    else if (s === 1n) put(v, { lo: -c, hi: null });
    else put(v, { lo: null, hi: c });
  }
  return m;
}

function mergeBounds(a: Bounds, b: ReadonlyMap<string, Interval>): Bounds {
  if (b.size === 0) return a;
  const m = new Map(a);
  for (const [v, i] of b) m.set(v, meet(m.get(v) ?? FULL, i));
  return m;
}

/** Solve equalities with a unit coefficient, highest rank first; substitute everywhere else. */
function propagateEqualities(items: Formula[], ctx: Ctx): Formula[] | null {
  const defs = new Map<string, Term>();
  let rest = items;
  for (let round = 0; round < 64; round++) {
    let best: { v: string; t: Term; lit: Formula } | null = null;
    for (const f of rest) {
      if (f.kind !== 'eq') continue;
      for (const [a, k] of f.t.parts) {
        if (a.kind !== 'var' || (k !== 1n && k !== -1n)) continue;
        const other = without(f.t, a.key);
        if (termVars(other).has(a.name)) continue;
        const better = !best || ctx.rank(a.name) > ctx.rank(best.v)
          || (ctx.rank(a.name) === ctx.rank(best.v) && a.name > best.v);
        if (better) best = { v: a.name, t: k === 1n ? neg(other) : other, lit: f };
      }
    }
    if (!best) break;
    const s = new Map([[best.v, best.t]]);
    const next: Formula[] = [];
    for (const f of rest) if (f !== best.lit) next.push(substFormula(f, s));
    const flat = andAll(next);
    if (flat.kind === 'false') return null;
    rest = [...conjuncts(flat)];
    for (const [w, u] of defs) defs.set(w, substTerm(u, s));
    defs.set(best.v, best.t);
  }
  for (const [v, t] of defs) rest.push(eqT(variable(v), t));
  return rest;
}

/** Tightest ge per linear form; opposite bounds meeting become equalities or false. */
function combineBounds(items: Formula[]): Formula[] | null {
  const ges = new Map<string, { lin: Term; c: bigint }>();
  const eqs = new Map<string, { lin: Term; c: bigint }>();
  const congs = new Map<string, { m: bigint; c: bigint }[]>();
  const others: Formula[] = [];
  for (const f of items) {
    if (f.kind === 'cong') {
      // Congruences of one linear form must agree modulo the gcd of their moduli.
      const k = linearPart(f.t).key;
      const list = congs.get(k) ?? [];
      for (const o of list) {
        const g = gcd(o.m, f.m);
        if (emod(o.c - f.t.c, g) !== 0n) return null;
      }
      list.push({ m: f.m, c: f.t.c });
      congs.set(k, list);
    }
    if (f.kind === 'ge') {
      const lin = linearPart(f.t);
      const e = ges.get(lin.key);
      if (!e || f.t.c < e.c) ges.set(lin.key, { lin, c: f.t.c });
    } else if (f.kind === 'eq') {
      const lin = linearPart(f.t);
      const e = eqs.get(lin.key);
      if (e && e.c !== f.t.c) return null;
      eqs.set(lin.key, { lin, c: f.t.c });
    } else others.push(f);
  }
  const out: Formula[] = [...others];
  // Equalities against bounds on the same linear form.
  for (const [k, e] of eqs) {
    // lin = −c.
    const g1 = ges.get(k);
    if (g1) {
      if (g1.c - e.c < 0n) return null;
      ges.delete(k);
    }
    const nk = negKey(e.lin);
    const g2 = ges.get(nk);
    if (g2) {
      // −lin + c2 ≥ 0 with lin = −c: c + c2 ≥ 0.
      if (e.c + g2.c < 0n) return null;
      ges.delete(nk);
    }
    out.push(eq(addConst(e.lin, e.c)));
  }
  const done = new Set<string>();
  for (const [k, g] of ges) {
    if (done.has(k)) continue;
    const nk = negKey(g.lin);
    const o = ges.get(nk);
    if (o && !done.has(nk)) {
      // −c ≤ lin ≤ c'.
      if (-g.c > o.c) return null;
      if (-g.c === o.c) {
        out.push(eq(addConst(g.lin, g.c)));
        done.add(k);
        done.add(nk);
        continue;
      }
    }
    out.push(ge(addConst(g.lin, g.c)));
    done.add(k);
  }
  return out;
}

function simpAnd(args: readonly Formula[], ctx: Ctx): Formula {
  const first = andAll(args.map((a) => (isLiteral(a) ? simpLiteral(a, ctx) : a)));
  if (first.kind !== 'and') return first.kind === 'true' || first.kind === 'false' ? first : simp(first, ctx);
  const prop = propagateEqualities([...first.args], ctx);
  if (!prop) return FALSE;
  const flat1 = andAll(prop);
  if (flat1.kind !== 'and') return flat1.kind === 'true' || flat1.kind === 'false' ? flat1 : simp(flat1, ctx);
  const comb = combineBounds([...flat1.args]);
  if (!comb) return FALSE;
  const own = boundsOf(comb);
  const inner = mergeBounds(ctx.bounds, own);
  // Its own bounds contradict the context's (i ≥ 8 inside i ≤ 6): false where the context holds,
  // and no interval below may be read, being empty.
  for (const [v] of own) {
    const i = inner.get(v)!;
    if (i.lo !== null && i.hi !== null && i.lo > i.hi) return FALSE;
  }
  const lits = new Map<string, Formula>();
  for (const f of comb) if (isLiteral(f)) lits.set(f.key, f);
  const known: Known | null = lits.size > 0 ? { lits, barrier: null, parent: ctx.known } : ctx.known;
  const innerCtx: Ctx = { ...ctx, bounds: inner, known };
  const parentCtx: Ctx = ctx;
  const out: Formula[] = [];
  for (const f of comb) {
    if (isLiteral(f)) {
      // A literal is checked against its context, not against itself.
      const single = (f.kind === 'ge' || f.kind === 'eq') && unitVar(f.t) !== null;
      const g = single ? decideLiteral(f, ctx.bounds) : simpLiteral(f, { ...innerCtx, known: parentCtx.known });
      if (g.kind === 'false') return FALSE;
      out.push(g);
    } else {
      const g = simp(f, innerCtx);
      if (g.kind === 'false') return FALSE;
      out.push(g);
    }
  }
  return andAll(out);
}

// ---------------------------------------------------------------- disjunctions

function simpOr(args: readonly Formula[], ctx: Ctx): Formula {
  const first = orAll(args.map((a) => simp(a, ctx)));
  if (first.kind !== 'or') return first;
  let items = [...first.args];
  // Bounds on one linear form: keep the weakest, and detect covering pairs.
  const ges = new Map<string, { lin: Term; c: bigint }>();
  const rest: Formula[] = [];
  for (const f of items) {
    if (f.kind === 'ge') {
      const lin = linearPart(f.t);
      const e = ges.get(lin.key);
      if (!e || f.t.c > e.c) ges.set(lin.key, { lin, c: f.t.c });
    } else rest.push(f);
  }
  for (const [k, g] of ges) {
    const o = ges.get(negKey(g.lin));
    // lin ≥ −c ∨ lin ≤ c' covers everything when c' ≥ −c − 1.
    if (o && o.c >= -g.c - 1n && k !== negKey(g.lin)) return TRUE;
  }
  // An equality just below or above a bound extends it; one inside it is absorbed.
  const keptRest: Formula[] = [];
  for (const f of rest) {
    if (f.kind === 'eq') {
      const lin = linearPart(f.t);
      const v = -f.t.c; // lin = v
      const up = ges.get(lin.key); // lin ≥ −c
      const dn = ges.get(negKey(lin)); // lin ≤ c
      if (up && v >= -up.c) continue;
      if (dn && v <= dn.c) continue;
      if (up && v === -up.c - 1n) { up.c += 1n; continue; }
      if (dn && v === dn.c + 1n) { dn.c += 1n; continue; }
    }
    keptRest.push(f);
  }
  items = [...keptRest, ...[...ges.values()].map((g) => ge(addConst(g.lin, g.c)))];
  const again = orAll(items);
  if (again.kind !== 'or') return again;
  items = [...again.args];
  // Absorption: A ∨ (A ∧ B) = A.
  const sets = items.map((f) => new Set(conjuncts(f).map((c) => c.key)));
  const keep = items.filter((_, i) => !items.some((__, j) => {
    if (i === j) return false;
    const a = sets[j]!;
    const b = sets[i]!;
    if (a.size > b.size || (a.size === b.size && j > i)) return false;
    for (const k of a) if (!b.has(k)) return false;
    return true;
  }));
  // Factor conjuncts common to every disjunct.
  const common = [...sets[0]!].filter((k) => sets.every((s) => s.has(k)));
  const keptSets = keep.map((f) => conjuncts(f));
  if (common.length > 0 && keep.length > 1) {
    const cs = new Set(common);
    const commonFs = conjuncts(keep[0]!).filter((c) => cs.has(c.key));
    const residue = orAll(keptSets.map((cs2) => andAll(cs2.filter((c) => !cs.has(c.key)))));
    return simp(and(andAll(commonFs), residue), ctx);
  }
  return orAll(keep);
}

// ---------------------------------------------------------------- quantifiers

function simpExists(vars: readonly string[], body: Formula, ctx: Ctx): Formula {
  const bound = new Set(vars);
  const depth = ctx.depth + 1;
  const bounds = new Map(ctx.bounds);
  for (const v of vars) bounds.delete(v);
  const known: Known | null = ctx.known ? { lits: new Map(), barrier: vars, parent: ctx.known } : null;
  const inner: Ctx = {
    bounds,
    known,
    rank: (v) => (bound.has(v) ? 1000 + depth : ctx.rank(v)),
    depth,
  };
  const b = simp(body, inner);
  if (b.kind === 'or') return orAll(b.args.map((d) => simpExists(vars, d, ctx)));
  if (b.kind !== 'and' && !isLiteral(b)) return exists(vars, b);
  let cs = [...conjuncts(b)];
  let vs = vars.filter((v) => formulaVars(b).has(v));
  // Variables defined by an equality and used nowhere else.
  for (const v of [...vs]) {
    const defIdx = cs.findIndex((c) => c.kind === 'eq' && definesVar(c.t, v));
    if (defIdx < 0) continue;
    if (cs.some((c, i) => i !== defIdx && formulaVars(c).has(v))) continue;
    cs.splice(defIdx, 1);
    vs = vs.filter((w) => w !== v);
  }
  // Variables bounded on one side only (linearly, no congruence): always satisfiable.
  for (const v of [...vs]) {
    const uses = cs.filter((c) => formulaVars(c).has(v));
    let sign = 0n;
    let ok = uses.length > 0;
    for (const c of uses) {
      if (c.kind !== 'ge') { ok = false; break; }
      const k = varCoeffOnly(c.t, v);
      if (k === null) { ok = false; break; }
      const s = k > 0n ? 1n : -1n;
      if (sign !== 0n && s !== sign) { ok = false; break; }
      sign = s;
    }
    if (!ok) continue;
    cs = cs.filter((c) => !formulaVars(c).has(v));
    vs = vs.filter((w) => w !== v);
  }
  const outside = cs.filter((c) => !vs.some((v) => formulaVars(c).has(v)));
  const inside = cs.filter((c) => vs.some((v) => formulaVars(c).has(v)));
  return and(andAll(outside), exists(vs, andAll(inside)));
}

/** Is t = ±v + (terms without v)? */
function definesVar(t: Term, v: string): boolean {
  for (const [a, k] of t.parts) {
    if (a.kind === 'var' && a.name === v && (k === 1n || k === -1n)) return !termVars(without(t, a.key)).has(v);
  }
  return false;
}

/** Coefficient of v in t if v occurs only as a plain variable atom, else null. */
function varCoeffOnly(t: Term, v: string): bigint | null {
  let k: bigint | null = null;
  for (const [a, c] of t.parts) {
    if (a.kind === 'var' && a.name === v) k = c;
    else if (termVars(atomTerm(a)).has(v)) return null;
  }
  return k;
}

