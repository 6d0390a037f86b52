// The reference scheduling compiler: a Halide-style algorithm and schedule → a `.sched` program
// (the SARE of the algorithm, thesis §2.4.4, and an annotated SCHED implementation).
//
// Lowering follows Halide's structure. Funcs are placed from the output backwards (every consumer
// exists before its producers): the output's stages are loop nests over [0, extent); a producer
// computed at a loop of a consumer gets the region its consumers read inside that loop (interval
// bounds inference over the generated loops), is stored at the same or an enclosing loop (hull of
// the region over the loops in between; a sliding window with storage folding when exactly one
// serial loop separates them), and is prepended to that loop's body. Inline Funcs are substituted.
//
// Annotations are not guessed: every assignment is built from the stage's original variables (the
// Func's coordinates and reduction indices), each a term over the loop counters that every
// directive rewrites (split, fuse, …); the stored location, the right-hand side's indices and the
// prophetic annotation `F_s(coordinates…, reduction indices…)` are all printed from these same
// terms (thesis §5.6, §6.1).

import type { ArrayDecl, Cmd, Expr, Impl, Program, Spec, ValueType } from '../../core/language/ast.ts';
import { NO_POS } from '../../core/language/ast.ts';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { parseExpr } from '../../core/language/parser.ts';
import { printProgram } from '../../core/language/printer.ts';
import { type Algorithm, type CFunc, type CheckedAlgorithm, checkAlgorithm, LowerError, tensorReads } from '../algorithm/algorithm.ts';
import type { BugName } from './bugs.ts';
import { array, int, rewrite, substVars, tensor, v } from '../algorithm/exprs.ts';
import { applyDirective, initialNest, type LoopKind, type Nest, type NestContext } from './nest.ts';
import { algorithmToSpec, stageTensor } from '../algorithm/sare.ts';
import type { LoopRef, Schedule, StageSchedule } from '../algorithm/schedule.ts';
import {
  add, addConst, and, andAll, bool, constant, constOf, decide, exprToFormula, exprToTerm, type Formula, formulaToExpr, IndexError,
  maxT, minT, modT, not, or, provablyNonneg, rangeOver, simplify, sub, substTerm, type Term, termToExpr,
  termVars, variable, type VarBounds, ge, simplifyFormula, formulaVars as formulaVarsOf, splitMinMax,
} from '../algorithm/terms.ts';
import type { Interval } from '../../core/presburger/interval.ts';
import { substFormula } from '../../core/presburger/subst.ts';

// ---------------------------------------------------------------------------------------------
// The loop IR

interface Owner {
  readonly func: string;
  readonly stage: number;
  readonly branch: number;
  readonly user: string;
}

interface LoopNode {
  readonly k: 'loop';
  readonly name: string;
  readonly extent: Term;
  readonly kind: LoopKind;
  readonly owner: Owner;
  body: Node[];
}

interface IfNode {
  readonly k: 'if';
  readonly cond: Formula;
  then: Node[];
  else: Node[] | null;
}

interface AllocNode {
  readonly k: 'alloc';
  readonly func: string;
  readonly mins: readonly Term[];
  readonly extents: readonly Term[];
  readonly fold: readonly (bigint | null)[];
  body: Node[];
}

interface ProvideNode {
  readonly k: 'provide';
  readonly func: string;
  readonly stage: number;
  /** Stage variables → terms over loop counters (how the value's indices are printed). */
  readonly env: ReadonlyMap<string, Term>;
  readonly coords: readonly Term[];
  readonly rvals: readonly Term[];
  /** The right-hand side over the stage variables, inline Funcs substituted. */
  readonly value: Expr;
}

type Node = LoopNode | IfNode | AllocNode | ProvideNode;

interface Region {
  readonly lo: Term[];
  readonly hi: Term[];
}

export interface LowerOptions {
  readonly bugs?: Iterable<BugName>;
  readonly specName?: string;
  readonly implName?: string;
}

export interface LowerResult {
  readonly program: Program;
  readonly spec: Spec;
  readonly impl: Impl;
  readonly text: string;
}

function schedError(msg: string): never {
  throw new LowerError(msg, 'schedule');
}

/** Names of arrays in the generated code. */
export const inputArray = (n: string): string => `in_${n}`;
export const bufferArray = (n: string): string => `buf_${n}`;
export const outputArray = (n: string): string => `out_${n}`;

/** Lower bounds of single parameters in a conjunction of facts (`N >= 4`, `4 <= N`). */
function boundsFrom(fs: readonly Formula[], base: VarBounds): Map<string, Interval> {
  const b = new Map(base);
  const visit = (f: Formula): void => {
    if (f.kind === 'and') {
      f.args.forEach(visit);
      return;
    }
    if (f.kind !== 'ge' && f.kind !== 'eq') return;
    if (f.t.parts.length !== 1) return;
    const [a, k] = f.t.parts[0]!;
    if (a.kind !== 'var' || (k !== 1n && k !== -1n)) return;
    const cur = b.get(a.name) ?? { lo: null, hi: null };
    // k·x + c ≥ 0: x ≥ −c (k = 1) or x ≤ c (k = −1); equalities give both.
    let lo = cur.lo;
    let hi = cur.hi;
    if (k === 1n || f.kind === 'eq') {
      const l = k === 1n ? -f.t.c : f.t.c;
      if (k === 1n || f.kind === 'eq') lo = lo === null || l > lo ? l : lo;
    }
    if (k === -1n || f.kind === 'eq') {
      const h = k === -1n ? f.t.c : -f.t.c;
      hi = hi === null || h < hi ? h : hi;
    }
    b.set(a.name, { lo, hi });
  };
  fs.forEach(visit);
  return b;
}

