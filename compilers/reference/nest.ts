// The loop nest of one stage of one Func, and the loop directives that transform it (Halide's
// split / fuse / reorder / tile / parallel / vectorize / unroll). A nest is a list of loops
// (0-based counters, outermost first) and, for every original variable of the stage (pure
// variables and reduction variables), its value as a term over the loop counters: the
// "original indices" that the compiler carries through every transformation, and from which both
// the stored location and the prophetic annotation are printed.

import { LowerError } from '../algorithm/algorithm.ts';
import type { BugName } from './bugs.ts';
import type { Directive, Tail } from '../algorithm/schedule.ts';
import { add, constant, constOf, floorT, type Formula, leT, ltT, minT, modT, scale, simplify, sub, substTerm, substTerm as subst, type Term, termHasVar, variable, type VarBounds } from '../algorithm/terms.ts';
import { substFormula } from '../../core/presburger/subst.ts';

export type LoopKind = 'serial' | 'parallel' | 'vectorized' | 'unrolled';

export interface Dim {
  /** The loop counter's name in the generated code (already prefixed). */
  readonly name: string;
  /** The name the schedule uses for it. */
  readonly user: string;
  readonly extent: Term;
  readonly kind: LoopKind;
  /** A loop over (part of) a reduction variable. */
  readonly rvar: boolean;
}

export interface Nest {
  dims: Dim[];
  /** Original variable → its value over loop counters and parameters. */
  defs: Map<string, Term>;
  guards: Formula[];
  /** Terms that must be ≥ 0 for the nest to be legal (ShiftInwards needs extent ≥ factor). */
  reqs: { t: Term; why: string }[];
  /** Original variables whose loops may run past their range (RoundUp). */
  rounded: Set<string>;
}

export interface NestContext {
  readonly func: string;
  /** 0: the pure definition; k: update k − 1. */
  readonly stage: number;
  readonly prefix: string;
  readonly bugs: ReadonlySet<BugName>;
  readonly bounds: VarBounds;
}

/** `F` or `F.update(k)`, as the schedule names the stage. */
function at(cx: NestContext): string {
  return cx.stage > 0 ? `${cx.func}.update(${cx.stage - 1})` : cx.func;
}

function schedError(msg: string): never {
  throw new LowerError(msg, 'schedule');
}

/** The initial nest: one loop per variable, `vars` innermost first (Halide's default order). */
export function initialNest(vars: readonly { name: string; min: Term; extent: Term; rvar: boolean }[], cx: NestContext): Nest {
  const dims: Dim[] = [...vars].reverse().map((x) => ({ name: cx.prefix + x.name, user: x.name, extent: x.extent, kind: 'serial', rvar: x.rvar }));
  const defs = new Map<string, Term>();
  for (const x of vars) defs.set(x.name, add(variable(cx.prefix + x.name), x.min));
  return { dims, defs, guards: [], reqs: [], rounded: new Set() };
}

function find(n: Nest, user: string, cx: NestContext, what: string): number {
  const i = n.dims.findIndex((d) => d.user === user);
  if (i < 0) schedError(`${at(cx)}.${what}: no loop '${user}' (loops: ${n.dims.map((d) => d.user).join(', ')})`);
  return i;
}

function substAll(n: Nest, name: string, by: Term): void {
  const s = new Map([[name, by]]);
  for (const [k, t] of n.defs) n.defs.set(k, substTerm(t, s));
  n.guards = n.guards.map((g) => substFormula(g, s));
  n.reqs = n.reqs.map((r) => ({ t: subst(r.t, s), why: r.why }));
}

function freshName(n: Nest, user: string, cx: NestContext, what: string, except = -1): void {
  if (n.dims.some((d, i) => i !== except && d.user === user)) schedError(`${at(cx)}.${what}: a loop named '${user}' already exists`);
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(user)) schedError(`${at(cx)}.${what}: '${user}' is not a loop name`);
}

