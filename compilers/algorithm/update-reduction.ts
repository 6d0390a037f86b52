// A Halide update `F(x…) = F(x…) op e` over an RDom read as the chapter-7 reduction it is (thesis
// §7.4): F(x…) = F_0(x…) op red{r…}(e), the fold of e over the RDom starting from the pure value,
// in Halide's order (the innermost RDom dimension fastest, i.e. the lexicographic order of the
// RVars outermost first, as the SARE's stage tensor F_1 orders them). The SARE of algorithmToSpec
// says the same with the recurrence F_1; the reduction form is what lets an implementation that
// regroups the fold (Halide's rfactor) say which partial result each of its stores holds.

import { type Equation, type Expr, NO_POS, type ReduceOp, RESERVED_PREFIX, type ReductionDef, type Spec } from '../../core/language/ast.ts';
import { desugarReduction, operatorOf } from '../../core/language/reductions.ts';
import { type CFunc, tensorReads } from './algorithm.ts';
import { substVars, tensor, v } from './exprs.ts';
import { rvarIndexNames, stageTensor } from './sare.ts';
import { linear, termToExpr } from './terms.ts';

const BINARY_OPS: readonly ReduceOp[] = ['+', '*', '&&', '||'];

/** The reduction update 1 of f is, or why it is not one. */
export function updateAsReduction(f: CFunc): ReductionDef | { readonly why: string } {
  if (f.updates.length !== 1) return { why: `'${f.name}' has ${f.updates.length} updates (one reduction update after the pure definition is handled)` };
  const u = f.updates[0]!;
  if (u.rvars.length === 0) return { why: `the update of '${f.name}' has no RDom` };
  if (!u.lhs.every((l, p) => l.kind === 'var' && u.pure.get(l.name) === p)) return { why: `the left-hand side of '${f.name}''s update is not its own variables` };
  // A conversion of F to its own type is F (Halide's printer writes `(float32)f()`).
  const isSelf = (e: Expr): boolean =>
    (e.kind === 'tensor' && e.name === f.name && e.indices.every((x, p) => x.kind === 'var' && u.pure.get(x.name) === p)) || (e.kind === 'call' && e.fn === f.type && e.args.length === 1 && isSelf(e.args[0]!));
  // `F op e`; `e op F` only where the operator commutes exactly at F's type (the fold is `acc op e`).
  const pick = (op: ReduceOp, a: Expr, b: Expr): { op: ReduceOp; elem: Expr } | null => {
    if (isSelf(a)) return { op, elem: b };
    if (isSelf(b) && operatorOf(op).exact(f.type)) return { op, elem: a };
    return null;
  };
  const r = u.rhs;
  const found =
    r.kind === 'binary' && (BINARY_OPS as readonly string[]).includes(r.op) ? pick(r.op as ReduceOp, r.left, r.right)
    : r.kind === 'call' && (r.fn === 'min' || r.fn === 'max') && r.args.length === 2 ? pick(r.fn, r.args[0]!, r.args[1]!)
    : null;
  if (found === null) return { why: `the update of '${f.name}' is not '${f.name}(…) op e' with op one of + * min max && || (e op ${f.name}(…) only for an exact operator)` };
  if (!operatorOf(found.op).accepts(f.type)) return { why: `'${found.op}' does not reduce ${f.type}` };
  if (tensorReads(found.elem).some((x) => x.name === f.name)) return { why: `the element of '${f.name}''s update reads '${f.name}'` };
  const rs = [...u.rvars].reverse();
  const ys = rvarIndexNames(f, u);
  const sigma = new Map<string, Expr>();
  for (const [pv, p] of u.pure) sigma.set(pv, v(f.args[p]!));
  rs.forEach((x, k) => sigma.set(x.name, v(ys[k]!)));
  return {
    tensor: f.name,
    vars: f.args,
    op: found.op,
    init: tensor(stageTensor(f, 0), f.args.map(v)),
    dims: rs.map((x, k) => ({ var: ys[k]!, lo: termToExpr(x.min), hi: termToExpr(linear([[x.min, 1n], [x.extent, 1n]])) })),
    filter: u.where === null ? null : substVars(u.where, sigma),
    body: substVars(found.elem, sigma),
    where: null,
    inline: false,
    acc: `${RESERVED_PREFIX}red_${f.name}`,
    pos: NO_POS,
  };
}

/**
 * The spec of algorithmToSpec with f's update stage F_1 replaced by the reduction `red` (from
 * updateAsReduction): F keeps its declaration, its region and F_0; its equation is the reduction.
 */
export function withUpdateReduction(spec: Spec, f: CFunc, red: ReductionDef): Spec {
  const stage = stageTensor(f, 1);
  const final = spec.equations.find((e) => e.tensor === f.name);
  if (final === undefined || f.updates.length !== 1) throw new Error(`internal: no final equation of ${f.name}`);
  const def: ReductionDef = { ...red, where: final.where, inline: final.inline };
  const d = desugarReduction(def, f.type);
  const equations: Equation[] = spec.equations.filter((e) => e.tensor !== stage).flatMap((e) => (e === final ? d.equations : [e]));
  const tensors = spec.tensors.filter((t) => t.name !== stage).flatMap((t) => (t.name === f.name ? [d.tensor, t] : [t]));
  return { ...spec, tensors, equations, reductions: [...(spec.reductions ?? []), def] };
}
