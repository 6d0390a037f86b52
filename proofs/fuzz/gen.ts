// Random Halide-style algorithms and schedules for `sched fuzz` (fast-check arbitraries). A case
// is drawn as a *recipe* of small integers and built deterministically into an algorithm and a
// schedule, so that fast-check's shrinking of the integers (towards 0: fewer Funcs, fewer
// updates, fewer directives, offset 0, the first operator) gives smaller, simpler cases. The
// schedule builder simulates the loop names of every stage so that directives name real loops;
// whatever the reference compiler still rejects (ShiftInwards on a too small constant extent, …)
// is redrawn by the harness.

import fc from 'fast-check';
import type { ValueType } from '../../core/language/ast.ts';
import type { Algorithm, AlgFunc, AlgUpdate } from '../../compilers/algorithm/algorithm.ts';
import type { Directive, FuncSchedule, LoopRef, Schedule, StageSchedule, Tail } from '../../compilers/algorithm/schedule.ts';

export type Profile = 'smoke' | 'full';

export interface FuzzCase {
  readonly alg: Algorithm;
  readonly sched: Schedule;
}

// ---------------------------------------------------------------------------------------------
// Recipes

interface TermR {
  readonly src: number;
  readonly offs: readonly number[];
  readonly op: number;
  readonly scale: number;
}
interface UpdateR {
  readonly kind: number;
  readonly ext: number;
  readonly src: number;
  readonly offs: readonly number[];
  readonly useR: number;
  readonly filter: number;
  readonly op: number;
}
interface FuncR {
  readonly terms: readonly TermR[];
  readonly updates: readonly UpdateR[];
}
interface AlgR {
  readonly dims: number;
  readonly type: number;
  readonly funcs: readonly FuncR[];
}
interface DirR {
  readonly op: number;
  readonly a: number;
  readonly b: number;
  readonly factor: number;
  readonly tail: number;
}
interface StageR {
  readonly dirs: readonly DirR[];
  readonly spec: { readonly cond: number; readonly dirs: readonly DirR[] } | null;
}
interface FuncSchedR {
  readonly compute: number;
  readonly at: number;
  readonly store: number;
  readonly stages: readonly StageR[];
}
export interface Recipe {
  readonly alg: AlgR;
  readonly sched: readonly FuncSchedR[];
}

const small = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });

function termR(): fc.Arbitrary<TermR> {
  return fc.record({ src: small(5), offs: fc.array(fc.integer({ min: -1, max: 2 }), { minLength: 2, maxLength: 2 }), op: small(3), scale: small(3) });
}

function updateR(): fc.Arbitrary<UpdateR> {
  return fc.record({ kind: small(3), ext: small(2), src: small(5), offs: fc.array(fc.integer({ min: -1, max: 1 }), { minLength: 2, maxLength: 2 }), useR: small(2), filter: small(2), op: small(2) });
}

function dirR(): fc.Arbitrary<DirR> {
  return fc.record({ op: small(7), a: small(7), b: small(7), factor: small(3), tail: small(3) });
}

export function recipeArb(profile: Profile): fc.Arbitrary<Recipe> {
  const smoke = profile === 'smoke';
  const funcR = fc.record({
    terms: fc.array(termR(), { minLength: 1, maxLength: smoke ? 2 : 3 }),
    updates: fc.array(updateR(), { maxLength: smoke ? 1 : 2 }),
  });
  const alg = fc.record({
    dims: fc.integer({ min: 1, max: smoke ? 1 : 2 }),
    type: small(3),
    funcs: fc.array(funcR, { minLength: 1, maxLength: smoke ? 2 : 3 }),
  });
  const stage = fc.record({
    dirs: fc.array(dirR(), { maxLength: 2 }),
    // A specialisation on about one stage in eight (null first: shrinking removes it).
    spec: fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.record({ cond: small(3), dirs: fc.array(dirR(), { minLength: 1, maxLength: 2 }) }) }),
  });
  const fsched = fc.record({ compute: small(3), at: small(7), store: small(3), stages: fc.array(stage, { maxLength: 3 }) });
  return fc.record({ alg, sched: fc.array(fsched, { minLength: 3, maxLength: 3 }) });
}