function split(n: Nest, v: string, outer: string, inner: string, factor: number, tailIn: Tail | undefined, cx: NestContext): void {
  const what = `split(${v}, ${outer}, ${inner}, ${factor})`;
  const i = find(n, v, cx, what);
  const d = n.dims[i]!;
  if (!Number.isInteger(factor) || factor < 1) schedError(`${at(cx)}.${what}: the factor must be a positive integer`);
  freshName(n, outer, cx, what, i);
  freshName(n, inner, cx, what, i);
  if (outer === inner) schedError(`${at(cx)}.${what}: the two loops need different names`);
  let tail: Tail = tailIn ?? 'Auto';
  const update = cx.stage > 0;
  if (d.rvar) {
    // Recomputing or over-running a reduction step changes the result: only guards are legal.
    if (tail === 'ShiftInwards' || tail === 'RoundUp') schedError(`${at(cx)}.${what}: tail ${tail} is not legal for a reduction variable (use GuardWithIf)`);
    tail = 'GuardWithIf';
  } else if (update) {
    if (tail === 'ShiftInwards') schedError(`${at(cx)}.${what}: ShiftInwards re-applies an update on the overlapping tile (use GuardWithIf)`);
    if (tail === 'RoundUp') schedError(`${at(cx)}.${what}: RoundUp is not supported on update stages (use GuardWithIf)`);
    tail = 'GuardWithIf';
    if (cx.bugs.has('shift-inwards-update')) tail = 'ShiftInwards';
  } else if (tail === 'Auto') tail = 'ShiftInwards';
  const f = BigInt(factor);
  const ext = d.extent;
  const o = variable(cx.prefix + outer);
  const inn = variable(cx.prefix + inner);
  const oneOff = cx.bugs.has('off-by-one-tail');
  const base = tail === 'ShiftInwards' ? minT(scale(o, f), sub(ext, constant(oneOff ? f - 1n : f))) : scale(o, f);
  substAll(n, d.name, add(base, inn));
  if (tail === 'GuardWithIf' && !cx.bugs.has('missing-tail-guard')) {
    const at = add(scale(o, f), inn);
    n.guards.push(oneOff ? leT(at, ext) : ltT(at, ext));
  }
  if (tail === 'ShiftInwards') n.reqs.push({ t: sub(ext, constant(f)), why: `ShiftInwards split of ${at(cx)}.${v} by ${factor} needs an extent of at least ${factor}` });
  if (tail === 'RoundUp') for (const [k, t] of n.defs) if (termHasVar(t, cx.prefix + outer)) n.rounded.add(k);
  const extO = simplify(floorT(add(ext, constant(f - 1n)), f), cx.bounds);
  n.dims.splice(i, 1, { name: cx.prefix + outer, user: outer, extent: extO, kind: d.kind, rvar: d.rvar }, { name: cx.prefix + inner, user: inner, extent: constant(f), kind: 'serial', rvar: d.rvar });
}

function fuse(n: Nest, inner: string, outer: string, fused: string, cx: NestContext): void {
  const what = `fuse(${inner}, ${outer}, ${fused})`;
  const ii = find(n, inner, cx, what);
  const oi = find(n, outer, cx, what);
  if (oi !== ii - 1) schedError(`${at(cx)}.${what}: '${outer}' must be the loop directly outside '${inner}'`);
  const di = n.dims[ii]!;
  const dout = n.dims[oi]!;
  if (di.rvar !== dout.rvar) schedError(`${at(cx)}.${what}: cannot fuse a reduction loop with a pure one`);
  const c = constOf(simplify(di.extent, cx.bounds));
  if (c === null || c < 1n) schedError(`${at(cx)}.${what}: the inner loop must have a constant extent (else the fused indices are not affine)`);
  if (n.dims.some((d, k) => k !== ii && k !== oi && d.user === fused)) schedError(`${at(cx)}.${what}: a loop named '${fused}' already exists`);
  const fv = variable(cx.prefix + fused);
  substAll(n, di.name, modT(fv, c));
  substAll(n, dout.name, floorT(fv, c));
  n.dims.splice(oi, 2, { name: cx.prefix + fused, user: fused, extent: simplify(scale(dout.extent, c), cx.bounds), kind: dout.kind, rvar: di.rvar });
}

