// The spec's model M (thesis ch. 4 preamble: an assignment of values to parameters and of functions
// ℤ^n → ⟦τ⟧ to tensors): a SARE evaluated on concrete parameters and input tensors.
//
// - Input tensors come from an `InputSource`: by default a seeded generator, a pure function of
//   (seed, tensor, point), so the infinite domain of an input is never materialised.
// - A computed tensor at a point is given by the unique equation whose guard holds there (domains
//   are disjoint), evaluated demand-driven, memoised, and iteratively: an explicit stack of
//   pending points replaces recursion, so a recurrence of length 10^6 does not overflow the JS
//   stack. A point reached again while it is being computed is a cycle (the spec is not well
//   founded), and a point in two domains an overlap: both are input errors.
// - Outside the union of its domains a computed tensor is unconstrained: any value is a model.
//   We pick a seeded arbitrary value and record the point, so that a verdict depending on it can
//   say so.

import type { CheckedSpec, NormEquation } from '../core/language/typecheck.ts';
import type { Expr, Pos, TensorRead, ValueType } from '../core/language/ast.ts';
import { diag, SchedInputError } from '../core/language/diagnostics.ts';
import { type Port } from './eval.ts';
import { type Frame, Layout, Scope, Sites } from './scope.ts';
import { Emitter, type Target } from './jsgen.ts';
import type { Int } from './int.ts';
import { literalValue, type Value } from './values.ts';

// ---------------------------------------------------------------------------------------------
// Seeded input values

