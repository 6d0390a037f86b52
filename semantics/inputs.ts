// Families of input values (the spec's model M: input tensors, and computed tensors where the spec
// leaves them unconstrained). Each family is a pure function of (seed, tensor, point), so a run is
// reproduced exactly by naming its family and seed (`sched run --inputs corner --seed 3`):
//
//   default — seededInputs: f32/f64 uniform in [-1, 1) on a grid, integers uniform over their type;
//   corner  — about half of the points replaced by corner cases: IEEE specials (NaN, ±∞, ±0,
//             16777217, 3.4e38, the least subnormal) for floats, the extremes of the range for
//             integers;
//   spread  — floats with every significand bit random and magnitudes over 2^-12 … 2^12 (no
//             specials), where reordered sums and reassociated products round differently;
//             integers as in `default`;
//   small   — the default inputs with every integer folded into [-3, 3] ([0, 6] unsigned):
//             conditions such as `f(0) == 1` hold on some seeds (never on 32-bit uniform
//             values), and shallow integer expressions cannot overflow; floats as in `default`.

import type { ValueType } from '../core/language/ast.ts';
import { type InputSource, seededInputs } from './model.ts';
import type { Value } from './values.ts';

export const INPUT_FAMILIES = ['default', 'corner', 'spread', 'small'] as const;
export type InputFamily = (typeof INPUT_FAMILIES)[number];

const SPECIAL = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0, 1, -1, 16777217, 3.4e38, 1e-45];

function intExtremes(t: ValueType): Value[] | null {
  switch (t) {
    case 'i8':
      return [-128, 127, 0, -1, 1, -127];
    case 'i16':
      return [-32768, 32767, 0, -1, 1, -32767];
    case 'i32':
      return [-2147483648, 2147483647, 0, -1, 1, -2147483647];
    case 'u8':
      return [0, 255, 1, 254];
    case 'u16':
      return [0, 65535, 1, 65534];
    case 'u32':
      return [0, 4294967295, 1, 4294967294];
    case 'i64':
      return [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 1n];
    case 'u64':
      return [0n, 2n ** 64n - 1n, 1n];
    default:
      return null;
  }
}

/** `base` with every value passed through `f` (inputs and unconstrained points alike). */
function mapped(base: InputSource, f: (v: Value, t: ValueType, point: readonly unknown[], tensor: string) => Value): InputSource {
  return {
    input: (tensor, t, point) => f(base.input(tensor, t, point), t, point, tensor),
    unconstrained: (tensor, t, point) => f(base.unconstrained(tensor, t, point), t, point, tensor),
  };
}

function cornerInputs(seed: bigint | number): InputSource {
  const base = seededInputs(seed);
  const coin = seededInputs(BigInt(seed) + 1000n);
  const pick = (v: Value, t: ValueType, point: readonly unknown[], tensor: string): Value => {
    if (t === 'f32' || t === 'f64') {
      if (typeof v !== 'number' || v >= 0) return v;
      const x = SPECIAL[Math.floor(-v * SPECIAL.length) % SPECIAL.length]!;
      return t === 'f32' ? Math.fround(x) : x;
    }
    const ext = intExtremes(t);
    if (ext === null) return v;
    const c = coin.input(tensor, 'f64', point as never) as number;
    return c < 0 ? ext[Math.floor(-c * ext.length) % ext.length]! : v;
  };
  return mapped(base, pick);
}

function spreadInputs(seed: bigint | number): InputSource {
  const bits = seededInputs(seed);
  const scale = seededInputs(BigInt(seed) + 2000n);
  // Every significand bit random (the default values are multiples of 2^-23, so their sums are
  // often exact) and exponents over 2^-12 … 2^12: sums round, and round differently when
  // reassociated.
  const spread = (v: Value, t: ValueType, point: readonly unknown[], tensor: string): Value => {
    if ((t !== 'f32' && t !== 'f64') || typeof v !== 'number') return v;
    const m = bits.input(tensor, 'u32', point as never) as number;
    const c = scale.input(tensor, 'u32', point as never) as number;
    const significand = t === 'f32' ? 1 + (m & 0x7fffff) / 2 ** 23 : 1 + m / 2 ** 32 + (c >>> 16) / 2 ** 48;
    const x = (c & 1 ? -1 : 1) * significand * 2 ** ((((c >>> 1) & 0x7fff) % 25) - 12);
    return t === 'f32' ? Math.fround(x) : x;
  };
  return mapped(bits, spread);
}

