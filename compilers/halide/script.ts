// The Python Halide 14 script of an algorithm and schedule of `sched lower` / `sched fuzz`
// (compilers/algorithm/algorithm.ts, compilers/algorithm/schedule.ts), in the convention `sched halide` accepts
// (docs/halide.md): a `pipeline()` returning the output, the Funcs, the arguments, an `example`
// for the JIT oracle and the algorithm's assumptions. Directives are written out so that Halide
// runs the schedule our language means, not Halide's defaults: tails are explicit (our `Auto` is
// ShiftInwards on pure stages and GuardWithIf on updates, Halide's is RoundUp on updates),
// `vectorize(x, n)` is the split it stands for (later directives name `x_vi`), `compute_at` names
// the consumer's stage (Halide's default is the last one), and Funcs with updates are computed at
// the root unless scheduled otherwise (Halide would try to inline them). What Halide cannot say
// the same way is refused with ScriptUnsupported: never a silently different schedule.

import type { Expr, FloatLit, ValueType } from '../../core/language/ast.ts';
import { type Algorithm, checkAlgorithm, type CheckedAlgorithm, tensorReads } from '../algorithm/algorithm.ts';
import type { Directive, LoopRef, Schedule, Tail } from '../algorithm/schedule.ts';
import { parseExpr } from '../../core/language/parser.ts';
import { termToExpr } from '../algorithm/terms.ts';

/** The algorithm or schedule has no faithful Halide 14 script. */
export class ScriptUnsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptUnsupported';
  }
}

/**
 * Input buffers of the script: every dimension starts at INPUT_MIN and has extent
 * (sum of the parameters) + INPUT_PAD. Fixed shapes (not free buffer fields) so that the
 * translated program has the algorithm's parameters only; Halide's asserts that the inputs
 * cover what the pipeline reads become assumptions on those parameters.
 */
export const INPUT_MIN = -16;
export const INPUT_PAD = 48;

/** The extent of every input dimension, as an expression over the algorithm's parameters. */
export function inputExtent(alg: Algorithm): string {
  return [...alg.params, String(INPUT_PAD)].join(' + ');
}

const HL_TYPE: Partial<Record<ValueType, string>> = {
  i8: 'hl.Int(8)', i16: 'hl.Int(16)', i32: 'hl.Int(32)', i64: 'hl.Int(64)',
  u8: 'hl.UInt(8)', u16: 'hl.UInt(16)', u32: 'hl.UInt(32)', u64: 'hl.UInt(64)',
  f32: 'hl.Float(32)', f64: 'hl.Float(64)',
};

function hlType(t: ValueType): string {
  const s = HL_TYPE[t];
  if (s === undefined) throw new ScriptUnsupported(`type ${t} has no Halide counterpart here`);
  return s;
}

/** Python identifiers of the script for the names of the algorithm. */
const py = {
  func: (n: string): string => `f_${n}`,
  input: (n: string): string => `in_${n}`,
  param: (n: string): string => `p_${n}`,
  var: (n: string): string => `v_${n}`,
  rvar: (n: string): string => `rv_${n}`,
};

interface Names {
  /** Algorithm variable → Python expression (Vars, RVars, parameters); `read:F` → the Func or input. */
  readonly vars: ReadonlyMap<string, string>;
}

