// Expression evaluation ⟦e⟧_{E;μ} (thesis Fig. 4.3), prophetic evaluation ⟦t⟧_{E;M} (§4.2: the same
// rules with tensor reads instead of array reads) and read sets rd_{E;μ}(e) (Fig. 4.4).
//
// The rules themselves live in jsgen.ts, which translates an expression to JavaScript; this file
// holds environments (a frame: one slot per binder, numbered at compile time, so evaluation does no
// name lookup), ports (what an evaluator needs from a memory or a model: the small-step machine and
// the plain API below read through one), the compilation of single expressions into functions of
// a frame, the read sets of Fig. 4.4, and the plain API ⟦e⟧_{E;μ} / rd_{E;μ}(e) on explicit
// environments and memories.
//
// ⊥ propagates through every rule (the metavariables v and n of Fig. 4.3 exclude ⊥), so a read of
// ⊥ makes the whole expression ⊥ whatever else it contains — even `select` and `&&` are eager. A
// port therefore signals ⊥ by throwing (`BotSignal` for the plain ⟦·⟧ API, a structured failure
// for the evaluators), and operators never test for ⊥.

import type { ArrayRead, Expr, TensorRead } from '../core/language/ast.ts';
import type { Int } from './int.ts';
import { Emitter, offsetCode, type Target } from './jsgen.ts';
import { type BoolFn, type Frame, type IntFn, Layout, Scope, Sites, type Slot, type ValFn } from './scope.ts';
import { ArrayRef, type Cells, getCell } from './memory.ts';
import { type Bot, literalValue, PoisonSignal, poisonRerun, type Value } from './values.ts';

// ---------------------------------------------------------------------------------------------
// Ports

/** Where reads go. Each method returns a value or throws (⊥, race, out of bounds, missing). */
export interface Port {
  /** Fig. 4.3, array rule: a[n̄] ↦ v ∈ μ with the location in bounds (k is its offset). */
  readArray(ref: ArrayRef, k: number, site: number): Value;
  /** The array rule does not apply: the location a[n̄] is not in dom(μ). */
  outOfBounds(ref: ArrayRef, idx: readonly Int[], site: number): Value;
  /** §4.2, tensor rule: ⟦A(ι̅)⟧_{E;M} = ⟦A⟧_M(n̄). */
  readTensor(name: string, idx: readonly Int[], site: number): Value;
}

