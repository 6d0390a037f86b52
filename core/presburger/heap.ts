// The operations of the symbolic evaluator (thesis §5.2) on symbolic heaps — relations from
// array locations `a/n` to value templates `E/m` — and the heap-clause view of a relation.

import type { Formula, PRel, PSet, RelPiece, SetPiece, Term, Tuple } from './types.ts';
import { TRUE, and, andAll, conjuncts, exists, not, orAll } from './formula.ts';
import { ZERO, solveUnit } from './term.ts';
import { mkRel, mkSet } from './normalize.ts';
import { alignment, sameSpace, tupleVars } from './tuple.ts';
import { renameFormula, substFormula } from './subst.ts';
import { fresh } from './names.ts';
import { termVars } from './vars.ts';
import { bind, domain, relFromTerms, subtractDomain, unionRel } from './relations.ts';
import { lexmax } from './lexopt.ts';

/** h1 ▷ h2 = h2 ∪ (h1 − dom h2) (Def. 5.2.2). */
export function update(h1: PRel, h2: PRel): PRel {
  return unionRel(h2, subtractDomain(h1, domain(h2)));
}

/** What to substitute for the variables x: terms, a set {[x] : ψ}, or a relation {t → [x] : ψ}. */
export type Substituend = readonly Term[] | PSet | PRel;

function renameFresh(xs: readonly string[]): { ys: string[]; m: Map<string, string> } {
  const ys = xs.map((x) => fresh(x));
  return { ys, m: new Map(xs.map((x, i) => [x, ys[i]!])) };
}

/**
 * R1[x := R2] (Def. 5.2.3), in SMT form { t → s : ∃x. φ1(t, s, x) ∧ ψ(t, x) }: pieces of R1
 * whose domain space has no counterpart in R2 are dropped (as the thesis's uncurry ∩ wrap does).
 * With a set R2 = {[x] : ψ} the condition does not depend on t; with terms it is renaming.
 */
export function substitute(r1: PRel, xs: readonly string[], by: Substituend): PRel;
export function substitute(r1: PSet, xs: readonly string[], by: readonly Term[] | PSet): PSet;
export function substitute(r1: PRel | PSet, xs: readonly string[], by: Substituend): PRel | PSet {
  if (Array.isArray(by)) {
    const terms = by as readonly Term[];
    if (terms.length !== xs.length) throw new Error('substitution of a wrong number of terms');
    const s = new Map(xs.map((x, i) => [x, terms[i]!]));
    if (r1.kind === 'set') return mkSet(r1.pieces.map((p) => ({ tuple: p.tuple, guard: substFormula(p.guard, s) })));
    return mkRel(r1.pieces.map((p) => ({ ...p, guard: substFormula(p.guard, s) })));
  }
  const r2 = by as PSet | PRel;
  const withPsi = (dom: Tuple | null, guard: Formula): Formula => {
    const { ys, m } = renameFresh(xs);
    const g1 = renameFormula(guard, m);
    const psis: Formula[] = [];
    if (r2.kind === 'set') {
      for (const q of r2.pieces) {
        if (q.tuple.kind !== 'flat' || q.tuple.vars.length !== xs.length) continue;
        psis.push(renameFormula(q.guard, alignment(q.tuple, { kind: 'flat', name: q.tuple.name, vars: ys })));
      }
    } else {
      if (!dom) throw new Error('substitution of a relation into a set');
      for (const q of r2.pieces) {
        if (!sameSpace(q.dom, dom) || q.ran.kind !== 'flat' || q.ran.vars.length !== xs.length) continue;
        const am = alignment(q.dom, dom);
        for (const [a, b] of alignment(q.ran, { kind: 'flat', name: q.ran.name, vars: ys })) am.set(a, b);
        psis.push(renameFormula(q.guard, am));
      }
    }
    return exists(ys, and(g1, orAll(psis)));
  };
  if (r1.kind === 'set') {
    return mkSet(r1.pieces.map((p): SetPiece => ({ tuple: p.tuple, guard: withPsi(null, p.guard) })));
  }
  return mkRel(r1.pieces.map((p): RelPiece => ({ ...p, guard: withPsi(p.dom, p.guard) })));
}

/**
 * ▶_{lo ≤ x < hi} h = h[x := lexmax(bind_{lo ≤ x < hi}(dom h))] (Def. 5.2.4): each location
 * takes its value from the last iteration that writes it. `x` is a parameter of h.
 */