function smallInputs(seed: bigint | number): InputSource {
  const base = seededInputs(seed);
  const fold = (v: Value, t: ValueType): Value => {
    if (t === 'f32' || t === 'f64' || t === 'bool') return v;
    const shift = t.startsWith('u') ? 0 : 3;
    if (typeof v === 'bigint') return (((v % 7n) + 7n) % 7n) - BigInt(shift);
    if (typeof v === 'number') return (((v % 7) + 7) % 7) - shift;
    return v;
  };
  return mapped(base, fold);
}

/** The inputs of a family and seed. */
export function familyInputs(family: InputFamily, seed: bigint | number): InputSource {
  switch (family) {
    case 'default':
      return seededInputs(seed);
    case 'corner':
      return cornerInputs(seed);
    case 'spread':
      return spreadInputs(seed);
    case 'small':
      return smallInputs(seed);
  }
}

/** One input value given explicitly: `A(1, 2) = 0.5` (`sched run --input 'A(1,2)=0.5'`). */
export interface InputOverride {
  readonly tensor: string;
  readonly point: readonly bigint[];
  readonly value: Value;
}

/** `base`, except at the given points. */
export function withOverrides(base: InputSource, overrides: readonly InputOverride[]): InputSource {
  const at = new Map<string, Value>(overrides.map((o) => [`${o.tensor}(${o.point.join(',')})`, o.value]));
  const key = (tensor: string, point: readonly unknown[]): string => `${tensor}(${point.map(String).join(',')})`;
  return {
    input: (tensor, t, point) => at.get(key(tensor, point)) ?? base.input(tensor, t, point),
    unconstrained: (tensor, t, point) => at.get(key(tensor, point)) ?? base.unconstrained(tensor, t, point),
  };
}

/** The text of a value for `--input` (exact: integers in full, floats by their shortest round-trip text). */
export function overrideText(v: Value): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0.0' : String(v);
  return String(v);
}

/** Parse `A(1,2)=0.5`; the value is checked against the tensor's type by `parseOverrideValue`. */
export function parseOverride(text: string): { tensor: string; point: bigint[]; value: string } | null {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)\s*=\s*(\S+)\s*$/.exec(text);
  if (!m) return null;
  const coords = m[2]!.trim() === '' ? [] : m[2]!.split(',').map((c) => c.trim());
  if (!coords.every((c) => /^-?\d+$/.test(c))) return null;
  return { tensor: m[1]!, point: coords.map((c) => BigInt(c)), value: m[3]! };
}

/** A value of type t from its `--input` text, or null if it is not one. */
export function parseOverrideValue(text: string, t: ValueType): Value | null {
  if (t === 'bool') return text === 'true' ? true : text === 'false' ? false : null;
  if (t === 'f32' || t === 'f64') {
    const x = /^-?inf(inity)?$/i.test(text) ? (text.startsWith('-') ? -Infinity : Infinity) : /^nan$/i.test(text) ? NaN : Number(text);
    if (Number.isNaN(x) && !/^nan$/i.test(text)) return null;
    if (t === 'f32' && !Number.isNaN(x) && !Object.is(Math.fround(x), x)) return null; // not a binary32 value
    return x;
  }
  if (!/^-?\d+$/.test(text)) return null;
  const b = BigInt(text);
  const range: Record<string, [bigint, bigint]> = { i8: [-128n, 127n], i16: [-32768n, 32767n], i32: [-(2n ** 31n), 2n ** 31n - 1n], i64: [-(2n ** 63n), 2n ** 63n - 1n], u8: [0n, 255n], u16: [0n, 65535n], u32: [0n, 2n ** 32n - 1n], u64: [0n, 2n ** 64n - 1n] };
  const r = range[t]!;
  if (b < r[0] || b > r[1]) return null;
  return t === 'i64' || t === 'u64' ? b : Number(b);
}