// ---------------------------------------------------------------------------------------------
// Building the algorithm

const FUNC_NAMES = ['P', 'Q', 'S'];

export function buildAlgorithm(r: AlgR): Algorithm {
  const dims = r.dims;
  // Mostly integers (exact, fast to verify); some floats.
  const type: ValueType = r.type === 3 ? 'f32' : 'i32';
  const lit = (n: number): string => (type === 'f32' ? `${n}.0` : `${n}`);
  const args = dims === 1 ? ['x'] : ['x', 'y'];
  const n = r.funcs.length;
  const names = r.funcs.map((_, i) => (i === n - 1 ? 'F' : FUNC_NAMES[i]!));
  const params = ['N', ...(dims === 2 ? ['M'] : [])];
  let usesK = false;
  let usesW = false;
  const ops = type === 'f32' ? ['+', '-', '*', 'min'] : ['+', '-', '*', 'max'];
  const combine = (op: string, a: string, b: string): string => (op === 'max' || op === 'min' ? `${op}(${a}, ${b})` : `${a} ${op} ${b}`);
  const idx = (base: readonly string[], offs: readonly number[]): string =>
    base.map((v, p) => {
      const o = offs[p] ?? 0;
      return o === 0 ? v : o > 0 ? `${v} + ${o}` : `${v} - ${-o}`;
    }).join(', ');
  const funcs: AlgFunc[] = r.funcs.map((f, i) => {
    const sources = ['A', ...names.slice(0, i)];
    const read = (t: { src: number; offs: readonly number[] }, base: readonly string[] = args): string => `${sources[t.src % sources.length]}(${idx(base, t.offs)})`;
    let pure = '';
    f.terms.forEach((t, k) => {
      let e = read(t);
      if (t.scale > 1) e = `${e} * ${lit(t.scale)}`;
      pure = k === 0 ? e : combine(ops[t.op % ops.length]!, pure, e);
    });
    const self = `${names[i]}(${args.join(', ')})`;
    const updates: AlgUpdate[] = f.updates.map((u) => {
      // 0, 1: one reduction variable; 2: no reduction domain; 3: two (rarer: slow to verify).
      const kind = [0, 0, 2, 1][u.kind % 4]!;
      if (kind === 2) {
        // No reduction domain: a pointwise update of the whole Func.
        const t = read(u);
        return { lhs: args, rhs: u.op === 0 ? `${self} * ${lit(3)} + ${t}` : combine(ops[3]!, self, t) };
      }
      const extent = u.ext === 0 ? 'K' : u.ext === 1 ? '2' : '3';
      if (extent === 'K') usesK = true;
      if (kind === 1) {
        // Two reduction variables, a non-commutative accumulation: the order matters.
        const rx = [`${args[0]} + rx`, ...args.slice(1)];
        return { lhs: args, rhs: `${self} * ${lit(2)} + A(${rx.join(', ')})`, rdom: [{ var: 'rx', min: '0', extent: '2' }, { var: 'ry', min: '0', extent }], where: u.filter === 1 ? 'rx != ry' : null };
      }
      let t: string;
      if (u.useR === 0) {
        usesW = true;
        t = `W(${[...args, 'r'].join(', ')})`;
      } else {
        const base = [`${args[0]} + r`, ...args.slice(1)];
        t = read(u, base);
      }
      const rhs = u.op === 1 ? `${self} * ${lit(2)} + ${t}` : `${self} + ${t}`;
      // (A filter like r <= x makes copy chains of parametric length: the verifier cannot
      // follow them, so the generator keeps to filters with short chains.)
      const where = u.filter === 1 ? 'r % 2 == 0' : null;
      return { lhs: args, rhs, rdom: [{ var: 'r', min: '0', extent }], where };
    });
    return { name: names[i]!, args, type, pure, updates };
  });
  if (usesK) params.push('K');
  const inputs = [{ name: 'A', args, type }];
  if (usesW) inputs.push({ name: 'W', args: [...args, 'r'], type });
  const assumes = [params.map((p) => `${p} >= 0`).join(' && ')];
  return { name: 'fz', params, assumes, inputs, funcs, output: { func: 'F', extents: dims === 1 ? ['N'] : ['N', 'M'] } };
}

