// The reduction of an affine Halide algorithm to a SARE (thesis §2.4.4): a Func F
// without updates is one tensor F; with updates 1..m it becomes F_0 (the pure definition), one
// tensor F_s per update with one extra index per reduction variable (outermost first, so the
// innermost RDom dimension varies fastest, as Halide iterates), and F itself, the final value
// Fin_m. Inside the reduction box an update reads F at the previous recurrence point; outside it,
// F_s replicates the previous stage; where the left-hand side does not hit or the filter fails,
// the previous value of the current stage is kept (frame condition). Annotations produced by the
// compiler name these stage tensors: `F_s(location…, r…)`.

import type { Equation, Expr, ParamDecl, Spec, TensorDecl } from '../../core/language/ast.ts';
import { NO_POS } from '../../core/language/ast.ts';
import type { CFunc, CheckedAlgorithm, CUpdate } from './algorithm.ts';
import { andAll, bin, int, not, orAll, rewrite, select, substVars, tensor, v } from './exprs.ts';
import { addConst, linear, termToExpr, type Term } from './terms.ts';

/** Tensor names of a Func's stages: `F` when it has no updates, else F_0 … F_m (and F final). */
export function stageTensor(f: CFunc, stage: number): string {
  return f.updates.length === 0 ? f.name : `${f.name}_${stage}`;
}

/** Names of the extra indices of update s (outermost first), distinct from the Func's args. */
export function rvarIndexNames(f: CFunc, u: CUpdate): string[] {
  const taken = new Set(f.args);
  return [...u.rvars].reverse().map((r) => {
    let n = r.name;
    while (taken.has(n)) n = `${n}_r`;
    taken.add(n);
    return n;
  });
}

const tx = (t: Term): Expr => termToExpr(t);

/**
 * The lexicographic predecessor of y (outermost first) inside the box: the innermost coordinate
 * decrements; a coordinate at its minimum wraps to its maximum and borrows from the next outer
 * one; the outermost never wraps (the predecessor of the first point lies outside the box).
 */
export function prevPoint(y: readonly string[], lo: readonly Term[], hi: readonly Term[]): Expr[] {
  const r = y.length;
  return y.map((yk, k) => {
    const inner = [];
    for (let j = k + 1; j < r; j++) inner.push(bin('<=', v(y[j]!), tx(lo[j]!)));
    const borrow = andAll(inner);
    const dec = bin('-', v(yk), int(1));
    const changed = k === 0 ? dec : select(bin('<=', v(yk), tx(lo[k]!)), tx(addConst(hi[k]!, -1n)), dec);
    return borrow === null ? changed : select(borrow, changed, v(yk));
  });
}

export interface StageInfo {
  /** Tensor name of the stage. */
  readonly tensor: string;
  /** Extra-index names (outermost first) and the reduction variables they stand for. */
  readonly extra: readonly string[];
}

/** The final value Fin_s(z) of stage s of f at location z. */
export function finalRead(f: CFunc, s: number, z: readonly Expr[]): Expr {
  if (f.updates.length === 0) return tensor(f.name, z);
  if (s === 0) return tensor(stageTensor(f, 0), z);
  const u = f.updates[s - 1]!;
  const rs = [...u.rvars].reverse();
  const last = rs.map((r) => tx(addConst(linear([[r.min, 1n], [r.extent, 1n]]), -1n)));
  return tensor(stageTensor(f, s), [...z, ...last]);
}

function eq(tensorName: string, lhs: readonly Expr[], rhs: Expr, where: Expr | null, inline = false): Equation {
  return { tensor: tensorName, lhs, rhs, where, inline, pos: NO_POS };
}

