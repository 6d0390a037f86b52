// Reductions (thesis chapter 7): the operator registry, and the desugaring of a reduction
// equation `T(x…) = [init op] red{lo <= j < hi, … where φ}(body) [where ψ];` into a recurrence that
// every other part of the toolkit already understands (run, SMT encoding, well-foundedness):
//
//   acc(x…, j…) = init                         where ψ && j1 < lo1          (the start)
//   acc(x…, j…) = acc(x…, prev(j…)) op body    where ψ && box(j…) [&& φ]
//   acc(x…, j…) = acc(x…, prev(j…))            where ψ && box(j…) && !φ   (when φ is given)
//   T(x…)       = acc(x…, last…)               where ψ
//
// prev is the predecessor in lexicographic order inside the box, so T is the left fold of body
// over the domain in lexicographic order starting from init (the thesis's ⟨r, ⊙, h, V⟩ with
// lexicographic evaluation, §7.4). The bounds lo, hi may use x and the parameters, not other
// reduction variables (a box; φ restricts it).

import type { Expr, Pos, ReduceOp, ReductionDef, ReductionDim, TensorDecl, Equation, ValueType } from './ast.ts';
import { isFloatType } from './ast.ts';

/** One entry of the operator registry. */
export interface ReduceOperator {
  readonly op: ReduceOp;
  /** The spec keyword (`sum{…}(e)`) and the assignment operator (`+=`). */
  readonly keyword: string;
  readonly assign: string;
  /** Whether any order of combining gives the same value (associative and commutative, exactly). */
  exact(t: ValueType): boolean;
  /** Whether the operator applies to the type at all. */
  accepts(t: ValueType): boolean;
}

const INT_LIKE = (t: ValueType): boolean => t !== 'bool' && !isFloatType(t);

/**
 * Integer `+` and `*` wrap modulo 2^N and form a commutative monoid, so they reorder exactly;
 * `min`/`max` on integers are exact too. On IEEE floats `+` and `*` are not associative, and
 * `min`/`max` (defined through `<`) are not commutative on NaN and ±0: none of them is exact.
 */
export const REDUCE_OPERATORS: readonly ReduceOperator[] = [
  { op: '+', keyword: 'sum', assign: '+=', exact: INT_LIKE, accepts: (t) => t !== 'bool' },
  { op: '*', keyword: 'prod', assign: '*=', exact: INT_LIKE, accepts: (t) => t !== 'bool' },
  { op: 'min', keyword: 'min', assign: 'min=', exact: INT_LIKE, accepts: (t) => t !== 'bool' },
  { op: 'max', keyword: 'max', assign: 'max=', exact: INT_LIKE, accepts: (t) => t !== 'bool' },
  { op: '&&', keyword: 'all', assign: '&&=', exact: () => true, accepts: (t) => t === 'bool' },
  { op: '||', keyword: 'any', assign: '||=', exact: () => true, accepts: (t) => t === 'bool' },
];

export function operatorOf(op: ReduceOp): ReduceOperator {
  return REDUCE_OPERATORS.find((o) => o.op === op)!;
}
export function operatorByKeyword(k: string): ReduceOperator | undefined {
  return REDUCE_OPERATORS.find((o) => o.keyword === k);
}

const INT_RANGE: Record<string, [bigint, bigint]> = {
  i8: [-(1n << 7n), (1n << 7n) - 1n], i16: [-(1n << 15n), (1n << 15n) - 1n], i32: [-(1n << 31n), (1n << 31n) - 1n], i64: [-(1n << 63n), (1n << 63n) - 1n],
  u8: [0n, 255n], u16: [0n, 65535n], u32: [0n, (1n << 32n) - 1n], u64: [0n, (1n << 64n) - 1n],
};

/** The neutral element 0_⊙ of an operator at a type, as an (untyped) literal expression. */
export function neutralElement(op: ReduceOp, t: ValueType, pos: Pos): Expr {
  const int = (v: bigint): Expr => (v < 0n ? { kind: 'binary', op: '-', left: { kind: 'int', value: v + 1n, pos }, right: { kind: 'int', value: 1n, pos }, pos } : { kind: 'int', value: v, pos });
  const flt = (v: number): Expr => ({ kind: 'float', value: v, pos });
  switch (op) {
    case '+':
      return isFloatType(t) ? flt(0) : int(0n);
    case '*':
      return isFloatType(t) ? flt(1) : int(1n);
    case '&&':
      return { kind: 'bool', value: true, pos };
    case '||':
      return { kind: 'bool', value: false, pos };
    case 'min':
    case 'max': {
      if (isFloatType(t)) {
        // ±∞ as 1.0 / 0.0 (IEEE division).
        const inf: Expr = { kind: 'binary', op: '/', left: flt(op === 'min' ? 1 : -1), right: flt(0), pos };
        return inf;
      }
      const [lo, hi] = INT_RANGE[t]!;
      return int(op === 'min' ? hi : lo);
    }
  }
}

/** The neutral element with every node typed (for encoders and evaluators that need types). */
export function typedNeutral(op: ReduceOp, t: ValueType, pos: Pos): Expr {
  const ty = { kind: 'value', vt: t } as const;
  const typed = (x: Expr): Expr => (x.kind === 'binary' ? { ...x, left: typed(x.left), right: typed(x.right), ty } : ({ ...x, ty } as Expr));
  return typed(neutralElement(op, t, pos));
}

