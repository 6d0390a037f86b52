// Values of SCHED (thesis §4.2: 𝒱 = 𝒰 ∪ ℤ ∪ {true, false} ⊎ {⊥}) and the interpretation ⟦f⟧ of
// every operator and builtin on value types (docs/language.md §4). This is the reference the
// SMT encoding of proofs/verifier/smt-values.ts mirrors (test/smt-values checks both against each other):
//
// - machine integers: two's complement, `+ - *` wrap; `/` and `%` are Halide's: Euclidean (the
//   remainder is in [0, |b|), so `/` rounds toward −∞ for a positive divisor and toward +∞ for a
//   negative one) and both give 0 for a zero divisor;
// - f32/f64: IEEE-754 binary32/binary64, round to nearest even, and every f32 operation is rounded
//   to binary32 (`Math.fround`; for + − × ÷ and sqrt computing in binary64 first is exact enough:
//   53 ≥ 2·24 + 2). exp, log and pow use the platform's libm (binary64), then round;
// - min(a, b) = a < b ? a : b and max(a, b) = a > b ? a : b on every type (so NaN handling follows
//   from IEEE `<`), abs of the most negative integer wraps to itself;
// - casts: integer → integer wraps; to a float rounds to nearest even (exactly, even from 64-bit
//   integers and huge indices); float → integer truncates toward zero and wraps modulo 2^n, NaN
//   and ±∞ give 0 (encoded exactly in SMT, proofs/verifier/smt-values.ts floatToInt);
//   anything → bool is `≠ 0` (NaN → true); bool → number is 1 or 0.
//
// Representation: f32, f64, i8…i32, u8…u32 are JS numbers (always in range, never -0 for
// integers); i64 and u64 are bigints; bool is a JS boolean. ⊥ is `undefined` (type `Bot`).

import type { BoolLit, FloatLit, FloatType, IntLit, IntType, ValueType } from '../core/language/ast.ts';
import { isFloatType, isIntType } from '../core/language/ast.ts';
import type { Int } from './int.ts';

export type Value = number | bigint | boolean;
/** ⊥: an unwritten cell, or the result of an evaluation for which no rule applies. */
export type Bot = undefined;
export const BOT: Bot = undefined;

type SmallIntType = Exclude<IntType, 'i64' | 'u64'>;
export function isBigType(t: ValueType): t is 'i64' | 'u64' {
  return t === 'i64' || t === 'u64';
}

const WRAP: Record<SmallIntType, (x: number) => number> = {
  // JS ToInt32 reduces any finite number modulo 2^32 exactly, so these wrap exactly.
  i8: (x) => (x << 24) >> 24,
  i16: (x) => (x << 16) >> 16,
  i32: (x) => x | 0,
  u8: (x) => x & 0xff,
  u16: (x) => x & 0xffff,
  u32: (x) => x >>> 0,
};

/** Reduce an exact integer into `t` (two's complement wrapping). */
export function wrapInt(t: IntType, x: Int): number | bigint {
  if (t === 'i64') return BigInt.asIntN(64, typeof x === 'bigint' ? x : BigInt(x));
  if (t === 'u64') return BigInt.asUintN(64, typeof x === 'bigint' ? x : BigInt(x));
  if (typeof x === 'bigint') return WRAP[t](Number(BigInt.asIntN(32, x)));
  return WRAP[t](x);
}

// ---------------------------------------------------------------------------------------------
// Binary arithmetic, specialised per type once (at compile time of an expression).

export type BinFn = (a: Value, b: Value) => Value;
export type ArithOp = '+' | '-' | '*' | '/' | '%';

/** Euclidean quotient on numbers (|a|, |b| < 2^53; float division floors correctly there). */
function divEuclid(a: number, b: number): number {
  if (b === 0) return 0;
  const q = Math.trunc(a / b);
  const r = a - q * b;
  return r < 0 ? (b > 0 ? q - 1 : q + 1) : q;
}

function modEuclid(a: number, b: number): number {
  if (b === 0) return 0;
  const r = a % b;
  return r < 0 ? r + Math.abs(b) : r + 0;
}

function divEuclidBig(a: bigint, b: bigint): bigint {
  if (b === 0n) return 0n;
  const q = a / b;
  const r = a - q * b;
  return r < 0n ? (b > 0n ? q - 1n : q + 1n) : q;
}

function modEuclidBig(a: bigint, b: bigint): bigint {
  if (b === 0n) return 0n;
  const r = a % b;
  return r < 0n ? r + (b < 0n ? -b : b) : r;
}

