// A reference big-step semantics E; μ ⊢ t ⇓ ⟨δμ; ρ⟩ for the terms of the small-step machine
// (semantics/smallstep.ts): the rules of Fig. 4.5 on commands, plus the rules the proof of Lemma
// 4.3.8 adds for the intermediate constructs, U-PAR for c1 ‖ c2 and U-INALLOC for
// `inalloc μ_a do c`. Lemma 4.3.8 and Cor. 4.3.9 are about the big-step meaning of the terms the
// small-step semantics reaches, which the production big-step (commands only) cannot give.
//
// It is literal: differential memories are maps, every iteration of a parallel loop runs from the
// memory at loop entry and the side conditions are checked on the sets afterwards. Expressions are
// evaluated by the independent evaluator of proofs/metatheory/ref-eval.ts, so it is also an independent
// second implementation of Fig. 4.5 to compare the production big-step with.

import type { Cmd, ValueType } from '../../../core/language/ast.ts';
import type { Frame } from '../../../semantics/scope.ts';
import { ArrayRef, getCell } from '../../../semantics/memory.ts';
import type { SmallProgram, Store, Term } from '../../../semantics/smallstep.ts';
import { type Affine, type Cell, evaluate, fromProduction, type RefMemory, type RValue, valueText } from '../ref-eval.ts';

interface Inst {
  readonly label: string;
  readonly elem: ValueType;
  readonly dims: readonly bigint[];
  /** Allocated by this evaluator: cells not in the memory map are ⊥. */
  readonly fresh: boolean;
}

interface Ctx {
  readonly env: ReadonlyMap<string, Affine>;
  readonly arrays: ReadonlyMap<string, Inst>;
}

type Mem = ReadonlyMap<string, Cell>;

/** ⟨δμ; ρ⟩ (compare values with `valueText`). */
export interface RefOut {
  readonly dmu: ReadonlyMap<string, RValue>;
  readonly rho: ReadonlySet<string>;
}

class NoDerivation extends Error {}

const EMPTY: RefOut = { dmu: new Map(), rho: new Set() };

function seq(a: RefOut, b: RefOut): RefOut {
  if (b.dmu.size === 0 && b.rho.size === 0) return a;
  const dmu = new Map(a.dmu);
  for (const [l, v] of b.dmu) dmu.set(l, v);
  return { dmu, rho: new Set([...a.rho, ...b.rho]) };
}

/** U-PAR / U-PARLOOP side conditions between two groups of iterations, then their union. */
function par(a: RefOut, b: RefOut): RefOut {
  for (const [l, v] of a.dmu) {
    if (b.rho.has(l)) throw new NoDerivation(`read-write race on ${l}`);
    const w = b.dmu.get(l);
    if (w !== undefined && valueText(w) !== valueText(v)) throw new NoDerivation(`write-write race on ${l} (${v} vs ${w})`);
  }
  for (const l of b.dmu.keys()) if (a.rho.has(l)) throw new NoDerivation(`read-write race on ${l}`);
  return seq(a, b);
}

class TermEvaluator {
  private nextFresh = 0;

  constructor(readonly prog: SmallProgram) {}

  private memOps(ctx: Ctx, mem: Mem): RefMemory {
    return {
      cell: (name, idx) => {
        const inst = ctx.arrays.get(name);
        if (!inst) throw new Error(`term-semantics: array ${name} not in scope`);
        if (idx.length !== inst.dims.length || idx.some((x, k) => x < 0n || x >= inst.dims[k]!)) return null;
        const loc = `${inst.label}[${idx.join(', ')}]`;
        const c = mem.get(loc);
        if (c !== undefined) return { loc, cell: c };
        if (inst.fresh) return { loc, cell: { kind: 'bot' } };
        throw new Error(`term-semantics: no cell ${loc}`);
      },
    };
  }

  private ev(e: Parameters<typeof evaluate>[0], ctx: Ctx, mem: Mem): { v: RValue | Affine; rd: string[] } {
    const r = evaluate(e, ctx.env, this.memOps(ctx, mem));
    if (!r.ok) throw new NoDerivation(`${r.bot.bot} ${r.bot.loc}`);
    return { v: r.v, rd: r.reads };
  }

