// Halide's buffer-size limit, in affine form. Before it computes anything, Halide 14's code checks
// that each buffer's extents multiply to at most 2^31 − 1 elements (`X.total_extent.k <= L`,
// halide_error_buffer_extents_too_large; L = 2^63 − 1 with large_buffers) and fails otherwise, so
// every run that computes satisfies it. The product is not affine. Its affine consequences are:
// each extent at most ⌊L / ∏ least values of the buffer's other extents⌋, with the least values
// that the other assumptions give (A.extent.1 >= 512 bounds A.extent.0 by 4,194,303). Without
// them the solver refuted bigsgemm only at sizes no run of Halide's code has (an uninitialized read
// at A = 2,147,483,632 × 2,147,483,584); with them it finds the same read at A = 528 × 512, where a
// run shows it.

import { conjuncts } from '../../core/presburger/formula.ts';
import { boundsOf } from '../../core/presburger/simplify.ts';
import { alias } from './assumptions.ts';
import type { Formula } from '../../core/presburger/types.ts';

/** One buffer's size check: its extents (the spec's parameters, dimension 0 first) multiply to at most `limit`. */
export interface SizeLimit {
  readonly buffer: string;
  readonly extents: readonly string[];
  readonly limit: bigint;
}

/** An affine consequence of a size limit: `param <= max`. */
export interface SizeFact {
  readonly param: string;
  readonly max: bigint;
  readonly buffer: string;
}

/**
 * The least value of each variable that the conjuncts of `facts` give through single-variable
 * bounds and aliases (`x == y`); a variable with none is absent.
 */
export function leastValues(facts: readonly Formula[]): Map<string, bigint> {
  const lits = facts.flatMap(conjuncts);
  const least = new Map<string, bigint>();
  for (const [v, i] of boundsOf(lits)) if (i.lo !== null) least.set(v, i.lo);
  const aliases = lits.map(alias).filter((a): a is [string, string] => a !== null);
  const raise = (x: string, v: bigint | undefined): boolean => {
    if (v === undefined || (least.get(x) ?? v - 1n) >= v) return false;
    least.set(x, v);
    return true;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [x, y] of aliases) {
      const up = raise(y, least.get(x));
      const down = raise(x, least.get(y));
      changed ||= up || down;
    }
  }
  return least;
}

/**
 * The affine consequences of `limits` under `facts` (the implementation's and the spec's
 * assumptions): for each buffer and each extent, at most the limit over the product of the least
 * values of the others, when those are all known and positive. Bounds that say nothing beyond
 * the int32 range of a buffer field (2^31 − 1) are left out.
 */
export function sizeFacts(limits: readonly SizeLimit[], facts: readonly Formula[]): SizeFact[] {
  const least = leastValues(facts);
  const out: SizeFact[] = [];
  for (const l of limits) {
    l.extents.forEach((e, i) => {
      let others = 1n;
      for (const [j, o] of l.extents.entries()) {
        if (j === i) continue;
        const v = least.get(o);
        if (v === undefined || v < 1n) return;
        others *= v;
      }
      const max = l.limit / others;
      if (max < 2n ** 31n - 1n && !out.some((f) => f.param === e && f.max <= max)) out.push({ param: e, max, buffer: l.buffer });
    });
  }
  return out;
}
