// Symbolic relations (thesis §3.5): unions of guarded pieces `{d → r : φ}`. Restriction by a set
// acts on the domain; binding turns parameters into tuple variables (fresh names, so no capture).

import type { Formula, PRel, PSet, RelPiece, Term, Tuple } from './types.ts';
import { TRUE, and, andAll, eqT, exists, not, orAll } from './formula.ts';
import { mkRel, mkSet } from './normalize.ts';
import { alignment, flat, pair, sameSpace, tupleVars } from './tuple.ts';
import { renameFormula } from './subst.ts';
import { fresh } from './names.ts';
import { variable } from './term.ts';
import { boundedExists, guardOver, rangeOf } from './sets.ts';

export const EMPTY_REL: PRel = { kind: 'rel', pieces: [] };

export function relOf(pieces: readonly RelPiece[]): PRel {
  return mkRel(pieces);
}

export interface TupleSpec {
  readonly name: string;
  readonly terms: readonly Term[];
}

function hintOf(t: Term): string {
  const a = t.parts.length === 1 && t.parts[0]![1] === 1n ? t.parts[0]![0] : null;
  return a && a.kind === 'var' ? a.name : 'i';
}

/** `{ d[…] → r[…] : guard }` from terms over parameters, e.g. `{c⟨i,j⟩ → R(□,□,□)⟨i,j,k⟩}`. */
export function relFromTerms(d: TupleSpec, r: TupleSpec, guard: Formula = TRUE): PRel {
  const dv = d.terms.map((t) => fresh(hintOf(t)));
  const rv = r.terms.map((t) => fresh(hintOf(t)));
  const eqs = [...d.terms.map((t, i) => eqT(variable(dv[i]!), t)), ...r.terms.map((t, i) => eqT(variable(rv[i]!), t))];
  return mkRel([{ dom: flat(d.name, dv), ran: flat(r.name, rv), guard: andAll([...eqs, guard]) }]);
}

/** The guard of `p` over the variables of `dom` and `ran` (same spaces). */
export function relGuardOver(p: RelPiece, dom: Tuple, ran: Tuple): Formula {
  const m = alignment(p.dom, dom);
  for (const [a, b] of alignment(p.ran, ran)) m.set(a, b);
  return renameFormula(p.guard, m);
}

function sameSpaces(p: RelPiece, q: RelPiece): boolean {
  return sameSpace(p.dom, q.dom) && sameSpace(p.ran, q.ran);
}

export function unionRel(...rs: readonly PRel[]): PRel {
  return mkRel(rs.flatMap((r) => r.pieces));
}

export function intersectRel(a: PRel, b: PRel): PRel {
  const out: RelPiece[] = [];
  for (const pa of a.pieces) {
    for (const pb of b.pieces) {
      if (sameSpaces(pa, pb)) out.push({ dom: pa.dom, ran: pa.ran, guard: and(pa.guard, relGuardOver(pb, pa.dom, pa.ran)) });
    }
  }
  return mkRel(out);
}

export function subtractRel(a: PRel, b: PRel): PRel {
  return mkRel(a.pieces.map((pa) => {
    const bs = b.pieces.filter((pb) => sameSpaces(pa, pb)).map((pb) => relGuardOver(pb, pa.dom, pa.ran));
    return { dom: pa.dom, ran: pa.ran, guard: and(pa.guard, not(orAll(bs))) };
  }));
}

/** R ∩ {: φ}. */
export function restrictRel(r: PRel, phi: Formula): PRel {
  return mkRel(r.pieces.map((p) => ({ ...p, guard: and(p.guard, phi) })));
}

/** R − {: φ}. */
export function subtractUnitRel(r: PRel, phi: Formula): PRel {
  return restrictRel(r, not(phi));
}

function setGuardOn(s: PSet, t: Tuple): Formula {
  return orAll(s.pieces.filter((q) => sameSpace(q.tuple, t)).map((q) => guardOver(q, t)));
}

/** R ∩ S: restriction of the domain (pieces whose domain space is not in S are dropped). */
export function intersectDomain(r: PRel, s: PSet): PRel {
  return mkRel(r.pieces.map((p) => ({ ...p, guard: and(p.guard, setGuardOn(s, p.dom)) })));
}

/** R − S: removal of the domain points in S. */
export function subtractDomain(r: PRel, s: PSet): PRel {
  return mkRel(r.pieces.map((p) => ({ ...p, guard: and(p.guard, not(setGuardOn(s, p.dom))) })));
}

/** Restriction of the range to S. */
export function intersectRange(r: PRel, s: PSet): PRel {
  return mkRel(r.pieces.map((p) => ({ ...p, guard: and(p.guard, setGuardOn(s, p.ran)) })));
}

export function subtractRange(r: PRel, s: PSet): PRel {
  return mkRel(r.pieces.map((p) => ({ ...p, guard: and(p.guard, not(setGuardOn(s, p.ran))) })));
}

