// Symbolic heaps (thesis §5.2): Presburger relations from array locations a⟨x⟩ to expression
// contexts E⟨y⟩ (proofs/verifier/template.ts), and read sets (sets of locations). The operations are the
// thesis's definitions, computed on formulas; the quantifiers they introduce ("not overwritten",
// "no later write") are eliminated exactly by the Presburger layer when it can (closed forms for
// the usual last-writer patterns), and kept otherwise: never approximated.

import type { Formula, PRel, PSet, RelPiece, SetPiece, Term } from '../../core/presburger/types.ts';
import { and, andAll, conjuncts, exists, FALSE, geT, gtT, ltT, not, orAll, eqT, TRUE } from '../../core/presburger/formula.ts';
import { constant, variable } from '../../core/presburger/term.ts';
import { fresh } from '../../core/presburger/names.ts';
import { flat, tupleVars } from '../../core/presburger/tuple.ts';
import { renameFormula, substFormula } from '../../core/presburger/subst.ts';
import { formulaVars, termVars } from '../../core/presburger/vars.ts';
import { simplify } from '../../core/presburger/simplify.ts';
import { eliminate } from '../../core/presburger/qe.ts';
import type { Template } from './template.ts';

export const EMPTY_HEAP: PRel = { kind: 'rel', pieces: [] };

/**
 * dom(h) per array, kept beside each heap built here: a formula over its own location
 * variables. Computing it from the pieces would project their value variables out of guards
 * that hold "no later write" clauses with congruences; keeping it alongside follows
 * dom(h1 ▷ h2) = dom h1 ∪ dom h2 and dom(▶_x h) = ⋃_x dom h, which stay simple.
 */
interface Dom {
  readonly vars: readonly string[];
  readonly f: Formula;
}
type Doms = ReadonlyMap<string, Dom>;
const domains = new WeakMap<PRel, Doms>();
domains.set(EMPTY_HEAP, new Map());

function tracked(pieces: RelPiece[], doms: Doms | null): PRel {
  const h: PRel = { kind: 'rel', pieces };
  if (doms) domains.set(h, doms);
  return h;
}

function domAt(d: Dom, at: readonly Term[]): Formula {
  return substFormula(d.f, new Map(d.vars.map((v, k) => [v, at[k]!] as const)));
}

function mapDoms(h: PRel, f: (d: Dom) => Formula): Doms | null {
  const ds = domains.get(h);
  if (!ds) return null;
  const out = new Map<string, Dom>();
  for (const [a, d] of ds) {
    const g = norm(f(d));
    if (g.kind !== 'false') out.set(a, { vars: d.vars, f: g });
  }
  return out;
}

function joinDoms(a: PRel, b: PRel, fa: Formula = TRUE, fb: Formula = TRUE): Doms | null {
  const da = domains.get(a);
  const db = domains.get(b);
  if (!da || !db) return null;
  const out = new Map<string, Dom>();
  for (const name of new Set([...da.keys(), ...db.keys()])) {
    const x = da.get(name);
    const y = db.get(name);
    // A domain on one side only, unrestricted, is the joined domain as it is (h ▷ Δh when Δh
    // writes other arrays): renaming and normalising it again would give it back.
    if (x !== undefined && y === undefined && fa === TRUE) {
      out.set(name, x);
      continue;
    }
    if (x === undefined && y !== undefined && fb === TRUE) {
      out.set(name, y);
      continue;
    }
    const vars = (x ?? y)!.vars.map((v) => fresh(v));
    const at = vars.map(variable);
    const f = norm(orAll([...(x ? [and(domAt(x, at), fa)] : []), ...(y ? [and(domAt(y, at), fb)] : [])]));
    if (f.kind !== 'false') out.set(name, { vars, f });
  }
  return out;
}

/**
 * For each heap piece we know of, an over-approximation of the free variables its *value*
 * depends on once its location is fixed. A hole filled by the same term as a location index
 * depends on nothing more (the value is a function of the location). This is what makes the
 * iterated update cheap when every iteration writing a location writes the same value there
 * (tiles with ShiftInwards tails, recomputed stencils): the last writer is then any writer, and
 * ▶ is the iterated union, with no "no later write" quantifier to eliminate.
 */
const valueDeps = new WeakMap<RelPiece, ReadonlySet<string> | 'unknown'>();

function depsOf(p: RelPiece): ReadonlySet<string> | 'unknown' {
  return valueDeps.get(p) ?? 'unknown';
}

