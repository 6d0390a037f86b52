// Halide's buffer-size limit, in affine form. Before it computes anything, Halide 14's code checks
// that each buffer's extents multiply to at most 2^31 − 1 elements (`X.total_extent.k <= L`,
// halide_error_buffer_extents_too_large; L = 2^63 − 1 with large_buffers) and fails otherwise, so
// every run that computes satisfies it. The product is not affine. Its affine consequences are:
// each extent at most ⌊L / ∏ least values of the buffer's other extents⌋, with the least values
// that the other assumptions give (A.extent.1 >= 512 bounds A.extent.0 by 4,194,303). Without
// them the solver refuted bigsgemm only at sizes no run of Halide's code has (an uninitialized read
// at A = 2,147,483,632 × 2,147,483,584); with them it finds the same read at A = 528 × 512, where a
// run shows it.

import { ceilDiv } from '../../core/presburger/bigint.ts';
import { conjuncts } from '../../core/presburger/formula.ts';
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
 * bounds (`k·x + c >= 0`, `x == c`) and aliases (`x == y`); a variable with none is absent.
 */
export function leastValues(facts: readonly Formula[]): Map<string, bigint> {
  const least = new Map<string, bigint>();
  const raise = (x: string, v: bigint): boolean => {
    const old = least.get(x);
    if (old !== undefined && old >= v) return false;
    least.set(x, v);
    return true;
  };
  const aliases: [string, string][] = [];
  for (const f of facts.flatMap(conjuncts)) {
    if ((f.kind !== 'ge' && f.kind !== 'eq') || f.t.parts.length === 0 || f.t.parts.length > 2) continue;
    const vars = f.t.parts.map(([a, k]) => (a.kind === 'var' ? ([a.name, k] as const) : null));
    if (vars.some((v) => v === null)) continue;
    if (vars.length === 1) {
      const [x, k] = vars[0]!;
      // k·x + c >= 0 with k > 0: x >= ⌈−c / k⌉; an equation k·x + c == 0 pins x when exact.
      if (k > 0n) raise(x, ceilDiv(-f.t.c, k));
      else if (f.kind === 'eq' && f.t.c % k === 0n) raise(x, -f.t.c / k);
    } else if (f.kind === 'eq' && f.t.c === 0n && vars[0]![1] + vars[1]![1] === 0n && (vars[0]![1] === 1n || vars[0]![1] === -1n)) {
      aliases.push([vars[0]![0], vars[1]![0]]);
    }
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [x, y] of aliases) {
      const vx = least.get(x);
      const vy = least.get(y);
      if (vx !== undefined) changed = raise(y, vx) || changed;
      if (vy !== undefined) changed = raise(x, vy) || changed;
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