class Lowerer {
  readonly bugs: ReadonlySet<BugName>;
  readonly paramBounds: Map<string, Interval>;
  readonly paramSet: ReadonlySet<string>;
  readonly inline = new Set<string>();
  readonly reachable = new Set<string>();
  readonly root: Node[] = [];
  readonly reqs: { t: Term; ctx: Formula; why: string }[] = [];
  readonly outName: string;

  constructor(
    readonly a: CheckedAlgorithm,
    readonly sched: Schedule,
    bugs: ReadonlySet<BugName>,
    /** Facts the implementation assumes (from a previous pass): used to simplify, and kept. */
    readonly facts: readonly Formula[],
  ) {
    this.bugs = bugs;
    this.paramSet = new Set(a.params);
    const env = (n: string): Term | undefined => (this.paramSet.has(n) ? variable(n) : undefined);
    this.paramBounds = boundsFrom([...a.assumes.map((x) => exprToFormula(x, env)), ...facts], new Map());
    this.outName = a.output.func.name;
  }

  /** Bounds for simplification: parameters from the assumptions and `ctx`; loop counters ≥ 0. */
  boundsWith(ctx: Formula, extra: Iterable<string> = []): Map<string, Interval> {
    const b = boundsFrom([ctx], this.paramBounds);
    for (const x of extra) if (!this.paramSet.has(x) && !b.has(x)) b.set(x, { lo: 0n, hi: null });
    return b;
  }

  simp(t: Term, ctx: Formula = bool(true)): Term {
    return simplify(t, this.boundsWith(ctx, termVars(t)));
  }

  simpF(f: Formula, ctx: Formula = bool(true)): Formula {
    return simplifyFormula(f, this.boundsWith(ctx, formulaVarsOf(f)));
  }

  funcSched(name: string) {
    return this.sched.funcs[name] ?? {};
  }

  // -- algorithm-level analysis ---------------------------------------------------------------

  analyse(): void {
    const f0 = this.a.output.func;
    const visit = (f: CFunc): void => {
      if (this.reachable.has(f.name)) return;
      this.reachable.add(f.name);
      const exprs = [f.pure, ...f.updates.flatMap((u) => [u.rhs])];
      for (const e of exprs) for (const r of tensorReads(e)) {
        const g = this.a.funcByName.get(r.name);
        if (g && g !== f) visit(g);
      }
    };
    visit(f0);
    for (const name of Object.keys(this.sched.funcs ?? {})) {
      if (!this.a.funcByName.has(name)) schedError(`the schedule names '${name}', which is not a Func of the algorithm`);
    }
    for (const f of this.a.funcs) {
      if (!this.reachable.has(f.name)) continue;
      const fs = this.funcSched(f.name);
      if (f === f0) {
        if (fs.compute !== undefined && fs.compute !== 'root') schedError(`the output '${f.name}' is always computed at the root`);
        if (fs.store !== undefined && fs.store !== 'root') schedError(`the output '${f.name}' is always stored at the root`);
        continue;
      }
      const compute = fs.compute ?? (f.updates.length === 0 ? 'inline' : 'root');
      if (compute === 'inline') {
        if (f.updates.length > 0) schedError(`'${f.name}' has update definitions and cannot be inlined`);
        if (fs.store !== undefined || (fs.fold?.length ?? 0) > 0 || (fs.stages?.length ?? 0) > 0) schedError(`'${f.name}' is inlined: it takes no storage or loop directives`);
        this.inline.add(f.name);
      }
    }
  }

  /** Substitute inline Funcs (recursively) in a value expression. */
  expand(e: Expr): Expr {
    return rewrite(
      e,
      () => undefined,
      (name, idx) => {
        if (!this.inline.has(name)) return undefined;
        const g = this.a.funcByName.get(name)!;
        const m = new Map(g.args.map((x, i) => [x, idx[i]!] as const));
        return this.expand(substVars(g.pure, m));
      },
    );
  }

  // -- stages ---------------------------------------------------------------------------------

  prefix(f: string): string {
    return f === this.outName ? '' : `${f.toLowerCase()}_`;
  }

  stageSched(f: string, s: number): StageSchedule {
    return this.funcSched(f).stages?.[s] ?? {};
  }

  /** The initial variables of stage s over `region` (pure variables) and the reduction domain. */
  stageVars(f: CFunc, s: number, mins: readonly Term[], exts: readonly Term[]): { name: string; min: Term; extent: Term; rvar: boolean }[] {
    if (s === 0) return f.args.map((x, p) => ({ name: x, min: mins[p]!, extent: exts[p]!, rvar: false }));
    const u = f.updates[s - 1]!;
    const rv = u.rvars.map((r) => ({ name: r.name, min: r.min, extent: r.extent, rvar: true }));
    const pv = [...u.pure].sort((x, y) => x[1] - y[1]).map(([x, p]) => ({ name: x, min: mins[p]!, extent: exts[p]!, rvar: false }));
    return [...rv, ...pv];
  }