function reorder(n: Nest, vars: readonly string[], cx: NestContext): void {
  const what = `reorder(${vars.join(', ')})`;
  if (new Set(vars).size !== vars.length) schedError(`${at(cx)}.${what}: a loop is listed twice`);
  const idx = vars.map((x) => find(n, x, cx, what));
  const positions = [...idx].sort((a, b) => a - b);
  const moved = [...idx].reverse(); // outermost first
  const before = n.dims.filter((d) => d.rvar).map((d) => d.name);
  const dims = [...n.dims];
  positions.forEach((p, k) => {
    const src = n.dims[moved[k]!]!;
    // The bug moves names and kinds, not the extents that belong to them.
    dims[p] = cx.bugs.has('swapped-loop-extents') ? { ...src, extent: n.dims[p]!.extent } : src;
  });
  const after = dims.filter((d) => d.rvar).map((d) => d.name);
  if (before.join(',') !== after.join(',')) schedError(`${at(cx)}.${what}: reordering reduction loops among themselves changes the order of the reduction`);
  n.dims = dims;
}

function setKind(n: Nest, v: string, kind: LoopKind, cx: NestContext, what: string): void {
  const i = find(n, v, cx, what);
  const d = n.dims[i]!;
  if ((kind === 'parallel' || kind === 'vectorized') && d.rvar) schedError(`${at(cx)}.${what}: '${v}' is a reduction loop: running it in parallel races on the accumulator`);
  if (kind === 'vectorized' || kind === 'unrolled') {
    const c = constOf(simplify(d.extent, cx.bounds));
    if (c === null) schedError(`${at(cx)}.${what}: '${v}' must have a constant extent (give a factor to split it first)`);
    if (c > 64n) schedError(`${at(cx)}.${what}: extent ${c} is too large to ${kind === 'vectorized' ? 'vectorize' : 'unroll'} (at most 64)`);
  }
  n.dims[i] = { ...d, kind };
  if (kind === 'parallel' && cx.stage > 0 && cx.bugs.has('parallel-recurrence')) {
    for (let k = i + 1; k < n.dims.length; k++) if (n.dims[k]!.rvar) n.dims[k] = { ...n.dims[k]!, kind: 'parallel' };
  }
}

export function applyDirective(n: Nest, d: Directive, cx: NestContext): void {
  switch (d.op) {
    case 'split':
      split(n, d.var, d.outer, d.inner, d.factor, d.tail, cx);
      break;
    case 'fuse':
      fuse(n, d.inner, d.outer, d.fused, cx);
      break;
    case 'reorder':
      reorder(n, d.vars, cx);
      break;
    case 'tile':
      split(n, d.x, d.xo, d.xi, d.xFactor, d.tail, cx);
      split(n, d.y, d.yo, d.yi, d.yFactor, d.tail, cx);
      reorder(n, [d.xi, d.yi, d.xo, d.yo], cx);
      break;
    case 'parallel':
      setKind(n, d.var, 'parallel', cx, `parallel(${d.var})`);
      break;
    case 'serial':
      setKind(n, d.var, 'serial', cx, `serial(${d.var})`);
      break;
    case 'vectorize':
    case 'unroll': {
      let target = d.var;
      if (d.factor !== undefined) {
        target = `${d.var}_${d.op === 'vectorize' ? 'vi' : 'ui'}`;
        split(n, d.var, d.var, target, d.factor, d.tail, cx);
      }
      setKind(n, target, d.op === 'vectorize' ? 'vectorized' : 'unrolled', cx, `${d.op}(${d.var})`);
      break;
    }
    default:
      schedError(`unknown directive ${JSON.stringify(d)}`);
  }
}