/** `a op b` as an expression (min/max as calls). */
export function combine(op: ReduceOp, a: Expr, b: Expr, pos: Pos): Expr {
  if (op === 'min' || op === 'max') return { kind: 'call', fn: op, args: [a, b], pos };
  return { kind: 'binary', op, left: a, right: b, pos };
}

/** Substitute variables in an expression (no binders in the language but `let`, which shadows). */
export function substExpr(e: Expr, m: ReadonlyMap<string, Expr>): Expr {
  const go = (x: Expr): Expr => substExpr(x, m);
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'bool':
      return e;
    case 'var':
      return m.get(e.name) ?? e;
    case 'array':
      return { ...e, indices: e.indices.map(go) };
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
      const inner = new Map(m);
      inner.delete(e.name);
      return { ...e, value: go(e.value), body: substExpr(e.body, inner) };
    }
  }
}

const v = (name: string, pos: Pos): Expr => ({ kind: 'var', name, pos });
const bin = (op: '&&' | '<' | '<=' | '-', l: Expr, r: Expr, pos: Pos): Expr => ({ kind: 'binary', op, left: l, right: r, pos });
const one = (pos: Pos): Expr => ({ kind: 'int', value: 1n, pos });
const andAllE = (es: readonly Expr[], pos: Pos): Expr => (es.length === 0 ? { kind: 'bool', value: true, pos } : es.reduce((a, b) => bin('&&', a, b, pos)));
const sel = (c: Expr, a: Expr, b: Expr, pos: Pos): Expr => ({ kind: 'select', cond: c, then: a, else: b, pos });

/** The box condition lo_d <= j_d < hi_d for every dimension. */
export function boxCondition(dims: readonly ReductionDim[], pos: Pos): Expr {
  return andAllE(dims.flatMap((d) => [bin('<=', d.lo, v(d.var, pos), pos), bin('<', v(d.var, pos), d.hi, pos)]), pos);
}

/** The reduction domain {j | box ∧ φ} as a condition over x, j and the parameters. */
export function domainCondition(r: ReductionDef): Expr {
  const box = boxCondition(r.dims, r.pos);
  return r.filter ? bin('&&', box, r.filter, r.pos) : box;
}

/** The tensors and equations a reduction equation stands for (the hidden fold `acc` and T's). */
export function desugarReduction(r: ReductionDef, type: ValueType): { tensor: TensorDecl; equations: Equation[] } {
  const pos = r.pos;
  const xs = r.vars.map((x) => v(x, pos));
  const js = r.dims.map((d) => v(d.var, pos));
  const m = r.dims.length;
  const withWhere = (c: Expr): Expr => (r.where ? bin('&&', r.where, c, pos) : c);
  const init = r.init ?? neutralElement(r.op, type, pos);
  const atLo = (d: number): Expr => bin('<=', js[d]!, r.dims[d]!.lo, pos);
  // prev(j): the last dimension steps back; an earlier one steps back when all later ones are at
  // their lower bound (and those wrap to hi - 1).
  const prev = r.dims.map((d, k) => {
    const later = r.dims.slice(k + 1).map((_, e) => atLo(k + 1 + e));
    const dec = bin('-', js[k]!, one(pos), pos);
    const step = k === 0 ? dec : sel(atLo(k), bin('-', d.hi, one(pos), pos), dec, pos);
    return later.length === 0 ? step : sel(andAllE(later, pos), step, js[k]!, pos);
  });
  const accAt = (idx: readonly Expr[]): Expr => ({ kind: 'tensor', name: r.acc, indices: [...xs, ...idx], pos });
  const lhs = [...xs, ...js];
  const box = boxCondition(r.dims, pos);
  const eqs: Equation[] = [
    { tensor: r.acc, lhs, rhs: init, where: withWhere(bin('<', js[0]!, r.dims[0]!.lo, pos)), inline: false, pos },
  ];
  const stepped = combine(r.op, accAt(prev), r.body, pos);
  if (r.filter) {
    eqs.push({ tensor: r.acc, lhs, rhs: stepped, where: withWhere(bin('&&', box, r.filter, pos)), inline: false, pos });
    eqs.push({ tensor: r.acc, lhs, rhs: accAt(prev), where: withWhere(bin('&&', box, { kind: 'unary', op: '!', arg: r.filter, pos }, pos)), inline: false, pos });
  } else {
    eqs.push({ tensor: r.acc, lhs, rhs: stepped, where: withWhere(box), inline: false, pos });
  }
  const nonEmpty = andAllE(r.dims.map((d) => bin('<', d.lo, d.hi, pos)), pos);
  const last = r.dims.map((d, k) => (k === 0 ? sel(nonEmpty, bin('-', d.hi, one(pos), pos), bin('-', d.lo, one(pos), pos), pos) : bin('-', d.hi, one(pos), pos)));
  eqs.push({ tensor: r.tensor, lhs: xs, rhs: accAt(last), where: r.where, inline: r.inline, pos });
  void m;
  return { tensor: { role: 'tensor', name: r.acc, vars: [...r.vars, ...r.dims.map((d) => d.var)], type, pos }, equations: eqs };
}

/** Whether a spec name is one the desugaring introduced (never printed). */
export function isHiddenTensor(name: string): boolean {
  return name.startsWith('__red_');
}