export function arith(op: ArithOp, t: ValueType): BinFn {
  if (t === 'bool') throw new Error(`arith: '${op}' on bool`);
  if (t === 'f32') {
    switch (op) {
      case '+':
        return (a, b) => Math.fround((a as number) + (b as number));
      case '-':
        return (a, b) => Math.fround((a as number) - (b as number));
      case '*':
        return (a, b) => Math.fround((a as number) * (b as number));
      case '/':
        return (a, b) => Math.fround((a as number) / (b as number));
      case '%':
        throw new Error("arith: '%' on f32");
    }
  }
  if (t === 'f64') {
    switch (op) {
      case '+':
        return (a, b) => (a as number) + (b as number);
      case '-':
        return (a, b) => (a as number) - (b as number);
      case '*':
        return (a, b) => (a as number) * (b as number);
      case '/':
        return (a, b) => (a as number) / (b as number);
      case '%':
        throw new Error("arith: '%' on f64");
    }
  }
  if (t === 'i64' || t === 'u64') {
    const n = t === 'i64' ? (x: bigint) => BigInt.asIntN(64, x) : (x: bigint) => BigInt.asUintN(64, x);
    switch (op) {
      case '+':
        return (a, b) => n((a as bigint) + (b as bigint));
      case '-':
        return (a, b) => n((a as bigint) - (b as bigint));
      case '*':
        return (a, b) => n((a as bigint) * (b as bigint));
      case '/':
        return (a, b) => n(divEuclidBig(a as bigint, b as bigint));
      case '%':
        return (a, b) => n(modEuclidBig(a as bigint, b as bigint));
    }
  }
  const w = WRAP[t];
  switch (op) {
    case '+':
      return (a, b) => w((a as number) + (b as number));
    case '-':
      return (a, b) => w((a as number) - (b as number));
    case '*':
      return (a, b) => w(Math.imul(a as number, b as number)); // exact modulo 2^32
    case '/':
      return (a, b) => w(divEuclid(a as number, b as number));
    case '%':
      return (a, b) => w(modEuclid(a as number, b as number));
  }
}

export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** Comparisons: IEEE on floats (NaN is unordered, -0 == +0), exact on integers, == / != on bool. */
export function compare(op: CmpOp): (a: Value, b: Value) => boolean {
  switch (op) {
    case '==':
      return (a, b) => a === b;
    case '!=':
      return (a, b) => a !== b;
    case '<':
      return (a, b) => a < b;
    case '<=':
      return (a, b) => a <= b;
    case '>':
      return (a, b) => a > b;
    case '>=':
      return (a, b) => a >= b;
  }
}

export function negate(t: ValueType): (a: Value) => Value {
  if (isFloatType(t)) return (a) => -(a as number);
  if (t === 'i64') return (a) => BigInt.asIntN(64, -(a as bigint));
  if (t === 'u64') return (a) => BigInt.asUintN(64, -(a as bigint));
  if (t === 'bool') throw new Error('negate: bool');
  const w = WRAP[t];
  return (a) => w(-(a as number));
}

// ---------------------------------------------------------------------------------------------
// Builtins (Fig. 4.3's CALL rule: ⟦f⟧ applied to values)

export type Builtin1 = 'abs' | 'sqrt' | 'exp' | 'log' | 'floor' | 'ceil';

export function builtin1(fn: Builtin1, t: ValueType): (a: Value) => Value {
  if (fn === 'abs') {
    if (isFloatType(t)) return (a) => Math.abs(a as number);
    if (t === 'i64') return (a) => ((a as bigint) < 0n ? BigInt.asIntN(64, -(a as bigint)) : a);
    if (t === 'u64' || t === 'u8' || t === 'u16' || t === 'u32') return (a) => a;
    if (t === 'bool') throw new Error('abs: bool');
    const w = WRAP[t];
    return (a) => ((a as number) < 0 ? w(-(a as number)) : a);
  }
  if (!isFloatType(t)) throw new Error(`${fn}: needs a float type, got ${t}`);
  const f = { sqrt: Math.sqrt, exp: Math.exp, log: Math.log, floor: Math.floor, ceil: Math.ceil }[fn];
  return t === 'f32' ? (a) => Math.fround(f(a as number)) : (a) => f(a as number);
}

/** `reinterpret_f32` / `reinterpret_f64`: the float with the IEEE-754 bits of an integer of its width. */
export function reinterpretBits(from: ValueType): (a: Value) => Value {
  const view = new DataView(new ArrayBuffer(8));
  switch (from) {
    case 'i32':
    case 'u32':
      return (a) => {
        view.setUint32(0, Number(a) >>> 0);
        return view.getFloat32(0);
      };
    case 'i64':
    case 'u64':
      return (a) => {
        view.setBigUint64(0, BigInt.asUintN(64, a as bigint));
        return view.getFloat64(0);
      };
    default:
      throw new Error(`reinterpret: ${from} is not a 32- or 64-bit integer type`);
  }
}