function withDeps(p: RelPiece, d: ReadonlySet<string> | 'unknown'): RelPiece {
  valueDeps.set(p, d);
  return p;
}

function holeDeps(loc: readonly Term[], holes: readonly Term[]): Set<string> {
  const locKeys = new Set(loc.map((t) => t.key));
  const d = new Set<string>();
  for (const h of holes) if (!locKeys.has(h.key)) for (const v of termVars(h)) d.add(v);
  return d;
}

function mapDeps(p: RelPiece, q: RelPiece, f: (d: ReadonlySet<string>) => ReadonlySet<string>): RelPiece {
  const d = depsOf(p);
  return withDeps(q, d === 'unknown' ? 'unknown' : f(d));
}

/** Milliseconds spent in `norm` (the Presburger work of the symbolic evaluation), for benchmarks. */
export const presburgerClock = { ms: 0 };

/** Quantifier elimination where exact, then syntactic simplification. */
export function norm(f: Formula): Formula {
  const t0 = performance.now();
  const r = simplify(eliminate(simplify(f)));
  presburgerClock.ms += performance.now() - t0;
  return r;
}

export function arrayOf(p: RelPiece | SetPiece): string {
  const t = 'dom' in p ? p.dom : p.tuple;
  return t.name;
}

function locVars(p: RelPiece): string[] {
  return tupleVars(p.dom);
}

/** {a⟨ι⟩ → E⟨holes⟩}: the heap written by one assignment (T-ASSIGN). */
export function singleWrite(array: string, loc: readonly Term[], tmpl: Template, holes: readonly Term[]): PRel {
  const xs = loc.map(() => fresh('x'));
  const ys = holes.map(() => fresh('y'));
  const guard = andAll([...loc.map((t, k) => eqT(variable(xs[k]!), t)), ...holes.map((t, k) => eqT(variable(ys[k]!), t))]);
  const dv = loc.map(() => fresh('x'));
  const dom: Dom = { vars: dv, f: andAll(loc.map((t, k) => eqT(variable(dv[k]!), t))) };
  return tracked([withDeps({ dom: flat(array, xs), ran: flat(tmpl.key, ys), guard }, holeDeps(loc, holes))], new Map([[array, dom]]));
}

/**
 * {a⟨x⟩ → E⟨holes⟩ : x_k = loc_k where loc_k is given}: a write to every location matching a
 * pattern (a null position is any index). The reduction rules use it to mark a cell's
 * contributions, for every reduction point and position at once, as no longer live.
 */
export function patternWrite(array: string, loc: readonly (Term | null)[], tmpl: Template, holes: readonly Term[]): PRel {
  const xs = loc.map(() => fresh('x'));
  const ys = holes.map(() => fresh('y'));
  const eqs = (vs: readonly string[]): Formula[] => loc.flatMap((t, k) => (t === null ? [] : [eqT(variable(vs[k]!), t)]));
  const guard = andAll([...eqs(xs), ...holes.map((t, k) => eqT(variable(ys[k]!), t))]);
  const dv = loc.map(() => fresh('x'));
  const dom: Dom = { vars: dv, f: andAll(eqs(dv)) };
  return tracked([withDeps({ dom: flat(array, xs), ran: flat(tmpl.key, ys), guard }, holeDeps(loc.filter((t): t is Term => t !== null), holes))], new Map([[array, dom]]));
}

/**
 * {a⟨prefix, v…⟩ → E : cond(v…)}: a write to the locations whose first indices are `prefix` and
 * whose last ones satisfy `cond` over the variables `vars` (a transfer of a set of positions).
 */
export function setWrite(array: string, prefix: readonly Term[], vars: readonly string[], cond: Formula, tmpl: Template): PRel {
  const make = (): { xs: string[]; f: Formula } => {
    const xs = [...prefix, ...vars].map(() => fresh('x'));
    const ren = new Map(vars.map((v, k) => [v, variable(xs[prefix.length + k]!)] as const));
    return { xs, f: andAll([...prefix.map((t, k) => eqT(variable(xs[k]!), t)), substFormula(cond, ren)]) };
  };
  const w = make();
  const d = make();
  return tracked([withDeps({ dom: flat(array, w.xs), ran: flat(tmpl.key, []), guard: norm(w.f) }, new Set())], new Map([[array, { vars: d.xs, f: norm(d.f) }]]));
}

