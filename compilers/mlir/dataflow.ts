// Exact array dataflow analysis (Feautrier's, over the Presburger layer): for a read of a cell, which
// write was the last one before it in the program's sequential order, as a piece-wise function of
// the read's loop variables and the parameters. Per writing statement, the last instance is the
// lexicographic maximum of its iteration vector subject to "same cell, and before the read"
// (core/presburger lexOptimum); between statements, the later of the candidates wins. Where no
// statement wrote the cell, the read sees the initial contents.
//
// Order. Two accesses share their common enclosing loops; an instance x of a write is before an
// instance y of a read when x's common loop counters are lexicographically smaller than y's, or
// equal and the write comes first in the body (its op number `seq` is smaller). Loops run their
// iterations in increasing iv order (steps are positive). A parallel loop of the source is ordered
// like a sequential one: where its iterations do not depend on each other, any order gives the
// same values; where they do, the source races, which is undefined behaviour, and the spec is the
// meaning of one order (docs/mlir.md). A parallel loop of the target is checked (no race).

import {
  and, andAll, conjuncts, eqT, FALSE, lexLess, lexOptimum, not, or, orAll, renameFormula, simplify, substFormula, substTerm, TRUE, variable, type Formula, type Term,
} from '../../core/presburger/index.ts';
import type { KLoop, KStore, Site } from './kernel.ts';

/** An access: the cell it touches (root array, index over its site's ivs and the parameters). */
export interface Access {
  readonly array: string;
  readonly index: readonly Term[];
  readonly site: Site;
}

/** One piece of a last-writer function: `store` at iteration `at` where `cond` holds. */
export interface WriterPiece {
  readonly store: KStore;
  /** The writer's loop counters, as terms over the reader's ivs and the parameters. */
  readonly at: readonly Term[];
  readonly cond: Formula;
}

export class NoClosedForm extends Error {}

function commonLoops(a: readonly KLoop[], b: readonly KLoop[]): number {
  let c = 0;
  while (c < a.length && c < b.length && a[c] === b[c]) c++;
  return c;
}

/** Instance `x` of site a (loop counters as terms) runs before instance `y` of site b. */
export function before(a: Site, x: readonly Term[], b: Site, y: readonly Term[]): Formula {
  const c = commonLoops(a.loops, b.loops);
  const xs = x.slice(0, c);
  const ys = y.slice(0, c);
  const strictly = c === 0 ? FALSE : lexLess(xs, ys);
  if (a.seq < b.seq) return or(strictly, andAll(xs.map((t, k) => eqT(t, ys[k]!))));
  return strictly;
}

/** The loop counters of a site as variables. */
export function ivsOf(site: Site): Term[] {
  return site.loops.map((l) => variable(l.iv));
}

/**
 * The last writers of the cell `read` touches, among `writers` (the stores of the program),
 * before the read. Pieces are disjoint; where none holds the read sees the initial contents.
 * NoClosedForm when the Presburger layer cannot give the maximum in closed form.
 */
export function lastWriters(writers: readonly KStore[], read: Access): WriterPiece[] {
  const y = ivsOf(read.site);
  const candidates: WriterPiece[] = [];
  for (const w of writers) {
    if (w.array !== read.array) continue;
    // The writer's counters renamed apart from the reader's (they may share loops).
    const xs = w.site.loops.map((l) => `${l.iv}$w`);
    const ren = new Map(w.site.loops.map((l, k) => [l.iv, xs[k]!] as const));
    const sub = new Map(w.site.loops.map((l, k) => [l.iv, variable(xs[k]!)] as const));
    const x = xs.map(variable);
    const phi = andAll([
      renameFormula(w.site.domain, ren),
      ...w.index.map((t, d) => eqT(substTerm(t, sub), read.index[d]!)),
      before(w.site, x, read.site, y),
      read.site.domain,
    ]);
    const pw = lexOptimum(xs, simplify(phi), true);
    if (pw === null) throw new NoClosedForm(`the last write of ${w.op} before the read has no closed form`);
    for (const p of pw) candidates.push({ store: w, at: p.values, cond: p.cond });
  }
  // The latest candidate wins: a piece holds where its condition does and every other writer's
  // candidate, where it exists, is earlier.
  const out: WriterPiece[] = [];
  for (const c of candidates) {
    const beats = candidates.filter((d) => d.store !== c.store).map((d) => or(not(d.cond), before(d.store.site, d.at, c.store.site, c.at)));
    const cond = simplify(and(c.cond, andAll(beats)));
    if (cond.kind !== 'false') out.push({ ...c, cond });
  }
  return out;
}

/**
 * f where `context` holds: conjuncts of f that are conjuncts of the context dropped (in every
 * disjunct). Equivalent to f wherever the context holds; the pieces of a read are only evaluated
 * in the read's domain, so their conditions need not repeat it.
 */
export function gist(f: Formula, context: Formula): Formula {
  const known = new Set(conjuncts(context).map((c) => c.key));
  const go = (g: Formula): Formula => {
    if (known.has(g.key)) return TRUE;
    if (g.kind === 'and') return andAll(g.args.map(go));
    if (g.kind === 'or') return orAll(g.args.map(go));
    return g;
  };
  return simplify(go(f));
}

/** Where no piece holds (the read sees the initial contents), within the read's domain. */
export function initialRegion(read: Access, pieces: readonly WriterPiece[]): Formula {
  return simplify(and(read.site.domain, not(orAll(pieces.map((p) => p.cond)))));
}

/** The writer's counters substituted into a formula over them. */
export function atInstance(f: Formula, w: KStore, at: readonly Term[]): Formula {
  return substFormula(f, new Map(w.site.loops.map((l, k) => [l.iv, at[k]!] as const)));
}