export function builtin2(fn: 'min' | 'max' | 'pow', t: ValueType): BinFn {
  if (fn === 'min') return (a, b) => (a < b ? a : b);
  if (fn === 'max') return (a, b) => (a > b ? a : b);
  if (!isFloatType(t)) throw new Error(`pow: needs a float type, got ${t}`);
  return t === 'f32' ? (a, b) => Math.fround(Math.pow(a as number, b as number)) : (a, b) => Math.pow(a as number, b as number);
}

// ---------------------------------------------------------------------------------------------
// Checked operations (docs/language.md §4): a value where the exact result is in range, POISON
// (no value) elsewhere. The evaluators turn POISON into undefined behaviour (a run error) unless
// a `select` discards it (jsgen.ts, $chk and $selp). A checked read `load(a[ι])` of a cell that
// holds ⊥ is POISON too; used, it is the error `uninitialized` (a read of ⊥), not undefined behaviour.

/**
 * Re-evaluation of a select operand found poison (jsgen.ts, $selp): while `depth` > 0, a `load` of
 * ⊥ and a checked operation out of range give a stand-in value instead of stopping, so that every
 * read of the operand happens (ρ, races) and every error in it counts, as SELECT's eager premises
 * require; the operand's value is poison whatever the stand-in.
 */
export const poisonRerun = { depth: 0 };

/** The result of a checked operation outside its range. */
export const POISON: unique symbol = Symbol('poison');

/**
 * Thrown where a checked operation's result is POISON (`site`: the operation's evaluation site), and
 * out of the evaluation unless a `select` that does not choose it discards it.
 */
export class PoisonSignal extends Error {
  constructor(
    readonly site: number,
    readonly what: string,
    /** What using it is: a checked operation's undefined behaviour, or a `load` of ⊥. */
    readonly kind: 'undefined-behaviour' | 'uninitialized' = 'undefined-behaviour',
    /** The cell a `load` found ⊥ in (`a[3]`). */
    readonly location: string | null = null,
  ) {
    super(`${kind === 'uninitialized' ? 'uninitialized read' : 'undefined behaviour'}: ${what}`);
  }
  /** The run error's message where the poison is used. */
  usedMessage(): string {
    return this.kind === 'uninitialized' ? `${this.what}, and the value is used (no select discarded it)` : `${this.what}: the operation has no value there, and the value is used`;
  }
}
export type Checked = (a: Value, b: Value) => Value | typeof POISON;

/** `add_nsw`, `sub_nsw`, `mul_nsw` on a signed integer type: the exact result, if it fits. */
export function checkedArith(op: '+' | '-' | '*', t: ValueType): Checked {
  if (!isIntType(t) || t.startsWith('u')) throw new Error(`checkedArith: ${t} is not a signed integer type`);
  const bits = BigInt(t === 'i8' ? 8 : t === 'i16' ? 16 : t === 'i32' ? 32 : 64);
  const lo = -(1n << (bits - 1n));
  const hi = (1n << (bits - 1n)) - 1n;
  const big = (x: Value): bigint => (typeof x === 'bigint' ? x : BigInt(x as number));
  return (a, b) => {
    const x = big(a);
    const y = big(b);
    const r = op === '+' ? x + y : op === '-' ? x - y : x * y;
    if (r < lo || r > hi) return POISON;
    return t === 'i64' ? r : Number(r);
  };
}

/** `trunc_T`: a float truncated toward zero, if it is a number whose truncation fits T. */
export function checkedTrunc(to: IntType): (a: Value) => Value | typeof POISON {
  const bits = BigInt(to.slice(1));
  const signed = to.startsWith('i');
  const lo = signed ? -(1n << (bits - 1n)) : 0n;
  const hi = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  return (a) => {
    const x = a as number;
    if (!Number.isFinite(x)) return POISON;
    const r = BigInt(Math.trunc(x));
    if (r < lo || r > hi) return POISON;
    return isBigType(to) ? r : Number(r);
  };
}

// ---------------------------------------------------------------------------------------------
// Literals and casts

/** The value of a literal written in a context of type t (the type checker chose t). */
export function literalValue(v: number | bigint | boolean, t: ValueType): Value {
  if (t === 'bool') return Boolean(v);
  if (isIntType(t)) return wrapInt(t, typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'bigint' ? v : BigInt(v));
  // An integer is rounded once (past 2^53, through binary64 it would round twice).
  if (typeof v === 'bigint') return t === 'f32' ? bigToF32(v) : Number(v);
  const x = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  return t === 'f32' ? Math.fround(x) : x;
}

/** The value of a literal expression at type t: an f32 literal is the binary32 nearest to the
 * decimal written (FloatLit.f32, where that is not the binary64's rounding). */