  /** The environment of a term c[E]: the bindings of c's scope read from the frame. */
  ctxOf(cmd: Cmd, env: Frame): Ctx {
    const b = this.prog.cmdInfo(cmd).scope.bindings();
    const vars = new Map<string, Affine>();
    for (const [name, s] of b.vars) {
      const v = env[s];
      if (typeof v === 'boolean') vars.set(name, v);
      else if (typeof v === 'number' || typeof v === 'bigint') vars.set(name, BigInt(v));
    }
    const arrays = new Map<string, Inst>();
    for (const [name, s] of b.arrays) {
      const r = env[s];
      if (r instanceof ArrayRef) arrays.set(name, { label: r.label(), elem: r.elem, dims: r.dims.map(BigInt), fresh: false });
    }
    return { env: vars, arrays };
  }

  term(t: Term, mem: Mem): RefOut {
    switch (t.k) {
      case 'skip':
        return EMPTY;
      case 'code':
        return this.cmd(t.cmd, this.ctxOf(t.cmd, t.env), mem);
      case 'seq': {
        // U-SEQ
        const a = this.term(t.first, mem);
        return seq(a, this.term(t.second, update(mem, a.dmu)));
      }
      case 'loop': {
        // c[x←from]; …; c[x←n−1]: U-SEQ, iteration after iteration.
        const ctx = this.ctxOf(t.cmd, t.env);
        let acc = EMPTY;
        let m = mem;
        for (let i = t.from; i < t.n; i++) {
          const env = new Map(ctx.env);
          env.set(t.cmd.var, BigInt(i));
          const o = this.cmd(t.cmd.body, { ...ctx, env }, m);
          acc = seq(acc, o);
          m = update(m, o.dmu);
        }
        return acc;
      }
      case 'par':
        // U-PAR: both sides from μ; dom(δμ1) # ρ2, dom(δμ2) # ρ1, δμ1 ∘ δμ2.
        return par(this.term(t.left, mem), this.term(t.right, mem));
      case 'inalloc': {
        // U-INALLOC: the body in μ ▷ μ_a (μ_a's cells are in the memory already), then erase a.
        const o = this.term(t.body, mem);
        return erase(o, t.ref.label());
      }
    }
  }

