// Value obligations by congruence. S-ASSIGN's value obligation ⟦e⟧_h = decompose(t) is usually
// proved by the solver on the whole expression; but when the written expression and the
// annotation's unfolding have the same shape (the same operators on the same value types, array
// reads facing spec terms), it suffices that each array read holds the spec term it faces and
// that index positions agree: by congruence the two values are then equal, in every encoding
// (each operation is a function of its arguments). What remains is a pure Presburger claim, Γ ⇒
// (index equalities, equation guards), which the solver decides in milliseconds where the whole
// value query (sc2: 25 bit-vector products, each read resolved through a folded buffer) times
// out. A sufficient condition only: when it fails, the whole value query is asked as before.

import type { ArrayRead, Expr, TensorRead } from '../core/ast.ts';
import type { CheckedSpec, NormEquation } from '../core/typecheck.ts';
import type { Formula } from '../core/presburger/types.ts';
import { andAll, eqT, iff } from '../core/presburger/formula.ts';
import { mapChildren } from '../core/walk.ts';
import { type AffineEnv, formulaOf, termOf } from './affine.ts';
import { recursiveTensors } from '../smt/spec.ts';

/** An expression with the environment its index variables are read in. */
export interface Side {
  readonly expr: Expr;
  readonly env: AffineEnv;
}

/**
 * What an array read must satisfy to hold the spec term it faces, as separate claims (one per
 * heap alternative: asked one by one, they are instant where their disjunction is not), or null
 * when it cannot tell.
 */
export type LeafGoal = (read: ArrayRead, spec: Side) => Formula[] | null;

/** Unfoldings allowed in one match: stencils of stencils unfold a few times, never without end. */
const UNFOLD_LIMIT = 256;

function subst(e: Expr, m: ReadonlyMap<string, Expr>): Expr {
  if (e.kind === 'var') return m.get(e.name) ?? e;
  return mapChildren(e, (x) => subst(x, m));
}

function sameValueType(a: Expr, b: Expr): boolean {
  return a.ty?.kind === 'value' && b.ty?.kind === 'value' && a.ty.vt === b.ty.vt;
}

export class Congruence {
  private readonly single = new Map<string, NormEquation>();
  private unfolds = 0;

  constructor(spec: CheckedSpec) {
    // Only tensors defined by one equation and outside every recursive group unfold: their
    // macro is that equation wherever its guard holds (the guard becomes part of the claim).
    const rec = recursiveTensors(spec);
    const count = new Map<string, number>();
    for (const eq of spec.equations) count.set(eq.tensor, (count.get(eq.tensor) ?? 0) + 1);
    for (const eq of spec.equations) if (count.get(eq.tensor) === 1 && !rec.has(eq.tensor)) this.single.set(eq.tensor, eq);
  }

  /**
   * Presburger claims whose conjunction makes `impl` (whose array reads are leaves, see `leaf`)
   * and `spec` equal in value: the index equalities and guards met on the way, then each leaf's
   * claims; null when the shapes differ.
   */
  claim(impl: Side, spec: Side, leaf: LeafGoal): Formula[] | null {
    this.unfolds = 0;
    const out: Formula[] = [];
    const parts: Formula[] = [];
    const collect: LeafGoal = (r, s) => {
      const fs = leaf(r, s);
      if (fs !== null) parts.push(...fs);
      return fs;
    };
    return this.match(impl, spec, collect, out) ? [andAll(out), ...parts] : null;
  }

  private unfold(t: TensorRead, env: AffineEnv, out: Formula[]): Side | null {
    const eq = this.single.get(t.name);
    if (!eq || ++this.unfolds > UNFOLD_LIMIT) return null;
    const m = new Map<string, Expr>(eq.vars.map((v, k) => [v, t.indices[k]!] as const));
    if (!(eq.guard.kind === 'bool' && eq.guard.value)) out.push(formulaOf(subst(eq.guard, m), env));
    return { expr: subst(eq.rhs, m), env };
  }

  private match(a: Side, b: Side, leaf: LeafGoal | null, out: Formula[]): boolean {
    const x = a.expr;
    const y = b.expr;
    if (x.ty?.kind === 'index' || y.ty?.kind === 'index') {
      if (x.ty?.kind !== 'index' || y.ty?.kind !== 'index') return false;
      out.push(eqT(termOf(x, a.env), termOf(y, b.env)));
      return true;
    }
    if (x.ty?.kind === 'cond' || y.ty?.kind === 'cond') {
      if (x.ty?.kind !== 'cond' || y.ty?.kind !== 'cond') return false;
      out.push(iff(formulaOf(x, a.env), formulaOf(y, b.env)));
      return true;
    }
    if (x.kind === 'array') return (leaf?.(x, b) ?? null) !== null;
    if (x.kind === 'tensor' && y.kind === 'tensor' && x.name === y.name) {
      return x.indices.every((ix, k) => this.match({ expr: ix, env: a.env }, { expr: y.indices[k]!, env: b.env }, leaf, out));
    }
    if (y.kind === 'tensor') {
      const u = this.unfold(y, b.env, out);
      if (u) return this.match(a, u, leaf, out);
    }
    if (x.kind === 'tensor') {
      const u = this.unfold(x, a.env, out);
      if (u) return this.match(u, b, leaf, out);
    }
    if (x.kind !== y.kind || !sameValueType(x, y)) return false;
    const both = (p: Expr, q: Expr): boolean => this.match({ expr: p, env: a.env }, { expr: q, env: b.env }, leaf, out);
    switch (x.kind) {
      case 'int':
        return x.value === (y as typeof x).value;
      case 'float':
        return Object.is(x.value, (y as typeof x).value);
      case 'bool':
        return x.value === (y as typeof x).value;
      case 'call': {
        const z = y as typeof x;
        return x.fn === z.fn && x.args.length === z.args.length && x.args.every((p, k) => both(p, z.args[k]!));
      }
      case 'unary': {
        const z = y as typeof x;
        return x.op === z.op && both(x.arg, z.arg);
      }
      case 'binary': {
        const z = y as typeof x;
        return x.op === z.op && both(x.left, z.left) && both(x.right, z.right);
      }
      case 'select': {
        const z = y as typeof x;
        return both(x.cond, z.cond) && both(x.then, z.then) && both(x.else, z.else);
      }
      default:
        // Value-typed variables and lets do not occur once lets are inlined; tensors that do not
        // unfold face something else: not the same shape.
        return false;
    }
  }

  /** The claim under which a template (with its holes' environment) equals a spec term. */
  same(template: Side, spec: Side): Formula | null {
    this.unfolds = 0;
    const out: Formula[] = [];
    return this.match(template, spec, null, out) ? andAll(out) : null;
  }
}