export function literalOf(e: IntLit | FloatLit | BoolLit, t: ValueType): Value {
  if (e.kind === 'float' && t === 'f32' && e.f32 !== undefined) return e.f32.value;
  return literalValue(e.value, t);
}

/** Round an exact integer to the nearest binary32 (ties to even), without double rounding. */
export function bigToF32(b: bigint): number {
  const neg = b < 0n;
  const m = neg ? -b : b;
  if (m <= 1n << 53n) return Math.fround(Number(b)); // exact double, then one rounding
  const len = m.toString(2).length;
  const shift = BigInt(len - 25); // keep 24 significant bits and one rounding bit
  let top = m >> shift;
  const sticky = (m & ((1n << shift) - 1n)) !== 0n;
  const round = top & 1n;
  top >>= 1n;
  if (round === 1n && (sticky || (top & 1n) === 1n)) top += 1n;
  const mag = Math.fround(Number(top) * 2 ** (Number(shift) + 1)); // exact, or ∞ on overflow
  return neg ? -mag : mag;
}

function intToFloat(x: Int, t: FloatType): number {
  if (t === 'f64') return Number(x); // Number(bigint) rounds to nearest even
  return typeof x === 'bigint' ? bigToF32(x) : Math.fround(x);
}

/** Source of a cast: a value type, an index (𝔸) or an affine condition (𝔹). */
export type CastSource = ValueType | 'index' | 'cond';

export function cast(from: CastSource, to: ValueType): (a: Value) => Value {
  if (from === 'cond' || from === 'bool') {
    if (to === 'bool') return (a) => a;
    const one = literalValue(1n, to);
    const zero = literalValue(0n, to);
    return (a) => (a ? one : zero);
  }
  if (to === 'bool') return (a) => a !== 0 && a !== 0n; // NaN → true, -0 → false
  if (from === 'index') {
    if (isIntType(to)) return (a) => wrapInt(to, a as Int);
    return (a) => intToFloat(a as Int, to as FloatType);
  }
  if (isIntType(from)) {
    if (isIntType(to)) return (a) => wrapInt(to, a as number | bigint);
    return (a) => intToFloat(a as number | bigint, to as FloatType);
  }
  // from a float
  if (isFloatType(to)) return to === 'f32' ? (a) => Math.fround(a as number) : (a) => a;
  return (a) => {
    const x = a as number;
    if (!Number.isFinite(x)) return wrapInt(to, 0);
    const tr = Math.trunc(x);
    return isBigType(to) ? wrapInt(to, BigInt(tr)) : WRAP[to](tr);
  };
}

// ---------------------------------------------------------------------------------------------
// Equality of stored values, printing, JSON

/**
 * Same value, as used for the compatibility of differential memories (δμ ∘ δμ') and for exact
 * output comparison: bit equality of the stored value, except that every NaN equals every NaN
 * (JS does not preserve NaN payloads) and +0 ≠ -0.
 */
export function sameValue(a: Value | Bot, b: Value | Bot): boolean {
  return Object.is(a, b);
}

/** Relative-tolerance comparison: |a − b| ≤ tol · max(|a|, |b|); NaN ~ NaN, ±∞ only equal to itself. */
export function closeValue(a: Value | Bot, b: Value | Bot, tol: number): boolean {
  if (typeof a !== 'number' || typeof b !== 'number') return Object.is(a, b);
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true; // includes ±0 and equal infinities
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b));
}

export function showValue(v: Value | Bot): string {
  if (v === undefined) return '⊥';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0.0' : String(v);
  return String(v);
}

/** A value as JSON: numbers stay numbers except NaN, ±∞ and -0 (strings); bigints as strings. */
export type JsonValue = number | string | boolean | null;
export function valueToJson(v: Value | Bot): JsonValue {
  if (v === undefined) return null;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (v === Infinity) return 'Infinity';
    if (v === -Infinity) return '-Infinity';
    if (Object.is(v, -0)) return '-0.0';
    return v;
  }
  if (typeof v === 'bigint') return v.toString();
  return v;
}

/** Does `v` belong to ⟦t⟧ in our representation? (Used by tests and by explicit inputs.) */
export function hasType(v: Value, t: ValueType): boolean {
  if (t === 'bool') return typeof v === 'boolean';
  if (t === 'f64') return typeof v === 'number';
  if (t === 'f32') return typeof v === 'number' && (Number.isNaN(v) || Object.is(Math.fround(v), v));
  if (isBigType(t)) return typeof v === 'bigint' && wrapInt(t, v) === v;
  return typeof v === 'number' && Number.isInteger(v) && !Object.is(v, -0) && WRAP[t as SmallIntType](v) === v;
}
