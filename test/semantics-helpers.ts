// Helpers for the semantics tests: compiling source text, a literal reference implementation of
// Fig. 4.5 (differential memories as maps, every par iteration from the memory at loop entry,
// side conditions checked on the sets afterwards), and a generator of small random programs.

import fc from 'fast-check';
import type { Cmd } from '../core/language/ast.ts';
import { parseProgram } from '../core/language/parser.ts';
import { type CheckedImpl, type CheckedProgram, typecheckProgram } from '../core/language/typecheck.ts';
import { BotSignal, ExprCompiler, type NamedMemory, type Port } from '../semantics/eval.ts';
import { type Frame, Scope, Layout } from '../semantics/scope.ts';
import type { Int } from '../semantics/int.ts';
import { ArrayRef, Cells, getCell, setCell } from '../semantics/memory.ts';
import { sameValue, type Value } from '../semantics/values.ts';

export function compile(text: string, file = 'test.sched'): CheckedProgram {
  return typecheckProgram(parseProgram(file, text));
}

export function impl(text: string, name?: string): CheckedImpl {
  const p = compile(text);
  const ci = name === undefined ? p.impls[0] : p.impls.find((i) => i.impl.name === name);
  if (!ci) throw new Error(`no impl ${name}`);
  return ci;
}

export function params(o: Record<string, number>): Map<string, bigint> {
  return new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)]));
}