/** An expression as Python Halide code; `t`: the value type (null: an index, plain ints). */
function pyExpr(e: Expr, n: Names, t: ValueType | null): string {
  const go = (x: Expr, tt: ValueType | null = t): string => pyExpr(x, n, tt);
  switch (e.kind) {
    case 'int':
      return t === null || t === 'bool' ? e.value.toString() : `hl.cast(${hlType(t)}, ${e.value.toString()})`;
    case 'float':
      if (t !== 'f32' && t !== 'f64') throw new ScriptUnsupported(`float literal ${e.value} in a ${t ?? 'index'} context`);
      return `hl.cast(${hlType(t)}, ${JSON.stringify(e.value)})`;
    case 'bool':
      return e.value ? 'hl.Expr(True)' : 'hl.Expr(False)';
    case 'var': {
      const v = n.vars.get(e.name);
      if (v === undefined) throw new ScriptUnsupported(`unknown variable '${e.name}'`);
      return v;
    }
    case 'tensor': {
      const target = n.vars.get(`read:${e.name}`);
      if (target === undefined) throw new ScriptUnsupported(`read of unknown '${e.name}'`);
      return `${target}[${e.indices.map((i) => go(i, null)).join(', ')}]`;
    }
    case 'binary': {
      const idx = ['==', '!=', '<', '<=', '>', '>='].includes(e.op);
      const logic = e.op === '&&' || e.op === '||';
      // Comparisons take their operands' type: an index comparison when both sides are indices.
      const opT = logic ? 'bool' : idx ? (t === 'bool' ? null : t) : t;
      const l = go(e.left, opT);
      const r = go(e.right, opT);
      switch (e.op) {
        case '+':
        case '-':
        case '*':
        case '==':
        case '!=':
        case '<':
        case '<=':
        case '>':
        case '>=':
          return `(${l} ${e.op} ${r})`;
        case '/':
          // Halide's / on integers is Euclidean with x / 0 = 0, like SCHED's; IEEE on floats.
          return `(${l} / ${r})`;
        case '%':
          // Halide's % on integers is Euclidean with x % 0 = 0, like SCHED's (no float %).
          if (t === 'f32' || t === 'f64') throw new ScriptUnsupported(`'%' on ${t} values`);
          return `(${l} % ${r})`;
        case '&&':
          return `(${l} & ${r})`;
        case '||':
          return `(${l} | ${r})`;
        default:
          throw new ScriptUnsupported(`operator '${(e as { op: string }).op}'`);
      }
    }
    case 'unary':
      // Halide's float negation is `0.0f - x` (IROperator.cpp), which is +0.0 at x = +0.0; SCHED's
      // flips the sign. A product by -1 flips it exactly at every value (strict_float keeps it).
      if (e.op === '-' && (t === 'f32' || t === 'f64')) return `(${go(e.arg)} * hl.${t}(-1))`;
      if (e.op === '-') return `(-${go(e.arg)})`;
      throw new ScriptUnsupported(`operator '${e.op}'`);
    case 'call':
      if ((e.fn === 'min' || e.fn === 'max') && e.args.length === 2) return `hl.${e.fn}(${go(e.args[0]!)}, ${go(e.args[1]!)})`;
      if (e.fn in HL_TYPE && e.args.length === 1) {
        const a = e.args[0]!;
        // A literal: Halide's constant of the type (a cast folds it the same way: integers wrap).
        if (a.kind === 'float' || (a.kind === 'unary' && a.op === '-' && a.arg.kind === 'float')) {
          // An f32 literal is its binary32 (FloatLit.f32 where rounding through binary64 differs).
          const lit = (a.kind === 'float' ? a : a.arg) as FloatLit;
          const abs = e.fn === 'f32' && lit.f32 !== undefined ? lit.f32.value : lit.value;
          const v = a.kind === 'float' ? abs : -abs;
          if (e.fn === 'f32' || e.fn === 'f64') return `hl.${e.fn}(${JSON.stringify(v)})`;
          throw new ScriptUnsupported(`a float literal cast to ${e.fn}`);
        }
        // A value of another type: its own type comes from the expression (null: an index).
        const from = valueTypeOf(a);
        return `hl.cast(${hlType(e.fn as ValueType)}, ${go(a, from)})`;
      }
      // SCHED's bool(e) is e != 0; Halide's cast to bool keeps the low bit: not the same cast.
      if (e.fn === 'bool') throw new ScriptUnsupported("bool(e) (Halide's cast to bool keeps the low bit)");
      throw new ScriptUnsupported(`function '${e.fn}' (no Halide counterpart with the same semantics is mapped)`);
    case 'select':
      return `hl.select(${go(e.cond, 'bool')}, ${go(e.then)}, ${go(e.else)})`;
    default:
      throw new ScriptUnsupported(`expression kind '${e.kind}'`);
  }
}

