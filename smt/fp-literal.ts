// Floating-point values as an SMT solver writes them in a model, for the formats the toolkit
// declares (binary32 `(_ FloatingPoint 8 24)` and binary64 `(_ FloatingPoint 11 53)`), as JS
// numbers (a binary32 value is exactly a double). Every literal form of the SMT-LIB FloatingPoint
// theory is read:
//   (fp #b0 #b01111111 #b000…)          sign, exponent and significand bit strings (#x too);
//   (_ +zero 8 24) (_ -zero 8 24) (_ +oo 8 24) (_ -oo 8 24) (_ NaN 8 24);
//   ((_ to_fp 8 24) #x3fc00000)         a bit vector of width eb + sb, reinterpreted;
//   ((_ to_fp 8 24) RNE 1.5)            a real (decimal, integer, (- x), (/ p q); Z3 may add an
//                                       integer exponent: significand × 2^e), a float, or a signed
//                                       bit vector, rounded with the rounding mode;
//   ((_ to_fp_unsigned 8 24) RTZ #xff)  an unsigned bit vector, rounded;
//   (fp.neg x) (fp.abs x).
// Rounding is exact (rationals as bigints), in all five modes. A form not read gives null: the
// caller then has no value, never a wrong one.

import type { SExpr } from './sexpr.ts';

type Rounding = 'RNE' | 'RNA' | 'RTP' | 'RTN' | 'RTZ';

const ROUNDING: Readonly<Record<string, Rounding>> = {
  RNE: 'RNE', roundNearestTiesToEven: 'RNE',
  RNA: 'RNA', roundNearestTiesToAway: 'RNA',
  RTP: 'RTP', roundTowardPositive: 'RTP',
  RTN: 'RTN', roundTowardNegative: 'RTN',
  RTZ: 'RTZ', roundTowardZero: 'RTZ',
};

/** The formats whose values are JS numbers exactly. */
function supported(eb: number, sb: number): boolean {
  return (eb === 8 && sb === 24) || (eb === 11 && sb === 53);
}

function numeral(x: SExpr | undefined): number | null {
  return typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : null;
}

