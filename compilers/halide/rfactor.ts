// Halide's rfactor seen from the definitions before and after the schedule (pipeline()'s
// `schedule` hook, docs/halide.md). `F.update().rfactor(…)` creates an intermediate Func I whose
// update accumulates F's element over part of the RDom, one cell per value of the preserved RVars
// (now pure variables of I), and rewrites F's update to fold I's cells into F. Nothing found here
// is trusted: it only yields the chapter-7 annotations of I's and F's stores (which reduction and
// which position a store accumulates), and the verifier checks every one of them against the spec
// of the algorithm as written. A shape that cannot be read this way is rejected by name.

import type { ReduceOp } from '../../core/language/ast.ts';
import { collectCalls, type HExpr, parseHExpr, printHExpr, stripExpr } from './hir.ts';
import { type DriverFunc, Unsupported } from './funcs.ts';

/** An intermediate Func made by rfactor. */
export interface Intermediate {
  readonly name: string;
  /** The Func whose update it factors (which has that update only: stage 1). */
  readonly of: string;
  /**
   * The position in F's RDom that the store of I's update accumulates: one expression per RVar of
   * F's update, innermost first (as Halide lists them), over I's update variables (its pure
   * variables and its own RVars) and the parameters.
   */
  readonly position: readonly HExpr[];
  /** For each argument of F, the index of I's argument that holds it. */
  readonly coords: readonly number[];
  /** I's pure variables (the names its update's arguments give them), by argument index. */
  readonly vars: readonly string[];
  /** I's own RVars (those of its update). */
  readonly rvars: readonly string[];
  /** The operator of F's update (`F(…) op e`): I's cells start from its neutral element. */
  readonly op: ReduceOp;
}

export interface Rfactors {
  readonly intermediates: ReadonlyMap<string, Intermediate>;
  /** The Funcs whose update rfactor rewrote. */
  readonly factored: ReadonlySet<string>;
}

export const NO_RFACTOR: Rfactors = { intermediates: new Map(), factored: new Set() };

const REDUCE_OPS = ['+', '*', '&&', '||'];

const key = (u: DriverFunc['updates'][number]): string => JSON.stringify([u.args, u.value, u.rvars]);

/**
 * The rfactors the schedule applied: `pre` are the algorithm's definitions, `post` those after
 * the schedule (with the Funcs it created). Any other rewrite of a definition, or a created Func
 * that is not an rfactor intermediate, is rejected.
 */
export function findRfactors(pre: readonly DriverFunc[], post: readonly DriverFunc[]): Rfactors {
  const before = new Map(pre.map((f) => [f.name, f]));
  const intermediates = new Map<string, Intermediate>();
  const factored = new Set<string>();
  const created = post.filter((f) => !before.has(f.name));
  for (const g of post) {
    const f = before.get(g.name);
    if (f === undefined) continue;
    if (f.pure !== g.pure || f.updates.length !== g.updates.length) throw new Unsupported('definition rewritten by the schedule', `'${g.name}' (only rfactor is read back)`);
    g.updates.forEach((u, k) => {
      if (key(u) === key(f.updates[k]!)) return;
      const calls = new Set<string>();
      collectCalls(parseHExpr(u.value), calls);
      const reads = created.filter((i) => calls.has(i.name));
      if (reads.length !== 1) throw new Unsupported('update rewritten by the schedule', `update ${k} of '${g.name}' is now ${u.value.slice(0, 120)} (only rfactor is read back)`);
      if (f.updates.length !== 1) throw new Unsupported('rfactor of a Func with several updates', `'${g.name}'`);
      const i = reads[0]!;
      intermediates.set(i.name, intermediate(f, i));
      factored.add(g.name);
    });
  }
  for (const i of created) if (!intermediates.has(i.name)) throw new Unsupported('Func created by the schedule', `'${i.name}' is not an rfactor intermediate of an update of pipeline()'s funcs`);
  return { intermediates, factored };
}

/**
 * Without the hook, the definitions are read after rfactor rewrote them, and a spec taken from
 * them would not check it. Python's rfactor names its intermediate `<F>_intm` (it takes no name),
 * so an update of F that reads a listed `<F>_intm` is taken for one and rejected.
 */
export function rejectUnhookedRfactor(funcs: readonly DriverFunc[]): void {
  const names = new Set(funcs.map((f) => f.name));
  for (const f of funcs) {
    for (const u of f.updates) {
      const calls = new Set<string>();
      collectCalls(parseHExpr(u.value), calls);
      if (calls.has(`${f.name}_intm`) && names.has(`${f.name}_intm`)) throw new Unsupported('rfactor without the schedule hook', `'${f.name}' reads '${f.name}_intm', an rfactor intermediate: apply the schedule in pipeline()'s 'schedule' hook, so that the spec is the algorithm as written (docs/halide.md)`);
    }
  }
}

