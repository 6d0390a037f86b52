// Expression-level `let x = ι in e` inlined by substitution, so that every index position of a
// value expression is a plain affine expression of the loop variables (the symbolic evaluator
// reads array locations and fills template holes from them).

import type { Expr } from '../core/ast.ts';

function subst(e: Expr, m: ReadonlyMap<string, Expr>): Expr {
  const go = (x: Expr): Expr => subst(x, m);
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'bool':
      return e;
    case 'var':
      return m.get(e.name) ?? e;
    case 'array':
    case 'tensor':
      return { ...e, indices: e.indices.map(go) };
    case 'call':
      return { ...e, args: e.args.map(go) };
    case 'unary':
      return { ...e, arg: go(e.arg) };
    case 'binary':
      return { ...e, left: go(e.left), right: go(e.right) };
    case 'select':
      return { ...e, cond: go(e.cond), then: go(e.then), else: go(e.else) };
    case 'let': {
      const v = go(e.value);
      const inner = new Map(m);
      inner.set(e.name, v);
      return subst(e.body, inner);
    }
  }
}

/** `e` without `let` expressions (each bound variable replaced by its value). */
export function inlineLets(e: Expr): Expr {
  return subst(e, new Map());
}