  /** The loop nest(s) of one stage: one per specialisation branch, then the generic one. */
  stageNests(f: CFunc, s: number, mins: readonly Term[], exts: readonly Term[], ctx: Formula): { cond: Formula | null; nest: Nest; branch: number }[] {
    const ss = this.stageSched(f.name, s);
    const env = (n: string): Term | undefined => (this.paramSet.has(n) ? variable(n) : undefined);
    const vars = this.stageVars(f, s, mins, exts);
    const specs = ss.specializations ?? [];
    const out: { cond: Formula | null; nest: Nest; branch: number }[] = [];
    const taken: Formula[] = [];
    const build = (extra: readonly StageSchedule['directives'][], cond: Formula | null, branch: number): void => {
      const cx: NestContext = { func: f.name, stage: s, prefix: this.prefix(f.name), bugs: this.bugs, bounds: this.boundsWith(and(ctx, cond ?? bool(true))) };
      const n = initialNest(vars, cx);
      for (const ds of extra) for (const d of ds ?? []) applyDirective(n, d, cx);
      out.push({ cond, nest: n, branch });
    };
    specs.forEach((sp, k) => {
      let c: Formula;
      try {
        c = exprToFormula(parseCond(sp.cond), env);
      } catch (e) {
        if (e instanceof IndexError) schedError(`${f.name}.specialize(${sp.cond}): ${e.message} (conditions are affine in the parameters)`);
        throw e;
      }
      // The branch runs when this condition holds and no earlier one did.
      const branchCond = andAll([...taken.map(not), c]);
      taken.push(c);
      build([ss.directives, sp.directives], branchCond, k + 1);
    });
    build([ss.directives], specs.length ? andAll(taken.map(not)) : null, 0);
    return out;
  }

  /** The provide of stage s and its loops, for one nest. */
  nestCode(f: CFunc, s: number, n: Nest, branch: number, ctx: Formula): Node[] {
    const env = n.defs;
    const lookup = (x: string): Term | undefined => env.get(x) ?? (this.paramSet.has(x) ? variable(x) : undefined);
    let coords: Term[];
    let rvals: Term[] = [];
    let value: Expr;
    if (s === 0) {
      coords = f.args.map((x) => env.get(x)!);
      value = this.expand(f.pure);
    } else {
      const u = f.updates[s - 1]!;
      coords = u.lhs.map((l) => exprToTerm(l, lookup));
      rvals = [...u.rvars].reverse().map((r) => env.get(r.name)!);
      value = this.expand(u.rhs);
    }
    const sc = (t: Term): Term => this.simp(t, ctx);
    const provide: ProvideNode = {
      k: 'provide',
      func: f.name,
      stage: s,
      env: new Map([...env].map(([k, t]) => [k, sc(t)])),
      coords: coords.map(sc),
      rvals: rvals.map(sc),
      value,
    };
    let body: Node[] = [provide];
    // The update's filter (RDom::where), over the same terms as everything else.
    const filter = s > 0 && f.updates[s - 1]!.where !== null ? [exprToFormula(f.updates[s - 1]!.where!, lookup)] : [];
    const conds = [...n.guards, ...filter];
    if (conds.length > 0) body = [{ k: 'if', cond: this.simpF(andAll(conds), ctx), then: body, else: null }];
    for (const d of [...n.dims].reverse()) {
      body = [{ k: 'loop', name: d.name, extent: sc(d.extent), kind: d.kind, owner: { func: f.name, stage: s, branch, user: d.user }, body }];
    }
    return body;
  }

  /** The code of every stage of f over a region, and the region its stages may write. */
  funcCode(f: CFunc, mins: readonly Term[], exts: readonly Term[], ctx: Formula): { code: Node[]; written: Region } {
    const code: Node[] = [];
    const his = mins.map((m, p) => addConst(add(m, exts[p]!), -1n));
    const written: Region = { lo: [...mins], hi: [...his] };
    const stages = f.updates.length + 1;
    for (let s = 0; s < stages; s++) {
      if (s > 0 && f.name !== this.outName && this.bugs.has('dropped-update-stage')) continue;
      const nests = this.stageNests(f, s, mins, exts, ctx);
      const branches: { cond: Formula | null; code: Node[] }[] = [];
      for (const { cond, nest, branch } of nests) {
        const bctx = and(ctx, cond ?? bool(true));
        for (const r of nest.reqs) this.reqs.push({ t: r.t, ctx: bctx, why: r.why });
        branches.push({ cond, code: this.nestCode(f, s, nest, branch, bctx) });
        // RoundUp may write past the region: widen what is written (the allocation covers it).
        if (s === 0) {
          f.args.forEach((x, p) => {
            if (!nest.rounded.has(x)) return;
            const r = eliminate(nest.defs.get(x)!, nest.dims.map((d) => ({ name: d.name, extent: d.extent })));
            written.lo[p] = minT(written.lo[p]!, r.lo);
            written.hi[p] = maxT(written.hi[p]!, r.hi);
          });
        }
      }
      // if c1 then b1 else if c2 then b2 … else generic
      let chain: Node[] = branches[branches.length - 1]!.code;
      for (let k = branches.length - 2; k >= 0; k--) {
        const sp = this.stageSched(f.name, s).specializations![k]!;
        let c = exprToFormula(parseCond(sp.cond), (n) => (this.paramSet.has(n) ? variable(n) : undefined));
        if (this.bugs.has('specialize-inverted')) c = not(c);
        chain = [{ k: 'if', cond: c, then: branches[k]!.code, else: chain }];
      }
      code.push(...chain);
    }
    return { code, written: { lo: written.lo.map((t) => this.simp(t, ctx)), hi: written.hi.map((t) => this.simp(t, ctx)) } };
  }