/** Values of input tensors, and of computed tensors where the spec leaves them unconstrained. */
export interface InputSource {
  /** ⟦A⟧_M(n̄) for an input tensor A of type t. */
  input(tensor: string, t: ValueType, point: readonly Int[]): Value;
  /** A value for computed tensor A at a point outside every equation's domain. */
  unconstrained(tensor: string, t: ValueType, point: readonly Int[]): Value;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function mixWord(h: number, w: number): number {
  let k = Math.imul(w, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function mixString(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = mixWord(h, s.charCodeAt(i));
  return mixWord(h, s.length);
}

function mixInt(h: number, x: Int): number {
  if (typeof x === 'number') {
    const lo = x % 0x100000000;
    const hi = (x - lo) / 0x100000000;
    return mixWord(mixWord(h, lo | 0), hi | 0);
  }
  return mixString(mixWord(h, 0x7fffffff), x.toString());
}

/** Two independent 32-bit hash states after (seed, tag, tensor): the per-tensor starting point. */
function baseState(seedText: string, tag: string, tensor: string): [number, number] {
  const a = mixString(mixString(mixString(0x9747b28c, seedText), tag), tensor);
  const b = mixString(mixString(mixString(0x3c6ef372, seedText), tag), tensor);
  return [a, b];
}

/** Two independent 32-bit hashes of a point, from a base state. */
function hashPoint(base: readonly [number, number], point: readonly Int[]): [number, number] {
  let a = base[0];
  let b = base[1];
  for (const x of point) {
    a = mixInt(a, x);
    b = mixInt(b, x);
  }
  return [fmix(a ^ point.length), fmix(b ^ Math.imul(point.length, 0x9e3779b9))];
}

/**
 * A value of type t from two random words: f32 uniform in [-1, 1) on a 2^-23 grid (exact in f32),
 * f64 uniform in [-1, 1) on a 2^-51 grid, integers uniform over the whole type, bool a coin.
 */
export function valueFromBits(t: ValueType, h1: number, h2: number): Value {
  switch (t) {
    case 'bool':
      return (h1 & 1) === 1;
    case 'f32':
      return (h1 >>> 8) / 2 ** 23 - 1;
    case 'f64':
      return ((h1 >>> 6) * 2 ** 26 + (h2 >>> 6)) / 2 ** 51 - 1;
    case 'i8':
      return (h1 << 24) >> 24;
    case 'u8':
      return h1 & 0xff;
    case 'i16':
      return (h1 << 16) >> 16;
    case 'u16':
      return h1 & 0xffff;
    case 'i32':
      return h1 | 0;
    case 'u32':
      return h1 >>> 0;
    case 'i64':
      return BigInt.asIntN(64, (BigInt(h1 >>> 0) << 32n) | BigInt(h2 >>> 0));
    case 'u64':
      return BigInt.asUintN(64, (BigInt(h1 >>> 0) << 32n) | BigInt(h2 >>> 0));
  }
}

/** The default input source: a pure function of (seed, tensor, point). */
export function seededInputs(seed: bigint | number | string): InputSource {
  const s = String(seed);
  const bases = new Map<string, [number, number]>();
  const base = (tag: string, tensor: string): [number, number] => {
    const key = `${tag}\u0000${tensor}`;
    let b = bases.get(key);
    if (b === undefined) {
      b = baseState(s, tag, tensor);
      bases.set(key, b);
    }
    return b;
  };
  return {
    input(tensor, t, point) {
      const [h1, h2] = hashPoint(base('input', tensor), point);
      return valueFromBits(t, h1, h2);
    },
    unconstrained(tensor, t, point) {
      const [h1, h2] = hashPoint(base('unconstrained', tensor), point);
      return valueFromBits(t, h1, h2);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The model

interface CompiledEquation {
  readonly eq: NormEquation;
  readonly varSlots: readonly number[];
  readonly guard: (f: Frame) => boolean;
  readonly rhs: (f: Frame) => Value;
}

/** Marks a point being computed: reaching it again is a cycle. */
const PENDING: unique symbol = Symbol('pending');
type Memo = Value | typeof PENDING;


export interface UnconstrainedRead {
  readonly tensor: string;
  readonly point: string;
  readonly value: Value;
}

/**
 * A memo table for the points of one tensor. Points whose indices are small get an exact small
 * integer key (a V8 "smi": |i| < 2^29 for arity 1, 2^14 for arity 2, 2^9 for arity 3), others a
 * string key; numbers and strings never collide in a Map.
 */
/** The points of one tensor a model holds at most: a JS Map holds 2^24 entries. */
const MAX_MEMO_POINTS = (1 << 24) - 1;

class PointMap {
  readonly map = new Map<number | string, Memo>();
  constructor(readonly arity: number) {}
  get(p: readonly Int[]): Memo | undefined {
    return this.map.get(pointKey(p));
  }
  set(p: readonly Int[], v: Memo): void {
    this.map.set(pointKey(p), v);
  }
}

function key1(i: Int): number | string {
  return typeof i === 'number' && i >= -0x20000000 && i < 0x20000000 ? i : `${i}`;
}
function key2(i: Int, j: Int): number | string {
  return typeof i === 'number' && typeof j === 'number' && i >= -0x4000 && i < 0x4000 && j >= -0x4000 && j < 0x4000 ? (i + 0x4000) * 0x8000 + j + 0x4000 : `${i},${j}`;
}
function key3(i: Int, j: Int, k: Int): number | string {
  return typeof i === 'number' && typeof j === 'number' && typeof k === 'number' && i >= -0x200 && i < 0x200 && j >= -0x200 && j < 0x200 && k >= -0x200 && k < 0x200
    ? ((i + 0x200) * 0x400 + j + 0x200) * 0x400 + k + 0x200
    : `${i},${j},${k}`;
}
function pointKey(p: readonly Int[]): number | string {
  switch (p.length) {
    case 0:
      return 0;
    case 1:
      return key1(p[0]!);
    case 2:
      return key2(p[0]!, p[1]!);
    case 3:
      return key3(p[0]!, p[1]!, p[2]!);
    default:
      return p.join(',');
  }
}

interface TensorInfo {
  readonly id: number;
  readonly name: string;
  readonly type: ValueType;
  readonly input: boolean;
  readonly pos: Pos;
  readonly arity: number;
  readonly memo: PointMap;
  readonly eqs: CompiledEquation[];
  /** A value of the tensor's type, returned for points not computed yet. */
  readonly placeholder: Value;
}

/** Model target: variables in a frame, tensor reads through the reader `T` (by tensor number). */
class ModelTarget implements Target {
  constructor(private readonly tensorId: (name: string) => number) {}
  slot(s: number): string {
    return `f[${s}]`;
  }
  bindLet(s: number, value: string, body: string): string {
    return `(f[${s}] = ${value}, ${body})`;
  }
  arrayRead(): string {
    throw new Error('internal: array read in a spec');
  }
  tensorRead(e: TensorRead, idx: readonly string[]): string {
    const id = this.tensorId(e.name);
    return idx.length <= 3 ? `T.r${idx.length}(${id}, ${idx.join(', ')})` : `T.rn(${id}, [${idx.join(', ')}])`;
  }
}

export class SpecModel {
  private readonly frame: Frame;
  private readonly tensors: TensorInfo[] = [];
  private readonly byName = new Map<string, TensorInfo>();
  /** Points an evaluation found missing (the evaluation's result is then discarded). */
  private readonly missing: { t: TensorInfo; p: Int[] }[] = [];
  private readonly paramSlots = new Map<string, number>();
  private readonly sites = new Sites();
  /** Points read outside every equation's domain (first 20), and how many there were. */
  readonly unconstrained: UnconstrainedRead[] = [];
  unconstrainedCount = 0;
  /** Points computed so far. */
  computed = 0;
  /** The reader generated code calls: inside equations (missing points signal) or outside. */
  private readonly inner: Record<string, unknown>;
  private readonly outer: Record<string, unknown>;
  /** A port for prophetic expressions evaluated with the plain ExprCompiler (⟦t⟧_{E;M}). */
  readonly port: Port;

  constructor(
    readonly cs: CheckedSpec,
    readonly params: ReadonlyMap<string, Int>,
    readonly inputs: InputSource,
    readonly file: string,
  ) {
    for (const t of cs.spec.tensors) {
      const info: TensorInfo = { id: this.tensors.length, name: t.name, type: t.type, input: t.role === 'input', pos: t.pos, arity: t.vars.length, memo: new PointMap(t.vars.length), eqs: [], placeholder: literalValue(0n, t.type) };
      this.tensors.push(info);
      this.byName.set(t.name, info);
    }
    this.inner = this.reader(true);
    this.outer = this.reader(false);
    const layout = new Layout();
    let sc = Scope.root(layout);
    for (const p of cs.params) {
      const b = sc.bindVar(p);
      sc = b.scope;
      this.paramSlots.set(p, b.slot);
    }
    for (const eq of cs.equations) {
      let esc = sc;
      const varSlots: number[] = [];
      for (const v of eq.vars) {
        const b = esc.bindVar(v);
        esc = b.scope;
        varSlots.push(b.slot);
      }
      const guard = this.compile<boolean>((em) => em.cond(eq.guard, esc), this.inner);
      const rhs = this.compile<Value>((em) => em.value(eq.rhs, esc), this.inner);
      this.byName.get(eq.tensor)!.eqs.push({ eq, varSlots, guard, rhs });
    }
    this.frame = layout.newFrame();
    for (const [p, s] of this.paramSlots) {
      const v = params.get(p);
      if (v === undefined) throw new Error(`internal: no value for parameter ${p}`);
      this.frame[s] = v;
    }
    this.port = {
      readArray: () => {
        throw new Error('internal: array read in a prophetic expression');
      },
      outOfBounds: () => {
        throw new Error('internal: array read in a prophetic expression');
      },
      readTensor: (name, idx) => this.tensor(name, idx),
    };
  }

  private compile<T>(gen: (em: Emitter) => string, reader: Record<string, unknown>): (f: Frame) => T {
    const em = new Emitter(new ModelTarget((n) => this.byName.get(n)!.id), this.sites);
    const code = gen(em);
    return em.build<(f: Frame) => T>(['f'], `return ${code};`, { T: reader }).fn;
  }

  /**
   * The tensor reader of generated code. Inside an equation (`inner`) a point not computed yet is
   * signalled to the driver; outside, it is computed on the spot.
   */
  private reader(inner: boolean): Record<string, unknown> {
    const get = (id: number, p: Int[]): Value => {
      const t = this.tensors[id]!;
      if (t.input) return this.inputs.input(t.name, t.type, p);
      const v = t.memo.get(p);
      if (v !== undefined && v !== PENDING) return v;
      if (!inner) return this.demand(t, p);
      // Not computed yet: note it and go on with a placeholder; the driver discards this
      // evaluation, computes the missing points, and evaluates again (no exception, no recursion).
      this.missing.push({ t, p });
      return t.placeholder;
    };
    return {
      r0: (id: number) => get(id, []),
      r1: (id: number, i: Int) => {
        const t = this.tensors[id]!;
        if (!t.input) {
          const v = t.memo.map.get(key1(i));
          if (v !== undefined && v !== PENDING) return v;
        }
        return get(id, [i]);
      },
      r2: (id: number, i: Int, j: Int) => {
        const t = this.tensors[id]!;
        if (!t.input) {
          const v = t.memo.map.get(key2(i, j));
          if (v !== undefined && v !== PENDING) return v;
        }
        return get(id, [i, j]);
      },
      r3: (id: number, i: Int, j: Int, k: Int) => {
        const t = this.tensors[id]!;
        if (!t.input) {
          const v = t.memo.map.get(key3(i, j, k));
          if (v !== undefined && v !== PENDING) return v;
        }
        return get(id, [i, j, k]);
      },
      rn: (id: number, p: Int[]) => get(id, p),
    };
  }

  /** ⟦A⟧_M(n̄). */
  tensor(name: string, point: readonly Int[]): Value {
    const t = this.byName.get(name);
    if (t === undefined) throw new Error(`internal: unknown tensor ${name}`);
    if (t.input) return this.inputs.input(name, t.type, point);
    const hit = t.memo.get(point);
    if (hit !== undefined && hit !== PENDING) return hit;
    return this.demand(t, [...point]);
  }

  /** Compile a prophetic expression over the parameters plus `vars` (bound by the caller). */
  compileProphetic(e: Expr, vars: readonly string[]): { fn: (f: Frame) => Value; cond: (c: Expr) => (f: Frame) => boolean; frame: Frame; slots: number[] } {
    const layout = new Layout();
    let sc = Scope.root(layout);
    const pslots: [number, Int][] = [];
    for (const p of this.cs.params) {
      const b = sc.bindVar(p);
      sc = b.scope;
      pslots.push([b.slot, this.params.get(p)!]);
    }
    const slots: number[] = [];
    for (const v of vars) {
      const b = sc.bindVar(v);
      sc = b.scope;
      slots.push(b.slot);
    }
    const scope = sc;
    const fn = this.compile<Value>((em) => em.value(e, scope), this.outer);
    const frame = layout.newFrame();
    for (const [s, v] of pslots) frame[s] = v;
    return { fn, cond: (c) => this.compile<boolean>((em) => em.cond(c, scope), this.outer), frame, slots };
  }

  /** Compute t(p) and every point it needs, with an explicit stack instead of recursion. */
  private demand(t0: TensorInfo, p0: Int[]): Value {
    const stack: { t: TensorInfo; p: Int[] }[] = [{ t: t0, p: p0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const cur = top.t.memo.get(top.p);
      if (cur !== undefined && cur !== PENDING) {
        stack.pop();
        continue;
      }
      if (top.t.memo.map.size >= MAX_MEMO_POINTS) this.tooMany(top.t);
      top.t.memo.set(top.p, PENDING);
      this.missing.length = 0;
      const v = this.evalPoint(top.t, top.p);
      if (this.missing.length > 0) {
        for (const dep of this.missing) {
          if (dep.t.memo.get(dep.p) === PENDING) this.cycle(stack, dep);
          stack.push(dep);
        }
        continue;
      }
      top.t.memo.set(top.p, v);
      this.computed++;
      stack.pop();
    }
    return t0.memo.get(p0) as Value;
  }

  /** The value of computed tensor t at p from the equation whose domain contains p. */
  private evalPoint(t: TensorInfo, p: readonly Int[]): Value {
    const f = this.frame;
    let found: CompiledEquation | null = null;
    for (const ce of t.eqs) {
      for (let i = 0; i < ce.varSlots.length; i++) f[ce.varSlots[i]!] = p[i]!;
      if (ce.guard(f)) {
        if (found !== null) this.overlap(t.name, p, found.eq, ce.eq);
        found = ce;
      }
    }
    if (found === null) {
      // Outside every domain: unconstrained. Any value makes a model; pick a seeded one.
      const v = this.inputs.unconstrained(t.name, t.type, p);
      this.unconstrainedCount++;
      if (this.unconstrained.length < 20) this.unconstrained.push({ tensor: t.name, point: p.join(', '), value: v });
      return v;
    }
    for (let i = 0; i < found.varSlots.length; i++) f[found.varSlots[i]!] = p[i]!;
    return found.rhs(f);
  }

  private tooMany(t: TensorInfo): never {
    throw new SchedInputError([diag(this.file, t.pos, 'io', `the spec's model needs more than ${MAX_MEMO_POINTS} points of '${t.name}' for these parameters`, 'smaller parameters (or a slice, --slice)', `more than ${MAX_MEMO_POINTS} points`)]);
  }

  private cycle(stack: readonly { t: TensorInfo; p: Int[] }[], dep: { t: TensorInfo; p: Int[] }): never {
    const key = (x: { t: TensorInfo; p: Int[] }): string => `${x.t.name}(${x.p.join(', ')})`;
    const start = stack.findIndex((s) => key(s) === key(dep));
    const path = [...stack.slice(start), dep].map(key).join(' → ');
    const pos = dep.t.eqs[0]?.eq.source.pos ?? dep.t.pos;
    throw new SchedInputError([diag(this.file, pos, 'spec', `the spec is not well founded: ${path} (a point depends on itself)`, 'a well-founded system of equations', `a cycle of length ${stack.length - start}`)]);
  }

  private overlap(tensor: string, point: readonly Int[], a: NormEquation, b: NormEquation): never {
    throw new SchedInputError([diag(this.file, b.source.pos, 'spec', `equations ${a.ordinal} (line ${a.source.pos.line}) and ${b.ordinal} (line ${b.source.pos.line}) of '${tensor}' both define ${tensor}(${point.join(', ')})`, 'pairwise disjoint domains', 'an overlap')]);
  }
}