/** {a⟨x⟩ → E⟨holes(x)⟩ : φ(x)} for input declarations; `vars` are the declaration's names. */
export function declaredHeap(array: string, vars: readonly string[], guard: Formula, tmpl: Template, holes: readonly Term[]): PRel {
  const xs = vars.map((v) => fresh(v));
  const ren = new Map(vars.map((v, k) => [v, xs[k]!] as const));
  const ys = holes.map(() => fresh('y'));
  const g = andAll([renameFormula(guard, ren), ...holes.map((t, k) => renameFormula(eqT(variable(ys[k]!), t), ren))]);
  const dv = vars.map((v) => fresh(v));
  const dom: Dom = { vars: dv, f: norm(renameFormula(guard, new Map(vars.map((v, k) => [v, dv[k]!] as const)))) };
  return tracked([withDeps({ dom: flat(array, xs), ran: flat(tmpl.key, ys), guard: norm(g) }, holeDeps(vars.map(variable), holes))], new Map([[array, dom]]));
}

/** The formula "location array⟨at⟩ is in dom(h)", over the variables of `at`. */
export function inDomain(h: PRel, array: string, at: readonly Term[]): Formula {
  const ds = domains.get(h);
  if (ds) {
    const d = ds.get(array);
    return d === undefined ? FALSE : domAt(d, at);
  }
  const alts: Formula[] = [];
  for (const p of h.pieces) {
    if (p.dom.name !== array) continue;
    const xs = locVars(p);
    if (xs.length !== at.length) continue;
    const sub = new Map(xs.map((x, k) => [x, at[k]!] as const));
    alts.push(exists(tupleVars(p.ran), substFormula(p.guard, sub)));
  }
  return orAll(alts);
}

/** Keep pieces whose guard is not syntactically false. */
function prune<T extends { guard: Formula }>(ps: readonly T[]): T[] {
  return ps.filter((p) => p.guard.kind !== 'false');
}

/** h1 ▷ h2 = h2 ∪ (h1 − dom h2) (Def. 5.2.2). */
export function update(h1: PRel, h2: PRel): PRel {
  if (h2.pieces.length === 0) return h1;
  const kept = h1.pieces.map((p) => {
    const xs = locVars(p).map(variable);
    const touched = h2.pieces.some((q) => q.dom.name === p.dom.name);
    return touched ? mapDeps(p, { ...p, guard: norm(and(p.guard, not(inDomain(h2, p.dom.name, xs)))) }, (d) => d) : p;
  });
  return tracked([...prune(kept), ...h2.pieces], joinDoms(h1, h2));
}

/** h ∩ {: φ}, for the branches of `if` (S-IF) and parameter restrictions. */
export function restrict(h: PRel, f: Formula): PRel {
  return tracked(prune(h.pieces.map((p) => mapDeps(p, { ...p, guard: norm(and(p.guard, f)) }, (d) => d))), mapDoms(h, (d) => and(d.f, f)));
}

export function restrictSet(s: PSet, f: Formula): PSet {
  return { kind: 'set', pieces: prune(s.pieces.map((p) => ({ ...p, guard: norm(and(p.guard, f)) }))) };
}

export function unionHeaps(a: PRel, b: PRel): PRel {
  return tracked([...a.pieces, ...b.pieces], joinDoms(a, b));
}

/** Δh \ a (S-ALLOCATE: a local array is erased when its scope ends; R \ a is ReadSet.without). */
export function withoutArray(h: PRel, a: string): PRel {
  const ds = domains.get(h);
  const rest = ds ? new Map([...ds].filter(([n]) => n !== a)) : null;
  return tracked(h.pieces.filter((p) => p.dom.name !== a), rest);
}

/** Substitute a free variable (S-LET: x := ι once the scope of x ends). */
export function substHeap(h: PRel, x: string, t: Term): PRel {
  const m = new Map([[x, t]]);
  const sub = (d: ReadonlySet<string>): ReadonlySet<string> => (d.has(x) ? new Set([...d].filter((v) => v !== x).concat([...termVars(t)])) : d);
  return tracked(prune(h.pieces.map((p) => mapDeps(p, { ...p, guard: norm(substFormula(p.guard, m)) }, sub))), mapDoms(h, (d) => substFormula(d.f, m)));
}

export function substSet(s: PSet, x: string, t: Term): PSet {
  const m = new Map([[x, t]]);
  return { kind: 'set', pieces: prune(s.pieces.map((p) => ({ ...p, guard: norm(substFormula(p.guard, m)) }))) };
}

