// The value of a closed expression: literals combined by casts, negation and + − × ÷ %, computed
// with the machine semantics of semantics/values (IEEE binary32/64 with round to nearest even,
// wrapping integers, Halide's Euclidean division). A term and its folded value are the same
// machine value, so replacing one by the other is exact in the IEEE encoding and sound in the
// uninterpreted one (the machine is one interpretation). Not in the real encoding: there `0.1 +
// 0.2` is a sum of reals, not a rounded float, so callers fold floats only outside it.
// exp, log and pow are never folded: the SMT encodings keep them uninterpreted, and the platform's
// libm is not a specification of them.

import { type Expr, isFloatType, isValueTypeName, type ValueType } from '../core/language/ast.ts';
import { add, fromBig, type Int, mul, neg, sub } from './int.ts';
import { arith, type ArithOp, cast, literalOf, negate, type Value } from './values.ts';

/** What a closed expression folds to: a value, an index (`Int`), or nothing (not closed, or not folded). */
type Folded = { readonly value: Value } | { readonly index: Int } | null;

const memo = new WeakMap<Expr, Folded>();

/**
 * The machine value of `e` when it is a closed value expression made of literals, casts, negation
 * and arithmetic, null otherwise. Float results that are not finite are not folded (a literal
 * cannot always denote them in every encoding).
 */
export function constantValue(e: Expr): Value | null {
  const f = fold(e);
  return f !== null && 'value' in f ? f.value : null;
}

function fold(e: Expr): Folded {
  const hit = memo.get(e);
  if (hit !== undefined) return hit;
  let r: Folded = null;
  try {
    r = compute(e);
  } catch {
    r = null; // an operation the semantics rejects on this type (`%` on floats): not folded
  }
  if (r !== null && 'value' in r && typeof r.value === 'number' && !Number.isFinite(r.value) && isFloatType(valueType(e)!)) r = null;
  memo.set(e, r);
  return r;
}

function valueType(e: Expr): ValueType | null {
  return e.ty?.kind === 'value' ? e.ty.vt : null;
}

function compute(e: Expr): Folded {
  const ty = e.ty;
  if (ty === undefined || ty.kind === 'cond') return null;
  if (ty.kind === 'index') return foldIndex(e);
  const vt = ty.vt;
  if (vt === 'bool') return null;
  switch (e.kind) {
    case 'int':
    case 'float':
      return { value: literalOf(e, vt) };
    case 'unary': {
      if (e.op !== '-') return null;
      const a = constantValue(e.arg);
      return a === null ? null : { value: negate(vt)(a) };
    }
    case 'binary': {
      if (!['+', '-', '*', '/', '%'].includes(e.op) || valueType(e.left) !== vt || valueType(e.right) !== vt) return null;
      const a = constantValue(e.left);
      const b = a === null ? null : constantValue(e.right);
      return a === null || b === null ? null : { value: arith(e.op as ArithOp, vt)(a, b) };
    }
    case 'call': {
      if (!isValueTypeName(e.fn) || e.args.length !== 1) return null;
      const arg = e.args[0]!;
      const f = fold(arg);
      if (f === null) return null;
      if ('index' in f) return { value: cast('index', vt)(f.index) };
      const from = valueType(arg);
      return from === null ? null : { value: cast(from, vt)(f.value) };
    }
    default:
      return null;
  }
}

/** An index made of integer literals and + − ×: exact (unbounded) integers. */
function foldIndex(e: Expr): Folded {
  const idx = (x: Expr): Int | null => {
    const f = fold(x);
    return f !== null && 'index' in f ? f.index : null;
  };
  switch (e.kind) {
    case 'int':
      return { index: fromBig(e.value) };
    case 'unary': {
      const a = e.op === '-' ? idx(e.arg) : null;
      return a === null ? null : { index: neg(a) };
    }
    case 'binary': {
      if (e.op !== '+' && e.op !== '-' && e.op !== '*') return null;
      const a = idx(e.left);
      const b = a === null ? null : idx(e.right);
      if (a === null || b === null) return null;
      return { index: e.op === '+' ? add(a, b) : e.op === '-' ? sub(a, b) : mul(a, b) };
    }
    default:
      return null;
  }
}