/** Contents of a named memory as plain arrays (⊥ as null), for comparisons. */
export function dump(mem: NamedMemory): Record<string, (Value | null)[]> {
  const out: Record<string, (Value | null)[]> = {};
  for (const [name, { ref, cells }] of mem) {
    const vals: (Value | null)[] = [];
    for (let k = 0; k < ref.size; k++) vals.push(getCell(cells, ref.elem, k) ?? null);
    out[name] = vals;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reference big-step: the rules of Fig. 4.5 with explicit ⟨δμ; ρ⟩

type Loc = number; // ref.base + offset
type Mem = Map<Loc, Value | undefined>; // μ: every in-bounds location (⊥ = undefined)
interface Out {
  dmu: Map<Loc, Value>;
  rho: Set<Loc>;
}
class NoSemantics extends Error {
  constructor(readonly kind: string) {
    super(kind);
  }
}

/** The result of the reference: final memory μ ▷ δμ or the kind of failure. */
export function referenceBigStep(ci: CheckedImpl, ps: Map<string, Int>, init: NamedMemory): { ok: true; final: Map<string, (Value | null)[]> } | { ok: false; kind: string } {
  let nextBase = 1 << 20;
  let nextId = 1 << 20;
  let mu: Mem = new Map();
  let cur: Mem = mu; // the memory expressions read
  const port: Port = {
    readArray(ref, k) {
      const key = ref.base + k;
      if (!cur.has(key)) throw new NoSemantics('out-of-bounds');
      const v = cur.get(key);
      if (v === undefined) throw new NoSemantics('uninitialized');
      reads?.add(key);
      return v;
    },
    outOfBounds() {
      throw new NoSemantics('out-of-bounds');
    },
    readTensor() {
      throw new Error('tensor');
    },
  };
  let reads: Set<Loc> | null = null;
  const X = new ExprCompiler(port);
  const layout = new Layout();
  let sc = Scope.root(layout);
  const f0: [number, unknown][] = [];
  for (const p of ci.spec.params) {
    const b = sc.bindVar(p);
    sc = b.scope;
    f0.push([b.slot, ps.get(p)!]);
  }
  for (const [name, { ref, cells }] of init) {
    const b = sc.bindArray(name);
    sc = b.scope;
    f0.push([b.slot, ref]);
    for (let k = 0; k < ref.size; k++) mu.set(ref.base + k, getCell(cells, ref.elem, k));
  }
  const upd = (a: Mem, d: Map<Loc, Value>): Mem => {
    const m = new Map(a);
    for (const [k, v] of d) m.set(k, v);
    return m;
  };
  // eval c in (f, μ) → ⟨δμ; ρ⟩
  type Ev = (f: Frame, m: Mem) => Out;
  const comp = (c: Cmd, s: Scope): Ev => {
    switch (c.kind) {
      case 'skip':
        return () => ({ dmu: new Map(), rho: new Set() });
      case 'seq': {
        const parts = c.cmds.map((x) => comp(x, s));
        return (f, m) => {
          // U-SEQ, n-ary: fold
          const dmu = new Map<Loc, Value>();
          const rho = new Set<Loc>();
          let mm = m;
          for (const p of parts) {
            const o = p(f, mm);
            for (const [k, v] of o.dmu) {
              dmu.delete(k);
              dmu.set(k, v);
            }
            for (const r of o.rho) rho.add(r);
            mm = upd(mm, o.dmu);
          }
          return { dmu, rho };
        };
      }
      case 'if': {
        const cond = X.cond(c.cond, s);
        const a = comp(c.then, s);
        const b = c.else ? comp(c.else, s) : comp({ kind: 'skip', pos: c.pos }, s);
        return (f, m) => (cond(f) ? a(f, m) : b(f, m));
      }
      case 'let': {
        const v = X.affine(c.value, s);
        const { scope, slot } = s.bindVar(c.name);
        const body = comp(c.body, scope);
        return (f, m) => {
          const g = f.slice();
          g[slot] = v(f);
          return body(g, m);
        };
      }
      case 'for':
      case 'par': {
        const bound = X.index(c.bound, s);
        const { scope, slot } = s.bindVar(c.var);
        const body = comp(c.body, scope);
        const par = c.kind === 'par';
        return (f, m) => {
          const n = Number(bound(f));
          const outs: Out[] = [];
          let mm = m;
          for (let i = 0; i < n; i++) {
            const g = f.slice();
            g[slot] = i;
            const o = body(g, par ? m : mm); // U-PARLOOP: every iteration from μ
            outs.push(o);
            if (!par) mm = upd(mm, o.dmu);
          }
          const dmu = new Map<Loc, Value>();
          const rho = new Set<Loc>();
          for (const o of outs) {
            for (const [k, v] of o.dmu) {
              dmu.delete(k);
              dmu.set(k, v);
            }
            for (const r of o.rho) rho.add(r);
          }
          if (par) {
            for (let i = 0; i < n; i++)
              for (let j = 0; j < n; j++) {
                if (i === j) continue;
                for (const [k, v] of outs[i]!.dmu) {
                  if (outs[j]!.rho.has(k)) throw new NoSemantics('race');
                  if (outs[j]!.dmu.has(k) && !sameValue(outs[j]!.dmu.get(k), v)) throw new NoSemantics('race');
                }
              }
          }
          return { dmu, rho };
        };
      }
      case 'assign': {
        const aslot = s.arraySlot(c.array);
        const ix = c.indices.map((i) => X.index(i, s));
        const rhs = X.value(c.rhs, s);
        return (f, m) => {
          const ref = f[aslot] as ArrayRef;
          const k = ref.offset(ix.map((g) => g(f)));
          if (k < 0) throw new NoSemantics('out-of-bounds');
          cur = m;
          reads = new Set();
          const v = rhs(f);
          const rho = reads;
          reads = null;
          return { dmu: new Map([[ref.base + k, v]]), rho };
        };
      }
      case 'allocate': {
        const dims = c.dims.map((d) => X.index(d, s));
        const { scope, slot } = s.bindArray(c.name);
        const body = comp(c.body, scope);
        return (f, m) => {
          const ds = dims.map((d) => Math.max(0, Number(d(f))));
          const ref = new ArrayRef(nextId++, c.name, c.elem, ds, nextBase, false, c.pos, 0);
          nextBase += ref.size + 1;
          const local = new Map(m);
          for (let k = 0; k < ref.size; k++) local.set(ref.base + k, undefined);
          const g = f.slice();
          g[slot] = ref;
          const o = body(g, local);
          const inA = (k: Loc): boolean => k >= ref.base && k < ref.base + ref.size;
          return { dmu: new Map([...o.dmu].filter(([k]) => !inA(k))), rho: new Set([...o.rho].filter((k) => !inA(k))) };
        };
      }
    }
  };
  const body = comp(ci.impl.body, sc);
  const f = layout.newFrame();
  for (const [s, v] of f0) f[s] = v as Frame[number];
  try {
    const o = body(f, mu);
    mu = upd(mu, o.dmu);
  } catch (e) {
    if (e instanceof NoSemantics) return { ok: false, kind: e.kind };
    if (e instanceof BotSignal) return { ok: false, kind: e.what };
    throw e;
  }
  const final = new Map<string, (Value | null)[]>();
  for (const [name, { ref }] of init) {
    const vals: (Value | null)[] = [];
    for (let k = 0; k < ref.size; k++) vals.push(mu.get(ref.base + k) ?? null);
    final.set(name, vals);
  }
  return { ok: true, final };
}

/** A fresh copy of a named memory (cells cloned). */
export function cloneMemory(m: NamedMemory): NamedMemory {
  return new Map([...m].map(([k, { ref, cells }]) => [k, { ref, cells: cells.clone() }] as const));
}

export { Cells, setCell };

// ---------------------------------------------------------------------------------------------
// Random programs over x: i32[3] (input), y: i32[3], z: i32[] (outputs), locals t0, t1…: i32[2]

export const RANDOM_HEADER = `spec s {
  input X(i): i32;
  output Y(i): i32 = X(i) where 0 <= i && i < 3;
  output Z(): i32 = X(0);
}
impl p of s {
  input  x: i32[3] = X;
  output y: i32[3] = Y;
  output z: i32[] = Z;
`;

interface GenCtx {
  vars: string[];
  /** Local arrays in scope (t0, t1, …: i32[2]). */
  locals: string[];
  depth: number;
}

function idx(ctx: GenCtx): fc.Arbitrary<string> {
  const opts: fc.Arbitrary<string>[] = [fc.constantFrom('0', '1', '2')];
  if (ctx.vars.length > 0) {
    const v = fc.constantFrom(...ctx.vars);
    opts.push(v, v.map((x) => `${x} + 1`), v.map((x) => `2 - ${x}`), v.map((x) => `min(${x}, 1)`));
  }
  return fc.oneof(...opts);
}

function access(ctx: GenCtx): fc.Arbitrary<string> {
  const arrs: fc.Arbitrary<string>[] = [idx(ctx).map((i) => `x[${i}]`), idx(ctx).map((i) => `y[${i}]`), fc.constant('z[]')];
  for (const t of ctx.locals) arrs.push(idx(ctx).map((i) => `${t}[${i}]`));
  return fc.oneof(...arrs);
}

function rhs(ctx: GenCtx, d: number): fc.Arbitrary<string> {
  const leaf = fc.oneof(fc.integer({ min: -3, max: 5 }).map(String), access(ctx), ...(ctx.vars.length ? [fc.constantFrom(...ctx.vars).map((v) => `i32(${v})`)] : []));
  if (d <= 0) return leaf;
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: fc.tuple(rhs(ctx, d - 1), rhs(ctx, d - 1)).map(([a, b]) => `(${a} + ${b})`) },
    { weight: 1, arbitrary: fc.tuple(cond(ctx), rhs(ctx, d - 1), rhs(ctx, d - 1)).map(([c, a, b]) => `select(${c}, ${a}, ${b})`) },
  );
}