  /** Positions of f written or read by its own updates outside the pure-variable positions. */
  updateFootprint(f: CFunc, req: Region): Region {
    const out: Region = { lo: [...req.lo], hi: [...req.hi] };
    for (const u of f.updates) {
      const ranges: { name: string; lo: Term; hi: Term }[] = [];
      for (const [pv, p] of u.pure) ranges.push({ name: pv, lo: req.lo[p]!, hi: req.hi[p]! });
      for (const r of u.rvars) ranges.push({ name: r.name, lo: r.min, hi: addConst(add(r.min, r.extent), -1n) });
      const env = (n: string): Term | undefined => variable(n);
      const visit = (idx: readonly Expr[]): void => {
        idx.forEach((e, p) => {
          if (e.kind === 'var' && u.pure.get(e.name) === p) return;
          let lo = exprToTerm(e, env);
          let hi = lo;
          for (const r of ranges) {
            lo = rangeOver(lo, r.name, r.lo, r.hi).lo;
            hi = rangeOver(hi, r.name, r.lo, r.hi).hi;
          }
          out.lo[p] = minT(out.lo[p]!, lo);
          out.hi[p] = maxT(out.hi[p]!, hi);
        });
      };
      visit(u.lhs);
      for (const r of tensorReads(u.rhs)) if (r.name === f.name) visit(r.indices);
    }
    return out;
  }

  // -- placement ------------------------------------------------------------------------------

  /** Every loop of (func, stage, var), with the path of nodes from the root to it. */
  findLoops(ref: LoopRef): { loop: LoopNode; path: PathStep[] }[] {
    const stage = ref.stage ?? 0;
    const out: { loop: LoopNode; path: PathStep[] }[] = [];
    const walk = (nodes: Node[], path: PathStep[]): void => {
      for (const n of nodes) {
        if (n.k === 'loop') {
          const p = [...path, { node: n, branch: 'body' as const }];
          if (n.owner.func === ref.func && n.owner.stage === stage && n.owner.user === ref.var) out.push({ loop: n, path: p });
          walk(n.body, p);
        } else if (n.k === 'if') {
          walk(n.then, [...path, { node: n, branch: 'then' }]);
          if (n.else) walk(n.else, [...path, { node: n, branch: 'else' }]);
        } else if (n.k === 'alloc') walk(n.body, [...path, { node: n, branch: 'body' }]);
      }
    };
    walk(this.root, []);
    return out;
  }

  /** Region of `target` read in `nodes`, loops inside `nodes` eliminated (innermost first). */
  readRegion(nodes: Node[], target: string, arity: number, fixFirstLoop: boolean, dropOffsets = false): Region | null {
    let lo: (Term | null)[] = new Array(arity).fill(null);
    let hi: (Term | null)[] = new Array(arity).fill(null);
    let any = false;
    const walk = (ns: Node[], loops: { name: string; extent: Term }[]): void => {
      for (const n of ns) {
        if (n.k === 'loop') walk(n.body, [...loops, { name: n.name, extent: n.extent }]);
        else if (n.k === 'if') {
          walk(n.then, loops);
          if (n.else) walk(n.else, loops);
        } else if (n.k === 'alloc') walk(n.body, loops);
        else {
          const lookup = (x: string): Term | undefined => n.env.get(x) ?? (this.paramSet.has(x) ? variable(x) : undefined);
          for (const r of tensorReads(n.value)) {
            if (r.name !== target) continue;
            any = true;
            r.indices.forEach((e, p) => {
              let t = exprToTerm(e, lookup);
              // The bug input-halo-dropped: the constant offset of a stencil read is ignored.
              if (dropOffsets && t.parts.length > 0) t = addConst(t, -t.c);
              let ls = loops;
              if (fixFirstLoop && ls.length > 0) {
                // The bug: bounds for one iteration of the first loop below the compute level.
                t = substTerm(t, new Map([[ls[0]!.name, constant(0n)]]));
                ls = ls.slice(1);
              }
              const r2 = eliminate(t, ls);
              lo[p] = lo[p] === null ? r2.lo : minT(lo[p]!, r2.lo);
              hi[p] = hi[p] === null ? r2.hi : maxT(hi[p]!, r2.hi);
            });
          }
        }
      }
    };
    walk(nodes, []);
    if (!any) return null;
    lo = lo.map((t) => this.simp(t!));
    hi = hi.map((t) => this.simp(t!));
    return { lo: lo as Term[], hi: hi as Term[] };
  }

