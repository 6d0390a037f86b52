// Value obligations by congruence. S-ASSIGN's value obligation ⟦e⟧_h = decompose(t) is usually
// proved by the solver on the whole expression; but when the written expression and the
// annotation's unfolding have the same shape (the same operators on the same value types, array
// reads facing spec terms), it suffices that each array read holds the spec term it faces and
// that index positions agree: by congruence the two values are then equal, in every encoding
// (each operation is a function of its arguments). What remains is a pure Presburger claim, Γ ⇒
// (index equalities, equation guards), which the solver decides in milliseconds where the whole
// value query (sc2: 25 bit-vector products, each read resolved through a folded buffer) times
// out. A sufficient condition only: when it fails, the whole value query is asked as before.
//
// Integer sums are compared as linear combinations: machine integers wrap, so + − × form a ring
// (ℤ/2ⁿ) and a sum Halide reordered, or whose constant factors it moved, has the same value as
// long as every term faces a spec term with the same coefficient. Which term faces which is found
// by asking `decide` (a quick sufficient test of the claims under the obligation's context,
// core/presburger/entail.ts); the claims themselves are then obligations like any other.

import { type ArrayRead, type Expr, type IntType, isCheckedFunction, isLoad, isFloatType, isIntType, isValueTypeName, plainOf, type TensorRead, type ValueType } from '../../core/language/ast.ts';
import { printExpr } from '../../core/language/printer.ts';
import { constantValue } from '../../semantics/constant.ts';
import { sameValue } from '../../semantics/values.ts';
import type { CheckedSpec, NormEquation } from '../../core/language/typecheck.ts';
import type { Formula } from '../../core/presburger/types.ts';
import { andAll, eqT, iff } from '../../core/presburger/formula.ts';
import { type AffineEnv, formulaOf, termOf } from '../../core/language/affine.ts';
import { substitute } from './inline.ts';

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

/** Unfoldings tried for one obligation: a recursive tensor (T(x) = T(x - 1)) must not unfold forever. */
const UNFOLD_LIMIT = 64;

/** The argument of `t(e)` when `e` already has the value type t, else null. */
function identityCastArg(e: Expr): Expr | null {
  if (e.kind !== 'call' || !isValueTypeName(e.fn) || e.args.length !== 1) return null;
  const t = e.args[0]!.ty;
  return t?.kind === 'value' && t.vt === e.fn ? e.args[0]! : null;
}

function sameValueType(a: Expr, b: Expr): boolean {
  return a.ty?.kind === 'value' && b.ty?.kind === 'value' && a.ty.vt === b.ty.vt;
}

/** One match's state: the claims met so far (rolled back when an equation's shape fails). */
interface State {
  readonly eqs: Formula[];
  readonly parts: Formula[];
}

export class Congruence {
  private readonly byTensor = new Map<string, NormEquation[]>();
  /**
   * Unfoldings tried so far, by this instance: the budget covers one obligation, leaves
   * included (a per-match budget let a recursive tensor with an identity equation, F(r) = F(r - 1),
   * retry every leaf hundreds of times: seconds and gigabytes for one fuzz case).
   */
  private unfolds = 0;
  /** Tensors being unfolded on the current path. */
  private readonly active = new Set<string>();

  /**
   * `foldFloats`: closed float subexpressions may be compared by their IEEE values
   * (semantics/constant.ts); false for floats as reals, where a rounded value is not the sum.
   */
  constructor(
    spec: CheckedSpec,
    private readonly foldFloats = false,
    /** Whether claims hold (a quick, sound test): picks the spec term each term of a sum faces. */
    private readonly decide: (claims: readonly Formula[]) => boolean = () => true,
  ) {
    // Every computed tensor unfolds, recursive ones included: where an equation's guard holds,
    // the tensor equals that equation's right-hand side (domains are disjoint, so no other
    // equation applies); the guard becomes part of the claim. Which equation: the first whose
    // right-hand side has the shape of what it faces.
    for (const eq of spec.equations) this.byTensor.set(eq.tensor, [...(this.byTensor.get(eq.tensor) ?? []), eq]);
  }

  /**
   * Presburger claims whose conjunction makes `impl` (whose array reads are leaves, see `leaf`)
   * and `spec` equal in value: the index equalities and guards met on the way, then each leaf's
   * claims; null when the shapes differ.
   */
  claim(impl: Side, spec: Side, leaf: LeafGoal): Formula[] | null {
    const st: State = { eqs: [], parts: [] };
    return this.match(impl, spec, leaf, st) ? [andAll(st.eqs), ...st.parts] : null;
  }

  /** The claim under which a template (with its holes' environment) equals a spec term. */
  same(template: Side, spec: Side): Formula | null {
    const st: State = { eqs: [], parts: [] };
    return this.match(template, spec, null, st) ? andAll(st.eqs) : null;
  }

