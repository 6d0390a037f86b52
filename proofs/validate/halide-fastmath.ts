// Where Halide rewrote a float computation. Without `strict_float`, Halide's simplifier reorders
// float sums and products, folds float constants and swaps operands (`max(conv, 0)` for the
// algorithm's `max(0, conv)`): the same value over the reals, not always over IEEE floats. When a
// float value of the translation is not proved (or shown wrong) at an assignment, the verdict says
// which subexpression Halide wrote differently, by walking the written value and its annotation's
// definition side by side to the first place where they part (reads of buffers facing the spec's
// tensors count as alike: what they hold is the verifier's business, the shape is ours).

import { type Expr, isFloatType, isValueTypeName, plainOf, isCheckedFunction, type ValueType } from '../../core/language/ast.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { printExpr } from '../../core/language/printer.ts';
import { commandAt } from '../../semantics/slice.ts';
import { constantValue } from '../../semantics/constant.ts';
import { sameValue } from '../../semantics/values.ts';
import { substitute } from '../verifier/inline.ts';
import type { VerifyResult } from '../verifier/verify.ts';

const UNFOLD = 8;

function vt(e: Expr): ValueType | null {
  return e.ty?.kind === 'value' ? e.ty.vt : null;
}

/** `e` without identity casts and checked wrappers (they compute nothing here). */
function bare(e: Expr): Expr {
  if (e.kind === 'call' && isCheckedFunction(e.fn)) return bare(plainOf(e));
  if (e.kind === 'call' && isValueTypeName(e.fn) && e.args.length === 1 && vt(e.args[0]!) === e.fn) return bare(e.args[0]!);
  return e;
}

/** The leaves of a chain of `op` (a + (b + c) has a, b, c). */
function chain(e: Expr, op: string): Expr[] {
  const x = bare(e);
  return x.kind === 'binary' && x.op === op ? [...chain(x.left, op), ...chain(x.right, op)] : [x];
}

/** How a chain of `op` is parenthesized: `((.+.)+.)`. */
function grouping(e: Expr, op: string): string {
  const x = bare(e);
  return x.kind === 'binary' && x.op === op ? `(${grouping(x.left, op)}${op}${grouping(x.right, op)})` : '.';
}

interface Parting {
  readonly impl: Expr;
  readonly spec: Expr;
}

function firstParting(ci: CheckedImpl, a0: Expr, b0: Expr, budget: { n: number }): Parting | null {
  const a = bare(a0);
  const b = bare(b0);
  const [p, q] = [constantValue(a), constantValue(b)];
  // A read faces a spec term (what it holds is the verifier's question), not a constant.
  if (a.kind === 'array' || a.kind === 'tensor') return q === null ? null : { impl: a, spec: b };
  if (b.kind === 'tensor') {
    // The implementation computes inline what the spec names: the spec's definition.
    const eq = ci.spec.equations.find((x) => x.tensor === b.name);
    if (!eq) return p === null ? null : { impl: a, spec: b };
    if (budget.n-- <= 0) return null;
    return firstParting(ci, a, substitute(eq.rhs, new Map(eq.vars.map((v, k) => [v, b.indices[k]!]))), budget);
  }
  if (p !== null && q !== null) return sameValue(p, q) ? null : { impl: a, spec: b };
  if (a.kind !== b.kind) return { impl: a, spec: b };
  const both = (xs: readonly Expr[], ys: readonly Expr[]): Parting | null => {
    if (xs.length !== ys.length) return { impl: a, spec: b };
    for (let k = 0; k < xs.length; k++) {
      const d = firstParting(ci, xs[k]!, ys[k]!, budget);
      if (d) return d;
    }
    return null;
  };
  switch (a.kind) {
    case 'binary': {
      const bb = b as typeof a;
      if (a.op !== bb.op) return { impl: a, spec: b };
      const t = vt(a);
      if ((a.op === '+' || a.op === '*') && t !== null && isFloatType(t)) {
        // A float sum or product: the same terms in the same grouping, else Halide regrouped it.
        const [x, y] = [chain(a, a.op), chain(bb, a.op)];
        if (x.length !== y.length || grouping(a, a.op) !== grouping(bb, a.op)) return { impl: a, spec: b };
        return both(x, y) ?? null;
      }
      return both([a.left, a.right], [bb.left, bb.right]);
    }
    case 'unary':
      return a.op !== (b as typeof a).op ? { impl: a, spec: b } : both([a.arg], [(b as typeof a).arg]);
    case 'call': {
      const bb = b as typeof a;
      if (a.fn !== bb.fn) return { impl: a, spec: b };
      const straight = both(a.args, bb.args);
      // min and max commute over the reals: operands written the other way round part here.
      if (straight && (a.fn === 'min' || a.fn === 'max') && a.args.length === 2 && both([a.args[1]!, a.args[0]!], bb.args) === null) return { impl: a, spec: b };
      return straight;
    }
    case 'select':
      return both([a.cond, a.then, a.else], [(b as typeof a).cond, (b as typeof a).then, (b as typeof a).else]);
    default:
      return null;
  }
}

