// Which float operations Halide 14 compiles with LLVM's fast-math flags. Its code generator
// (CodeGen_LLVM.cpp) sets nnan, ninf, nsz, reassoc, contract and afn on every float operation,
// except inside `strict_float(e)` and when the target has the feature strict_float. Such an
// operation may be contracted into a fused multiply-add or reassociated, and its result is not
// defined for NaN or infinite operands: Halide's execution of it is not the IEEE operation SCHED
// reads. The JIT oracle compares such pipelines within a stated tolerance, and a verdict says that
// it is about the IEEE reading of Halide's IR.

import type { DriverFunc, DriverOutput } from './translate.ts';
import { type HExpr, parseHExpr } from './hir.ts';

const FLOAT_CALLS = /^(sqrt|exp|log|pow|floor|ceil|round|trunc|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|fast_inverse|fast_inverse_sqrt|is_nan|is_inf|is_finite)_f(32|64)$/;

/** The first float operation of a definition outside strict_float, as text, or null. */
function looseFloatOp(e: HExpr, typeOf: (name: string) => string | null): string | null {
  const isFloat = (t: string | null): boolean => t !== null && /^(float\d+|f\d+)$/.test(t);
  const ty = (x: HExpr): string | null => {
    switch (x.k) {
      case 'int':
        return x.t ?? 'int32';
      case 'float':
        return x.t;
      case 'cast':
        return x.t;
      case 'var':
        return typeOf(x.name);
      case 'neg':
        return ty(x.a);
      case 'not':
        return 'bool';
      case 'bin':
        return ['==', '!=', '<', '<=', '>', '>=', '&&', '||'].includes(x.op) ? 'bool' : ty(x.a) ?? ty(x.b);
      case 'let':
        return ty(x.body);
      case 'call':
        if (x.name === 'select') return x.args[1] ? ty(x.args[1]) : null;
        if (['min', 'max', 'strict_float', 'likely', 'likely_if_innermost', 'promise_clamped', 'unsafe_promise_clamped'].includes(x.name)) return x.args[0] ? ty(x.args[0]) : null;
        if (FLOAT_CALLS.test(x.name)) return `float${/_f(\d+)$/.exec(x.name)![1]}`;
        return typeOf(x.name) ?? 'int32';
      default:
        return null;
    }
  };
  const walk = (x: HExpr): string | null => {
    switch (x.k) {
      case 'call':
        if (x.name === 'strict_float') return null;
        if (FLOAT_CALLS.test(x.name) || ((x.name === 'min' || x.name === 'max') && x.args.some((a) => isFloat(ty(a))))) return `${x.name}(…)`;
        for (const a of x.args) {
          const r = walk(a);
          if (r) return r;
        }
        return null;
      case 'bin':
        if (isFloat(ty(x.a)) || isFloat(ty(x.b))) return `'${x.op}' on floats`;
        return walk(x.a) ?? walk(x.b);
      case 'neg':
      case 'not':
      case 'cast':
        return walk(x.a);
      case 'let':
        return walk(x.value) ?? walk(x.body);
      default:
        return null;
    }
  };
  return walk(e);
}

/**
 * Why Halide's execution of the pipeline may differ from the IEEE reading of its IR (the first
 * float operation it compiles with fast-math flags), or null when every float operation is strict.
 */
export function fastMathReason(d: DriverOutput): string | null {
  if (d.strictFloat) return null;
  const types = new Map<string, string>();
  for (const f of d.funcs) types.set(f.name, f.type);
  for (const i of d.inputs) {
    types.set(i.name, i.type);
    types.set(`${i.name}_im`, i.type);
  }
  for (const p of d.params) types.set(p.name, p.type);
  const typeOf = (n: string): string | null => types.get(n) ?? null;
  const texts = (f: DriverFunc): string[] => [f.pure, ...f.updates.flatMap((u) => [u.value, ...(u.where ?? [])])];
  for (const f of d.funcs) {
    for (const t of texts(f)) {
      let op: string | null;
      try {
        op = looseFloatOp(parseHExpr(t), typeOf);
      } catch {
        op = 'a definition this reader cannot type';
      }
      if (op !== null) return `${f.name} computes ${op} without strict_float: Halide compiles it with fast-math flags (reassociation, fused multiply-add, no NaN or infinity)`;
    }
  }
  return null;
}