  /** `t` unfolded by one of its equations, matched against `other` (t on side `which`). */
  private unfoldMatch(t: TensorRead, env: AffineEnv, other: Side, which: 'left' | 'right', leaf: LeafGoal | null, st: State): boolean {
    // A tensor is not unfolded inside its own unfolding: one step of a recursion is what an
    // accumulation needs, and nested steps substitute index expressions into themselves (with
    // `select` indices their size doubles at each step).
    if (this.active.has(t.name)) return false;
    this.active.add(t.name);
    try {
      return this.unfoldBy(t, env, other, which, leaf, st);
    } finally {
      this.active.delete(t.name);
    }
  }

  private unfoldBy(t: TensorRead, env: AffineEnv, other: Side, which: 'left' | 'right', leaf: LeafGoal | null, st: State): boolean {
    for (const eq of this.byTensor.get(t.name) ?? []) {
      if (++this.unfolds > UNFOLD_LIMIT) return false;
      const marks = [st.eqs.length, st.parts.length] as const;
      const m = new Map<string, Expr>(eq.vars.map((v, k) => [v, t.indices[k]!] as const));
      if (!(eq.guard.kind === 'bool' && eq.guard.value)) st.eqs.push(formulaOf(substitute(eq.guard, m), env));
      const body: Side = { expr: substitute(eq.rhs, m), env };
      if (which === 'right' ? this.match(other, body, leaf, st) : this.match(body, other, leaf, st)) return true;
      st.eqs.length = marks[0];
      st.parts.length = marks[1];
    }
    return false;
  }

  private match(a: Side, b: Side, leaf: LeafGoal | null, st: State): boolean {
    const x = a.expr;
    const y = b.expr;
    if (x.ty?.kind === 'index' || y.ty?.kind === 'index') {
      if (x.ty?.kind !== 'index' || y.ty?.kind !== 'index') return false;
      st.eqs.push(eqT(termOf(x, a.env), termOf(y, b.env)));
      return true;
    }
    if (x.ty?.kind === 'cond' || y.ty?.kind === 'cond') {
      if (x.ty?.kind !== 'cond' || y.ty?.kind !== 'cond') return false;
      st.eqs.push(iff(formulaOf(x, a.env), formulaOf(y, b.env)));
      return true;
    }
    // A checked operation, where it has a value (its range is an obligation of its own), has its
    // plain operation's.
    if (x.kind === 'call' && isCheckedFunction(x.fn)) return this.match({ expr: plainOf(x), env: a.env }, b, leaf, st);
    if (y.kind === 'call' && isCheckedFunction(y.fn)) return this.match(a, { expr: plainOf(y), env: b.env }, leaf, st);
    // A `load` is its cell where it is used; where a select discards it, the select's condition
    // claimed alike on both sides makes its value irrelevant (load-guard.ts proves it defined where used).
    if (isLoad(x)) return this.match({ expr: x.args[0], env: a.env }, b, leaf, st);
    if (isLoad(y)) return this.match(a, { expr: y.args[0], env: b.env }, leaf, st);
    // A cast to the type its argument already has is the identity in every encoding (Halide's
    // printer writes `f32(f32(e))` around most float terms).
    const bare = identityCastArg(x) ?? identityCastArg(y);
    if (bare !== null) return identityCastArg(x) !== null ? this.match({ expr: bare, env: a.env }, b, leaf, st) : this.match(a, { expr: bare, env: b.env }, leaf, st);
    if (x.kind === 'array') {
      const fs = leaf?.(x, b) ?? null;
      if (fs === null) return false;
      st.parts.push(...fs);
      return true;
    }
    if (x.kind === 'tensor' && y.kind === 'tensor' && x.name === y.name) {
      return x.indices.every((ix, k) => this.match({ expr: ix, env: a.env }, { expr: y.indices[k]!, env: b.env }, leaf, st));
    }
    if (y.kind === 'tensor' && this.unfoldMatch(y, b.env, a, 'right', leaf, st)) return true;
    if (x.kind === 'tensor' && this.unfoldMatch(x, a.env, b, 'left', leaf, st)) return true;
    if (!sameValueType(x, y)) return false;
    const vt = (x.ty as { vt: ValueType }).vt;
    if (isIntType(vt) && (ringOp(x) || ringOp(y))) {
      // The same shape first; else the two as linear combinations.
      const marks = [st.eqs.length, st.parts.length] as const;
      if (x.kind === y.kind && this.sameShape(a, b, leaf, st)) return true;
      st.eqs.length = marks[0];
      st.parts.length = marks[1];
      if (this.linearMatch(a, b, vt, leaf, st)) return true;
      st.eqs.length = marks[0];
      st.parts.length = marks[1];
      return false;
    }
    return this.sameShape(a, b, leaf, st);
  }

