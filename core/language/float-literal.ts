// The binary32 value of a decimal literal. A literal of type f32 is the nearest binary32 to the
// decimal number written (as C, MLIR's APFloat and Halide's C++ literals read it), not the nearest
// binary32 to the nearest binary64: the two differ when the binary64 falls exactly halfway between
// two binary32 values (`1.00000017881393432617187499` is 1 + 2^-23, read through binary64 it is the
// midpoint 1 + 3·2^-24 and rounds to 1 + 2^-22).

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The next binary32 above a finite non-negative binary32 (∞ after the largest). */
function nextUp(f: number): number {
  F32[0] = f;
  U32[0] = U32[0]! + 1;
  return F32[0]!;
}

/** An exact non-negative rational num / den. */
interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

/** The exact value of an unsigned decimal literal (`12.5e-3`, `1.`, `.5`), or null if it is none. */
function decimalRatio(text: string): Ratio | null {
  const m = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (m === null || (m[1] === '' && (m[2] ?? '') === '')) return null;
  const frac = m[2] ?? '';
  const exp = Number(m[3] ?? '0') - frac.length;
  const digits = BigInt(`${m[1]}${frac}` || '0');
  // A huge exponent only matters next to the binary32 range; past it the caller has decided.
  if (Math.abs(exp) > 400) return null;
  return exp >= 0 ? { num: digits * 10n ** BigInt(exp), den: 1n } : { num: digits, den: 10n ** BigInt(-exp) };
}

/** The exact value of a finite positive binary64. */
function doubleRatio(d: number): Ratio {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, d);
  const bits = b.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const mant = e === 0 ? frac : frac | (1n << 52n);
  const p = (e === 0 ? 1 : e) - 1075;
  return p >= 0 ? { num: mant << BigInt(p), den: 1n } : { num: mant, den: 1n << BigInt(-p) };
}

/**
 * The binary32 nearest to the decimal `text` (a float literal, optionally signed), ties to even;
 * ∞ beyond the range. Rounding through binary64 is right except when the binary64 lies exactly
 * on a midpoint of two binary32 values: then the decimal itself decides.
 */
export function decimalToF32(text: string): number {
  if (text.startsWith('-')) return -decimalToF32(text.slice(1));
  const d = Number(text);
  const f = Math.fround(d);
  if (!Number.isFinite(d) || d === 0 || f === d) return f;
  const lo = f < d ? f : prevBelow(f);
  const hi = f < d ? nextUp(f) : f;
  // The midpoint of two adjacent binary32 values is a binary64 (25 significant bits); above the
  // largest binary32, the threshold of overflow is 2^128 - 2^103.
  const mid = hi === Infinity ? 2 ** 128 - 2 ** 103 : (lo + hi) / 2;
  if (d !== mid) return f;
  const q = decimalRatio(text);
  if (q === null) return f;
  const m = doubleRatio(mid);
  const lhs = q.num * m.den;
  const rhs = m.num * q.den;
  return lhs > rhs ? hi : lhs < rhs ? lo : f;
}

/** The binary32 below a positive binary32. */
function prevBelow(f: number): number {
  if (f === Infinity) return 3.4028234663852886e38;
  F32[0] = f;
  U32[0] = U32[0]! - 1;
  return F32[0]!;
}

/**
 * The only binary32 that prints as the decimal `text` (optionally signed) when printed with
 * `digits` decimals, or null when none or several do: those within ½·10^−digits of it, the bound
 * included (a tie may be printed either way), compared exactly.
 */
export function onlyF32Printing(text: string, digits: number): number | null {
  if (text.startsWith('-')) {
    const r = onlyF32Printing(text.slice(1), digits);
    return r === null ? null : -r;
  }
  const q = decimalRatio(text);
  if (q === null) return null;
  const scale = 2n * 10n ** BigInt(digits);
  const prints = (x: number): boolean => {
    if (!Number.isFinite(x)) return false;
    const r = doubleRatio(x);
    const diff = r.num * q.den - q.num * r.den;
    return (diff < 0n ? -diff : diff) * scale <= r.den * q.den;
  };
  const c = Math.fround(Number(text));
  if (!prints(c)) return null;
  // Binary32 values are ordered: another one prints so only if a neighbour of c does (below 0,
  // the neighbour of 0 mirrors the one above it).
  if (prints(nextUp(c)) || (c > 0 && prints(prevBelow(c)))) return null;
  return c;
}