/** Thrown by `MemoryPort` when a read finds ⊥: the whole expression evaluates to ⊥. */
export class BotSignal extends Error {
  constructor(readonly what: 'uninitialized' | 'out-of-bounds' | 'no-model', readonly where: string) {
    super(`⊥: ${what} ${where}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Compiling single expressions (over a frame, reads through a port)

/** A checked read `load(a[ι])` through a port: a cell holding ⊥ is POISON (PoisonSignal). */
function loadCell(port: Port, ref: ArrayRef, k: number, site: number): Value {
  try {
    return port.readArray(ref, k, site);
  } catch (x) {
    if (!(x instanceof BotSignal) || x.what !== 'uninitialized') throw x;
    if (poisonRerun.depth > 0) return literalValue(0n, ref.elem);
    throw new PoisonSignal(site, `load of ${x.where}, which holds ⊥ (never written)`, 'uninitialized', x.where);
  }
}

/** Frame target: variables are frame slots, reads go through the port `P`. */
class FrameTarget implements Target {
  constructor(private readonly em: () => Emitter) {}
  slot(s: number): string {
    return `f[${s}]`;
  }
  bindLet(s: number, value: string, body: string): string {
    return `(f[${s}] = ${value}, ${body})`;
  }
  arrayRead(_e: ArrayRead, slot: number, idx: readonly string[], site: number, _sc: unknown, load = false): string {
    const ref = `f[${slot}]`;
    // One temporary k suffices: a read completes before the next one starts (indices are affine
    // and contain no reads).
    const read = load ? `${this.em().constant(loadCell)}(P, ${ref}, k, ${site})` : `P.readArray(${ref}, k, ${site})`;
    return `(k = ${offsetCode(ref, idx)}, k < 0 ? P.outOfBounds(${ref}, [${idx.join(', ')}], ${site}) : ${read})`;
  }
  tensorRead(e: TensorRead, idx: readonly string[], site: number): string {
    return `P.readTensor(${this.em().constant(e.name)}, [${idx.join(', ')}], ${site})`;
  }
}

/**
 * Compiles expressions (Fig. 4.3 via the emitter of jsgen.ts) into functions of a frame, reading
 * memory and tensors through `port`.
 */
export class ExprCompiler {
  constructor(
    readonly port: Port,
    readonly sites: Sites = new Sites(),
  ) {}

  private compile<T>(gen: (em: Emitter) => string): (f: Frame) => T {
    let em: Emitter | null = null;
    em = new Emitter(new FrameTarget(() => em!), this.sites);
    const code = gen(em);
    return em.build<(f: Frame) => T>(['f'], `let k = 0;\nreturn ${code};`, { P: this.port }).fn;
  }

  index(e: Expr, sc: Scope): IntFn {
    return this.compile<Int>((em) => em.index(e, sc));
  }
  cond(e: Expr, sc: Scope): BoolFn {
    return this.compile<boolean>((em) => em.cond(e, sc));
  }
  affine(e: Expr, sc: Scope): (f: Frame) => Int | boolean {
    return this.compile<Int | boolean>((em) => em.affine(e, sc));
  }
  value(e: Expr, sc: Scope): ValFn {
    return this.compile<Value>((em) => em.value(e, sc));
  }
}

// ---------------------------------------------------------------------------------------------
// Read sets: Fig. 4.4

export type ReadSink = (ref: ArrayRef, k: number) => void;
export type ReadSetFn = (f: Frame, out: ReadSink) => void;

/**
 * rd_{E;μ}(e) (Fig. 4.4), compiled: calls `out` with every location the evaluation of e reads.
 * Locations outside dom(μ) are not reported (they are not locations of μ; the evaluation fails
 * there anyway). Since indices are affine (no reads, Lemma 4.4.3), the result does not depend on
 * μ for well-typed expressions (Corollary 4.4.4).
 */
export function compileReadSet(e: Expr, sc: Scope, cx: ExprCompiler): ReadSetFn {
  const none: ReadSetFn = () => {};
  const union = (parts: ReadSetFn[]): ReadSetFn => {
    const ps = parts.filter((p) => p !== none);
    if (ps.length === 0) return none;
    if (ps.length === 1) return ps[0]!;
    return (f, out) => {
      for (const p of ps) p(f, out);
    };
  };
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'bool':
    case 'var':
      return none; // rd(x) = rd(l) = ∅
    case 'array': {
      // rd(a[ι̅]) = {a[n̄]} ∪ ⋃ rd(ι_i)
      const slot = sc.arraySlot(e.name);
      const ix = e.indices.map((i) => cx.index(i, sc));
      const inner = union(e.indices.map((i) => compileReadSet(i, sc, cx)));
      return (f, out) => {
        const ref = f[slot] as ArrayRef;
        const k = ref.offset(ix.map((g) => g(f)));
        if (k >= 0) out(ref, k);
        inner(f, out);
      };
    }
    case 'tensor':
      return union(e.indices.map((i) => compileReadSet(i, sc, cx)));
    case 'let': {
      // rd(let x = ι in e) = rd(ι) ∪ rd_{E+x↦v0}(e)
      const v = cx.affine(e.value, sc);
      const r1 = compileReadSet(e.value, sc, cx);
      const { scope, slot } = sc.bindVar(e.name);
      const r2 = compileReadSet(e.body, scope, cx);
      return (f, out) => {
        r1(f, out);
        f[slot] = v(f);
        r2(f, out);
      };
    }
    case 'unary':
      return compileReadSet(e.arg, sc, cx);
    case 'binary':
      return union([compileReadSet(e.left, sc, cx), compileReadSet(e.right, sc, cx)]);
    case 'select':
      return union([compileReadSet(e.cond, sc, cx), compileReadSet(e.then, sc, cx), compileReadSet(e.else, sc, cx)]);
    case 'call':
      return union(e.args.map((a) => compileReadSet(a, sc, cx)));
  }
}

// ---------------------------------------------------------------------------------------------
// The plain API: ⟦e⟧_{E;μ} and rd_{E;μ}(e) on explicit environments and memories

/** An environment E: affine variables (parameters included) to ℤ or Booleans. */
export type Env = ReadonlyMap<string, Int | boolean>;

/** A memory μ given as named arrays (shape and cells); a missing array has no locations. */
export type NamedMemory = ReadonlyMap<string, { readonly ref: ArrayRef; readonly cells: Cells }>;

class MemoryPort implements Port {
  constructor(
    private readonly cellsOf: (ref: ArrayRef) => Cells,
    private readonly tensor: ((name: string, idx: readonly Int[]) => Value) | null,
  ) {}
  readArray(ref: ArrayRef, k: number): Value {
    const v = getCell(this.cellsOf(ref), ref.elem, k);
    if (v === undefined) throw new BotSignal('uninitialized', ref.showLoc(k));
    return v;
  }
  outOfBounds(ref: ArrayRef, idx: readonly Int[]): Value {
    throw new BotSignal('out-of-bounds', `${ref.name}[${idx.join(', ')}]`);
  }
  readTensor(name: string, idx: readonly Int[]): Value {
    if (this.tensor === null) throw new BotSignal('no-model', `${name}(${idx.join(', ')})`);
    return this.tensor(name, idx);
  }
}

/** Compile something in a scope holding E and the arrays of μ, and the frame to run it in. */
function inEnv<T>(env: Env, mem: NamedMemory, k: (sc: Scope, cx: ExprCompiler) => T): { res: T; frame: Frame } {
  const layout = new Layout();
  let sc = Scope.root(layout);
  const init: [number, Slot][] = [];
  for (const [name, v] of env) {
    const b = sc.bindVar(name);
    sc = b.scope;
    init.push([b.slot, v]);
  }
  for (const [name, a] of mem) {
    const b = sc.bindArray(name);
    sc = b.scope;
    init.push([b.slot, a.ref]);
  }
  const cells = new Map([...mem.values()].map((a) => [a.ref, a.cells] as const));
  const res = k(sc, new ExprCompiler(new MemoryPort((ref) => cells.get(ref)!, null)));
  const frame = layout.newFrame();
  for (const [s, v] of init) frame[s] = v;
  return { res, frame };
}

/**
 * ⟦e⟧_{E;μ} of Fig. 4.3 for a type-checked expression: its value, or ⊥ (undefined) when no rule
 * applies (a read of ⊥ or outside dom(μ)).
 */
export function evalExpr(e: Expr, env: Env, mem: NamedMemory): Value | Bot {
  const { res, frame } = inEnv(env, mem, (sc, cx) => (e.ty?.kind === 'index' ? cx.index(e, sc) : cx.value(e, sc)));
  try {
    return res(frame) as Value;
  } catch (x) {
    if (x instanceof BotSignal || x instanceof PoisonSignal) return undefined;
    throw x;
  }
}

/** rd_{E;μ}(e) of Fig. 4.4, as printed locations (`a[1, 2]`), sorted. */
export function readSet(e: Expr, env: Env, mem: NamedMemory): string[] {
  const { res, frame } = inEnv(env, mem, (sc, cx) => compileReadSet(e, sc, cx));
  const out = new Set<string>();
  res(frame, (ref, k) => out.add(ref.showLoc(k)));
  return [...out].sort();
}
