// Expression contexts (thesis §3.3, §5.2): a prophetic expression t is split by `decompose` into
// a context E with holes □0 … □(m-1) and the affine terms that fill them, E⟨ι0, …, ιm-1⟩. The
// context becomes the *name* of the range tuple of a symbolic-heap piece, so that Presburger
// relations can carry values: `c⟨i, j⟩ → R(□0, □1, □2)⟨i, j, k⟩`. Contexts are interned by a key
// that carries the type of every node (a cast's source, a comparison's operands, a tensor read),
// so equal keys mean equal typed expressions; and the table belongs to one verification (one
// spec): a tensor name means something else in another spec, and a template interned for one spec
// must never give its meaning to another.

import { type Expr, T_INDEX } from '../../core/language/ast.ts';
import type { Term } from '../../core/presburger/types.ts';
import { selectT, constant } from '../../core/presburger/term.ts';
import { floatText } from '../../core/language/printer.ts';
import { type AffineEnv, formulaOf, termOf } from '../../core/language/affine.ts';

export const HOLE_PREFIX = '□';

export interface Template {
  /** Interned key: the range-space name of heap pieces holding this context. */
  readonly key: string;
  /** The context: a typed prophetic expression whose index positions are hole variables. */
  readonly expr: Expr;
  readonly arity: number;
}

export interface Decomposed {
  readonly template: Template;
  /** The terms filling the holes, in order. */
  readonly holes: readonly Term[];
}

/** The templates of one verification, interned by key. */
export class TemplateTable {
  private readonly byKey = new Map<string, Template>();

  get(key: string): Template | undefined {
    return this.byKey.get(key);
  }

  /**
   * The same context under another name (`acc:` + its key): a heap piece with this range holds
   * the context's value only in the sense the reduction rules give it (proofs/verifier/reduction-heap.ts);
   * encoded in SMT, it is the context itself.
   */
  marked(prefix: string, d: Decomposed): Decomposed {
    const key = `${prefix}${d.template.key}`;
    let template = this.byKey.get(key);
    if (template === undefined) {
      template = { key, expr: d.template.expr, arity: d.template.arity };
      this.byKey.set(key, template);
    }
    return { template, holes: d.holes };
  }

  /** decompose(t) with the context interned in this table. */
  decompose(t: Expr, env: AffineEnv): Decomposed {
    const { expr, holes } = split(t, env);
    const key = keyOf(expr);
    let template = this.byKey.get(key);
    if (template === undefined) {
      template = { key, expr, arity: holes.length };
      this.byKey.set(key, template);
    }
    return { template, holes };
  }
}

function holeVar(k: number, pos: Expr['pos']): Expr {
  return { kind: 'var', name: `${HOLE_PREFIX}${k}`, pos, ty: T_INDEX };
}

/** A canonical text of a template: its structure and the type of every node. */
export function keyOf(e: Expr): string {
  const vt = e.ty?.kind === 'value' ? e.ty.vt : e.ty?.kind ?? '?';
  switch (e.kind) {
    case 'int':
      return `${e.value}:${vt}`;
    case 'float':
      return `${e.f32 !== undefined ? e.f32.text : floatText(e.value)}:${vt}`;
    case 'bool':
      return `${e.value}:${vt}`;
    case 'var':
      return e.name; // a hole: always an index
    case 'tensor':
      return `${e.name}(${e.indices.map(keyOf).join(',')}):${vt}`;
    case 'array':
      return `${e.name}[${e.indices.map(keyOf).join(',')}]:${vt}`;
    case 'call':
      return `${e.fn}(${e.args.map(keyOf).join(',')}):${vt}`;
    case 'unary':
      return `(${e.op}${keyOf(e.arg)}):${vt}`;
    case 'binary':
      return `(${keyOf(e.left)}${e.op}${keyOf(e.right)}):${vt}`;
    case 'select':
      return `sel(${keyOf(e.cond)},${keyOf(e.then)},${keyOf(e.else)}):${vt}`;
    case 'let':
      return `let(${e.name}=${keyOf(e.value)};${keyOf(e.body)}):${vt}`;
  }
}

/**
 * decompose(t) (thesis §5.2): every maximal index subexpression becomes a hole (an affine
 * condition used as a value becomes the hole `select(β, 1, 0)` compared with 1). Syntactically
 * equal hole terms share a hole. `env` maps the variables of t to terms.
 */
function split(t: Expr, env: AffineEnv): { expr: Expr; holes: Term[] } {
  const holes: Term[] = [];
  const holeOf = (term: Term, pos: Expr['pos']): Expr => {
    let k = holes.findIndex((h) => h.key === term.key);
    if (k < 0) {
      k = holes.length;
      holes.push(term);
    }
    return holeVar(k, pos);
  };
  const go = (e: Expr, lets: AffineEnv): Expr => {
    const ty = e.ty;
    if (ty?.kind === 'index') return holeOf(termOf(e, lets), e.pos);
    if (ty?.kind === 'cond') {
      const h = holeOf(selectT(formulaOf(e, lets), constant(1n), constant(0n)), e.pos);
      return { kind: 'binary', op: '==', left: h, right: { kind: 'int', value: 1n, pos: e.pos, ty: T_INDEX }, pos: e.pos, ty };
    }
    switch (e.kind) {
      case 'int':
      case 'float':
      case 'bool':
        return e;
      case 'tensor':
        return { ...e, indices: e.indices.map((i) => go(i, lets)) };
      case 'call':
        return { ...e, args: e.args.map((a) => go(a, lets)) };
      case 'unary':
        return { ...e, arg: go(e.arg, lets) };
      case 'binary':
        return { ...e, left: go(e.left, lets), right: go(e.right, lets) };
      case 'select':
        return { ...e, cond: go(e.cond, lets), then: go(e.then, lets), else: go(e.else, lets) };
      case 'let': {
        const v = termOf(e.value, lets);
        return go(e.body, (n) => (n === e.name ? v : lets(n)));
      }
      case 'var':
      case 'array':
        throw new Error(`decompose: unexpected ${e.kind} in a prophetic expression`);
    }
  };
  return { expr: go(t, env), holes };
}