/** `#b0101` / `#x3f` as a bigint and its width in bits. */
export function bitVector(a: SExpr | undefined): { value: bigint; width: number } | null {
  if (typeof a !== 'string') return null;
  if (/^#b[01]+$/.test(a)) return { value: BigInt(`0b${a.slice(2)}`), width: a.length - 2 };
  if (/^#x[0-9a-fA-F]+$/.test(a)) return { value: BigInt(`0x${a.slice(2)}`), width: 4 * (a.length - 2) };
  return null;
}

/** The value of the bits (sign, exponent, significand) of an IEEE format with eb and sb. */
export function fpFromBits(bits: bigint, eb: number, sb: number): number {
  const m = sb - 1;
  const mant = bits & ((1n << BigInt(m)) - 1n);
  const exp = Number((bits >> BigInt(m)) & ((1n << BigInt(eb)) - 1n));
  const neg = ((bits >> BigInt(eb + m)) & 1n) === 1n;
  const bias = 2 ** (eb - 1) - 1;
  let v: number;
  if (exp === 2 ** eb - 1) return mant === 0n ? (neg ? -Infinity : Infinity) : NaN;
  if (exp === 0) v = Number(mant) * 2 ** (1 - bias - m);
  else v = Number(mant + (1n << BigInt(m))) * 2 ** (exp - bias - m);
  return neg ? -v : v;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/**
 * The rational ±num/den (num ≥ 0, den > 0) rounded to the format (eb, sb) in mode `rm`, as
 * IEEE 754 §4.3 defines it: subnormals, and overflow to ∞ or to the largest finite value
 * depending on the direction.
 */
export function roundRational(neg: boolean, num: bigint, den: bigint, eb: number, sb: number, rm: Rounding): number {
  if (num === 0n) return neg ? -0 : 0;
  const emax = 2 ** (eb - 1) - 1;
  const emin = 1 - emax;
  // e = ⌊log2(num/den)⌋, at least emin (subnormals share its quantum).
  let e = bitLength(num) - bitLength(den);
  if (e >= 0 ? num < den << BigInt(e) : num << BigInt(-e) < den) e--;
  if (e < emin) e = emin;
  const shift = sb - 1 - e;
  const n = shift >= 0 ? num << BigInt(shift) : num;
  const d = shift >= 0 ? den : den << BigInt(-shift);
  let q = n / d;
  const r = n - q * d;
  let up = false;
  if (r !== 0n) {
    if (rm === 'RTP') up = !neg;
    else if (rm === 'RTN') up = neg;
    else if (rm === 'RNA') up = 2n * r >= d;
    else if (rm === 'RNE') up = 2n * r > d || (2n * r === d && (q & 1n) === 1n);
  }
  if (up) q += 1n;
  let exp = e - sb + 1;
  if (q >= 1n << BigInt(sb)) {
    q >>= 1n; // q was 2^sb: even, so exact
    exp += 1;
  }
  if (exp + sb - 1 > emax) {
    const max = (2 ** sb - 1) * 2 ** (emax - sb + 1);
    const toInf = rm === 'RNE' || rm === 'RNA' || (rm === 'RTP' && !neg) || (rm === 'RTN' && neg);
    return neg ? (toInf ? -Infinity : -max) : toInf ? Infinity : max;
  }
  const v = Number(q) * 2 ** exp;
  return neg ? -v : v;
}

/** A finite double as an exact rational ±num/den. */
function rationalOfDouble(x: number): { neg: boolean; num: bigint; den: bigint } {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  const mant = bexp === 0 ? frac : frac | (1n << 52n);
  const e = (bexp === 0 ? 1 : bexp) - 1075;
  const neg = hi >>> 31 === 1;
  return e >= 0 ? { neg, num: mant << BigInt(e), den: 1n } : { neg, num: mant, den: 1n << BigInt(-e) };
}

/** A real written as SMT-LIB text: 3, 1.5, (- x), (/ p q), as ±num/den; null otherwise. */
function realOf(x: SExpr | undefined): { neg: boolean; num: bigint; den: bigint } | null {
  if (typeof x === 'string') {
    const m = /^(\d+)(?:\.(\d+))?$/.exec(x);
    if (!m) return null;
    const frac = m[2] ?? '';
    return { neg: false, num: BigInt(m[1]! + frac), den: 10n ** BigInt(frac.length) };
  }
  if (!Array.isArray(x)) return null;
  if (x[0] === '-' && x.length === 2) {
    const v = realOf(x[1]);
    return v && { ...v, neg: !v.neg };
  }
  if (x[0] === '/' && x.length === 3) {
    const p = realOf(x[1]);
    const q = realOf(x[2]);
    if (!p || !q || q.num === 0n) return null;
    return { neg: p.neg !== q.neg, num: p.num * q.den, den: p.den * q.num };
  }
  return null;
}

/** An integer exponent (3, (- 3)). */
function integerOf(x: SExpr | undefined): number | null {
  const r = realOf(x);
  if (r === null || r.den !== 1n || r.num > 100_000n) return null;
  return r.neg ? -Number(r.num) : Number(r.num);
}

/** A special constant `(_ +zero eb sb)` …, or null. */
export function fpConstant(h: readonly SExpr[]): number | null {
  if (h[0] !== '_' || h.length !== 4) return null;
  const eb = numeral(h[2]);
  const sb = numeral(h[3]);
  if (eb === null || sb === null || !supported(eb, sb)) return null;
  switch (h[1]) {
    case '+zero':
      return 0;
    case '-zero':
      return -0;
    case '+oo':
      return Infinity;
    case '-oo':
      return -Infinity;
    case 'NaN':
      return NaN;
    default:
      return null;
  }
}

/** Is `head` an indexed conversion to a float, `(_ to_fp eb sb)` or `(_ to_fp_unsigned eb sb)`? */
export function isFpHead(head: readonly SExpr[]): boolean {
  return head[0] === '_' && (head[1] === 'to_fp' || head[1] === 'to_fp_unsigned') && head.length === 4;
}

/**
 * An application: `fp`, `fp.neg`, `fp.abs`, or an indexed `to_fp` head, with its arguments
 * (`value` evaluates a float argument to a number, or a bit vector to its unsigned value).
 */
export function fpApplication(head: string | readonly SExpr[], args: readonly SExpr[], value: (x: SExpr) => unknown): number | null {
  if (head === 'fp') {
    const [s, e, m] = args.map(bitVector);
    if (!s || !e || !m || s.width !== 1 || args.length !== 3 || !supported(e.width, m.width + 1)) return null;
    return fpFromBits((s.value << BigInt(e.width + m.width)) | (e.value << BigInt(m.width)) | m.value, e.width, m.width + 1);
  }
  if (head === 'fp.neg' || head === 'fp.abs') {
    const v = args.length === 1 ? value(args[0]!) : null;
    if (typeof v !== 'number') return null;
    return head === 'fp.neg' ? -v : Math.abs(v);
  }
  if (typeof head === 'string' || !isFpHead(head)) return null;
  const eb = numeral(head[2]);
  const sb = numeral(head[3]);
  if (eb === null || sb === null || !supported(eb, sb)) return null;
  if (head[1] === 'to_fp' && args.length === 1) {
    // The bits of the float, as a bit vector of width eb + sb.
    const bv = bitVector(args[0]);
    const raw = bv ? bv.value : value(args[0]!);
    if (typeof raw !== 'bigint' || (bv !== null && bv.width !== eb + sb)) return null;
    return fpFromBits(raw, eb, sb);
  }
  const rm = typeof args[0] === 'string' ? ROUNDING[args[0]] : undefined;
  if (rm === undefined || args.length < 2 || args.length > 3) return null;
  const x = args[1]!;
  if (head[1] === 'to_fp_unsigned') {
    const bv = bitVector(x);
    const u = bv ? bv.value : value(x);
    return typeof u === 'bigint' && args.length === 2 ? roundRational(false, u, 1n, eb, sb, rm) : null;
  }
  const real = realOf(x);
  if (real !== null) {
    // Z3 may write a real significand and an integer exponent: ((_ to_fp 11 53) RNE 1.5 (- 3)).
    const k = args.length === 3 ? integerOf(args[2]) : 0;
    if (k === null) return null;
    const num = k >= 0 ? real.num << BigInt(k) : real.num;
    const den = k >= 0 ? real.den : real.den << BigInt(-k);
    return real.num === 0n ? 0 : roundRational(real.neg, num, den, eb, sb, rm);
  }
  if (args.length !== 2) return null;
  const bv = bitVector(x);
  if (bv !== null) {
    // A signed (two's complement) bit vector.
    const neg = bv.width > 0 && bv.value >> BigInt(bv.width - 1) === 1n;
    const mag = neg ? (1n << BigInt(bv.width)) - bv.value : bv.value;
    return roundRational(neg, mag, 1n, eb, sb, rm);
  }
  const v = value(x);
  if (typeof v !== 'number') return null;
  // Another float, converted: NaN, ±∞ and ±0 keep their kind; other values are rounded.
  if (!Number.isFinite(v) || v === 0) return v;
  const r = rationalOfDouble(v);
  return roundRational(r.neg, r.num, r.den, eb, sb, rm);
}