/** An affine condition on parameters in Halide's IR spelling (the driver's `assume`). */
function halideCond(e: Expr, names: ReadonlyMap<string, string>): string {
  const go = (x: Expr): string => halideCond(x, names);
  switch (e.kind) {
    case 'int':
      return e.value.toString();
    case 'bool':
      return e.value ? '(1 == 1)' : '(1 == 0)';
    case 'var': {
      const v = names.get(e.name);
      if (v === undefined) throw new ScriptUnsupported(`assumption on unknown '${e.name}'`);
      return v;
    }
    case 'binary':
      return `(${go(e.left)} ${e.op} ${go(e.right)})`;
    case 'unary':
      return e.op === '-' ? `(0 - ${go(e.arg)})` : `!(${go(e.arg)})`;
    default:
      throw new ScriptUnsupported(`assumption with a ${e.kind}`);
  }
}

/**
 * A Func's value. Floats are strict_float: SCHED rounds every f32 operation as written, and
 * Halide's simplifier otherwise reassociates and factors float arithmetic (a*3 + b*3 → (a + b)*3)
 * and fuses multiply-adds. (Int(32) has no such mapping: Halide assumes it never overflows, SCHED
 * wraps; see docs/halide.md.)
 */
function value(py: string, t: ValueType): string {
  return t === 'f32' || t === 'f64' ? `hl.strict_float(${py})` : py;
}

/** Conditions (assumptions, specialisations) are in the SCHED expression syntax, as in the algorithm. */
function parseCond(text: string): Expr {
  return parseExpr('condition', text);
}

interface StageNames {
  /** Loop names of the stage that are RVars (the reduction variables and what splits make of them). */
  readonly rvars: Set<string>;
}

/** `.split(...)`, `.tile(...)`, … for one directive, tails made explicit. */
function directive(d: Directive, stage: number, st: StageNames, decl: (name: string, rvar: boolean) => string): string {
  const tailFor = (v: string, t: Tail | undefined): string => {
    const rv = st.rvars.has(v);
    // Our Auto (compilers/reference/nest.ts): ShiftInwards on a pure stage, GuardWithIf on updates and RVars.
    const tail = t === undefined || t === 'Auto' ? (rv || stage > 0 ? 'GuardWithIf' : 'ShiftInwards') : t;
    return `hl.TailStrategy.${tail}`;
  };
  const ref = (v: string): string => decl(v, st.rvars.has(v));
  const fresh = (v: string, from: string): string => {
    if (st.rvars.has(from)) st.rvars.add(v);
    return decl(v, st.rvars.has(from));
  };
  switch (d.op) {
    case 'split': {
      const tail = tailFor(d.var, d.tail);
      return `.split(${ref(d.var)}, ${fresh(d.outer, d.var)}, ${fresh(d.inner, d.var)}, ${d.factor}, ${tail})`;
    }
    case 'fuse':
      if (st.rvars.has(d.inner) !== st.rvars.has(d.outer)) throw new ScriptUnsupported(`fuse of a Var and an RVar (${d.inner}, ${d.outer})`);
      return `.fuse(${ref(d.inner)}, ${ref(d.outer)}, ${fresh(d.fused, d.inner)})`;
    case 'reorder':
      return `.reorder(${d.vars.map(ref).join(', ')})`;
    case 'tile': {
      const tx = tailFor(d.x, d.tail);
      const ty = tailFor(d.y, d.tail);
      if (tx !== ty) throw new ScriptUnsupported(`tile(${d.x}, ${d.y}) of a Var and an RVar: one tail in Halide, two in ours`);
      return `.tile(${ref(d.x)}, ${ref(d.y)}, ${fresh(d.xo, d.x)}, ${fresh(d.yo, d.y)}, ${fresh(d.xi, d.x)}, ${fresh(d.yi, d.y)}, ${d.xFactor}, ${d.yFactor}, ${tx})`;
    }
    case 'parallel':
    case 'serial':
      return `.${d.op}(${ref(d.var)})`;
    case 'vectorize':
    case 'unroll': {
      if (d.factor === undefined) return `.${d.op}(${ref(d.var)})`;
      // Halide's vectorize(x, n) is split(x, x, <anonymous>, n).vectorize(<anonymous>); ours names
      // the inner loop x_vi / x_ui, which later directives may use.
      const inner = `${d.var}_${d.op === 'vectorize' ? 'vi' : 'ui'}`;
      const tail = tailFor(d.var, d.tail);
      return `.split(${ref(d.var)}, ${ref(d.var)}, ${fresh(inner, d.var)}, ${d.factor}, ${tail}).${d.op}(${ref(inner)})`;
    }
  }
}