  /** Terms of two integer sums paired by coefficient and by `decide` (see the header). */
  private linearMatch(a: Side, b: Side, vt: IntType, leaf: LeafGoal | null, st: State): boolean {
    const fa = linearForm(a, vt);
    const fb = linearForm(b, vt);
    if (fa === null || fb === null || fa.c !== fb.c || fa.atoms.length !== fb.atoms.length || fa.atoms.length < 2) return false;
    const free = [...fb.atoms];
    for (const p of fa.atoms) {
      let paired = false;
      for (let j = 0; j < free.length && !paired; j++) {
        const q = free[j]!;
        if (q.coef !== p.coef) continue;
        const marks = [st.eqs.length, st.parts.length, this.unfolds] as const;
        if (this.match(p.side, q.side, leaf, st) && this.decide([...st.eqs.slice(marks[0]), ...st.parts.slice(marks[1])])) {
          free.splice(j, 1);
          paired = true;
        } else {
          // A pairing that does not hold costs no unfolding budget: at most n² are tried.
          st.eqs.length = marks[0];
          st.parts.length = marks[1];
          this.unfolds = marks[2];
        }
      }
      if (!paired) return false;
    }
    return true;
  }

  /** The same operators on the same value types, argument by argument. */
  private sameShape(a: Side, b: Side, leaf: LeafGoal | null, st: State): boolean {
    const x = a.expr;
    const y = b.expr;
    // Two closed terms (a Gaussian weight `exp(f32((0 - i32(1)) * i32(1)) / 4.5)` of the
    // algorithm, facing Halide's `exp(-1.0f / 4.5f)`) are equal when their machine values are: same bits.
    if (this.foldFloats || !isFloatType((x.ty as { vt: ValueType }).vt)) {
      const [p, q] = [constantValue(x), constantValue(y)];
      if (p !== null && q !== null) return sameValue(p, q);
    }
    if (x.kind !== y.kind) return false;
    const both = (p: Expr, q: Expr): boolean => this.match({ expr: p, env: a.env }, { expr: q, env: b.env }, leaf, st);
    switch (x.kind) {
      case 'int':
        return x.value === (y as typeof x).value;
      case 'float':
        return Object.is(x.value, (y as typeof x).value) && Object.is(x.f32?.value, (y as typeof x).f32?.value);
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
}

/** An integer operation of the ring ℤ/2ⁿ (+, −, ×, negation). */
function ringOp(e: Expr): boolean {
  return (e.kind === 'binary' && (e.op === '+' || e.op === '-' || e.op === '*')) || (e.kind === 'unary' && e.op === '-');
}

/** Σ coef·atom + c over ℤ/2ⁿ: atoms are the maximal subexpressions that are not ring operations
 *  on the type (reads, divisions, casts from other types), merged when they print alike. */
interface LinearForm {
  readonly c: bigint;
  readonly atoms: { coef: bigint; readonly side: Side; readonly key: string }[];
}

/** The value of a closed integer expression (small types fold to numbers). */
function intConstant(e: Expr): bigint | null {
  const v = constantValue(e);
  return typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : null;
}

const BITS: Record<IntType, bigint> = { i8: 8n, i16: 16n, i32: 32n, i64: 64n, u8: 8n, u16: 16n, u32: 32n, u64: 64n };

function linearForm(s: Side, vt: IntType): LinearForm | null {
  const mod = 1n << BITS[vt];
  const norm = (v: bigint): bigint => ((v % mod) + mod) % mod;
  const out: LinearForm = { c: 0n, atoms: [] };
  let c = 0n;
  const add = (e: Expr, k: bigint): boolean => {
    if (e.ty?.kind !== 'value' || e.ty.vt !== vt) return false;
    const v = intConstant(e);
    if (v !== null) {
      c = norm(c + k * v);
      return true;
    }
    if (e.kind === 'call' && isCheckedFunction(e.fn)) return add(plainOf(e), k);
    const bare = identityCastArg(e);
    if (bare !== null) return add(bare, k);
    if (e.kind === 'binary' && (e.op === '+' || e.op === '-')) return add(e.left, k) && add(e.right, e.op === '+' ? k : norm(-k));
    if (e.kind === 'unary' && e.op === '-') return add(e.arg, norm(-k));
    if (e.kind === 'binary' && e.op === '*') {
      const l = intConstant(e.left);
      const r = intConstant(e.right);
      if (l !== null) return add(e.right, norm(k * l));
      if (r !== null) return add(e.left, norm(k * r));
    }
    const key = printExpr(e);
    const at = out.atoms.find((x) => x.key === key);
    if (at) at.coef = norm(at.coef + k);
    else out.atoms.push({ coef: norm(k), side: { expr: e, env: s.env }, key });
    return true;
  };
  if (!add(s.expr, 1n)) return null;
  return { c, atoms: out.atoms.filter((x) => x.coef !== 0n) };
}
