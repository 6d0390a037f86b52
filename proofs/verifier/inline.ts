// Expression-level `let x = ι in e` inlined by substitution, so that every index position of a
// value expression is a plain affine expression of the loop variables (the symbolic evaluator
// reads array locations and fills template holes from them).

import type { Expr } from '../../core/language/ast.ts';
import { mapChildren } from '../../core/language/walk.ts';

/**
 * `e` with each variable of `m` replaced by its expression, lets inlined on the way (so no bound
 * name can capture a substituted one).
 */
export function substitute(e: Expr, m: ReadonlyMap<string, Expr>): Expr {
  if (e.kind === 'var') return m.get(e.name) ?? e;
  if (e.kind === 'let') {
    const inner = new Map(m);
    inner.set(e.name, substitute(e.value, m));
    return substitute(e.body, inner);
  }
  return mapChildren(e, (x) => substitute(x, m));
}

/** `e` without `let` expressions (each bound variable replaced by its value). */
export function inlineLets(e: Expr): Expr {
  return substitute(e, new Map());
}