  /** Place producer f (all consumers already placed). */
  place(f: CFunc): void {
    const fs = this.funcSched(f.name);
    const compute = fs.compute ?? 'root';
    type Level = { body: Node[]; path: PathStep[]; loop: LoopNode | null };
    const levels: Level[] = [];
    if (compute === 'root') levels.push({ body: this.root, path: [], loop: null });
    else if (compute === 'inline') return;
    else {
      const found = this.findLoops(compute);
      if (found.length === 0) schedError(`${f.name}.compute_at(${compute.func}${compute.stage ? `.update(${compute.stage - 1})` : ''}, ${compute.var}): no such loop in the lowered code of ${compute.func}`);
      for (const x of found) levels.push({ body: x.loop.body, path: x.path, loop: x.loop });
    }
    const folds = new Map((fs.fold ?? []).map((x) => [x.dim, BigInt(x.factor)] as const));
    const arity = f.args.length;
    let placed = 0;
    const storeBodies = new Set<Node[]>();
    for (const lv of levels) {
      const ctx = pathContext(lv.path);
      const req = this.readRegion(lv.body, f.name, arity, lv.loop !== null && this.bugs.has('wrong-compute-at-level'));
      if (req === null) continue;
      placed++;
      const R = this.updateFootprint(f, req);
      // Store level: the compute level, the root, or an enclosing loop of the same consumer nest.
      let storeBody = lv.body;
      let storeDepth = lv.path.length; // path index of the store loop + 1 (0 = root)
      const store = fs.store;
      if (store === 'root') {
        storeBody = this.root;
        storeDepth = 0;
      } else if (store !== undefined) {
        const k = lv.path.findIndex((st) => st.node.k === 'loop' && st.node.owner.func === store.func && st.node.owner.stage === (store.stage ?? 0) && st.node.owner.user === store.var);
        if (k < 0) schedError(`${f.name}.store_at(${store.func}, ${store.var}): not a loop enclosing the loop where ${f.name} is computed`);
        storeBody = (lv.path[k]!.node as LoopNode).body;
        storeDepth = k + 1;
      }
      if (storeBodies.has(storeBody)) schedError(`${f.name}: computed in several specialisations of its consumer but stored once above them (store it inside the specialised loops)`);
      storeBodies.add(storeBody);
      const between = lv.path.slice(storeDepth).filter((st) => st.node.k === 'loop').map((st) => st.node as LoopNode);
      for (const l of between) {
        if (l.kind === 'parallel' || l.kind === 'vectorized') schedError(`${f.name}: stored outside the ${l.kind} loop '${l.owner.user}' of ${l.owner.func} and computed inside it (the iterations would race on the buffer)`);
      }
      // Sliding window (Halide's loop rewinding): one serial loop v between store and compute
      // levels, and one dimension d whose window [lo(v), hi(v)] moves by a constant stride s with a
      // constant footprint F0 > s. The loop starts k = ⌈(F0 − s)/s⌉ iterations early; every
      // iteration computes only the s new rows (hi(v) − s, hi(v)], the consumer runs from the
      // original first iteration on (guard v ≥ 0), and storage is folded by F0 rows (y mod F0).
      let computeLo = R.lo;
      let computeHi = R.hi;
      const foldOf: (bigint | null)[] = new Array(arity).fill(null);
      let slid: number | null = null;
      const loop = lv.loop;
      if (loop !== null && between.length === 1 && between[0] === loop && loop.kind === 'serial' && f.updates.length === 0) {
        const vn = loop.name;
        const back = (t: Term): Term => substTerm(t, new Map([[vn, addConst(variable(vn), -1n)]]));
        const moving = f.args.map((_, p) => p).filter((p) => termVars(R.lo[p]!).has(vn) || termVars(R.hi[p]!).has(vn));
        if (moving.length === 1) {
          const d = moving[0]!;
          const s1 = constOf(this.simp(sub(R.hi[d]!, back(R.hi[d]!)), ctx));
          const s2 = constOf(this.simp(sub(R.lo[d]!, back(R.lo[d]!)), ctx));
          const F0 = constOf(this.simp(addConst(sub(R.hi[d]!, R.lo[d]!), 1n), ctx));
          if (s1 !== null && s1 >= 1n && s1 === s2 && F0 !== null && F0 > s1) {
            slid = d;
            const stride = s1;
            const asked = folds.get(f.args[d]!);
            if (asked !== undefined && asked < F0) schedError(`${f.name}.fold_storage(${f.args[d]}, ${asked}): the sliding window needs at least ${F0} rows`);
            let fold = asked ?? F0;
            if (this.bugs.has('wrong-fold-factor') && fold > 1n) fold -= 1n;
            foldOf[d] = fold;
            const warm = this.bugs.has('sliding-no-warmup') ? 0n : (F0 - stride + stride - 1n) / stride;
            if (warm > 0n) {
              // Rewind: v ↦ v − warm inside the loop, the consumer's code guarded by v ≥ warm.
              const shifted = addConst(variable(vn), -warm);
              substTree(loop.body, vn, shifted);
              const guarded: Node = { k: 'if', cond: ge(shifted), then: loop.body.splice(0), else: null };
              loop.body.push(guarded);
              (loop as { extent: Term }).extent = this.simp(addConst(loop.extent, warm), ctx);
              R.lo.forEach((t, p) => (R.lo[p] = this.simp(substTerm(t, new Map([[vn, shifted]])), ctx)));
              R.hi.forEach((t, p) => (R.hi[p] = this.simp(substTerm(t, new Map([[vn, shifted]])), ctx)));
            }
            computeLo = [...R.lo];
            computeHi = [...R.hi];
            computeLo[d] = this.simp(addConst(computeHi[d]!, 1n - stride), ctx);
          }
        }
      }
      for (const [dim] of folds) {
        const p = f.args.indexOf(dim);
        if (p < 0) schedError(`${f.name}.fold_storage(${dim}, …): '${dim}' is not an argument of ${f.name}`);
        if (p !== slid) schedError(`${f.name}.fold_storage(${dim}, …): storage folds only along the dimension of a sliding window (store_at an enclosing serial loop, compute_at the loop directly inside)`);
      }
      const exts = computeHi.map((h, p) => this.simp(addConst(sub(h, computeLo[p]!), 1n), ctx));
      const { code, written } = this.funcCode(f, computeLo, exts, ctx);
      // Storage: the hull of what is written over the loops between store and compute levels.
      const wl = written.lo.map((t, p) => minT(t, R.lo[p]!));
      const wh = written.hi.map((t, p) => maxT(t, R.hi[p]!));
      const loopsBetween = between.map((l) => ({ name: l.name, extent: l.extent }));
      const storeLo = wl.map((t) => this.simp(eliminate(t, loopsBetween).lo, ctx));
      const storeHi = wh.map((t) => this.simp(eliminate(t, loopsBetween).hi, ctx));
      const sExts = storeHi.map((h, p) => (foldOf[p] !== null ? constant(foldOf[p]!) : this.simp(addConst(sub(h, storeLo[p]!), 1n), ctx)));
      lv.body.unshift(...code);
      const inner = storeBody.splice(0);
      storeBody.push({ k: 'alloc', func: f.name, mins: storeLo, extents: sExts, fold: foldOf, body: inner });
    }
    if (placed === 0) schedError(`${f.name} is computed at a loop where no consumer reads it`);
  }

