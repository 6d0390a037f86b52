// Alpha-renaming of an implementation body before symbolic evaluation: every binder (`for`,
// `par`, `let`, `allocate`) gets a name no other binder has, so that loop variables of sibling
// or nested loops, shadowed arrays and spec variables never collide once they become free
// variables of Presburger formulas (the thesis assumes the Barendregt convention, §4.4).

import type { Cmd, Expr } from '../../core/language/ast.ts';
import { mapChildren } from '../../core/language/walk.ts';

export interface Renaming {
  /** The body with unique binder names. */
  readonly body: Cmd;
  /** Unique name → the name written in the source (for messages and logs). */
  readonly sourceName: ReadonlyMap<string, string>;
}

function renameExpr(e: Expr, vars: ReadonlyMap<string, string>, arrays: ReadonlyMap<string, string>): Expr {
  const go = (x: Expr): Expr => renameExpr(x, vars, arrays);
  switch (e.kind) {
    case 'var': {
      const n = vars.get(e.name);
      return n === undefined ? e : { ...e, name: n };
    }
    case 'array':
      return { ...e, name: arrays.get(e.name) ?? e.name, indices: e.indices.map(go) };
    case 'let': {
      // Expression-level lets are local to one expression: keep the name, but shadow it.
      const inner = new Map(vars);
      inner.delete(e.name);
      return { ...e, value: go(e.value), body: renameExpr(e.body, inner, arrays) };
    }
    default:
      return mapChildren(e, go);
  }
}

/**
 * Rename binders to `name#k`. `taken` are names that must not be reused (parameters, declared
 * arrays); `#` cannot appear in source identifiers, so renamed names never capture user names.
 */
export function renameBinders(body: Cmd, taken: Iterable<string>): Renaming {
  const used = new Set(taken);
  const sourceName = new Map<string, string>();
  let counter = 0;
  const freshFor = (n: string): string => {
    let m: string;
    do m = `${n}#${++counter}`; while (used.has(m));
    used.add(m);
    sourceName.set(m, n);
    return m;
  };
  const walk = (c: Cmd, vars: ReadonlyMap<string, string>, arrays: ReadonlyMap<string, string>): Cmd => {
    const ex = (e: Expr): Expr => renameExpr(e, vars, arrays);
    switch (c.kind) {
      case 'skip':
        return c;
      case 'seq':
        return { ...c, cmds: c.cmds.map((x) => walk(x, vars, arrays)) };
      case 'assign':
        return {
          ...c,
          array: arrays.get(c.array) ?? c.array,
          indices: c.indices.map(ex),
          rhs: ex(c.rhs),
          annot: c.annot === null ? null : ex(c.annot),
          ...(c.accum ? { accum: { ...c.accum, at: c.accum.at === null ? null : c.accum.at.map(ex), elem: ex(c.accum.elem) } } : {}),
        };
      case 'if':
        return { ...c, cond: ex(c.cond), then: walk(c.then, vars, arrays), else: c.else === null ? null : walk(c.else, vars, arrays) };
      case 'let': {
        const n = freshFor(c.name);
        return { ...c, name: n, value: ex(c.value), body: walk(c.body, new Map([...vars, [c.name, n]]), arrays) };
      }
      case 'for':
      case 'par': {
        const n = freshFor(c.var);
        return { ...c, var: n, bound: ex(c.bound), body: walk(c.body, new Map([...vars, [c.var, n]]), arrays) };
      }
      case 'allocate': {
        const n = freshFor(c.name);
        return { ...c, name: n, dims: c.dims.map(ex), body: walk(c.body, vars, new Map([...arrays, [c.name, n]])) };
      }
    }
  };
  return { body: walk(body, new Map(), new Map()), sourceName };
}
