// Generic traversals of expressions: the immediate subexpressions of a node, a rebuild with each
// child mapped, and a pre-order visit. Passes that care about a few node kinds (renaming,
// inlining, collecting reads) handle those and delegate the rest here.

import type { Expr } from './ast.ts';

/** The immediate subexpressions of `e`, in source order. */
export function children(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'bool':
    case 'var':
      return [];
    case 'array':
    case 'tensor':
      return e.indices;
    case 'call':
      return e.args;
    case 'unary':
      return [e.arg];
    case 'binary':
      return [e.left, e.right];
    case 'select':
      return [e.cond, e.then, e.else];
    case 'let':
      return [e.value, e.body];
  }
}

/** `e` with each immediate subexpression replaced by `f(child)` (the node itself unchanged). */
export function mapChildren(e: Expr, f: (x: Expr) => Expr): Expr {
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'bool':
    case 'var':
      return e;
    case 'array':
    case 'tensor':
      return { ...e, indices: e.indices.map(f) };
    case 'call':
      return { ...e, args: e.args.map(f) };
    case 'unary':
      return { ...e, arg: f(e.arg) };
    case 'binary':
      return { ...e, left: f(e.left), right: f(e.right) };
    case 'select':
      return { ...e, cond: f(e.cond), then: f(e.then), else: f(e.else) };
    case 'let':
      return { ...e, value: f(e.value), body: f(e.body) };
  }
}

/** Visit `e` and every subexpression, parents first. */
export function visit(e: Expr, f: (x: Expr) => void): void {
  f(e);
  for (const c of children(e)) visit(c, f);
}