/** The Python Halide script (`sched halide` convention) of an algorithm and a schedule. */
export function halideScript(alg: Algorithm, sched: Schedule): string {
  const ca: CheckedAlgorithm = checkAlgorithm(alg);
  const out = ca.output.func;
  const lines: string[] = [];
  const emit = (s: string, depth = 1): void => {
    lines.push(`${'    '.repeat(depth)}${s}`);
  };
  const vars = new Map<string, string>();
  const halideNames = new Map<string, string>();
  // Output extents are the output buffer's; the other parameters are Int(32) Params.
  const outExtent = new Map<string, number>();
  ca.output.extentExprs.forEach((e, k) => {
    if (e.kind !== 'var' || !alg.params.includes(e.name) || outExtent.has(e.name)) throw new ScriptUnsupported(`output extent ${k} must be a parameter of its own (Halide's output buffer extent)`);
    outExtent.set(e.name, k);
  });
  for (const p of alg.params) {
    const k = outExtent.get(p);
    vars.set(p, k === undefined ? py.param(p) : `${py.func(out.name)}.output_buffer().dim(${k}).extent()`);
    halideNames.set(p, k === undefined ? p : `${out.name}.extent.${k}`);
  }
  for (const i of ca.inputs.values()) vars.set(`read:${i.name}`, py.input(i.name));
  for (const f of ca.funcs) vars.set(`read:${f.name}`, py.func(f.name));

  lines.push(`# Generated by sched (compilers/halide/script.ts) from the algorithm '${alg.name}' and its schedule.`);
  lines.push('# Inputs are realised over a fixed shape: every dimension starts at ' + `${INPUT_MIN}, extent ${inputExtent(alg)}.`);
  lines.push('import halide as hl', '', '', 'def pipeline():');
  for (const i of ca.inputs.values()) emit(`${py.input(i.name)} = hl.ImageParam(${hlType(i.type)}, ${i.args.length}, ${JSON.stringify(i.name)})`);
  for (const p of alg.params) if (!outExtent.has(p)) emit(`${py.param(p)} = hl.Param(hl.Int(32), ${JSON.stringify(p)})`);
  const allVars = new Set<string>();
  for (const f of ca.funcs) for (const a of f.args) allVars.add(a);
  for (const v of allVars) {
    vars.set(v, py.var(v));
    emit(`${py.var(v)} = hl.Var(${JSON.stringify(v)})`);
  }
  for (const f of ca.funcs) emit(`${py.func(f.name)} = hl.Func(${JSON.stringify(f.name)})`);
  // Definitions.
  const rvarsOf = new Map<string, Set<string>>();
  for (const f of ca.funcs) {
    emit(`${py.func(f.name)}[${f.args.map(py.var).join(', ')}] = ${value(pyExpr(f.pure, { vars }, f.type), f.type)}`);
    f.updates.forEach((u, k) => {
      const uv = new Map(vars);
      const rv = new Set<string>();
      if (u.rvars.length > 0) {
        const rd = `rd_${f.name}_${k}`;
        const dims = u.rvars.map((r) => `(${pyExpr(termToExpr(r.min), { vars }, null)}, ${pyExpr(termToExpr(r.extent), { vars }, null)})`);
        emit(`${rd} = hl.RDom([${dims.join(', ')}], ${JSON.stringify(`r${f.name}${k}`)})`);
        u.rvars.forEach((r, j) => {
          uv.set(r.name, `${rd}.${'xyzw'[j] ?? `[${j}]`}`);
          rv.add(r.name);
        });
        if (u.where) emit(`${rd}.where(${pyExpr(u.where, { vars: uv }, 'bool')})`);
      }
      rvarsOf.set(`${f.name}/${k + 1}`, rv);
      emit(`${py.func(f.name)}[${u.lhs.map((e) => pyExpr(e, { vars: uv }, null)).join(', ')}] = ${value(pyExpr(u.rhs, { vars: uv }, f.type), f.type)}`);
    });
  }
  // Halide drops the Funcs the output does not read (no loops, no bounds): they are defined but
  // neither listed nor scheduled. Our spec still has them; nothing in the output depends on them.
  const live = new Set<string>([out.name]);
  for (const f of [...ca.funcs].reverse()) {
    if (!live.has(f.name)) continue;
    for (const e of [f.pure, ...f.updates.flatMap((u) => [u.rhs, ...u.lhs])]) for (const r of tensorReads(e)) live.add(r.name);
  }
  // The schedule. compute_at/store_at come last: they name loops of consumers, declared by then.
  const declared = new Set<string>();
  /** The Python object of loop `name` of a stage: the RDom's RVar, or a Var/RVar made once by name. */
  const loopVar = (f: string, stage: number, name: string, rvar: boolean): string => {
    const j = rvar ? (ca.funcByName.get(f)?.updates[stage - 1]?.rvars.findIndex((r) => r.name === name) ?? -1) : -1;
    if (j >= 0) return `rd_${f}_${stage - 1}.${'xyzw'[j]}`;
    const id = rvar ? py.rvar(name) : py.var(name);
    if (!declared.has(id) && !(allVars.has(name) && !rvar)) {
      declared.add(id);
      emit(`${id} = hl.${rvar ? 'RVar' : 'Var'}(${JSON.stringify(name)})`);
    }
    return id;
  };
  const stageRvars = new Map<string, ReadonlySet<string>>();
  const rvarsAt = (f: string, stage: number): ReadonlySet<string> => stageRvars.get(`${f}/${stage}`) ?? (stage > 0 ? rvarsOf.get(`${f}/${stage}`)! : new Set());
  // Halide 14's LoopLevel(f, v, stage) with an explicit stage is refused as an invalid location
  // (tried: every stage index); compute_at(f, v) places the Func in the stage of f that uses it.
  // That is our meaning when exactly that stage of f reads it (directly or through inline Funcs).
  const inline = new Set(ca.funcs.filter((f) => f.name !== out.name && (sched.funcs[f.name]?.compute ?? (f.updates.length > 0 ? 'root' : 'inline')) === 'inline').map((f) => f.name));
  const reads = (e: Expr, target: string, seen: Set<string> = new Set()): boolean =>
    tensorReads(e).some((r) => r.name === target || (inline.has(r.name) && !seen.has(r.name) && (seen.add(r.name), reads(ca.funcByName.get(r.name)!.pure, target, seen))));
  const level = (who: string, r: LoopRef): string => {
    const stage = r.stage ?? 0;
    const c = ca.funcByName.get(r.func);
    if (!c) throw new ScriptUnsupported(`${who} is placed in unknown Func ${r.func}`);
    const users = [c.pure, ...c.updates.map((u) => u.rhs)].flatMap((e, k) => (reads(e, who) || (k > 0 && c.updates[k - 1]!.lhs.some((l) => reads(l, who))) ? [k] : []));
    if (users.length !== 1 || users[0] !== stage) throw new ScriptUnsupported(`${who} placed at a loop of stage ${stage} of ${r.func}, which reads it in stage(s) ${users.join(', ') || 'none'}: Halide 14's compute_at(f, v) cannot name the stage`);
    return `${py.func(r.func)}, ${loopVar(r.func, stage, r.var, rvarsAt(r.func, stage).has(r.var))}`;
  };
  const placements: { func: string; op: 'compute_at' | 'store_at'; at: LoopRef }[] = [];
  for (const f of ca.funcs) {
    if (!live.has(f.name)) continue;
    const fs = sched.funcs[f.name] ?? {};
    const handle = py.func(f.name);
    const hasUpdates = f.updates.length > 0;
    const compute = fs.compute ?? (f.name === out.name || hasUpdates ? 'root' : 'inline');
    if (f.name !== out.name) {
      if (compute === 'inline') {
        if (hasUpdates) throw new ScriptUnsupported(`${f.name} has updates and cannot be inlined`);
        emit(`${handle}.compute_inline()`);
      } else if (compute === 'root') emit(`${handle}.compute_root()`);
      else placements.push({ func: f.name, op: 'compute_at', at: compute });
      if (fs.store === 'root') emit(`${handle}.store_root()`);
      else if (fs.store !== undefined) placements.push({ func: f.name, op: 'store_at', at: fs.store });
    } else if (fs.compute !== undefined && fs.compute !== 'root') throw new ScriptUnsupported('the output Func can only be computed at the root');
    for (const fo of fs.fold ?? []) emit(`${handle}.fold_storage(${loopVar(f.name, 0, fo.dim, false)}, ${fo.factor})`);
    (fs.stages ?? []).forEach((s, stage) => {
      if (stage > f.updates.length) throw new ScriptUnsupported(`${f.name} has no stage ${stage}`);
      const st: StageNames = { rvars: new Set(rvarsAt(f.name, stage)) };
      const h = stage === 0 ? handle : `${handle}.update(${stage - 1})`;
      const decl = (names: StageNames) => (name: string, rvar: boolean): string => loopVar(f.name, stage, name, rvar || names.rvars.has(name));
      const gen = (s.directives ?? []).map((d) => directive(d, stage, st, decl(st)));
      if (gen.length > 0) emit(`${h}${gen.join('')}`);
      for (const sp of s.specializations ?? []) {
        // Halide's specialize copies the stage's schedule as it is when called: after the
        // generic directives, which is our meaning (the branch's directives come after them).
        const sst: StageNames = { rvars: new Set(st.rvars) };
        const extra = sp.directives.map((d) => directive(d, stage, sst, decl(sst)));
        emit(`${h}.specialize(${pyExpr(parseCond(sp.cond), { vars }, 'bool')})${extra.join('')}`);
      }
      stageRvars.set(`${f.name}/${stage}`, st.rvars);
    });
  }
  for (const p of placements) emit(`${py.func(p.func)}.${p.op}(${level(p.func, p.at)})`);
  const funcsList = ca.funcs.filter((f) => live.has(f.name)).map((f) => py.func(f.name)).join(', ');
  const args = [...[...ca.inputs.values()].map((i) => py.input(i.name)), ...alg.params.filter((p) => !outExtent.has(p)).map(py.param)];
  const assumes = (alg.assumes ?? []).map((a) => halideCond(parseCond(a), halideNames));
  const ex = exampleOf(alg, ca);
  // The target feature strict_float: every float operation as written, also those inside integer
  // Funcs (i32(a * 100.0)), which the strict_float() around float values does not reach.
  emit(`return {"output": ${py.func(out.name)}, "funcs": [${funcsList}], "args": [${args.join(', ')}], "assume": ${JSON.stringify(assumes)}, "example": ${JSON.stringify(ex)}, "target": ${JSON.stringify(FUZZ_TARGET)}}`);
  return lines.join('\n') + '\n';
}