/** The equations of update s (1-based) of f. */
function updateEquations(f: CFunc, s: number): Equation[] {
  const u = f.updates[s - 1]!;
  const name = stageTensor(f, s);
  const z = f.args.map(v);
  const y = rvarIndexNames(f, u);
  const rs = [...u.rvars].reverse();
  // σ: the update's pure variables ↦ the location's coordinates, reduction variables ↦ indices.
  const sigma = new Map<string, Expr>();
  for (const [pv, p] of u.pure) sigma.set(pv, z[p]!);
  rs.forEach((r, k) => sigma.set(r.name, v(y[k]!)));
  const lo = rs.map((r) => r.min);
  const hi = rs.map((r) => linear([[r.min, 1n], [r.extent, 1n]]));
  const prev = prevPoint(y, lo, hi);
  const selfRead = (idx: readonly Expr[]): Expr => (rs.length > 0 ? tensor(name, [...idx, ...prev]) : finalRead(f, s - 1, idx));
  const rhs = rewrite(
    u.rhs,
    (n) => sigma.get(n),
    (t, idx) => (t === f.name ? selfRead(idx) : undefined),
  );
  const hitParts: Expr[] = [];
  u.lhs.forEach((l, p) => {
    if (l.kind === 'var' && u.pure.get(l.name) === p) return;
    hitParts.push(bin('==', z[p]!, substVars(l, sigma)));
  });
  const filter = u.where === null ? null : substVars(u.where, sigma);
  const applies = andAll([...hitParts, ...(filter ? [filter] : [])]);
  const lhsY = [...z, ...y.map(v)];
  if (rs.length === 0) {
    const out = [eq(name, z, rhs, applies)];
    if (applies !== null) out.push(eq(name, z, finalRead(f, s - 1, z), not(applies)));
    return out;
  }
  const boxParts: Expr[] = [];
  const outParts: Expr[] = [];
  rs.forEach((_, k) => {
    boxParts.push(bin('<=', tx(lo[k]!), v(y[k]!)), bin('<', v(y[k]!), tx(hi[k]!)));
    outParts.push(bin('<', v(y[k]!), tx(lo[k]!)), bin('>=', v(y[k]!), tx(hi[k]!)));
  });
  const box = andAll(boxParts)!;
  const out = [eq(name, lhsY, rhs, andAll([box, ...(applies ? [applies] : [])]))];
  if (applies !== null) out.push(eq(name, lhsY, tensor(name, [...z, ...prev]), andAll([box, not(applies)])));
  out.push(eq(name, lhsY, finalRead(f, s - 1, z), orAll(outParts)));
  return out;
}

/** The SARE of a checked algorithm, as a `spec` block named `name`. */
export function algorithmToSpec(a: CheckedAlgorithm, name: string): Spec {
  const params: ParamDecl[] = a.params.map((p) => ({ name: p, pos: NO_POS }));
  const tensors: TensorDecl[] = [];
  const equations: Equation[] = [];
  for (const inp of a.inputs.values()) tensors.push({ role: 'input', name: inp.name, vars: inp.args, type: inp.type, pos: NO_POS });
  const outName = a.output.func.name;
  // The output is the region the pipeline is realised over, [0, extent) in each dimension: the
  // spec says so, so that an implementation must produce all of it (interface rule I-ONTO).
  const region = (f: CheckedAlgorithm['funcs'][number]): Expr | null => (f.name === outName ? andAll(f.args.flatMap((x, k) => [bin('<=', int(0n), v(x)), bin('<', v(x), tx(a.output.extents[k]!))])) : null);
  for (const f of a.funcs) {
    const isOut = f.name === outName;
    const z = f.args.map(v);
    if (f.updates.length === 0) {
      tensors.push({ role: isOut ? 'output' : 'tensor', name: f.name, vars: f.args, type: f.type, pos: NO_POS });
      equations.push(eq(f.name, z, f.pure, region(f), isOut));
      continue;
    }
    tensors.push({ role: 'tensor', name: stageTensor(f, 0), vars: f.args, type: f.type, pos: NO_POS });
    equations.push(eq(stageTensor(f, 0), z, f.pure, null));
    f.updates.forEach((u, k) => {
      tensors.push({ role: 'tensor', name: stageTensor(f, k + 1), vars: [...f.args, ...rvarIndexNames(f, u)], type: f.type, pos: NO_POS });
      equations.push(...updateEquations(f, k + 1));
    });
    tensors.push({ role: isOut ? 'output' : 'tensor', name: f.name, vars: f.args, type: f.type, pos: NO_POS });
    equations.push(eq(f.name, z, finalRead(f, f.updates.length, z), region(f), isOut));
  }
  return { name, params, assumes: a.assumes, tensors, equations, pos: NO_POS };
}
