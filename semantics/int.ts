// Exact integers for the affine world (types 𝔸 of thesis §4.4: indices, loop bounds, parameters).
// The thesis assumes exact arithmetic on indices ("we ignore the issue of possible overflows in
// index computations", §4.4); we keep that promise without paying for BigInt on every operation:
// an `Int` is a JS number while it is a safe integer, and a bigint only outside the safe range.
// Every operation checks its result, so no index is ever silently rounded.

export type Int = number | bigint;

const MAX = Number.MAX_SAFE_INTEGER;
const MAX_BIG = BigInt(MAX);

/** The canonical Int of a bigint: a number when safe. */
export function fromBig(b: bigint): Int {
  return b >= -MAX_BIG && b <= MAX_BIG ? Number(b) : b;
}

export function toBig(a: Int): bigint {
  return typeof a === 'bigint' ? a : BigInt(a);
}

export function isInt(x: unknown): x is Int {
  return (typeof x === 'number' && Number.isSafeInteger(x)) || typeof x === 'bigint';
}

// For two safe integers the float result is exact whenever the exact result is safe, and rounding
// is monotone, so a result outside the safe range is always detected: then redo it in BigInt.

export function add(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (r <= MAX && r >= -MAX) return r;
  }
  return fromBig(toBig(a) + toBig(b));
}

export function sub(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (r <= MAX && r >= -MAX) return r;
  }
  return fromBig(toBig(a) - toBig(b));
}

export function mul(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (r <= MAX && r >= -MAX) return r + 0; // + 0 turns -0 into 0
  }
  return fromBig(toBig(a) * toBig(b));
}

export function neg(a: Int): Int {
  return typeof a === 'number' ? 0 - a : fromBig(-a);
}

/** ⌊a / m⌋ for m > 0 (the caller checks m > 0: the type checker requires a positive constant). */
export function floorDiv(a: Int, m: Int): Int {
  if (typeof a === 'number' && typeof m === 'number') {
    const r = a % m; // exact for integers
    return (a - r) / m - (r < 0 ? 1 : 0);
  }
  const A = toBig(a);
  const M = toBig(m);
  const q = A / M;
  return fromBig(A % M < 0n ? q - 1n : q);
}

/** a mod m in [0, m) for m > 0. */
export function emod(a: Int, m: Int): Int {
  if (typeof a === 'number' && typeof m === 'number') {
    const r = a % m;
    return r < 0 ? r + m : r + 0;
  }
  const M = toBig(m);
  const r = toBig(a) % M;
  return fromBig(r < 0n ? r + M : r);
}

export function lt(a: Int, b: Int): boolean {
  return a < b; // number/bigint comparisons are exact in JS
}

export function le(a: Int, b: Int): boolean {
  return a <= b;
}

export function eq(a: Int, b: Int): boolean {
  // Canonical forms: a bigint is never in the safe range, so mixed kinds are never equal.
  return a === b;
}

export function min(a: Int, b: Int): Int {
  return b < a ? b : a;
}

export function max(a: Int, b: Int): Int {
  return b > a ? b : a;
}

/** A small number of iterations or cells: a safe integer in [0, limit], else null. */
export function asCount(a: Int, limit: number): number | null {
  if (typeof a !== 'number') return a < 0n ? 0 : null;
  if (a <= 0) return 0;
  return a <= limit ? a : null;
}

export function showInt(a: Int): string {
  return typeof a === 'bigint' ? a.toString() : String(a);
}