function cond(ctx: GenCtx): fc.Arbitrary<string> {
  if (ctx.vars.length === 0) return fc.constantFrom('true', 'false');
  return fc.tuple(fc.constantFrom(...ctx.vars), fc.constantFrom('<', '==', '>='), fc.integer({ min: 0, max: 2 })).map(([v, op, k]) => `${v} ${op} ${k}`);
}

export function cmdArb(ctx: GenCtx): fc.Arbitrary<string> {
  const targets: fc.Arbitrary<string>[] = [idx(ctx).map((i) => `y[${i}]`), fc.constant('z[]'), idx(ctx).map((i) => `x[${i}]`)];
  for (const t of ctx.locals) targets.push(idx(ctx).map((i) => `${t}[${i}]`));
  const assign = fc.tuple(fc.oneof(...targets), rhs(ctx, 2)).map(([a, e]) => `${a} := ${e}`);
  if (ctx.depth <= 0) return assign;
  const v = `v${ctx.vars.length}`;
  const inner = { ...ctx, depth: ctx.depth - 1 };
  const withVar = { ...inner, vars: [...ctx.vars, v] };
  return fc.oneof(
    { weight: 3, arbitrary: assign },
    { weight: 2, arbitrary: fc.array(cmdArb(inner), { minLength: 2, maxLength: 3 }).map((cs) => `{ ${cs.join('; ')} }`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('for', 'par'), fc.integer({ min: 0, max: 3 }), cmdArb(withVar)).map(([k, n, b]) => `${k} ${v} < ${n} do ${b}`) },
    { weight: 1, arbitrary: fc.tuple(cond(ctx), cmdArb(inner), cmdArb(inner)).map(([c, a, b]) => `if ${c} then { ${a} } else { ${b} }`) },
    { weight: 1, arbitrary: fc.tuple(idx(ctx), cmdArb(withVar)).map(([i, b]) => `let ${v} = ${i} in ${b}`) },
    { weight: 1, arbitrary: cmdArb({ ...inner, locals: [...ctx.locals, `t${ctx.locals.length}`] }).map((b) => `allocate t${ctx.locals.length}: i32[2] in { t${ctx.locals.length}[0] := 1; t${ctx.locals.length}[1] := 2; ${b} }`) },
  );
}

/** Random implementations of RANDOM_HEADER: `y` and `z` start ⊥, x is an input. */
export function programArb(depth = 3): fc.Arbitrary<string> {
  return fc.tuple(fc.boolean(), cmdArb({ vars: [], locals: [], depth })).map(([init, c]) => `${RANDOM_HEADER}${init ? '  y[0] := 0; y[1] := 0; y[2] := 0; z[] := 0;\n' : ''}  ${c}\n}\n`);
}
