// Which instance of a source statement a target store computes: the source iteration vector x
// solved from equations "source access at x = target access at z" (the store's own index when
// both write the same array, and the reads they share by location). Linear in x, solved exactly by
// fraction-free Gaussian elimination; the answer is unique when the equations have full rank in x.
// A guess only: the verifier checks the annotation it becomes, so a wrong one can make the
// verdict invalid or unknown, never valid.

import { floor, linear, neg, sub, type Atom, type Term } from '../../core/presburger/index.ts';
import { contentOf, divExact, termFromParts } from '../../core/presburger/term.ts';
import { termVars } from '../../core/presburger/vars.ts';

export interface Equation {
  /** Over the unknowns and the parameters. */
  readonly lhs: Term;
  /** Over the target's variables and the parameters. */
  readonly rhs: Term;
}

export type Solved =
  | { readonly ok: true; readonly values: Term[]; readonly unique: true }
  /** Not unique: `values` sets the undetermined coordinates to 0 (a guess the verifier checks). */
  | { readonly ok: false; readonly why: string; readonly values: Term[]; readonly free: readonly number[] };

/**
 * Solve `eqs` for `unknowns`. Equations where an unknown occurs other than linearly (inside a
 * floor, min, max) are left out.
 */
export function solveInstance(unknowns: readonly string[], eqs: readonly Equation[]): Solved {
  const n = unknowns.length;
  if (n === 0) return { ok: true, values: [], unique: true };
  const rows: { a: bigint[]; r: Term }[] = [];
  for (const e of eqs) {
    const a = unknowns.map(() => 0n);
    const keep: [Atom, bigint][] = [];
    for (const [atom, k] of e.lhs.parts) {
      const j = atom.kind === 'var' ? unknowns.indexOf(atom.name) : -1;
      if (j >= 0) a[j]! += k;
      else keep.push([atom, k]);
    }
    const rest = termFromParts(keep, e.lhs.c);
    if ([...termVars(rest)].some((v) => unknowns.includes(v)) || a.every((x) => x === 0n)) continue;
    rows.push({ a, r: sub(e.rhs, rest) });
  }
  // Fraction-free elimination to reduced row echelon form.
  const pivots: number[] = [];
  let rank = 0;
  for (let j = 0; j < n && rank < rows.length; j++) {
    let p = -1;
    for (let i = rank; i < rows.length; i++) {
      const v = rows[i]!.a[j]!;
      if (v !== 0n && (p < 0 || abs(v) < abs(rows[p]!.a[j]!))) p = i;
    }
    if (p < 0) continue;
    [rows[rank], rows[p]] = [rows[p]!, rows[rank]!];
    const pr = rows[rank]!;
    const pv = pr.a[j]!;
    for (let i = 0; i < rows.length; i++) {
      if (i === rank) continue;
      const q = rows[i]!;
      const qv = q.a[j]!;
      if (qv === 0n) continue;
      q.a = q.a.map((x, k) => pv * x - qv * pr.a[k]!);
      q.r = linear([[q.r, pv], [pr.r, -qv]]);
    }
    pivots.push(j);
    rank++;
  }
  const values: Term[] = unknowns.map(() => linear([]));
  for (let i = 0; i < rank; i++) {
    const j = pivots[i]!;
    let { r } = rows[i]!;
    let d = rows[i]!.a[j]!;
    // Other pivot columns are zero in reduced form (every other row was eliminated against it);
    // free columns are set to 0.
    if (d < 0n) {
      d = -d;
      r = neg(r);
    }
    if (d === 1n) values[j] = r;
    else if (contentOf(r) % d === 0n && r.c % d === 0n) values[j] = divExact(r, d);
    else values[j] = floor(r, d);
  }
  if (rank < n) {
    const free = unknowns.filter((_, j) => !pivots.includes(j));
    return { ok: false, values, free: unknowns.map((_, j) => j).filter((j) => !pivots.includes(j)), why: `the accesses do not determine ${free.length === 1 ? 'one coordinate' : `${free.length} coordinates`} of the source iteration (instance not unique; guessed 0)` };
  }
  return { ok: true, values, unique: true };
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}