/** dom R = { d : ∃r. φ }. */
export function domain(r: PRel): PSet {
  return mkSet(r.pieces.map((p) => ({ tuple: p.dom, guard: exists(tupleVars(p.ran), p.guard) })));
}

/** ran R = { r : ∃d. φ }. */
export function range(r: PRel): PSet {
  return mkSet(r.pieces.map((p) => ({ tuple: p.ran, guard: exists(tupleVars(p.dom), p.guard) })));
}

/** R⁻¹ (Def. 3.5.3). */
export function inverse(r: PRel): PRel {
  return mkRel(r.pieces.map((p) => ({ dom: p.ran, ran: p.dom, guard: p.guard })));
}

/** R(S) = ran(R ∩ S) (Def. 3.5.4). */
export function apply(r: PRel, s: PSet): PSet {
  return range(intersectDomain(r, s));
}

/** wrap(R) = { [d → r] : φ } (Def. 3.5.6). */
export function wrap(r: PRel): PSet {
  return mkSet(r.pieces.map((p) => ({ tuple: pair('', p.dom, p.ran), guard: p.guard })));
}

export class ShapeError extends Error {}

/** unwrap(S) for a set of anonymous pairs (partial: throws ShapeError otherwise). */
export function unwrap(s: PSet): PRel {
  return mkRel(s.pieces.map((p) => {
    if (p.tuple.kind !== 'pair' || p.tuple.name !== '') throw new ShapeError('unwrap of a set that is not of anonymous pairs');
    return { dom: p.tuple.left, ran: p.tuple.right, guard: p.guard };
  }));
}

/** curry({[t, s] → u}) = {t → [s, u]} (Def. 3.5.8, partial). */
export function curry(r: PRel): PRel {
  return mkRel(r.pieces.map((p) => {
    if (p.dom.kind !== 'pair' || p.dom.name !== '') throw new ShapeError('curry of a relation whose domain is not an anonymous pair');
    return { dom: p.dom.left, ran: pair('', p.dom.right, p.ran), guard: p.guard };
  }));
}

/** uncurry({t → [s, u]}) = {[t, s] → u} (Def. 3.5.8, partial). */
export function uncurry(r: PRel): PRel {
  return mkRel(r.pieces.map((p) => {
    if (p.ran.kind !== 'pair' || p.ran.name !== '') throw new ShapeError('uncurry of a relation whose range is not an anonymous pair');
    return { dom: pair('', p.dom, p.ran.left), ran: p.ran.right, guard: p.guard };
  }));
}

/** fst / snd of a set of pairs (Def. 3.5.7). */
export function fst(s: PSet): PSet {
  return domain(unwrap(s));
}

export function snd(s: PSet): PSet {
  return range(unwrap(s));
}

/** fst / snd lifted to relations: they act on the range pair. */
export function fstRel(r: PRel): PRel {
  return mkRel(r.pieces.map((p) => {
    if (p.ran.kind !== 'pair') throw new ShapeError('fst of a relation whose range is not a pair');
    return { dom: p.dom, ran: p.ran.left, guard: exists(tupleVars(p.ran.right), p.guard) };
  }));
}

export function sndRel(r: PRel): PRel {
  return mkRel(r.pieces.map((p) => {
    if (p.ran.kind !== 'pair') throw new ShapeError('snd of a relation whose range is not a pair');
    return { dom: p.dom, ran: p.ran.right, guard: exists(tupleVars(p.ran.left), p.guard) };
  }));
}

export interface Bound {
  readonly lo: Term;
  readonly hi: Term;
}

/**
 * bind_x(S) = (λx.S)⁻¹ = { t → [x] : φ } (Def. 3.5.5): the parameters `xs` become the range
 * tuple. With `bounds`, bind_{lo ≤ x < hi}: the constraint is added before binding.
 */
export function bind(s: PSet, xs: readonly string[], bounds?: readonly (Bound | undefined)[]): PRel {
  return mkRel(s.pieces.map((p) => {
    const ys = xs.map((x) => fresh(x));
    const m = new Map(xs.map((x, i) => [x, ys[i]!]));
    const range = ys.map((y, i) => (bounds?.[i] ? rangeOf(variable(y), bounds[i]!.lo, bounds[i]!.hi) : TRUE));
    return { dom: p.tuple, ran: flat('', ys), guard: andAll([renameFormula(p.guard, m), ...range]) };
  }));
}

/** λx.S = { [x] → t : φ }; on a relation, λx.R = λx.wrap(R). */
export function lambda(s: PSet | PRel, xs: readonly string[]): PRel {
  return inverse(bind(s.kind === 'set' ? s : wrap(s), xs));
}

/** ⋃_{lo ≤ x < hi} R. */
export function iteratedUnionRel(r: PRel, x: string, lo: Term, hi: Term): PRel {
  return mkRel(r.pieces.map((p) => ({ ...p, guard: boundedExists(x, lo, hi, p.guard) })));
}