export function iteratedUpdate(h: PRel, x: string, hi: Term, lo: Term = ZERO): PRel {
  const last = lexmax(bind(domain(h), [x], [{ lo, hi }]));
  return substitute(h, [x], last);
}

/**
 * v(R): keep one of several conflicting pieces — pieces in order, each minus the domains of the
 * earlier ones. (Multiple images inside one piece are left as they are.)
 */
export function singleValuedRestriction(r: PRel): PRel {
  const out: RelPiece[] = [];
  r.pieces.forEach((p, i) => {
    const earlier = r.pieces.slice(0, i).filter((q) => sameSpace(q.dom, p.dom)).map((q) => {
      const m = alignment(q.dom, p.dom);
      return exists(tupleVars(q.ran), renameFormula(q.guard, m));
    });
    out.push({ ...p, guard: and(p.guard, not(orAll(earlier))) });
  });
  return mkRel(out);
}

/** h \ a: the heap without the locations of array `a` (S-ALLOCATE's Δh \ a). */
export function removeArray(h: PRel, array: string): PRel {
  return { kind: 'rel', pieces: h.pieces.filter((p) => p.dom.name !== array) };
}

/** S \ a for a set of locations (S-ALLOCATE's R \ a). */
export function removeArrayFromSet(s: PSet, array: string): PSet {
  return { kind: 'set', pieces: s.pieces.filter((p) => p.tuple.name !== array) };
}

// ---------------------------------------------------------------- heap clauses

/** A heap clause to build: `array⟨index⟩ → ctx⟨args⟩ : guard`, terms over parameters. */
export interface HeapClauseSpec {
  readonly array: string;
  readonly index: readonly Term[];
  /** The interned expression context, e.g. `R(□,□,□)`. */
  readonly ctx: string;
  readonly args: readonly Term[];
  readonly guard?: Formula;
}

/** A symbolic heap from clauses (a union of relations). */
export function heapOf(clauses: readonly HeapClauseSpec[]): PRel {
  return unionRel(...clauses.map((c) => relFromTerms({ name: c.array, terms: c.index }, { name: c.ctx, terms: c.args }, c.guard ?? TRUE)));
}

/**
 * The clause view of a heap piece: domain space + index tuple variables + range space + range
 * variables + guard. Tuple variables defined by an equality in the guard (over parameters and
 * earlier variables) are also given as terms (`index[i]` / `args[j]`, else null), and that
 * equality is left out of `rest`.
 */
export interface HeapClause {
  readonly array: string;
  readonly indexVars: readonly string[];
  readonly index: readonly (Term | null)[];
  readonly ctx: string;
  readonly valueVars: readonly string[];
  readonly args: readonly (Term | null)[];
  /** The full guard. */
  readonly guard: Formula;
  /** The guard without the defining equalities. */
  readonly rest: Formula;
}

/** The clauses of a heap (its pieces must have flat domain and range tuples). */
export function heapClauses(h: PRel): HeapClause[] {
  return h.pieces.map((p) => {
    if (p.dom.kind !== 'flat' || p.ran.kind !== 'flat') throw new Error('heap pieces must have flat tuples');
    const vars = [...p.dom.vars, ...p.ran.vars];
    const tupleSetOf = new Set(vars);
    let cs = [...conjuncts(p.guard)];
    const defs = new Map<string, Term>();
    const known = new Set<string>();
    for (const v of vars) {
      const idx = cs.findIndex((c) => {
        if (c.kind !== 'eq') return false;
        const t = solveUnit(c.t, v);
        return t !== null && [...termVars(t)].every((w) => !tupleSetOf.has(w) || known.has(w) || defs.has(w));
      });
      if (idx >= 0) {
        defs.set(v, solveUnit((cs[idx] as Extract<Formula, { kind: 'eq' }>).t, v)!);
        cs = cs.filter((_, i) => i !== idx);
      } else known.add(v);
    }
    return {
      array: p.dom.name,
      indexVars: p.dom.vars,
      index: p.dom.vars.map((v) => defs.get(v) ?? null),
      ctx: p.ran.name,
      valueVars: p.ran.vars,
      args: p.ran.vars.map((v) => defs.get(v) ?? null),
      guard: p.guard,
      rest: andAll(cs),
    };
  });
}