// ---------------------------------------------------------------------------------------------
// Building the schedule

interface SimDim {
  name: string;
  rvar: boolean;
  constExt: boolean;
  /** Made by a split: not split again (nested splits of one variable give nested min/floor
   *  terms that the verifier often cannot decide; Halide schedules rarely do it either). */
  split?: boolean;
}

const FACTORS = [2, 3, 4, 8];

/** Loops of a stage before any directive (outermost first), as the compiler builds them. */
function initialDims(f: AlgFunc, s: number): SimDim[] {
  if (s === 0) return [...f.args].reverse().map((name) => ({ name, rvar: false, constExt: false }));
  const u = f.updates![s - 1]!;
  const rv = (u.rdom ?? []).map((r) => ({ name: r.var, rvar: true, constExt: /^\d+$/.test(r.extent) }));
  const pv = [...f.args].map((name) => ({ name, rvar: false, constExt: false }));
  return [...pv.reverse(), ...rv.reverse()];
}

function applyDir(dims: SimDim[], d: DirR, update: boolean, out: Directive[]): void {
  const fresh = (base: string): string => {
    let k = 0;
    let nm = base;
    while (dims.some((x) => x.name === nm)) nm = `${base}${++k}`;
    return nm;
  };
  const pure = dims.filter((x) => !x.rvar);
  const unsplit = dims.filter((x) => !x.split);
  const factor = FACTORS[d.factor % FACTORS.length]!;
  const tails: Tail[] = update ? ['Auto', 'GuardWithIf'] : ['Auto', 'ShiftInwards', 'GuardWithIf', 'RoundUp'];
  const splitOf = (v: SimDim, o: string, inn: string): void => {
    dims.splice(dims.indexOf(v), 1, { name: o, rvar: v.rvar, constExt: false, split: true }, { name: inn, rvar: v.rvar, constExt: true, split: true });
  };
  switch (d.op % 8) {
    case 0:
    case 7: {
      if (unsplit.length === 0) return;
      const v = unsplit[d.a % unsplit.length]!;
      const o = fresh(`${v.name}o`);
      const inn = fresh(`${v.name}i`);
      const tail = d.op % 8 === 7 || v.rvar ? 'GuardWithIf' : tails[d.tail % tails.length]!;
      out.push({ op: 'split', var: v.name, outer: o, inner: inn, factor, tail });
      splitOf(v, o, inn);
      break;
    }
    case 1: {
      if (pure.length === 0) return;
      out.push({ op: 'parallel', var: pure[d.a % pure.length]!.name });
      break;
    }
    case 2: {
      if (dims.length < 2) return;
      const i = d.a % dims.length;
      let j = d.b % dims.length;
      if (j === i) j = (i + 1) % dims.length;
      // Swapping two reduction loops would change the reduction order: the compiler rejects it.
      if (dims[i]!.rvar && dims[j]!.rvar) return;
      const [p, q] = i < j ? [i, j] : [j, i];
      out.push({ op: 'reorder', vars: [dims[p]!.name, dims[q]!.name] });
      const t = dims[p]!;
      dims[p] = dims[q]!;
      dims[q] = t;
      break;
    }
    case 3:
    case 4: {
      const vect = d.op % 8 === 3;
      // A constant-extent loop (the inner loop of a split) as it is; else split an unsplit one.
      const consts = dims.filter((x) => x.constExt && (!vect || !x.rvar));
      if (consts.length > 0 && d.b % 3 !== 0) {
        out.push({ op: vect ? 'vectorize' : 'unroll', var: consts[d.a % consts.length]!.name });
        return;
      }
      const pool = unsplit.filter((x) => !vect || !x.rvar);
      if (pool.length === 0) return;
      const v = pool[d.a % pool.length]!;
      const f = Math.min(factor, 4);
      const tail = v.rvar ? 'GuardWithIf' : tails[d.tail % tails.length]!;
      const inner = `${v.name}_${vect ? 'vi' : 'ui'}`;
      if (dims.some((x) => x.name === inner)) return;
      out.push({ op: vect ? 'vectorize' : 'unroll', var: v.name, factor: f, tail });
      splitOf(v, v.name, inner);
      break;
    }
    case 5: {
      const cands: number[] = [];
      for (let k = 0; k + 1 < dims.length; k++) if (dims[k + 1]!.constExt && dims[k]!.rvar === dims[k + 1]!.rvar) cands.push(k);
      if (cands.length === 0) return;
      const k = cands[d.a % cands.length]!;
      const name = fresh(`${dims[k]!.name}${dims[k + 1]!.name}`);
      out.push({ op: 'fuse', inner: dims[k + 1]!.name, outer: dims[k]!.name, fused: name });
      dims.splice(k, 2, { name, rvar: dims[k]!.rvar, constExt: false, split: true });
      break;
    }
    case 6: {
      const up = unsplit.filter((x) => !x.rvar);
      if (up.length < 2) return;
      const x = up[up.length - 1]!;
      const y = up[up.length - 2]!;
      const fy = FACTORS[d.b % FACTORS.length]!;
      const names = [fresh(`${x.name}o`), fresh(`${y.name}o`), fresh(`${x.name}i`), fresh(`${y.name}i`)];
      if (new Set(names).size < 4) return;
      const tail = tails[d.tail % tails.length]!;
      out.push({ op: 'tile', x: x.name, y: y.name, xo: names[0]!, yo: names[1]!, xi: names[2]!, yi: names[3]!, xFactor: factor, yFactor: fy, tail });
      // split x, split y, then reorder(xi, yi, xo, yo) over the four positions they occupy.
      splitOf(x, names[0]!, names[2]!);
      splitOf(y, names[1]!, names[3]!);
      const pos = [names[0]!, names[1]!, names[2]!, names[3]!].map((n) => dims.findIndex((q) => q.name === n)).sort((a, b) => a - b);
      const byName = new Map(dims.map((q) => [q.name, q] as const));
      [names[1]!, names[0]!, names[3]!, names[2]!].forEach((n, k) => (dims[pos[k]!] = byName.get(n)!));
      break;
    }
  }
}

