// Exact integer helpers on BigInt. Division and remainder follow the thesis (floor division,
// Euclidean remainder for a positive divisor): JavaScript's `/` and `%` truncate toward zero.

export function abs(a: bigint): bigint {
  return a < 0n ? -a : a;
}

/** ⌊a / b⌋ for b ≠ 0. */
export function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** ⌈a / b⌉ for b ≠ 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/** a mod b in [0, |b|) (Euclidean remainder). */
export function emod(a: bigint, b: bigint): bigint {
  const m = abs(b);
  const r = a % m;
  return r < 0n ? r + m : r;
}

export function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

export function lcm(a: bigint, b: bigint): bigint {
  if (a === 0n || b === 0n) return 0n;
  return abs(a / gcd(a, b) * b);
}

/** Inverse of a modulo m (m ≥ 1, gcd(a, m) = 1), in [0, m). */
export function modInverse(a: bigint, m: bigint): bigint {
  if (m === 1n) return 0n;
  let [r0, r1] = [emod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new RangeError(`${a} is not invertible modulo ${m}`);
  return emod(s0, m);
}

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
