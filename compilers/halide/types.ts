// The Halide type of an expression of its printed IR, where the text says it: the printer types
// constants (`(uint8)3`, `2.5f`), casts and calls of a type other than int32 (`(float32)f(x)`);
// variables are loop variables (int32) unless the caller knows better (Params, lets). The
// translator needs it where one Halide operation means different things by type: Int(32) and
// Int(64) arithmetic is undefined on overflow, narrower types wrap; a cast to bool takes the low
// bit of an integer.

import type { HExpr } from './hir.ts';

/** Halide type names as printed, `uint1` read as `bool`. */
export type HType = string;

const FLOAT_RESULT = /^(sqrt|exp|log|pow|floor|ceil|round|trunc|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|fast_inverse|fast_inverse_sqrt)_f(32|64)$/;
const BOOL_RESULT = /^is_(nan|inf|finite)_f(32|64)$/;

/** SCHED's spelling (driver types: i32, f32, bool) as Halide's (int32, float32, bool). */
export function halideTypeName(t: string): HType {
  const m = /^([iuf])(\d+)$/.exec(t);
  if (m) return `${m[1] === 'i' ? 'int' : m[1] === 'u' ? 'uint' : 'float'}${m[2]}`;
  return t === 'uint1' ? 'bool' : t;
}

/**
 * The type of `e`, or null when the text does not say (a call this reader does not know).
 * `named(n, call)` gives the type of a variable or of a called Func or input (null: unknown; a
 * variable is then an int32 loop variable).
 */
export function hirType(e: HExpr, named: (name: string, call: boolean) => HType | null): HType | null {
  const ty = (x: HExpr): HType | null => hirType(x, named);
  switch (e.k) {
    case 'int':
      return e.t === null ? 'int32' : halideTypeName(e.t);
    case 'float':
      return e.t;
    case 'str':
      return null;
    case 'var':
      return named(e.name, false) ?? 'int32';
    case 'neg':
      return ty(e.a);
    case 'not':
      return 'bool';
    case 'cast':
      return halideTypeName(e.t);
    case 'bin':
      return ['==', '!=', '<', '<=', '>', '>=', '&&', '||'].includes(e.op) ? 'bool' : ty(e.a) ?? ty(e.b);
    case 'let':
      return hirType(e.body, (n, call) => (!call && n === e.name ? ty(e.value) : named(n, call)));
    case 'load':
      return null;
    case 'call': {
      const a = e.args;
      if (e.name === 'select') return a[1] ? ty(a[1]) ?? (a[2] ? ty(a[2]) : null) : null;
      if (e.name === 'mux') return a.slice(1).map(ty).find((t) => t !== null) ?? null;
      if (e.name === 'return_second') return a[1] ? ty(a[1]) : null;
      if (['min', 'max', 'strict_float', 'likely', 'likely_if_innermost', 'promise_clamped', 'unsafe_promise_clamped'].includes(e.name)) return a[0] ? ty(a[0]) ?? (a[1] ? ty(a[1]) : null) : null;
      if (e.name === 'abs' || e.name === 'absd') {
        // abs and absd of a signed integer are the unsigned type of its width.
        const t = a[0] ? ty(a[0]) : null;
        return t !== null && t.startsWith('int') ? `u${t}` : t;
      }
      if (FLOAT_RESULT.test(e.name)) return `float${/_f(\d+)$/.exec(e.name)![1]}`;
      if (BOOL_RESULT.test(e.name)) return 'bool';
      if (['bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_not', 'shift_left'].includes(e.name)) return a[0] ? ty(a[0]) : null;
      return named(e.name, true);
    }
  }
}

export function isFloatH(t: HType | null): boolean {
  return t !== null && t.startsWith('float');
}

/** Int(32) and Int(64): Halide assumes their arithmetic never overflows (no signed wrap). */
export function noOverflowH(t: HType | null): boolean {
  return t === 'int32' || t === 'int64';
}