  // -- code generation ------------------------------------------------------------------------

  lowerAll(specName: string, implName: string): { spec: Spec; impl: Impl } {
    this.analyse();
    const f0 = this.a.output.func;
    const outCtx = bool(true);
    const { code, written } = this.funcCode(f0, f0.args.map(() => constant(0n)), this.a.output.extents, outCtx);
    // The output array is [0, extent): what the stages write must stay inside.
    f0.args.forEach((_, p) => {
      this.reqs.push({ t: written.lo[p]!, ctx: outCtx, why: `the output ${f0.name} is written below 0` });
      this.reqs.push({ t: sub(addConst(this.a.output.extents[p]!, -1n), written.hi[p]!), ctx: outCtx, why: `the output ${f0.name} is written past its extent` });
    });
    for (const u of f0.updates) {
      const fp = this.updateFootprint(f0, { lo: f0.args.map(() => constant(0n)), hi: this.a.output.extents.map((e) => addConst(e, -1n)) });
      f0.args.forEach((_, p) => {
        this.reqs.push({ t: fp.lo[p]!, ctx: outCtx, why: `an update of the output ${f0.name} writes below 0` });
        this.reqs.push({ t: sub(addConst(this.a.output.extents[p]!, -1n), fp.hi[p]!), ctx: outCtx, why: `an update of the output ${f0.name} writes past its extent` });
      });
      void u;
    }
    this.root.push(...code);
    for (const f of [...this.a.funcs].reverse()) {
      if (f === f0 || !this.reachable.has(f.name) || this.inline.has(f.name)) continue;
      this.place(f);
    }
    // Input arrays: the hull of every read (all loops eliminated), parameters only.
    const decls: ArrayDecl[] = [];
    const inputMins = new Map<string, Term[]>();
    for (const inp of this.a.inputs.values()) {
      const arity = inp.args.length;
      const reg = this.readRegion(this.root, inp.name, arity, false, this.bugs.has('input-halo-dropped'));
      if (reg === null) continue;
      inputMins.set(inp.name, reg.lo);
      const exts = reg.hi.map((h, p) => this.simp(addConst(sub(h, reg!.lo[p]!), 1n)));
      const zero = reg.lo.every((t) => constOf(t) === 0n);
      const names = declNames(arity, this.paramSet);
      decls.push({
        role: 'input',
        name: inputArray(inp.name),
        vars: zero ? null : names,
        elem: inp.type,
        dims: exts.map((e) => this.nonneg(e)),
        value: zero ? v(inp.name) : tensor(inp.name, names.map((n, p) => termToExpr(add(variable(n), reg!.lo[p]!)))),
        where: null,
        pos: NO_POS,
      });
    }
    decls.push({ role: 'output', name: outputArray(f0.name), vars: null, elem: f0.type, dims: this.a.output.extents.map((e) => termToExpr(e)), value: v(f0.name), where: null, pos: NO_POS });
    const scope = new Map<string, BufInst>();
    for (const [n, mins] of inputMins) scope.set(n, { array: inputArray(n), mins, fold: mins.map(() => null) });
    scope.set(f0.name, { array: outputArray(f0.name), mins: f0.args.map(() => constant(0n)), fold: f0.args.map(() => null) });
    const body = this.emitSeq(this.root, scope);
    const assumes = this.assumptions();
    this.checkNames(body);
    const spec = algorithmToSpec(this.a, specName);
    const impl: Impl = { name: implName, spec: specName, assumes, decls, body, pos: NO_POS };
    return { spec, impl };
  }