/** The driver's default target with strict_float. */
export const FUZZ_TARGET = 'x86-64-linux-sse41-avx-avx2-fma-f16c-strict_float';

/** Example sizes (the `sched halide --jit` oracle): N = 5, M = 4, other parameters 3. */
function exampleOf(alg: Algorithm, ca: CheckedAlgorithm): Record<string, number | number[]> {
  const value = (p: string): number => (p === 'N' ? 5 : p === 'M' ? 4 : 3);
  const env = new Map(alg.params.map((p) => [p, value(p)] as const));
  const ex: Record<string, number | number[]> = { output: ca.output.extentExprs.map((e) => env.get((e as { name: string }).name)!) };
  const ext = alg.params.reduce((a, p) => a + env.get(p)!, INPUT_PAD);
  for (const i of ca.inputs.values()) {
    ex[i.name] = i.args.map(() => ext);
    ex[`${i.name}.min`] = i.args.map(() => INPUT_MIN);
  }
  for (const p of alg.params) if (!ca.output.extentExprs.some((e) => e.kind === 'var' && e.name === p)) ex[p] = env.get(p)!;
  return ex;

}

/** The value type of a checked expression of the algorithm, or null for an index. */
function valueTypeOf(e: Expr): ValueType | null {
  return e.ty?.kind === 'value' ? e.ty.vt : null;
}