const SPEC_CONDS = ['N >= 8', 'N >= 4', 'N >= 16', 'N % 2 == 0'];

/** Directives and final loop names of every stage (generic branch, and the names common to all). */
function simulateStage(f: AlgFunc, s: number, r: StageR | undefined): { sched: StageSchedule; common: string[]; order: string[] } {
  const dims = initialDims(f, s);
  const directives: Directive[] = [];
  for (const d of r?.dirs ?? []) applyDir(dims, d, s > 0, directives);
  let specializations: StageSchedule['specializations'];
  let common = dims.map((d) => d.name);
  if (r?.spec) {
    const sd = dims.map((d) => ({ ...d }));
    const extra: Directive[] = [];
    for (const d of r.spec.dirs) applyDir(sd, d, s > 0, extra);
    if (extra.length > 0) {
      specializations = [{ cond: SPEC_CONDS[r.spec.cond % SPEC_CONDS.length]!, directives: extra }];
      common = common.filter((n) => sd.some((d) => d.name === n));
    }
  }
  return { sched: { directives, ...(specializations ? { specializations } : {}) }, common, order: dims.map((d) => d.name) };
}

/** Which stages of which Funcs read `name`, through inline Funcs. */
function readersOf(alg: Algorithm, name: string, inline: ReadonlySet<string>): { func: string; stage: number }[] {
  const reads = (text: string, target: string, seen = new Set<string>()): boolean => {
    if (new RegExp(`\\b${target}\\(`).test(text)) return true;
    for (const g of inline) {
      if (seen.has(g) || !new RegExp(`\\b${g}\\(`).test(text)) continue;
      seen.add(g);
      const gf = alg.funcs.find((x) => x.name === g)!;
      if (reads(gf.pure, target, seen)) return true;
    }
    return false;
  };
  const out: { func: string; stage: number }[] = [];
  for (const c of alg.funcs) {
    if (c.name === name || inline.has(c.name)) continue;
    const texts = [c.pure, ...(c.updates ?? []).map((u) => u.rhs)];
    texts.forEach((t, s) => {
      if (reads(t, name)) out.push({ func: c.name, stage: s });
    });
  }
  return out;
}

