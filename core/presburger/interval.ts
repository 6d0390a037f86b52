// Interval bounds of terms from variable bounds: used by the simplifier to decide literals and to
// fold floors, mins and maxes whose value is fixed by the bounds. Null means unbounded.

import type { Term } from './types.ts';
import { floorDiv, maxBig, minBig } from './bigint.ts';

export interface Interval {
  readonly lo: bigint | null;
  readonly hi: bigint | null;
}

export const FULL: Interval = { lo: null, hi: null };

export type Bounds = ReadonlyMap<string, Interval>;

function addI(a: Interval, b: Interval): Interval {
  return { lo: a.lo === null || b.lo === null ? null : a.lo + b.lo, hi: a.hi === null || b.hi === null ? null : a.hi + b.hi };
}

function scaleI(a: Interval, k: bigint): Interval {
  if (k >= 0n) return { lo: a.lo === null ? null : a.lo * k, hi: a.hi === null ? null : a.hi * k };
  return { lo: a.hi === null ? null : a.hi * k, hi: a.lo === null ? null : a.lo * k };
}

export function meet(a: Interval, b: Interval): Interval {
  return {
    lo: a.lo === null ? b.lo : b.lo === null ? a.lo : maxBig(a.lo, b.lo),
    hi: a.hi === null ? b.hi : b.hi === null ? a.hi : minBig(a.hi, b.hi),
  };
}

function hull(a: Interval, b: Interval): Interval {
  return {
    lo: a.lo === null || b.lo === null ? null : minBig(a.lo, b.lo),
    hi: a.hi === null || b.hi === null ? null : maxBig(a.hi, b.hi),
  };
}

/** Bounds of t. Besides the naive sum, each `k·⌊s/d⌋` paired with `−k·s/d` is read as a
 *  remainder `s mod d ∈ [0, d)`, and the tightest of the readings is kept. */
export function intervalOf(t: Term, b: Bounds): Interval {
  let acc: Interval = { lo: t.c, hi: t.c };
  for (const [a, k] of t.parts) acc = addI(acc, scaleI(atomInterval(a, b), k));
  for (const [a, k] of t.parts) {
    if (a.kind !== 'floor' || k % a.div !== 0n) continue;
    // t = k·⌊s/d⌋ + rest = −(k/d)·(s mod d) + (rest + (k/d)·s).
    const m = k / a.div;
    const restPlus = linearPlus(t, a.key, a.arg, m);
    const modI: Interval = { lo: 0n, hi: a.div - 1n };
    let alt = scaleI(modI, -m);
    alt = addI(alt, naive(restPlus, b));
    acc = meet(acc, alt);
  }
  return acc;
}

function naive(t: Term, b: Bounds): Interval {
  let acc: Interval = { lo: t.c, hi: t.c };
  for (const [a, k] of t.parts) acc = addI(acc, scaleI(atomInterval(a, b), k));
  return acc;
}

/** t without its atom `key`, plus m·s. */
function linearPlus(t: Term, key: string, s: Term, m: bigint): Term {
  const parts = new Map<string, [Term['parts'][number][0], bigint]>();
  for (const [a, k] of t.parts) if (a.key !== key) parts.set(a.key, [a, k]);
  for (const [a, k] of s.parts) {
    const e = parts.get(a.key);
    if (e) e[1] += m * k;
    else parts.set(a.key, [a, m * k]);
  }
  const ps = [...parts.values()].filter(([, k]) => k !== 0n);
  return { parts: ps, c: t.c + m * s.c, key: '' };
}

function atomInterval(a: Term['parts'][number][0], b: Bounds): Interval {
  switch (a.kind) {
    case 'var': return b.get(a.name) ?? FULL;
    case 'floor': {
      const i = intervalOf(a.arg, b);
      return { lo: i.lo === null ? null : floorDiv(i.lo, a.div), hi: i.hi === null ? null : floorDiv(i.hi, a.div) };
    }
    case 'min': {
      let lo: bigint | null = null;
      let hi: bigint | null = null;
      let first = true;
      for (const x of a.args) {
        const i = intervalOf(x, b);
        if (first) { lo = i.lo; hi = i.hi; first = false; continue; }
        lo = lo === null || i.lo === null ? null : minBig(lo, i.lo);
        hi = hi === null ? i.hi : i.hi === null ? hi : minBig(hi, i.hi);
      }
      return { lo, hi };
    }
    case 'max': {
      let lo: bigint | null = null;
      let hi: bigint | null = null;
      let first = true;
      for (const x of a.args) {
        const i = intervalOf(x, b);
        if (first) { lo = i.lo; hi = i.hi; first = false; continue; }
        lo = lo === null ? i.lo : i.lo === null ? lo : maxBig(lo, i.lo);
        hi = hi === null || i.hi === null ? null : maxBig(hi, i.hi);
      }
      return { lo, hi };
    }
    case 'select': return hull(intervalOf(a.then, b), intervalOf(a.else, b));
  }
}

/** If t is ±v + c for a variable v, return [v, sign, c]. */
export function unitVar(t: Term): [string, bigint, bigint] | null {
  if (t.parts.length !== 1) return null;
  const [a, k] = t.parts[0]!;
  if (a.kind !== 'var' || (k !== 1n && k !== -1n)) return null;
  return [a.name, k, t.c];
}