  cmd(c: Cmd, ctx: Ctx, mem: Mem): RefOut {
    switch (c.kind) {
      case 'skip':
        return EMPTY;
      case 'seq': {
        let acc = EMPTY;
        let m = mem;
        for (const x of c.cmds) {
          const o = this.cmd(x, ctx, m);
          acc = seq(acc, o);
          m = update(m, o.dmu);
        }
        return acc;
      }
      case 'if': {
        const { v, rd } = this.ev(c.cond, ctx, mem);
        const o = v === true ? this.cmd(c.then, ctx, mem) : c.else ? this.cmd(c.else, ctx, mem) : EMPTY;
        return { dmu: o.dmu, rho: new Set([...rd, ...o.rho]) };
      }
      case 'let': {
        const { v, rd } = this.ev(c.value, ctx, mem);
        const env = new Map(ctx.env);
        env.set(c.name, v as Affine);
        const o = this.cmd(c.body, { ...ctx, env }, mem);
        return { dmu: o.dmu, rho: new Set([...rd, ...o.rho]) };
      }
      case 'for':
      case 'par': {
        const { v, rd } = this.ev(c.bound, ctx, mem);
        const n = (v as bigint) < 0n ? 0 : Number(v);
        let acc: RefOut = { dmu: new Map(), rho: new Set(rd) };
        let m = mem;
        const outs: RefOut[] = [];
        for (let i = 0; i < n; i++) {
          const env = new Map(ctx.env);
          env.set(c.var, BigInt(i));
          const o = this.cmd(c.body, { ...ctx, env }, c.kind === 'for' ? m : mem);
          if (c.kind === 'for') {
            acc = seq(acc, o);
            m = update(m, o.dmu);
          } else outs.push(o);
        }
        if (c.kind === 'par') {
          // U-PARLOOP: pairwise side conditions (checked pairwise, as the rule states them).
          for (let i = 0; i < outs.length; i++) for (let j = i + 1; j < outs.length; j++) par(outs[i]!, outs[j]!);
          for (const o of outs) acc = seq(acc, o);
        }
        return acc;
      }
      case 'assign': {
        const inst = ctx.arrays.get(c.array);
        if (!inst) throw new Error(`term-semantics: array ${c.array} not in scope`);
        const idx: bigint[] = [];
        const rho = new Set<string>();
        for (const e of c.indices) {
          const r = this.ev(e, ctx, mem);
          idx.push(r.v as bigint);
          for (const l of r.rd) rho.add(l);
        }
        if (idx.some((x, k) => x < 0n || x >= inst.dims[k]!)) throw new NoDerivation(`out-of-bounds write ${inst.label}[${idx.join(', ')}]`);
        const r = this.ev(c.rhs, ctx, mem);
        for (const l of r.rd) rho.add(l);
        const loc = `${inst.label}[${idx.join(', ')}]`;
        return { dmu: new Map([[loc, r.v as RValue]]), rho };
      }
      case 'allocate': {
        const dims = c.dims.map((e) => {
          const v = this.ev(e, ctx, mem).v as bigint;
          return v < 0n ? 0n : v;
        });
        const label = `${c.name}@${this.nextFresh++}`;
        const arrays = new Map(ctx.arrays);
        arrays.set(c.name, { label, elem: c.elem, dims, fresh: true });
        return erase(this.cmd(c.body, { ...ctx, arrays }, mem), label);
      }
    }
  }
}

/** δμ ∖ dom(μ_a), ρ ∖ dom(μ_a). */
function erase(o: RefOut, label: string): RefOut {
  const mine = (l: string): boolean => l.startsWith(`${label}[`);
  return { dmu: new Map([...o.dmu].filter(([l]) => !mine(l))), rho: new Set([...o.rho].filter((l) => !mine(l))) };
}

/** μ ▷ δμ. */
function update(mem: Mem, dmu: ReadonlyMap<string, RValue>): Mem {
  if (dmu.size === 0) return mem;
  const m = new Map(mem);
  for (const [l, v] of dmu) m.set(l, { kind: 'value', v });
  return m;
}

/** Every term node's array instances (inalloc), for building the memory of a state. */
function inallocRefs(t: Term, out: ArrayRef[] = []): ArrayRef[] {
  switch (t.k) {
    case 'seq':
      inallocRefs(t.first, out);
      inallocRefs(t.second, out);
      break;
    case 'par':
      inallocRefs(t.left, out);
      inallocRefs(t.right, out);
      break;
    case 'inalloc':
      out.push(t.ref);
      inallocRefs(t.body, out);
      break;
    default:
      break;
  }
  return out;
}

/**
 * ∅; μ ⊢ t ⇓ ⟨δμ; ρ⟩ for a small-step state (term t, store μ ⊎ every μ_a), or why no derivation
 * exists.
 */
export function termBigStep(prog: SmallProgram, t: Term, store: Store, globals: readonly ArrayRef[]): { ok: true; out: RefOut } | { ok: false; reason: string } {
  const mem = new Map<string, Cell>();
  for (const ref of [...globals, ...inallocRefs(t)]) {
    const c = store.get(ref);
    for (let k = 0; k < ref.size; k++) {
      const v = getCell(c, ref.elem, k);
      mem.set(ref.showLoc(k), v === undefined ? { kind: 'bot' } : { kind: 'value', v: fromProduction(v, ref.elem) });
    }
  }
  try {
    return { ok: true, out: new TermEvaluator(prog).term(t, mem) };
  } catch (e) {
    if (e instanceof NoDerivation) return { ok: false, reason: e.message };
    throw e;
  }
}