/** Rename a free variable (x := z for the heap of the earlier iterations, S-SEQLOOP). */
export function renameHeapVar(h: PRel, x: string, z: string): PRel {
  return substHeap(h, x, variable(z));
}

function bounds(x: string, lo: Term, hi: Term): Formula {
  return and(geT(variable(x), lo), ltT(variable(x), hi));
}

/**
 * The iterated update ▶_{lo ≤ x < hi} h (Def. 5.2.4): each location keeps the value of the last
 * iteration that writes it. Written in SMT form:
 *   {t → s : ∃x. lo ≤ x < hi ∧ φ(t, s, x) ∧ ¬∃x'. x < x' < hi ∧ t ∈ dom(h)[x := x']}
 * which is h[x := lexmax(bind_{lo≤x<hi}(dom h))]; the Presburger layer eliminates the inner
 * quantifier with its closed forms (location independent of x, injective in x, congruences).
 */
export function iterUpdate(h: PRel, x: string, lo: Term, hi: Term): PRel {
  const pieces: RelPiece[] = [];
  for (const p of h.pieces) {
    const d = depsOf(p);
    const alone = h.pieces.filter((q) => q.dom.name === p.dom.name).length === 1;
    if (alone && d !== 'unknown' && !d.has(x)) {
      // Every iteration writing a location writes the same value: ▶ is the iterated union.
      const guard = norm(exists([x], and(bounds(x, lo, hi), p.guard)));
      if (guard.kind !== 'false') pieces.push(withDeps({ ...p, guard }, d));
      continue;
    }
    const xs = locVars(p).map(variable);
    const x2 = fresh(x);
    const laterDom = substFormula(inDomain(h, p.dom.name, xs), new Map([[x, variable(x2)]]));
    const later = dropImplied(norm(exists([x2], and(gtT(variable(x2), variable(x)), ltT(variable(x2), hi), laterDom))), p.guard);
    const guard = norm(exists([x], andAll([bounds(x, lo, hi), p.guard, not(later)])));
    // The last writer depends on the bounds and on the other writers' guards.
    const after = new Set<string>();
    for (const v of formulaVars(guard)) if (!tupleVars(p.dom).includes(v) && !tupleVars(p.ran).includes(v)) after.add(v);
    if (guard.kind !== 'false') pieces.push(withDeps({ ...p, guard }, after));
  }
  return tracked(pieces, mapDoms(h, (d) => exists([x], and(bounds(x, lo, hi), d.f))));
}

/**
 * `later` with its conjuncts that are also conjuncts of `ctx` removed: ctx ∧ ¬(A ∧ L) is
 * ctx ∧ ¬L when ctx contains A. Keeps the negation small before quantifier elimination (the
 * location constraints shared by every writer otherwise blow up the DNF).
 */
function dropImplied(later: Formula, ctx: Formula): Formula {
  const known = new Set(conjuncts(ctx).map((c) => c.key));
  const rest = conjuncts(later).filter((c) => !known.has(c.key));
  return rest.length === conjuncts(later).length ? later : andAll(rest);
}

/** The iterated union ⋃_{lo ≤ x < hi} (of a read set, or of the writes of a parallel loop). */
export function iterUnionSet(s: PSet, x: string, lo: Term, hi: Term): PSet {
  return { kind: 'set', pieces: prune(s.pieces.map((p) => ({ ...p, guard: norm(exists([x], and(bounds(x, lo, hi), p.guard))) }))) };
}

/** {a⟨ι⟩}: the read set of one array read (Fig. 5.2). */
export function singleRead(array: string, at: readonly Term[]): PSet {
  const xs = at.map(() => fresh('r'));
  return { kind: 'set', pieces: [{ tuple: flat(array, xs), guard: andAll(at.map((t, k) => eqT(variable(xs[k]!), t))) }] };
}

/** dom(h) as a set of locations. */
export function domainSet(h: PRel): PSet {
  const ds = domains.get(h);
  if (ds) return { kind: 'set', pieces: [...ds].map(([a, d]) => ({ tuple: flat(a, d.vars), guard: d.f })) };
  return {
    kind: 'set',
    pieces: h.pieces.map((p) => ({ tuple: p.dom, guard: norm(exists(tupleVars(p.ran), p.guard)) })),
  };
}

export function isEmptyHeap(h: PRel): boolean {
  return h.pieces.every((p) => p.guard.kind === 'false');
}

export { FALSE, constant };