  /** `max(e, 0)` unless e is provably non-negative (empty hulls must not give negative sizes). */
  nonneg(e: Term, ctx: Formula = bool(true)): Expr {
    return termToExpr(provablyNonneg(e, this.boundsWith(ctx, termVars(e))) ? e : maxT(e, constant(0n)));
  }

  /** The implementation's assumptions: earlier facts, then requirements not provable from them. */
  readonly newFacts: Formula[] = [];

  assumptions(): Expr[] {
    const out: Expr[] = this.facts.map((f) => formulaToExpr(f));
    const seen = new Set<string>(this.facts.map((f) => f.key));
    for (const r of this.reqs) {
      const t = this.simp(r.t, r.ctx);
      const b = this.boundsWith(r.ctx, termVars(t));
      if (provablyNonneg(t, b)) continue;
      // Impossible where it is needed (a constant extent below the factor): reject, rather than
      // assume the branch away.
      if (decide(ge(t), b) === false) schedError(`${r.why}, which never holds`);
      for (const x of termVars(t)) if (!this.paramSet.has(x)) schedError(`cannot establish that ${r.why} (the extent depends on loop '${x}')`);
      const fact = r.ctx.kind === 'true' ? and(geZero(t)) : or(not(r.ctx), geZero(t));
      if (decide(fact, this.paramBounds) === false) schedError(`${r.why}, which never holds`);
      if (seen.has(fact.key)) continue;
      seen.add(fact.key);
      this.newFacts.push(fact);
      out.push(formulaToExpr(fact));
    }
    return out;
  }

  /** Drop facts implied (by bounds) by the spec's assumptions and the facts kept before them. */
  minimalFacts(fs: readonly Formula[]): Formula[] {
    const kept: Formula[] = [];
    for (const f of fs) {
      // Split conjunctions so that each single-parameter bound becomes usable on its own.
      const pieces = (x: Formula): Formula[] => (x.kind === 'and' ? x.args.flatMap(pieces) : [x]);
      for (const p of pieces(splitMinMax(f))) {
        const b = boundsFrom(kept, this.boundsWith(bool(true)));
        const g = simplifyFormula(p, b);
        if (g.kind === 'true' || kept.some((k) => k.key === g.key)) continue;
        kept.push(g);
      }
    }
    return kept;
  }

  checkNames(c: Cmd): void {
    const visit = (x: Cmd): void => {
      if ((x.kind === 'for' || x.kind === 'par') && this.paramSet.has(x.var)) schedError(`loop '${x.var}' has the name of a parameter`);
      if (x.kind === 'let' && this.paramSet.has(x.name)) schedError(`loop '${x.name}' has the name of a parameter`);
      if (x.kind === 'seq') x.cmds.forEach(visit);
      else if (x.kind === 'if') {
        visit(x.then);
        if (x.else) visit(x.else);
      } else if (x.kind === 'let' || x.kind === 'allocate' || x.kind === 'for' || x.kind === 'par') visit(x.body);
    };
    visit(c);
  }

  emitSeq(nodes: readonly Node[], scope: ReadonlyMap<string, BufInst>): Cmd {
    const cmds = nodes.map((n) => this.emit(n, scope));
    if (cmds.length === 0) return { kind: 'skip', pos: NO_POS };
    if (cmds.length === 1) return cmds[0]!;
    return { kind: 'seq', cmds, pos: NO_POS };
  }

  emit(n: Node, scope: ReadonlyMap<string, BufInst>): Cmd {
    switch (n.k) {
      case 'loop': {
        const body = this.emitSeq(n.body, scope);
        if (n.kind === 'unrolled') {
          const c = constOf(n.extent);
          if (c === null) schedError(`cannot unroll '${n.owner.user}': its extent is not constant`);
          const count = this.bugs.has('unroll-drop-last') && c > 1n ? c - 1n : c;
          const copies: Cmd[] = [];
          for (let k = 0n; k < count; k++) copies.push({ kind: 'let', name: n.name, value: int(k), body, pos: NO_POS });
          return copies.length === 0 ? { kind: 'skip', pos: NO_POS } : copies.length === 1 ? copies[0]! : { kind: 'seq', cmds: copies, pos: NO_POS };
        }
        return { kind: n.kind === 'serial' ? 'for' : 'par', var: n.name, bound: termToExpr(n.extent), body, pos: NO_POS };
      }
      case 'if': {
        const then = this.emitSeq(n.then, scope);
        const els = n.else === null ? null : this.emitSeq(n.else, scope);
        if (n.cond.kind === 'true') return then;
        if (n.cond.kind === 'false') return els ?? { kind: 'skip', pos: NO_POS };
        return { kind: 'if', cond: formulaToExpr(n.cond), then, else: els, pos: NO_POS };
      }
      case 'alloc': {
        const f = this.a.funcByName.get(n.func)!;
        const inner = new Map(scope);
        inner.set(n.func, { array: bufferArray(n.func), mins: n.mins, fold: n.fold });
        return { kind: 'allocate', name: bufferArray(n.func), elem: f.type as ValueType, dims: n.extents.map((e) => this.nonneg(e)), body: this.emitSeq(n.body, inner), pos: NO_POS };
      }
      case 'provide': {
        const f = this.a.funcByName.get(n.func)!;
        const at = (name: string, coords: readonly Term[]): Expr[] => {
          const inst = scope.get(name);
          if (inst === undefined) schedError(`${name} is read outside the loop where it is computed (compute_at a loop enclosing all its uses)`);
          return coords.map((c, p) => {
            const fold = inst.fold[p];
            return termToExpr(this.simp(fold != null ? modT(c, fold) : sub(c, inst.mins[p]!)));
          });
        };
        const lookup = (x: string): Term | undefined => n.env.get(x) ?? (this.paramSet.has(x) ? variable(x) : undefined);
        const rhs = rewrite(
          n.value,
          (x) => (n.env.has(x) ? termToExpr(n.env.get(x)!) : undefined),
          // Indices are converted from the original expressions (the env maps stage variables once).
          (name, _idx, original) => array(scope.get(name)?.array ?? name, at(name, original.map((e) => exprToTerm(e, lookup)))),
        );
        const annot = tensor(stageTensor(f, n.stage), [...n.coords, ...n.rvals].map((t) => termToExpr(t)));
        return { kind: 'assign', array: scope.get(n.func)?.array ?? bufferArray(n.func), indices: at(n.func, n.coords), annot, rhs, pos: NO_POS };
      }
    }
  }
}

