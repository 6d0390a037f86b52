// R of the symbolic evaluation (thesis Fig. 5.4), computed read by read when asked.
//
// R is consumed in one place: S-PARLOOP's rw-safe, which pairs the body's writes with its reads
// *of the same array*. Every other rule only transforms R on its way up (S-IF restricts it, S-LET
// substitutes, the loops take the iterated union, S-ALLOCATE drops the local array), and each of
// these acts on the pieces one by one. So R is kept as one entry per array read, each a memoised
// chain of those per-piece operations, and S-PARLOOP forces the entries of the arrays its body
// writes, getting exactly the pieces the eager R has for them. Reads of the inputs of a matrix
// product (the bulk of the Presburger work of sgemm's evaluation: their read sets under tiled
// and clamped loops) are never projected through the loops when no enclosing `par` writes them.

import type { Formula, PSet, Term } from '../../core/presburger/types.ts';
import { iterUnionSet, restrictSet, singleRead, substSet } from './heap.ts';

interface ReadEntry {
  readonly array: string;
  readonly set: () => PSet;
}

function once(f: () => PSet): () => PSet {
  let v: PSet | undefined;
  return () => (v ??= f());
}

export class ReadSet {
  private constructor(private readonly entries: readonly ReadEntry[]) {}

  static readonly EMPTY = new ReadSet([]);

  /** {a⟨ι⟩}: one array read (Fig. 5.2). */
  static read(array: string, at: readonly Term[]): ReadSet {
    return new ReadSet([{ array, set: once(() => singleRead(array, at)) }]);
  }

  union(other: ReadSet): ReadSet {
    if (other.entries.length === 0) return this;
    if (this.entries.length === 0) return other;
    return new ReadSet([...this.entries, ...other.entries]);
  }

  private map(f: (s: PSet) => PSet): ReadSet {
    return new ReadSet(this.entries.map((e) => ({ array: e.array, set: once(() => f(e.set())) })));
  }

  /** S-IF: the reads of a branch under its condition. */
  restrict(cond: Formula): ReadSet {
    return this.map((s) => restrictSet(s, cond));
  }

  /** S-LET: x := ι once the scope of x ends. */
  subst(x: string, t: Term): ReadSet {
    return this.map((s) => substSet(s, x, t));
  }

  /** S-SEQLOOP, S-PARLOOP: ⋃_{lo ≤ x < hi}. */
  iterUnion(x: string, lo: Term, hi: Term): ReadSet {
    return this.map((s) => iterUnionSet(s, x, lo, hi));
  }

  /** S-ALLOCATE: R \ a. */
  without(array: string): ReadSet {
    return new ReadSet(this.entries.filter((e) => e.array !== array));
  }

  /** The pieces of R on the given arrays (all of R's pieces on them, in the order of the reads). */
  on(arrays: ReadonlySet<string>): PSet {
    const pieces = this.entries.filter((e) => arrays.has(e.array)).flatMap((e) => e.set().pieces);
    return { kind: 'set', pieces };
  }

  /** Every piece of R (the traces print it). */
  all(): PSet {
    return { kind: 'set', pieces: this.entries.flatMap((e) => e.set().pieces) };
  }
}