function short(e: Expr): string {
  const s = printExpr(e);
  return s.length > 90 ? `${s.slice(0, 87)}…` : s;
}

/** What Halide did at the parting, in words. */
function describe(d: Parting): string {
  const what = `it computes \`${short(d.impl)}\` where the algorithm has \`${short(d.spec)}\``;
  const a = bare(d.impl);
  const b = bare(d.spec);
  if (a.kind === 'call' && b.kind === 'call' && a.fn === b.fn && (a.fn === 'max' || a.fn === 'min') && a.args.length === 2) {
    return `swapped the operands of ${a.fn} (${what}; they differ when an operand is NaN, or for -0 and +0)`;
  }
  for (const op of ['+', '*']) {
    const [x, y] = [chain(a, op), chain(b, op)];
    const kind = op === '+' ? 'sum' : 'product';
    if (a.kind === 'binary' && a.op === op && x.length > 1 && x.length === y.length) return `reassociated a float ${kind} of ${x.length} terms (${what})`;
    if (a.kind === 'binary' && a.op === op && b.kind === 'binary' && b.op === op) return `regrouped a float ${kind}: ${x.length} terms where the algorithm has ${y.length} (${what})`;
  }
  if (a.kind === 'binary' && a.op === '*' && b.kind === 'binary' && b.op === '+') {
    const k = constantValue(bare(a.right)) ?? constantValue(bare(a.left));
    if (k !== null) return `factored ${String(k)} out of a float sum of ${chain(b, '+').length} terms (${what})`;
  }
  if (constantValue(a) !== null) return `folded a float constant (${what})`;
  return `rewrote a float computation (${what})`;
}

/**
 * `r` with, when it is a verdict on a float value (a value shown wrong, or an obligation on one not
 * proved), the place where Halide wrote the computation differently from the algorithm: "Halide
 * reassociated a float sum of 3 terms at line 83 (…)".
 */
export function fastMathPlace(r: VerifyResult, ci: CheckedImpl): VerifyResult {
  if (r.verdict === 'valid') return r;
  const line = r.counterexample?.line || Number(/at line (\d+) equals its annotation/.exec(r.reason ?? '')?.[1] ?? 0);
  if (!line) return r;
  const at = commandAt(ci, line);
  if (at === null || at.cmd.kind !== 'assign' || at.cmd.annot === null) return r;
  const t = vt(at.cmd.rhs);
  if (t === null || !isFloatType(t)) return r;
  const d = firstParting(ci, at.cmd.rhs, at.cmd.annot, { n: UNFOLD });
  if (d === null) return r;
  return { ...r, reason: `${r.reason ?? ''}; at line ${line} Halide ${describe(d)}` };
}