export function buildSchedule(alg: Algorithm, r: readonly FuncSchedR[]): Schedule {
  const funcs: Record<string, FuncSchedule> = {};
  const stages = new Map<string, { sched: StageSchedule; common: string[]; order: string[] }[]>();
  alg.funcs.forEach((f, i) => {
    const fr = r[i];
    const n = 1 + (f.updates?.length ?? 0);
    const list = [];
    for (let s = 0; s < n; s++) list.push(simulateStage(f, s, fr?.stages[s]));
    stages.set(f.name, list);
  });
  const inline = new Set<string>();
  const out = alg.output.func;
  // From the output backwards: a producer's consumers have their placement decided already.
  for (let i = alg.funcs.length - 1; i >= 0; i--) {
    const f = alg.funcs[i]!;
    const fr = r[i];
    const fs: { compute?: FuncSchedule['compute']; store?: FuncSchedule['store']; stages?: StageSchedule[] } = {};
    const hasUpdates = (f.updates?.length ?? 0) > 0;
    let inl = false;
    if (f.name !== out && fr) {
      const c = fr.compute % 4;
      if (c === 0 || c === 3) inl = !hasUpdates;
      if (c === 1 || (c === 0 && hasUpdates) || (c === 3 && hasUpdates)) fs.compute = 'root';
      if (c === 2) {
        const readers = readersOf(alg, f.name, inline);
        if (readers.length === 1) {
          const rd = readers[0]!;
          const st = stages.get(rd.func)![rd.stage]!;
          if (st.common.length > 0) {
            const v = st.common[fr.at % st.common.length]!;
            const ref: LoopRef = { func: rd.func, stage: rd.stage, var: v };
            fs.compute = ref;
            const k = st.order.indexOf(v);
            if (fr.store % 4 === 1 && k > 0 && st.common.includes(st.order[k - 1]!)) fs.store = { func: rd.func, stage: rd.stage, var: st.order[k - 1]! };
            else if (fr.store % 4 === 2) fs.store = 'root';
          } else fs.compute = 'root';
        } else fs.compute = 'root';
      }
    } else if (f.name !== out) inl = !hasUpdates;
    if (inl) {
      inline.add(f.name);
      fs.compute = 'inline';
    } else {
      const st = stages.get(f.name)!.map((x) => x.sched);
      if (st.some((x) => (x.directives?.length ?? 0) > 0 || x.specializations)) fs.stages = st;
    }
    if (Object.keys(fs).length > 0) funcs[f.name] = fs as FuncSchedule;
  }
  return { funcs };
}

export function buildCase(r: Recipe): FuzzCase {
  const alg = buildAlgorithm(r.alg);
  return { alg, sched: buildSchedule(alg, r.sched) };
}
