// Value semantics (semantics/values.ts) and exact index arithmetic (semantics/int.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as I from '../semantics/int.ts';
import { arith, bigToF32, builtin1, builtin2, cast, closeValue, compare, literalValue, negate, sameValue, wrapInt } from '../semantics/values.ts';
import { seededInputs, valueFromBits } from '../semantics/model.ts';

describe('exact index arithmetic', () => {
  it('stays exact beyond 2^53 and comes back to numbers', () => {
    const big = I.mul(2 ** 52, 4);
    expect(big).toBe(2n ** 54n);
    expect(I.sub(big, 2n ** 54n - 5n)).toBe(5);
    expect(I.add(Number.MAX_SAFE_INTEGER, 1)).toBe(2n ** 53n);
    expect(I.neg(-(2n ** 60n))).toBe(2n ** 60n);
  });
  it('floor division and Euclidean remainder by positive constants', () => {
    expect(I.floorDiv(-7, 2)).toBe(-4);
    expect(I.emod(-7, 2)).toBe(1);
    expect(I.floorDiv(7, 2)).toBe(3);
    expect(I.emod(-6, 3)).toBe(0);
    expect(Object.is(I.emod(-6, 3), -0)).toBe(false);
    expect(I.floorDiv(-(2n ** 70n) - 1n, 2)).toBe(-(2n ** 69n) - 1n);
  });
  it('agrees with BigInt on random operands', () => {
    const arb = fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(I.fromBig));
    fc.assert(
      fc.property(arb, arb, fc.integer({ min: 1, max: 1000 }), (a, b, m) => {
        const A = I.toBig(a);
        const B = I.toBig(b);
        expect(I.toBig(I.add(a, b))).toBe(A + B);
        expect(I.toBig(I.sub(a, b))).toBe(A - B);
        expect(I.toBig(I.mul(a, b))).toBe(A * B);
        const q = I.toBig(I.floorDiv(a, m));
        const r = I.toBig(I.emod(a, m));
        expect(q * BigInt(m) + r).toBe(A);
        expect(r >= 0n && r < BigInt(m)).toBe(true);
        // canonical: safe values are numbers
        for (const x of [I.add(a, b), I.mul(a, b)]) if (typeof x === 'bigint') expect(x > BigInt(Number.MAX_SAFE_INTEGER) || x < -BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('machine integers', () => {
  it('wrap on + - * and use Halide division (Euclidean, 0 for a zero divisor)', () => {
    expect(arith('+', 'i32')(2147483647, 1)).toBe(-2147483648);
    expect(arith('*', 'i32')(65536, 65536)).toBe(0);
    expect(arith('*', 'u32')(4294967295, 4294967295)).toBe(1);
    expect(arith('-', 'u8')(0, 1)).toBe(255);
    expect(arith('+', 'i8')(127, 1)).toBe(-128);
    expect(arith('/', 'i32')(-7, 2)).toBe(-4);
    expect(arith('%', 'i32')(-7, 2)).toBe(1);
    expect(arith('/', 'i32')(7, -2)).toBe(-3); // Euclidean: 7 = -2·-3 + 1
    expect(arith('%', 'i32')(7, -2)).toBe(1);
    expect(arith('/', 'i32')(-7, -2)).toBe(4); // -7 = -2·4 + 1
    expect(arith('%', 'i32')(-7, -2)).toBe(1);
    expect(arith('/', 'i32')(5, 0)).toBe(0);
    expect(arith('%', 'i32')(5, 0)).toBe(0);
    expect(arith('/', 'i32')(-2147483648, -1)).toBe(-2147483648);
    expect(arith('%', 'i32')(-2147483648, -1)).toBe(0);
    expect(arith('/', 'i64')(-7n, 2n)).toBe(-4n);
    expect(arith('%', 'i64')(-7n, -2n)).toBe(1n);
    expect(arith('*', 'i64')(2n ** 62n, 4n)).toBe(0n);
    expect(arith('-', 'u64')(0n, 1n)).toBe(2n ** 64n - 1n);
    expect(negate('i32')(-2147483648)).toBe(-2147483648);
    expect(builtin1('abs', 'i16')(-32768)).toBe(-32768);
    expect(Object.is(negate('i32')(0), -0)).toBe(false);
  });
  it('i32 agrees with BigInt two’s complement', () => {
    const i32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    fc.assert(
      fc.property(i32, i32, (a, b) => {
        const w = (x: bigint): number => Number(BigInt.asIntN(32, x));
        expect(arith('+', 'i32')(a, b)).toBe(w(BigInt(a) + BigInt(b)));
        expect(arith('*', 'i32')(a, b)).toBe(w(BigInt(a) * BigInt(b)));
        if (b !== 0) {
          const q = arith('/', 'i32')(a, b) as number;
          const r = arith('%', 'i32')(a, b) as number;
          expect(r >= 0 && r < Math.abs(b)).toBe(true);
          expect(w(BigInt(q) * BigInt(b) + BigInt(r))).toBe(a);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('floats', () => {
  it('round every f32 operation', () => {
    const x = literalValue(0.1, 'f32') as number;
    expect(x).toBe(Math.fround(0.1));
    expect(arith('+', 'f32')(x, x)).toBe(Math.fround(x + x));
    expect(arith('/', 'f32')(1, 3)).toBe(Math.fround(1 / 3));
    expect(arith('/', 'f64')(1, 3)).toBe(1 / 3);
    expect(builtin1('sqrt', 'f32')(2)).toBe(Math.fround(Math.SQRT2));
  });
  it('compare as IEEE, min/max as a < b ? a : b', () => {
    expect(compare('==')(NaN, NaN)).toBe(false);
    expect(compare('==')(0, -0)).toBe(true);
    expect(builtin2('min', 'f32')(NaN, 1)).toBe(1);
    expect(builtin2('min', 'f32')(1, NaN)).toBeNaN();
    expect(Object.is(builtin2('min', 'f64')(-0, 0), 0)).toBe(true);
  });
  it('same value: NaN = NaN, +0 ≠ -0; tolerance', () => {
    expect(sameValue(NaN, NaN)).toBe(true);
    expect(sameValue(0, -0)).toBe(false);
    expect(sameValue(1n, 1n)).toBe(true);
    expect(closeValue(1, 1 + 1e-7, 1e-6)).toBe(true);
    expect(closeValue(1, 1.1, 1e-6)).toBe(false);
    expect(closeValue(0, -0, 0)).toBe(true);
    expect(closeValue(Infinity, Infinity, 0.5)).toBe(true);
  });
});

describe('casts', () => {
  it('wrap integers, round to nearest even into floats, truncate floats', () => {
    expect(cast('index', 'i8')(300)).toBe(44);
    expect(cast('index', 'u8')(-1)).toBe(255);
    expect(cast('index', 'i32')(2n ** 70n + 5n)).toBe(5);
    expect(cast('index', 'i64')(2n ** 63n)).toBe(-(2n ** 63n));
    expect(cast('i64', 'i16')(65537n)).toBe(1);
    expect(cast('u32', 'i32')(4294967295)).toBe(-1);
    expect(cast('f32', 'i32')(-2.7)).toBe(-2);
    expect(cast('f64', 'u8')(257.9)).toBe(1);
    expect(cast('f32', 'i32')(NaN)).toBe(0);
    expect(cast('f64', 'i64')(-Infinity)).toBe(0n);
    expect(cast('f64', 'f32')(0.1)).toBe(Math.fround(0.1));
    expect(cast('cond', 'f32')(true)).toBe(1);
    expect(cast('f32', 'bool')(NaN)).toBe(true);
    expect(cast('f32', 'bool')(-0)).toBe(false);
    expect(cast('i64', 'f64')(2n ** 53n + 1n)).toBe(2 ** 53);
    expect(wrapInt('u16', -1)).toBe(65535);
  });
  it('rounds big integers to f32 exactly once (no double rounding)', () => {
    // 2^60 + 2^36 + 1 is just above the midpoint between two f32 neighbours of 2^60.
    const x = 2n ** 60n + 2n ** 36n + 1n;
    expect(bigToF32(x)).toBe(2 ** 60 + 2 ** 37);
    expect(Math.fround(Number(x))).toBe(2 ** 60); // double rounding would be wrong
    const ref = (b: bigint): number => {
      // exact reference: compare the two neighbours by exact rational distance
      const lo = Math.fround(Number(b));
      const cands = [lo, nextF32(lo, -1), nextF32(lo, 1)].filter((c) => Number.isFinite(c));
      let best = cands[0]!;
      for (const c of cands) {
        const d = abs(BigInt(c) - b);
        const db = abs(BigInt(best) - b);
        if (d < db || (d === db && evenF32(c) && !evenF32(best))) best = c;
      }
      return best;
    };
    fc.assert(
      // f32 values of magnitude ≥ 2^24 are integers, so neighbours compare exactly as bigints.
      fc.property(fc.bigInt({ min: 2n ** 25n, max: 2n ** 100n }), fc.boolean(), (m, neg) => {
        const b = neg ? -m : m;
        expect(bigToF32(b)).toBe(ref(b));
      }),
      { numRuns: 500 },
    );
  });
});

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}
function f32bits(x: number): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x);
  return b.getUint32(0);
}
function nextF32(x: number, dir: 1 | -1): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x);
  const u = b.getUint32(0);
  const pos = x > 0 || Object.is(x, 0);
  b.setUint32(0, (pos ? 1 : -1) * dir > 0 ? u + 1 : u - 1);
  return b.getFloat32(0);
}
function evenF32(x: number): boolean {
  return (f32bits(x) & 1) === 0;
}

describe('seeded inputs', () => {
  it('are a pure function of (seed, tensor, point) and have the right type', () => {
    const a = seededInputs(7);
    const b = seededInputs(7);
    expect(a.input('A', 'f32', [1, 2])).toBe(b.input('A', 'f32', [1, 2]));
    expect(a.input('A', 'f32', [1, 2])).not.toBe(a.input('A', 'f32', [2, 1]));
    expect(a.input('A', 'f32', [1, 2])).not.toBe(seededInputs(8).input('A', 'f32', [1, 2]));
    const v = a.input('A', 'f32', [3n ** 60n]) as number;
    expect(Object.is(Math.fround(v), v) && v >= -1 && v < 1).toBe(true);
    expect(typeof a.input('B', 'i64', [])).toBe('bigint');
    expect(typeof a.input('B', 'bool', [0])).toBe('boolean');
    expect(valueFromBits('u8', 0xfffffff0, 0)).toBe(0xf0);
  });
});
