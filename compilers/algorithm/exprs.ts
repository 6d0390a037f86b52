// Small AST helpers for the compiler: building expressions without positions and substituting
// variables and tensor reads (Halide inlining, stage renaming in the SARE reduction).

import { type BinaryOp, type Expr, NO_POS } from '../../core/language/ast.ts';
import { mapChildren } from '../../core/language/walk.ts';

const P = NO_POS;

export const v = (name: string): Expr => ({ kind: 'var', name, pos: P });
export const int = (value: bigint | number): Expr =>
  BigInt(value) < 0n ? { kind: 'unary', op: '-', arg: { kind: 'int', value: -BigInt(value), pos: P }, pos: P } : { kind: 'int', value: BigInt(value), pos: P };
export const bin = (op: BinaryOp, left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, pos: P });
export const not = (e: Expr): Expr => ({ kind: 'unary', op: '!', arg: e, pos: P });
export const tensor = (name: string, indices: readonly Expr[]): Expr => ({ kind: 'tensor', name, indices, pos: P });
export const array = (name: string, indices: readonly Expr[]): Expr => ({ kind: 'array', name, indices, pos: P });
export const select = (cond: Expr, then: Expr, els: Expr): Expr => ({ kind: 'select', cond, then, else: els, pos: P });
export const TRUE: Expr = { kind: 'bool', value: true, pos: P };

export function andAll(es: readonly Expr[]): Expr | null {
  const xs = es.filter((e) => !(e.kind === 'bool' && e.value));
  return xs.length === 0 ? null : xs.reduce((a, b) => bin('&&', a, b));
}

export function orAll(es: readonly Expr[]): Expr | null {
  return es.length === 0 ? null : es.reduce((a, b) => bin('||', a, b));
}

/**
 * Rebuild `e` bottom-up: `onVar` may replace a variable, `onRead` a tensor read (its indices are
 * rewritten first). Expressions contain no binders the compiler produces (`let` is not generated),
 * so substitution cannot capture.
 */
export function rewrite(
  e: Expr,
  onVar: (name: string) => Expr | undefined,
  /** Receives the rewritten indices and the original ones. */
  onRead?: (name: string, indices: readonly Expr[], original: readonly Expr[]) => Expr | undefined,
): Expr {
  const go = (x: Expr): Expr => rewrite(x, onVar, onRead);
  switch (e.kind) {
    case 'var':
      return onVar(e.name) ?? e;
    case 'tensor': {
      const idx = e.indices.map(go);
      return onRead?.(e.name, idx, e.indices) ?? { ...e, indices: idx };
    }
    case 'let': {
      const inner = (n: string): Expr | undefined => (n === e.name ? undefined : onVar(n));
      return { ...e, value: go(e.value), body: rewrite(e.body, inner, onRead) };
    }
    default:
      return mapChildren(e, go);
  }
}

export function substVars(e: Expr, m: ReadonlyMap<string, Expr>): Expr {
  return m.size === 0 ? e : rewrite(e, (n) => m.get(n));
}