interface BufInst {
  readonly array: string;
  readonly mins: readonly Term[];
  readonly fold: readonly (bigint | null)[];
}

interface PathStep {
  readonly node: Node;
  readonly branch: 'body' | 'then' | 'else';
}

/** Substitute a loop counter in every term of a subtree (loop rewinding). */
function substTree(nodes: Node[], name: string, by: Term): void {
  const m = new Map([[name, by]]);
  const st = (t: Term): Term => substTerm(t, m);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    switch (n.k) {
      case 'loop':
        nodes[i] = { ...n, extent: st(n.extent) };
        substTree(n.body, name, by);
        break;
      case 'if':
        nodes[i] = { ...n, cond: substFormula(n.cond, m) };
        substTree(n.then, name, by);
        if (n.else) substTree(n.else, name, by);
        break;
      case 'alloc':
        nodes[i] = { ...n, mins: n.mins.map(st), extents: n.extents.map(st) };
        substTree(n.body, name, by);
        break;
      case 'provide':
        nodes[i] = { ...n, env: new Map([...n.env].map(([k, t]) => [k, st(t)])), coords: n.coords.map(st), rvals: n.rvals.map(st) };
        break;
    }
  }
}

/** The conditions of the `if`s (specialisations) on a path. */
function pathContext(path: readonly PathStep[]): Formula {
  const fs: Formula[] = [];
  for (const st of path) if (st.node.k === 'if') fs.push(st.branch === 'then' ? st.node.cond : not(st.node.cond));
  return andAll(fs);
}

function geZero(t: Term): Formula {
  return ge(t);
}

/** Bounds of t over loops [0, extent) (innermost last in `loops`, eliminated first). */
function eliminate(t: Term, loops: readonly { name: string; extent: Term }[]): { lo: Term; hi: Term } {
  let lo = t;
  let hi = t;
  for (let i = loops.length - 1; i >= 0; i--) {
    const l = loops[i]!;
    const top = addConst(l.extent, -1n);
    lo = rangeOver(lo, l.name, constant(0n), top).lo;
    hi = rangeOver(hi, l.name, constant(0n), top).hi;
  }
  return { lo, hi };
}

function declNames(arity: number, params: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < arity; i++) {
    let n = `i${i}`;
    while (params.has(n)) n = `_${n}`;
    out.push(n);
  }
  return out;
}

function parseCond(text: string): Expr {
  try {
    return parseExpr('specialize', text);
  } catch (e) {
    if (e instanceof SchedInputError) schedError(`specialize(${text}): cannot parse the condition`);
    throw e;
  }
}

/** Lower an algorithm with a schedule: the SARE spec and the annotated implementation. */
export function lower(alg: Algorithm, sched: Schedule, opts: LowerOptions = {}): LowerResult {
  const a = checkAlgorithm(alg);
  const specName = opts.specName ?? a.alg.name ?? 'pipeline';
  const implName = opts.implName ?? `${specName}_impl`;
  let r: { spec: Spec; impl: Impl };
  // Requirements found while lowering (ShiftInwards needs extent ≥ factor, …) become assumptions
  // of the implementation; lowering again with them known simplifies the bounds they imply.
  let facts: Formula[] = [];
  for (let pass = 0; ; pass++) {
    const L = new Lowerer(a, sched ?? { funcs: {} }, new Set(opts.bugs ?? []), facts);
    try {
      r = L.lowerAll(specName, implName);
    } catch (e) {
      if (e instanceof IndexError) throw new LowerError(e.message, 'schedule');
      throw e;
    }
    if (L.newFacts.length === 0 || pass >= 3) break;
    facts = L.minimalFacts([...facts, ...L.newFacts]);
  }
  const program: Program = { file: `${specName}.sched`, specs: [r.spec], impls: [r.impl] };
  return { program, spec: r.spec, impl: r.impl, text: printProgram(program) };
}