/** I's update is F's update with F's RVars replaced: matching the two finds what replaced them. */
function intermediate(f: DriverFunc, i: DriverFunc): Intermediate {
  const why = (d: string): Unsupported => new Unsupported('rfactor shape', `intermediate '${i.name}' of '${f.name}': ${d}`);
  if (i.updates.length !== 1) throw why(`it has ${i.updates.length} updates (an rfactor of an rfactor intermediate is not read back)`);
  const fu = f.updates[0]!;
  const iu = i.updates[0]!;
  if (!iu.args.every((a, k) => a === i.args[k])) throw why(`its update's left-hand side (${iu.args.join(', ')}) is not its own variables`);
  if (!fu.args.every((a) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(a) && f.args.includes(a))) throw why(`the left-hand side of '${f.name}''s update is not its own variables`);
  const coords = fu.args.map((a) => {
    const k = iu.args.indexOf(a);
    if (k < 0) throw why(`'${f.name}''s variable ${a} is not one of its arguments`);
    return k;
  });
  const pattern = stripExpr(parseHExpr(fu.value));
  const target = unpromise(stripExpr(parseHExpr(iu.value)));
  const op = pattern.k === 'bin' && (REDUCE_OPS as readonly string[]).includes(pattern.op) ? (pattern.op as ReduceOp) : pattern.k === 'call' && (pattern.name === 'min' || pattern.name === 'max') && pattern.args.length === 2 ? pattern.name : null;
  if (op === null) throw new Unsupported('rfactor of an update that is not a reduction', `'${f.name}''s update ${printHExpr(pattern).slice(0, 160)} is not '${f.name}(…) op e' with op one of + * min max && ||`);
  const bound = new Map<string, HExpr>();
  const rv = new Set(fu.rvars);
  if (!match(pattern, target, rv, bound, f.name, i.name)) throw why(`its update ${printHExpr(target).slice(0, 160)} is not '${f.name}''s update ${printHExpr(pattern).slice(0, 160)} with the RVars replaced`);
  const position = fu.rvars.map((r) => {
    const e = bound.get(r);
    if (e === undefined) throw why(`RVar ${r} does not occur in the update's value, so the position it accumulates cannot be read`);
    return e;
  });
  return { name: i.name, of: f.name, position, coords, vars: iu.args, rvars: iu.rvars, op };
}

/** `promise_clamped(x, lo, hi)` is x (rfactor wraps a split RVar's substitute in it). */
function unpromise(e: HExpr): HExpr {
  switch (e.k) {
    case 'call':
      if ((e.name === 'promise_clamped' || e.name === 'unsafe_promise_clamped') && e.args.length >= 1) return unpromise(e.args[0]!);
      return { ...e, args: e.args.map(unpromise) };
    case 'bin':
      return { ...e, a: unpromise(e.a), b: unpromise(e.b) };
    case 'not':
    case 'neg':
    case 'cast':
      return { ...e, a: unpromise(e.a) };
    default:
      return e;
  }
}

/**
 * First-order matching: `p` (F's update value) against `t` (I's): an RVar of F binds the subterm
 * in its place (the same one everywhere); a read of F matches a read of I whose leading arguments
 * match (I's extra arguments are the preserved RVars); everything else must be equal.
 */
function match(p: HExpr, t: HExpr, rv: ReadonlySet<string>, bound: Map<string, HExpr>, f: string, i: string): boolean {
  if (p.k === 'var' && rv.has(p.name)) {
    const have = bound.get(p.name);
    if (have !== undefined) return printHExpr(have) === printHExpr(t);
    bound.set(p.name, t);
    return true;
  }
  const sub = (a: HExpr, b: HExpr): boolean => match(a, b, rv, bound, f, i);
  switch (p.k) {
    case 'call': {
      if (t.k !== 'call') return false;
      if (p.name === f) return t.name === i && t.args.length >= p.args.length && p.args.every((a, k) => sub(a, t.args[k]!));
      return p.name === t.name && p.args.length === t.args.length && p.args.every((a, k) => sub(a, t.args[k]!));
    }
    case 'bin':
      return t.k === 'bin' && p.op === t.op && sub(p.a, t.a) && sub(p.b, t.b);
    case 'cast':
      return t.k === 'cast' && p.t === t.t && sub(p.a, t.a);
    case 'not':
    case 'neg':
      return t.k === p.k && sub(p.a, t.a);
    default:
      return printHExpr(p) === printHExpr(t);
  }
}
