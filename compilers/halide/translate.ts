// Halide 14's lowered IR (taken after "bounding small realizations": multi-dimensional Realize and
// Provide, the input of storage flattening) translated to annotated SCHED, and the Func
// definitions translated to the algorithm whose SARE is the spec (compilers/algorithm/sare.ts). The
// annotation of every store comes from the `trace_stores()` call Halide carried into its value
// (the Func name and the store's logical coordinates); the update stage and the RVar values come
// from the names of the enclosing loops and lets (`f.s1.r$x`). Every node kind is translated or
// rejected with `unsupported: <kind>`; nothing is dropped without a note.
//
// Conventions (docs/halide.md): the output's mins are 0 (the pipeline is realised over
// [0, extent) in each dimension); the inputs' mins and extents, the output's extents and integer
// Params are the spec's parameters; index arithmetic is on unbounded integers (Halide asserts that buffers are smaller
// than 2^31); the top-level asserts Halide inserts (required regions inside the buffers, extents
// non-negative) are the implementation's assumptions, since the pipeline fails instead of running
// when one does not hold.

import { checkAlgorithm, type Algorithm, type AlgFunc } from '../algorithm/algorithm.ts';
import { algorithmToSpec } from '../algorithm/sare.ts';
import { updateAsReduction, withUpdateReduction } from '../algorithm/update-reduction.ts';
import { BUILTIN_FUNCTIONS, NO_POS, type ReduceOp, VALUE_TYPES, type ValueType } from '../../core/language/ast.ts';
import { floatText, printExpr, printSpec } from '../../core/language/printer.ts';
import { neutralElement, operatorOf } from '../../core/language/reductions.ts';
import { KEYWORDS } from '../../core/language/lexer.ts';
import { findRfactors, type Intermediate, NO_RFACTOR, type Rfactors, rejectUnhookedRfactor } from './rfactor.ts';
import { type DriverFunc, type DriverOutput, Unsupported } from './funcs.ts';
import { collectCalls, type HExpr, HirParseError, type HStmt, isTraceCall, parseHExpr, parseHStmt, printHExpr } from './hir.ts';
import { exactDefinition, type LoweredDefinitions, loweredDefinitions, onlyFloat32 } from './constants.ts';
import { halideTypeName, hirType, isFloatH, noOverflowH } from './types.ts';
import type { SizeLimit } from './size-limits.ts';

export { type DriverFunc, type DriverOutput, Unsupported } from './funcs.ts';

/** An expression that is not an affine index (tried first, then the value form). */
class NotIndex extends Error {}

const SCHED_TYPES: Record<string, string> = {
  bool: 'bool', uint1: 'bool', uint8: 'u8', uint16: 'u16', uint32: 'u32', uint64: 'u64',
  int8: 'i8', int16: 'i16', int32: 'i32', int64: 'i64', float32: 'f32', float64: 'f64',
};

function schedType(t: string): string {
  const s = SCHED_TYPES[t];
  if (s === undefined) throw new Unsupported(/x\d+$/.test(t) ? 'vector type' : 'type', t);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Names

// A Func named like a SCHED function (`load`, `exp`) or type would read as a call: renamed too.
const RESERVED = new Set<string>([...KEYWORDS, ...BUILTIN_FUNCTIONS, ...VALUE_TYPES]);

class Names {
  private readonly byHalide = new Map<string, string>();
  private readonly taken = new Set<string>();
  /** A SCHED identifier for a Halide name (`blur_y.s0.y.yi.$n` → `blur_y_s0_y_yi_n`), one per name. */
  get(h: string, prefix = '', tensor = false): string {
    const key = `${prefix}\u0000${h}\u0000${tensor}`;
    const have = this.byHalide.get(key);
    if (have !== undefined) return have;
    let base = prefix + h.replace(/\$/g, '').replace(/[^A-Za-z0-9_]/g, '_').replace(/_+/g, '_').replace(/^_+/, '').replace(/_$/, '');
    if (base === '' || /^\d/.test(base)) base = `h${base}`;
    if (RESERVED.has(base) || (tensor && /_\d+$/.test(base))) base = `${base}_v`;
    let n = base;
    for (let k = 2; this.taken.has(n); k++) n = `${base}_v${k}`;
    this.taken.add(n);
    this.byHalide.set(key, n);
    return n;
  }
}

// ---------------------------------------------------------------------------------------------
// Scopes

interface Buffer {
  readonly array: string;
  readonly type: string;
  readonly mins: readonly string[];
}

type Binding =
  | { readonly k: 'idx'; readonly sched: string; readonly e: HExpr | null; readonly scope: Scope | null; used: boolean }
  /** `stmt`: bound by a LetStmt (evaluated where it stands, not where it is used). */
  | { readonly k: 'lazy'; readonly e: HExpr; readonly scope: Scope; readonly stmt?: boolean }
  | { readonly k: 'buffer'; readonly buf: Buffer }
  /** A fused loop variable t = outer * div + inner, read only as `t % div` and `t / div`. */
  | { readonly k: 'fused'; readonly inner: string; readonly outer: string; readonly div: string }
  /** The last stage whose store `produce f` has translated so far (stages run in order). */
  | { readonly k: 'produce'; readonly count: { last: number } }
  /**
   * The lets of NAMES, textually before a statement that came earlier in the same block, do not
   * name the stage of a store from here on. Halide prints LetStmt(x, v, body) as `let x = v`
   * followed by body at the same indentation, so `let x = v; S1; S2` is also how
   * Block(LetStmt(x, v, S1), S2) prints, and a stage's loop nest (its `<f>.s<k>.…` lets with it)
   * is S1 only: `let Q.s1.r$x.loop_min.orig = 0; for (Q.s1.r$x, …) {…}; Q(…) = …` ends with the
   * store of a later stage of Q that has no loop of its own.
   */
  | { readonly k: 'closed'; readonly names: ReadonlySet<string> };

class Scope {
  constructor(
    readonly parent: Scope | null,
    readonly name: string,
    readonly b: Binding,
  ) {}
  find(name: string, kind?: Binding['k']): Binding | undefined {
    for (let s: Scope | null = this; s !== null; s = s.parent) if (s.name === name && (kind === undefined || s.b.k === kind)) return s.b;
    return undefined;
  }
  bind(name: string, b: Binding): Scope {
    return new Scope(this, name, b);
  }
}

interface Trace {
  readonly func: string;
  readonly coords: readonly HExpr[];
  readonly scope: Scope;
}

interface Ctx {
  /** Index mode: expand every let to its definition (for assumptions over the parameters only). */
  readonly expand: boolean;
  /** Spec mode: Func calls are tensor reads. */
  readonly spec: boolean;
  /** Where found trace calls are recorded (values of Provides). */
  readonly traces: Trace[] | null;
  /** Let bindings read, marked used only if the whole translation succeeds. */
  readonly marks?: Binding[];
  /** Spec mode: the Func being defined (a 0-dimensional Func reads itself at its unit variable). */
  readonly self?: string;
  /**
   * Implementation mode, inside an operand of a `select`: a read of a Func's buffer (not an input)
   * is a checked read `load(…)`. Halide's select evaluates both operands, and bounds inference
   * computes a producer only where the select chooses it, so the other operand reads cells of the
   * allocation that were never computed, and discards them (an undef load in LLVM, defined).
   */
  readonly discard?: boolean;
}

const IDX: Ctx = { expand: false, spec: false, traces: null };

// ---------------------------------------------------------------------------------------------

export interface Translation {
  readonly text: string;
  readonly specName: string;
  readonly implName: string;
  readonly notes: string[];
  readonly stores: number;
  /**
   * Stores under a data-dependent `if` (an RDom predicate reading memory), translated as
   * `f[ι] := select(c, v, f[ι])`: an over-approximation of their accesses (guarded()).
   */
  readonly guardedStores: number;
  /** Spec parameter ↔ Halide name (`blur_y_extent_0` ↔ `blur_y.extent.0`, `h` ↔ Param h). */
  readonly params: readonly { readonly sched: string; readonly halide: string }[];
  readonly inputs: readonly { readonly name: string; readonly array: string; readonly type: string; readonly extents: readonly string[] }[];
  /** Non-integer Params, as 0-dimensional input arrays. */
  readonly scalarInputs: readonly { readonly name: string; readonly array: string }[];
  readonly outputArray: string;
  /** Halide's buffer-size checks (size-limits.ts), whose affine consequences simplify.ts assumes. */
  readonly sizeLimits: readonly SizeLimit[];
}

export interface TranslateOptions {
  /**
   * The caller has the algorithm's own spec (`sched fuzz --compiler halide` writes the script from
   * it) and replaces the translated one: RDom predicates, which the translated spec would lack,
   * are then no reason to stop. The translated spec still lacks them.
   */
  readonly specFromCaller?: boolean;
}

export function translate(d: DriverOutput, name: string, opts: TranslateOptions = {}): Translation {
  try {
    return new Translator(d, name, opts).run();
  } catch (e) {
    // Halide printed something this reader does not know: a construct of its own, named.
    if (e instanceof HirParseError) throw new Unsupported('IR text', e.message);
    throw e;
  }
}

class Translator {
  readonly names = new Names();
  readonly notes: string[] = [];
  readonly funcs: ReadonlyMap<string, DriverFunc>;
  /** The Funcs of the algorithm as written (the spec's); `funcs` are those the schedule left. */
  readonly specFuncs: ReadonlyMap<string, DriverFunc>;
  rf: Rfactors = NO_RFACTOR;
  readonly inputs: ReadonlyMap<string, DriverOutput['inputs'][number]>;
  readonly intParams: ReadonlySet<string>;
  readonly otherParams: ReadonlySet<string>;
  readonly usedParams = new Map<string, string>();
  readonly assumes: string[] = [];
  stores = 0;
  guardedStores = 0;
  metaAsserts = 0;
  readonly sizeLimits: SizeLimit[] = [];
  /** Asserts inside loops or branches (not assumptions: they are checked where they run), by kind. */
  readonly nestedAsserts = new Map<string, number>();
  /**
   * The conditions of the affine `if`s around the statement being translated, when no loop
   * encloses it (null under a loop): an assert there is assumed under them (assertUnder).
   */
  private ifPath: { readonly c: HExpr; readonly sc: Scope; readonly holds: boolean }[] | null = [];
  /** Non-integer Params read by the program or the spec (0-dimensional inputs). */
  readonly scalarInputs = new Set<string>();

  constructor(
    readonly d: DriverOutput,
    readonly name: string,
    readonly opts: TranslateOptions = {},
  ) {
    this.funcs = new Map(d.funcs.map((f) => [f.name, f]));
    this.specFuncs = new Map((d.algorithm?.funcs ?? d.funcs).map((f) => [f.name, f]));
    this.inputs = new Map(d.inputs.map((i) => [i.name, i]));
    this.intParams = new Set(d.params.filter((p) => /^[iu](8|16|32|64)$/.test(p.type)).map((p) => p.name));
    this.otherParams = new Set(d.params.filter((p) => !this.intParams.has(p.name)).map((p) => p.name));
  }

  scalars(): DriverOutput['params'][number][] {
    return this.d.params.filter((p) => this.scalarInputs.has(p.name));
  }

  /**
   * A Func definition's text (Python's str(), float constants rounded to 6 decimals) with its
   * float constants exact, from the lowering of the definitions (constants.ts). `stage` 0 is the
   * pure definition, k the update k - 1; `where` texts are RDom predicates.
   */
  definition(func: string, stage: number, text: string, kind: 'value' | 'where' = 'value'): HExpr {
    const py = parseHExpr(text);
    if (this.lowered === null) {
      // The definitions the traced lowering realizes are in its first pass (the algorithm's, with
      // a schedule hook); those it inlines in the lowering of the definitions (driver.py).
      const srcs = [(this.d.algorithm ?? this.d.traced).initial, this.d.definitions?.initial].filter((x): x is string => typeof x === 'string');
      const all = srcs.map(loweredDefinitions);
      const merge = <T>(pick: (l: LoweredDefinitions) => ReadonlyMap<string, readonly T[]>): Map<string, T[]> => {
        const m = new Map<string, T[]>();
        for (const l of all) for (const [k, v] of pick(l)) m.set(k, [...(m.get(k) ?? []), ...v]);
        return m;
      };
      this.lowered = { provides: merge((l) => l.provides), conds: merge((l) => l.conds) };
    }
    const cands = kind === 'value' ? (this.lowered.provides.get(func) ?? []).map((p) => ({ stage: p.stage, e: p.value })) : (this.lowered.conds.get(func) ?? []).map((c) => ({ stage: c.stage, e: c.cond }));
    const r = exactDefinition(py, cands, stage);
    if (r.why !== null) this.inexact.set(`${func}/${stage}`, this.d.definitions?.error ?? r.why);
    return r.e;
  }
  lowered: LoweredDefinitions | null = null;
  /** Why a definition's constants could not be read exactly (the translator refuses them where used). */
  readonly inexact = new Map<string, string>();

  /**
   * A float constant as SCHED reads it back exactly: finite ones in the shortest decimal that is
   * the same double (a float32 constant is its exact value, a double), ±∞ and NaN as `1.0 / 0.0`,
   * `-1.0 / 0.0` and `0.0 / 0.0` (SCHED's NaNs are one value). A constant printed with 6 decimals
   * is not exact (the printer's precision was not raised, or a definition not found in the
   * lowering of the definitions): refused, never rounded, unless a single float32 prints so.
   */
  floatConstant(e: Extract<HExpr, { k: 'float' }>, where: string): string {
    const t = schedType(e.t);
    // Printed with 6 decimals: exact only when a single float32 prints so (onlyFloat32).
    const only = e.t === 'float32' ? onlyFloat32(e.text) : null;
    if (only !== null) return `${t}(${floatText(only)})`;
    if (/^-?\d+\.\d{1,6}$/.test(e.text)) throw new Unsupported('float constant', `${e.text}${e.t === 'float32' ? 'f' : ''} in ${where} is printed with 6 decimals only, so its exact value is not known${this.inexactWhy()}`);
    if (Number.isNaN(e.v)) return `${t}(0.0 / 0.0)`;
    if (!Number.isFinite(e.v)) return `${t}(${e.v < 0 ? '-' : ''}1.0 / 0.0)`;
    return `${t}(${floatText(e.v)})`;
  }
  private inexactWhy(): string {
    const w = [...this.inexact].map(([k, v]) => `${k}: ${v}`);
    return w.length > 0 ? ` (${w.join('; ')})` : '';
  }

  /** Funcs whose pure definition is undef() (their stage-0 tensor has no equation). */
  readonly undefPure: string[] = [];

  /** A spec parameter for a buffer field or a Param; `null` for names that are not global. */
  global(n: string): string | null {
    let m: RegExpExecArray | null;
    if ((m = /^(.+)\.(min|extent|stride)\.(\d+)$/.exec(n)) && (m[1] === this.d.output || this.inputs.has(m[1]!))) {
      if (m[2] === 'min' && m[1] === this.d.output) return '0';
      if (m[2] === 'stride') throw new NotIndex(`buffer stride ${n}`);
      const p = this.names.get(n);
      this.usedParams.set(p, n);
      return p;
    }
    if (this.intParams.has(n)) {
      const p = this.names.get(n);
      this.usedParams.set(p, n);
      return p;
    }
    if (this.otherParams.has(n)) throw new NotIndex(`'${n}' is a ${this.d.params.find((p) => p.name === n)?.type} Param, not an index`);
    return null;
  }

  // ---- index expressions and conditions ---------------------------------------------------

  idx(e: HExpr, sc: Scope, cx: Ctx = IDX): string {
    switch (e.k) {
      case 'int':
        if (e.t !== null && e.t !== 'int32') throw new NotIndex(`${e.t} constant`);
        return e.v < 0n ? `(${e.v})` : String(e.v);
      case 'var': {
        const b = sc.find(e.name);
        if (b === undefined) {
          const g = this.global(e.name);
          if (g === null) throw new NotIndex(`unknown variable '${e.name}'`);
          return g;
        }
        if (b.k === 'idx') {
          if (cx.expand) {
            if (b.e === null || b.scope === null) throw new NotIndex(`'${e.name}' is a loop variable`);
            return this.idx(b.e, b.scope, cx);
          }
          if (cx.marks) cx.marks.push(b);
          else b.used = true;
          return b.sched;
        }
        if (b.k === 'lazy') return this.idx(b.e, b.scope, cx);
        if (b.k === 'fused') throw new NotIndex(`fused loop variable ${e.name} used other than as t % extent or t / extent`);
        throw new NotIndex(`'${e.name}' is not an index`);
      }
      case 'neg':
        return `(-${this.idx(e.a, sc, cx)})`;
      case 'bin': {
        if (!['+', '-', '*', '/', '%'].includes(e.op)) throw new NotIndex(`'${e.op}' in an index`);
        if ((e.op === '%' || e.op === '/') && e.a.k === 'var') {
          const f = sc.find(e.a.name);
          if (f?.k === 'fused') {
            if (this.idx(e.b, sc, { ...IDX, expand: true }) !== f.div) throw new NotIndex(`fused loop variable ${e.a.name} ${e.op} a divisor other than its inner extent`);
            return e.op === '%' ? f.inner : f.outer;
          }
        }
        if (e.op === '/' && !(e.b.k === 'int' && e.b.v > 0n)) {
          const q = this.exactQuotient(e.a, e.b, sc, cx);
          if (q !== null) return q;
        }
        const a = this.idx(e.a, sc, cx);
        const b = this.idx(e.b, sc, cx);
        const ca = this.constValue(e.a, sc);
        const cb = this.constValue(e.b, sc);
        if (e.op === '*' && ca === null && cb === null) throw new NotIndex(`product of two variables (${a} * ${b})`);
        if (e.op === '*') return ca !== null ? `(${ca < 0n ? `(${ca})` : ca} * ${b})` : `(${a} * ${cb! < 0n ? `(${cb})` : cb})`;
        if ((e.op === '/' || e.op === '%') && !(cb !== null && cb > 0n)) throw new NotIndex(`'${e.op}' by a non-constant`);
        if (e.op === '/' || e.op === '%') return `(${a} ${e.op} ${cb})`;
        return `(${a} ${e.op} ${b})`;
      }
      case 'cast':
        if (e.t !== 'int32') throw new NotIndex(`cast to ${e.t}`);
        return this.idx(e.a, sc, cx);
      case 'call':
        switch (e.name) {
          case 'min':
          case 'max':
            if (e.args.length !== 2) break;
            return `${e.name}(${this.idx(e.args[0]!, sc, cx)}, ${this.idx(e.args[1]!, sc, cx)})`;
          case 'select':
            if (e.args.length !== 3) break;
            return `select(${this.cond(e.args[0]!, sc, cx)}, ${this.idx(e.args[1]!, sc, cx)}, ${this.idx(e.args[2]!, sc, cx)})`;
          case 'likely':
          case 'likely_if_innermost':
          case 'promise_clamped':
          case 'unsafe_promise_clamped':
            return this.idx(e.args[0]!, sc, cx);
        }
        throw new NotIndex(`call to ${e.name}`);
      case 'let':
        return this.idx(e.body, sc.bind(e.name, { k: 'lazy', e: e.value, scope: sc }), cx);
      default:
        throw new NotIndex(`${e.k} in an index`);
    }
  }

  /**
   * `(d * y + c) / d` with d not a constant and c ∈ {0, -1} (bounds inference divides the last
   * value of a fused loop, x * y - 1, by one of its extents): Euclidean division gives y + c when
   * d ≥ 1, y - c when d ≤ -1 (for c = -1), and 0 when d = 0 (Halide's x / 0).
   */
  exactQuotient(num: HExpr, d: HExpr, sc: Scope, cx: Ctx): string | null {
    let c = 0n;
    let prod = num;
    if (num.k === 'bin' && num.op === '+' && num.b.k === 'int' && num.b.t === null) {
      c = num.b.v;
      prod = num.a;
    }
    if (c !== 0n && c !== -1n) return null;
    if (prod.k !== 'bin' || prod.op !== '*') return null;
    const dt = printHExpr(d);
    const y = printHExpr(prod.a) === dt ? prod.b : printHExpr(prod.b) === dt ? prod.a : null;
    if (y === null) return null;
    const ys = this.idx(y, sc, cx);
    const ds = this.idx(d, sc, cx);
    return c === 0n ? `select(${ds} == 0, 0, ${ys})` : `select(${ds} >= 1, ${ys} - 1, select(${ds} == 0, 0, ${ys} + 1))`;
  }

  /** The value of an integer expression that is a constant once lets are expanded (`f.extent.0.constrained = 3`). */
  constValue(e: HExpr, sc: Scope, depth = 0): bigint | null {
    if (depth > 50) return null;
    switch (e.k) {
      case 'int':
        return e.t === null || e.t === 'int32' ? e.v : null;
      case 'neg': {
        const a = this.constValue(e.a, sc, depth + 1);
        return a === null ? null : -a;
      }
      case 'var': {
        const b = sc.find(e.name);
        if (b?.k === 'lazy') return this.constValue(b.e, b.scope, depth + 1);
        if (b?.k === 'idx' && b.e !== null && b.scope !== null) return this.constValue(b.e, b.scope, depth + 1);
        return null;
      }
      case 'bin': {
        const a = this.constValue(e.a, sc, depth + 1);
        const b = a === null ? null : this.constValue(e.b, sc, depth + 1);
        if (a === null || b === null) return null;
        if (e.op === '+') return a + b;
        if (e.op === '-') return a - b;
        if (e.op === '*') return a * b;
        return null;
      }
      default:
        return null;
    }
  }

  /** A condition that is constant whatever the parameters: bounds queries never happen. */
  constCond(e: HExpr, sc: Scope): boolean | null {
    switch (e.k) {
      case 'int':
        return e.v !== 0n;
      case 'cast':
        return e.t === 'uint1' || e.t === 'bool' ? this.constCond(e.a, sc) : null;
      case 'not': {
        const a = this.constCond(e.a, sc);
        return a === null ? null : !a;
      }
      case 'bin': {
        if (e.op !== '&&' && e.op !== '||') return null;
        const a = this.constCond(e.a, sc);
        const b = this.constCond(e.b, sc);
        if (e.op === '&&') return a === false || b === false ? false : a === true && b === true ? true : null;
        return a === true || b === true ? true : a === false && b === false ? false : null;
      }
      case 'call':
        if (e.name === '_halide_buffer_is_bounds_query') return false;
        if (e.name === 'likely' || e.name === 'likely_if_innermost') return this.constCond(e.args[0]!, sc);
        return null;
      case 'var': {
        const b = sc.find(e.name);
        return b?.k === 'lazy' ? this.constCond(b.e, b.scope) : null;
      }
      default:
        return null;
    }
  }

  cond(e: HExpr, sc: Scope, cx: Ctx = IDX): string {
    const c = this.constCond(e, sc);
    if (c !== null) return String(c);
    switch (e.k) {
      case 'bin':
        if (e.op === '&&' || e.op === '||') return `(${this.cond(e.a, sc, cx)} ${e.op} ${this.cond(e.b, sc, cx)})`;
        if (['<', '<=', '>', '>=', '==', '!='].includes(e.op)) return `(${this.idx(e.a, sc, cx)} ${e.op} ${this.idx(e.b, sc, cx)})`;
        break;
      case 'not':
        return `!${this.cond(e.a, sc, cx)}`;
      case 'cast':
        if (e.t === 'uint1' || e.t === 'bool') return this.cond(e.a, sc, cx);
        break;
      case 'call':
        if (e.name === 'likely' || e.name === 'likely_if_innermost') return this.cond(e.args[0]!, sc, cx);
        // bitwise operations on booleans (uint1), as the simplifier writes some conjunctions
        if ((e.name === 'bitwise_and' || e.name === 'bitwise_or') && e.args.length === 2) return `(${this.cond(e.args[0]!, sc, cx)} ${e.name === 'bitwise_and' ? '&&' : '||'} ${this.cond(e.args[1]!, sc, cx)})`;
        if (e.name === 'bitwise_not' && e.args.length === 1) return `!${this.cond(e.args[0]!, sc, cx)}`;
        break;
      case 'var': {
        const b = sc.find(e.name);
        if (b?.k === 'lazy') return this.cond(b.e, b.scope, cx);
        break;
      }
      case 'let':
        return this.cond(e.body, sc.bind(e.name, { k: 'lazy', e: e.value, scope: sc }), cx);
      default:
        break;
    }
    throw new NotIndex('not an affine condition');
  }

  // ---- values ------------------------------------------------------------------------------

  val(e: HExpr, sc: Scope, cx: Ctx): string {
    switch (e.k) {
      case 'int':
        return e.t === null || e.t === 'int32' ? (e.v < 0n ? `(${e.v})` : String(e.v)) : `${schedType(e.t)}(${e.v})`;
      case 'float':
        return this.floatConstant(e, cx.spec ? `the definition of ${cx.self ?? 'a Func'}` : "Halide's lowered IR");
      case 'str':
        throw new Unsupported('StringImm', `"${e.v}" in a value`);
      case 'var': {
        const b = sc.find(e.name);
        if (b?.k === 'lazy') {
          // Inlining a LetStmt moves its evaluation to the use: only sound if it reads no memory
          // that a store in between could change (Funcs; inputs never change).
          if (b.stmt && !cx.spec) {
            const calls = new Set<string>();
            collectCalls(b.e, calls);
            const mem = [...calls].filter((c) => this.funcs.has(c));
            if (mem.length > 0) throw new Unsupported('LetStmt reading a Func', `${e.name} reads ${mem.join(', ')}; it would be evaluated where it is used`);
          }
          return this.val(b.e, b.scope, cx);
        }
        if (b === undefined && this.otherParams.has(e.name)) {
          // A non-integer Param is a 0-dimensional input (SCHED parameters are integers).
          this.scalarInputs.add(e.name);
          return cx.spec ? `${this.tensor(e.name)}()` : `${this.inputArray(e.name)}[]`;
        }
        // A loop variable or buffer field (int32), or an integer Param of its own type.
        const t = b === undefined && this.intParams.has(e.name) ? halideTypeName(this.d.params.find((p) => p.name === e.name)!.type) : 'int32';
        return `${schedType(t)}(${this.idx(e, sc, cx)})`;
      }
      case 'neg':
        // Halide has no negation of integers (it prints 0 - x); of Int(32)/Int(64), it would not wrap.
        if (!cx.spec && noOverflowH(this.typeOf(e, sc))) return `sub_nsw(0, ${this.val(e.a, sc, cx)})`;
        return `(-${this.val(e.a, sc, cx)})`;
      case 'not':
        return `!${this.val(e.a, sc, cx)}`;
      case 'bin': {
        const t = this.typeOf(e, sc);
        const a = this.val(e.a, sc, cx);
        const b = this.val(e.b, sc, cx);
        // Halide's Int(32) and Int(64) + - * do not wrap: overflow is undefined (its simplifier
        // assumes it away, its code generator emits nsw). The implementation's are checked; the
        // spec's have SCHED's value, which is theirs wherever they are defined.
        if (!cx.spec && noOverflowH(t) && (e.op === '+' || e.op === '-' || e.op === '*')) return `${{ '+': 'add_nsw', '-': 'sub_nsw', '*': 'mul_nsw' }[e.op]}(${a}, ${b})`;
        // A float modulo is a - b * floor(a / b) (CodeGen_LLVM), SCHED's % is integers only.
        if (e.op === '%' && isFloatH(t)) return `(${a} - ${b} * floor(${a} / ${b}))`;
        return `(${a} ${e.op} ${b})`;
      }
      case 'cast': {
        if (e.t.endsWith('*')) throw new Unsupported('pointer cast', e.t);
        return this.cast(e, sc, cx);
      }
      case 'let':
        return this.val(e.body, sc.bind(e.name, { k: 'lazy', e: e.value, scope: sc }), cx);
      case 'load':
        throw new Unsupported('Load', `${e.name}[…] (flattened storage is not translated; the IR before storage flattening is)`);
      case 'call':
        return this.call(e, sc, cx);
    }
  }

  /**
   * A cast with Halide's meaning (CodeGen_LLVM::visit(const Cast *)): between integers it wraps,
   * as SCHED's; float → integer truncates and is undefined out of range (fptosi/fptoui: a checked
   * `trunc_T` in the implementation); to bool (uint1) it keeps the low bit of an integer, and of a
   * float converted to uint8 first; `(T)f(…)` is how the printer types a call of type T (the
   * identity); `(T)reinterpret(x)` between integers of one width is the wrapping cast.
   */
  cast(e: Extract<HExpr, { k: 'cast' }>, sc: Scope, cx: Ctx): string {
    const to = halideTypeName(e.t);
    if (e.a.k === 'call' && e.a.name === 'reinterpret' && e.a.args.length === 1) return this.reinterpret(to, e.a.args[0]!, sc, cx);
    // The operand first: an intrinsic without counterpart is refused by its own name.
    const a = this.val(e.a, sc, cx);
    const from = this.typeOf(e.a, sc);
    if (from === to) return `${schedType(to)}(${a})`;
    if (to === 'bool' && from !== null && from !== 'bool') {
      if (isFloatH(from)) return `(${cx.spec ? 'u8' : 'trunc_u8'}(${a}) % 2 != 0)`;
      return `(${a} % 2 != 0)`;
    }
    if (isFloatH(from) && /^u?int\d+$/.test(to) && !cx.spec) return `trunc_${schedType(to)}(${a})`;
    if (from === null && to !== 'bool' && !isFloatH(to)) throw new Unsupported('cast', `to ${e.t} of ${printHExpr(e.a).slice(0, 80)}, whose type the IR text does not say`);
    return `${schedType(to)}(${a})`;
  }

  /**
   * `reinterpret` between integer types of one width is the wrapping cast; from a 32- or 64-bit
   * integer to the float of its width it is SCHED's `reinterpret_f32` / `reinterpret_f64` (the
   * float with those IEEE bits: what `fast_exp` builds 2^k with); any other has no SCHED counterpart.
   */
  reinterpret(to: string, x: HExpr, sc: Scope, cx: Ctx): string {
    const from = this.typeOf(x, sc);
    const bits = (t: string | null): string | null => (t !== null && /^u?int\d+$/.test(t) ? t.replace(/^u?int/, '') : null);
    if ((to === 'float32' || to === 'float64') && bits(from) === to.slice(5)) return `reinterpret_${schedType(to)}(${this.val(x, sc, cx)})`;
    if (bits(from) === null || bits(from) !== bits(to)) throw new Unsupported('Call reinterpret', `from ${from ?? 'an unknown type'} to ${to}: only integers of one width are translated (bits of a float have no SCHED counterpart)`);
    return `${schedType(to)}(${this.val(x, sc, cx)})`;
  }

  /** The Halide type of an expression of the IR at `sc` (types.ts), or null. */
  typeOf(e: HExpr, sc: Scope): string | null {
    return hirType(e, (n, call) => {
      if (call) {
        const f = this.funcs.get(n) ?? this.specFuncs.get(n);
        if (f) return halideTypeName(f.type);
        const i = this.inputs.get(n) ?? this.inputs.get(n.replace(/_im$/, ''));
        return i ? halideTypeName(i.type) : null;
      }
      const b = sc.find(n);
      if (b?.k === 'lazy') return this.typeOf(b.e, b.scope);
      if (b !== undefined) return 'int32';
      const p = this.d.params.find((q) => q.name === n);
      return p ? halideTypeName(p.type) : 'int32';
    });
  }

  call(e: Extract<HExpr, { k: 'call' }>, sc: Scope, cx: Ctx): string {
    const a = e.args;
    switch (e.name) {
      case 'reinterpret':
        // Unprinted type: int32.
        if (a.length === 1) return this.reinterpret('int32', a[0]!, sc, cx);
        break;
      case 'bitwise_and':
      case 'bitwise_or':
      case 'bitwise_xor':
      case 'bitwise_not': {
        // On booleans (Python's `&`, `|`, `~` on conditions): the logical operations. On integers
        // they have no SCHED counterpart.
        if (!a.every((x) => this.typeOf(x, sc) === 'bool') || a.length !== (e.name === 'bitwise_not' ? 1 : 2)) break;
        const b = (x: HExpr): string => {
          try {
            return this.cond(x, sc, cx);
          } catch (err) {
            if (!(err instanceof NotIndex)) throw err;
            return this.val(x, sc, cx);
          }
        };
        if (e.name === 'bitwise_not') return `!(${b(a[0]!)})`;
        return `(${b(a[0]!)} ${{ bitwise_and: '&&', bitwise_or: '||', bitwise_xor: '!=' }[e.name]} ${b(a[1]!)})`;
      }
      case 'mux':
        // mux(i, v0, …, vn): select(i == 0, v0, select(i == 1, v1, … vn)), the last value for any
        // index out of range (CodeGen_Internal.cpp, lower_mux).
        if (a.length >= 2) {
          let i: string;
          let affine = true;
          try {
            i = this.idx(a[0]!, sc, cx);
          } catch (err) {
            if (!(err instanceof NotIndex)) throw err;
            i = this.val(a[0]!, sc, cx);
            affine = false;
          }
          const vs = a.slice(1).map((v) => this.val(v, sc, cx));
          const t = this.typeOf(a[0]!, sc);
          const k = (n: number): string => (affine ? String(n) : `${schedType(t ?? 'int32')}(${n})`);
          return vs.slice(0, -1).reduceRight((acc, v, n) => `select(${i} == ${k(n)}, ${v}, ${acc})`, vs[vs.length - 1]!);
        }
        break;
      case 'absd':
        if (a.length === 2) {
          // |a - b| without overflow: in the unsigned type of the width for integers.
          const t = this.typeOf(a[0]!, sc);
          const [x, y] = [this.val(a[0]!, sc, cx), this.val(a[1]!, sc, cx)];
          if (isFloatH(t)) return `abs(${x} - ${y})`;
          if (t === null) throw new Unsupported('Call absd', 'of operands whose type the IR text does not say');
          const u = schedType(t.startsWith('u') ? t : `u${t}`);
          return `select(${x} < ${y}, ${u}(${y}) - ${u}(${x}), ${u}(${x}) - ${u}(${y}))`;
        }
        break;
      case 'shift_left': {
        // By a constant c below the width: LLVM's shl, the bits moved up (wrapping): × 2^c in the
        // operand's type, whose SCHED `*` wraps. A shift by a variable or out of range is refused.
        const t = this.typeOf(a[0]!, sc);
        const c = a.length === 2 ? shiftAmount(a[1]!) : null;
        const width = t === null ? null : /^u?int(\d+)$/.exec(t)?.[1];
        if (c === null || width === undefined || width === null || c >= BigInt(width)) throw new Unsupported('Call shift_left', `of ${t ?? 'an unknown type'} by ${a[1] ? printHExpr(a[1]) : 'nothing'}: only integers shifted by a constant below their width are translated`);
        return `(${this.val(a[0]!, sc, cx)} * ${schedType(t!)}(${1n << c}))`;
      }
      case 'is_nan_f32':
      case 'is_nan_f64':
        if (a.length === 1) return `(${this.val(a[0]!, sc, cx)} != ${this.val(a[0]!, sc, cx)})`;
        break;
      case 'trunc_f32':
      case 'trunc_f64':
        if (a.length === 1) {
          const x = this.val(a[0]!, sc, cx);
          return `select(${x} < 0.0, ceil(${x}), floor(${x}))`;
        }
        break;
      case 'return_second':
        if (a.length === 2 && isTraceCall(a[0]!)) {
          const t = a[0] as Extract<HExpr, { k: 'call' }>;
          const func = t.args[0];
          const coords = t.args[2];
          if (func?.k !== 'str' || coords?.k !== 'cast' || coords.a.k !== 'call' || coords.a.name !== 'make_struct') throw new Unsupported('trace call', 'unexpected arguments');
          if (cx.traces === null) throw new Unsupported('trace call', 'outside the value of a store');
          cx.traces.push({ func: func.v, coords: coords.a.args, scope: sc });
          return this.val(a[1]!, sc, cx);
        }
        break;
      case 'min':
      case 'max':
        if (a.length === 2) {
          try {
            return `i32(${this.idx(e, sc, cx)})`;
          } catch (err) {
            if (!(err instanceof NotIndex)) throw err;
          }
          return `${e.name}(${this.val(a[0]!, sc, cx)}, ${this.val(a[1]!, sc, cx)})`;
        }
        break;
      case 'select':
        if (a.length === 3) {
          let c: string;
          try {
            c = this.cond(a[0]!, sc, cx);
          } catch (err) {
            if (!(err instanceof NotIndex)) throw err;
            c = this.val(a[0]!, sc, cx);
          }
          const ocx = cx.spec ? cx : { ...cx, discard: true };
          return `select(${c}, ${this.val(a[1]!, sc, ocx)}, ${this.val(a[2]!, sc, ocx)})`;
        }
        break;
      case 'likely':
      case 'likely_if_innermost':
      case 'promise_clamped':
      case 'unsafe_promise_clamped':
      case 'strict_float': // IEEE as written: what SCHED's float operations are anyway
        return this.val(a[0]!, sc, cx);
      case 'abs':
      case 'sqrt_f32':
      case 'sqrt_f64':
      case 'exp_f32':
      case 'exp_f64':
      case 'log_f32':
      case 'log_f64':
      case 'floor_f32':
      case 'floor_f64':
      case 'ceil_f32':
      case 'ceil_f64':
        if (a.length === 1) return `${e.name.replace(/_f(32|64)$/, '')}(${this.val(a[0]!, sc, cx)})`;
        break;
      case 'pow_f32':
      case 'pow_f64':
        if (a.length === 2) return `pow(${this.val(a[0]!, sc, cx)}, ${this.val(a[1]!, sc, cx)})`;
        break;
      default:
        return this.read(e, sc, cx);
    }
    throw new Unsupported(`Call ${e.name}`, `with ${a.length} arguments`);
  }

  /** A read of a Func or an input: a tensor read (spec) or an array read (implementation). */
  read(e: Extract<HExpr, { k: 'call' }>, sc: Scope, cx: Ctx): string {
    const ix = (): string[] => e.args.map((x) => this.idx(x, sc, cx));
    const wrap = (f: () => string[]): string[] => {
      try {
        return f();
      } catch (err) {
        if (err instanceof NotIndex) throw new Unsupported('non-affine access', `${e.name}(…): ${err.message}`);
        throw err;
      }
    };
    if (cx.spec) {
      const input = e.name.endsWith('_im') ? e.name.slice(0, -3) : e.name;
      if (this.specFuncs.has(e.name) && e.args.length === 0) return `${this.tensor(e.name)}(${e.name === cx.self ? UNIT : '0'})`;
      if (this.inputs.has(input) || this.specFuncs.has(e.name)) return `${this.tensor(this.specFuncs.has(e.name) ? e.name : input)}(${wrap(ix).join(', ')})`;
      throw new Unsupported(`Call ${e.name}`, 'not a Func of pipeline().funcs, an input or a known intrinsic');
    }
    const b = sc.find(e.name, 'buffer');
    const load = (r: string): string => (cx.discard ? `load(${r})` : r);
    if (b?.k === 'buffer') {
      const is = wrap(ix);
      return load(`${b.buf.array}[${is.map((x, k) => (b.buf.mins[k] === '0' ? x : `${x} - ${b.buf.mins[k]}`)).join(', ')}]`);
    }
    if (this.inputs.has(e.name)) return `${this.inputArray(e.name)}[${wrap(ix).map((x, k) => `${x} - ${this.global(`${e.name}.min.${k}`)!}`).join(', ')}]`;
    if (e.name === this.d.output) return load(`${this.outputArray()}[${wrap(ix).join(', ')}]`);
    if (this.funcs.has(e.name)) throw new Unsupported('read of an unrealized Func', e.name);
    throw new Unsupported(`Call ${e.name}`, 'an extern or intrinsic call this translator does not know');
  }

  tensor(h: string): string {
    return this.names.get(h, '', true);
  }
  inputArray(h: string): string {
    return this.names.get(h, 'in_');
  }
  outputArray(): string {
    return this.names.get(this.d.output, 'out_');
  }

  // ---- statements --------------------------------------------------------------------------

  /** `top`: statements run once, unconditionally (their asserts are assumptions). */
  block(ss: readonly HStmt[], sc: Scope, top: boolean, lets: readonly string[] = []): string {
    const parts: string[] = [];
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i]!;
      if (s.k === 'let') {
        const rest = ss.slice(i + 1);
        let v: string | null = null;
        const marks: Binding[] = [];
        try {
          v = this.idx(s.value, sc, { ...IDX, marks });
          for (const m of marks) if (m.k === 'idx') m.used = true;
        } catch (err) {
          if (!(err instanceof NotIndex) && !(err instanceof Unsupported)) throw err;
        }
        if (v === null) {
          parts.push(this.block(rest, sc.bind(s.name, { k: 'lazy', e: s.value, scope: sc, stmt: true }), top, [...lets, s.name]));
        } else {
          const b: Binding = { k: 'idx', sched: this.names.get(s.name), e: s.value, scope: sc, used: false };
          const body = this.block(rest, sc.bind(s.name, b), top, [...lets, s.name]);
          parts.push(b.used ? `let ${b.sched} = ${v} in\n${body}` : body);
        }
        break;
      }
      const c = this.stmt(s, sc, top);
      if (c !== null) parts.push(c);
      // The lets before s may have been s's alone (see the 'closed' binding): for the stage of
      // a later store they say nothing. (Their values stay in scope.)
      if (lets.length > 0 && i + 1 < ss.length) sc = sc.bind('', { k: 'closed', names: new Set(lets) });
    }
    const real = parts.filter((p) => p !== 'skip');
    if (real.length === 0) return 'skip';
    if (real.length === 1) return real[0]!;
    return `{\n${real.map((p) => indent(p)).join(';\n')}\n}`;
  }

  stmt(s: HStmt, sc: Scope, top: boolean): string | null {
    switch (s.k) {
      case 'let':
        return this.block([s], sc, top);
      case 'assert':
        this.assert(s, sc, top);
        return null;
      case 'pc':
        return this.block(s.body, s.produce ? sc.bind(s.name, { k: 'produce', count: { last: -1 } }) : sc, top);
      case 'for': {
        const path = this.ifPath;
        this.ifPath = null;
        try {
          return this.loop(s, sc);
        } finally {
          this.ifPath = path;
        }
      }
      case 'realize': {
        const f = this.funcs.get(s.name);
        if (f === undefined) throw new Unsupported('Realize', `of '${s.name}', which is not in pipeline().funcs`);
        // `realize f(…) if c`: no memory when c fails (Halide found f unused there). The extents are
        // then 0, so an access made anyway is out of bounds, as it would be in Halide's code.
        const rc = s.cond === null ? true : this.constCond(s.cond, sc);
        const when = rc === true ? null : rc === false ? 'false' : this.must(() => this.cond(s.cond!, sc), `the condition of the Realize of ${s.name}`, 'conditional Realize');
        const arr = this.names.get(s.name, 'buf_');
        const lets: string[] = [];
        const mins: string[] = [];
        const exts: string[] = [];
        s.bounds.forEach(([mn, ex], k) => {
          const m = this.must(() => this.idx(mn, sc), `the realized min of ${s.name}`);
          if (/^-?\d+$/.test(m)) mins.push(m);
          else {
            const n = this.names.get(`${s.name}.realized_min.${k}`);
            lets.push(`let ${n} = ${m} in`);
            mins.push(n);
          }
          const e = this.must(() => this.idx(ex, sc), `the realized extent of ${s.name}`);
          exts.push(when === null ? e : when === 'false' ? '0' : `select(${when}, ${e}, 0)`);
        });
        const body = this.block(s.body, sc.bind(s.name, { k: 'buffer', buf: { array: arr, type: f.type, mins } }), false);
        return [...lets, `allocate ${arr}: ${f.type}[${exts.join(', ')}] in`, indent(body)].join('\n');
      }
      case 'if': {
        const c = this.constCond(s.cond, sc);
        if (c === true) return this.block(s.then, sc, top);
        if (c === false) return s.else ? this.block(s.else, sc, top) : null;
        let cond: string;
        try {
          cond = this.cond(s.cond, sc);
        } catch (err) {
          if (!(err instanceof NotIndex)) throw err;
          return this.guarded(s, sc, err.message);
        }
        const path = this.ifPath;
        const branch = (ss: readonly HStmt[], holds: boolean): string => {
          this.ifPath = path === null ? null : [...path, { c: s.cond, sc, holds }];
          try {
            return this.block(ss, sc, false);
          } finally {
            this.ifPath = path;
          }
        };
        const t = branch(s.then, true);
        const e = s.else ? branch(s.else, false) : null;
        return `if ${cond} then {\n${indent(t)}\n}${e !== null ? ` else {\n${indent(e)}\n}` : ''}`;
      }
      case 'provide':
        return this.provide(s, sc);
      case 'eval':
        if (isTraceCall(s.e) || s.e.k === 'int') return null; // trace events; `0` is a no-op Halide leaves
        if (s.e.k === 'call' && /^halide_semaphore_/.test(s.e.name)) throw new Unsupported('async', `${s.e.name} (line ${s.line}): an async producer, forked and synchronised by semaphores`);
        if (s.e.k === 'call' && /^halide_memoization_/.test(s.e.name)) throw new Unsupported('memoize', `${s.e.name} (line ${s.line})`);
        throw new Unsupported(`Evaluate ${s.e.k === 'call' ? s.e.name : s.e.k}`, `line ${s.line}`);
      case 'store':
        throw new Unsupported('Store', `${s.name}[…] (line ${s.line}): flattened storage is not translated`);
      case 'unknown':
        throw new Unsupported(s.kind, `'${s.text.slice(0, 80)}' (line ${s.line})`);
    }
  }

  /** A For loop (`stmt`): asserts under it are not assumed (ifPath is null). */
  loop(s: Extract<HStmt, { k: 'for' }>, sc: Scope): string {
    // GPU blocks, threads and lanes run in parallel and may not communicate (as `par`).
    const kind = { for: 'for', parallel: 'par', vectorized: 'par', unrolled: 'for', gpu_block: 'par', gpu_thread: 'par', gpu_lane: 'par' }[s.type.replace(/<.*>$/, '')];
    if (kind === undefined) throw new Unsupported(`For(${s.type})`, `loop ${s.name} (line ${s.line})`);
    const min = this.must(() => this.idx(s.min, sc), `the min of loop ${s.name}`);
    let ext: string;
    try {
      ext = this.idx(s.extent, sc);
    } catch (err) {
      if (!(err instanceof NotIndex)) throw err;
      const fused = this.fused(s, sc, kind, min);
      if (fused === null) throw new Unsupported('non-affine index', `the extent of loop ${s.name}: ${err.message}`);
      return fused;
    }
    const v = this.names.get(s.name);
    if (min === '0') {
      const body = this.block(s.body, sc.bind(s.name, { k: 'idx', sched: v, e: null, scope: null, used: false }), false);
      return `${kind} ${v} < ${ext} do\n${indent(body)}`;
    }
    const iv = this.names.get(`${s.name}.i`);
    const body = this.block(s.body, sc.bind(s.name, { k: 'idx', sched: v, e: null, scope: null, used: false }), false);
    return `${kind} ${iv} < ${ext} do\n${indent(`let ${v} = ${iv} + ${min} in\n${body}`)}`;
  }

  /**
   * An `if` on memory around one store: how Halide 14 lowers an RDom predicate that reads a Func
   * or an input. SCHED's conditions are affine, so `if (c) f(ι) = v` becomes
   * `f[ι] := select(c, v, f[ι])`: the same sequential semantics, with more accesses (the cell is
   * read and written, v evaluated, when c fails), so a race, out-of-bounds access or uninitialized
   * read of the original is one of the translation too, but not the converse: such a verdict is
   * not shown of Halide's until a run with the stores read as `if (c) store` shows it
   * (`guardedStores`, guarded.ts). Anything else under the condition (a loop,
   * two stores, an else branch) is rejected.
   */
  guarded(s: Extract<HStmt, { k: 'if' }>, sc: Scope, why: string): string {
    const one = (ss: readonly HStmt[]): boolean => {
      const last = ss[ss.length - 1];
      if (last === undefined || ss.slice(0, -1).some((t) => t.k !== 'let')) return false;
      return last.k === 'provide' || (last.k === 'if' && last.else === null && one(last.then));
    };
    if (s.else !== null || !one(s.then)) throw new Unsupported('IfThenElse on a data-dependent condition', `the condition of the if at line ${s.line} (${why}) guards ${s.else !== null ? 'an else branch' : 'something other than one store'}`);
    this.guards.push({ e: s.cond, sc });
    try {
      return this.block(s.then, sc, false);
    } finally {
      this.guards.pop();
    }
  }
  /** The memory conditions around the store being translated (guarded()). */
  readonly guards: { readonly e: HExpr; readonly sc: Scope }[] = [];

  /**
   * A loop made by `fuse`: its extent is a product a * b of two non-constant extents and its body
   * reads the variable as t % d and t / d with d one of them. It becomes two nested loops.
   */
  fused(s: Extract<HStmt, { k: 'for' }>, sc: Scope, kind: string, min: string): string | null {
    if (min !== '0') return null;
    let e: HExpr = s.extent;
    let esc = sc;
    for (let guard = 0; e.k === 'var' && guard < 100; guard++) {
      const b = esc.find(e.name);
      if (b?.k !== 'lazy') return null;
      e = b.e;
      esc = b.scope;
    }
    if (e.k !== 'bin' || e.op !== '*') return null;
    const X = { ...IDX, expand: true };
    let a: string;
    let b: string;
    try {
      // Over the parameters only: the extents of a fused loop are fixed before the pipeline runs.
      a = this.idx(e.a, esc, X);
      b = this.idx(e.b, esc, X);
    } catch (err) {
      if (err instanceof NotIndex) return null;
      throw err;
    }
    const divisors = new Set<string>();
    const scan = (x: HExpr): void => {
      if (x.k === 'bin') {
        if ((x.op === '%' || x.op === '/') && x.a.k === 'var' && x.a.name === s.name) divisors.add(this.idx(x.b, sc, X));
        scan(x.a);
        scan(x.b);
      } else if (x.k === 'call') x.args.forEach(scan);
      else if (x.k === 'let') {
        scan(x.value);
        scan(x.body);
      } else if (x.k === 'cast' || x.k === 'not' || x.k === 'neg') scan(x.a);
    };
    const walk = (ss: readonly HStmt[]): void => {
      for (const t of ss) {
        if (t.k === 'let' || t.k === 'assert') scan(t.k === 'let' ? t.value : t.cond);
        else if (t.k === 'for') [t.min, t.extent].forEach(scan);
        else if (t.k === 'if') scan(t.cond);
        else if (t.k === 'provide') [...t.args, t.value].forEach(scan);
        else if (t.k === 'realize') t.bounds.forEach(([m, x]) => [m, x].forEach(scan));
        if ('body' in t) walk(t.body);
        if (t.k === 'if') {
          walk(t.then);
          if (t.else) walk(t.else);
        }
      }
    };
    walk(s.body);
    if (divisors.size !== 1) return null;
    const div = [...divisors][0]!;
    if (div !== a && div !== b) return null;
    const [innerE, outerE] = div === a ? [e.a, e.b] : [e.b, e.a];
    const innerExt = this.must(() => this.idx(innerE, esc), `the inner extent of fused loop ${s.name}`);
    const outerExt = this.must(() => this.idx(outerE, esc), `the outer extent of fused loop ${s.name}`);
    // t < a * b runs a * b times, the nested loops max(a, 0) * max(b, 0) times: the same unless both
    // are negative. That case is excluded by an assumption, which the verdict states.
    this.assumes.push(`(${a} >= 0 || ${b} >= 0)`);
    this.notes.push(`fused loop ${s.name}: assumed that its two extents are not both negative`);
    const inner = this.names.get(`${s.name}.inner`);
    const outer = this.names.get(`${s.name}.outer`);
    const body = this.block(s.body, sc.bind(s.name, { k: 'fused', inner, outer, div }), false);
    return `${kind} ${outer} < ${outerExt} do\n${indent(`${kind} ${inner} < ${innerExt} do\n${indent(body)}`)}`;
  }

  must(f: () => string, what: string, kind = 'non-affine index'): string {
    try {
      return f();
    } catch (err) {
      if (err instanceof NotIndex) throw new Unsupported(kind, `${what}: ${err.message}`);
      throw err;
    }
  }

  assert(s: Extract<HStmt, { k: 'assert' }>, sc: Scope, top: boolean): void {
    const kind = s.msg.k === 'call' ? s.msg.name : 'assert';
    if (kind === 'halide_error_constraint_violated' && top) {
      // set_bounds/set_stride constraints: assumed when affine (bounds), metadata otherwise (strides).
      try {
        const c = this.cond(s.cond, sc, { ...IDX, expand: true });
        if (c !== 'true') this.assumes.push(c);
        return;
      } catch (err) {
        if (!(err instanceof NotIndex) && !(err instanceof Unsupported)) throw err;
      }
    }
    if (kind === 'halide_error_buffer_extents_too_large' && top) this.sizeLimit(s.msg);
    if (BUFFER_META.has(kind)) {
      // Facts about the buffer objects (type, dimensions, stride 0 = 1, size limits, host pointer,
      // device state) that hold of the arrays SCHED models; not assuming them is conservative.
      this.metaAsserts++;
      return;
    }
    if (!top && this.ifPath !== null && this.ifPath.length > 0) {
      // Under affine `if`s and no loop (`specialize_fail` is `if (c) {…} else {assert(false, …)}`):
      // when the branch is taken and the assert fails, the pipeline fails and computes nothing,
      // as with the asserts at the top. Assumed: the path implies the condition.
      try {
        const path = this.ifPath.map((p) => {
          const c = this.cond(p.c, p.sc, { ...IDX, expand: true });
          return p.holds ? `(${c})` : `!(${c})`;
        });
        const c = this.cond(s.cond, sc, { ...IDX, expand: true });
        if (c !== 'true') this.assumes.push(`!(${path.join(' && ')}) || (${c})`);
        return;
      } catch (err) {
        if (!(err instanceof NotIndex) && !(err instanceof Unsupported)) throw err;
      }
    }
    if (!top) {
      this.nestedAsserts.set(kind, (this.nestedAsserts.get(kind) ?? 0) + 1);
      return;
    }
    try {
      const c = this.cond(s.cond, sc, { ...IDX, expand: true });
      if (c !== 'true') this.assumes.push(c);
    } catch (err) {
      if (!(err instanceof NotIndex) && !(err instanceof Unsupported)) throw err;
      this.notes.push(`assert ${kind} (line ${s.line}) not assumed: ${err.message}`);
    }
  }

  /** Halide's buffer-size check, `X.total_extent.k <= L` (X's extents 0..k multiply to at most L), from its message's arguments. */
  sizeLimit(msg: HExpr): void {
    if (msg.k !== 'call') return;
    const [buffer, total, bound] = msg.args;
    const m = total?.k === 'var' ? /^(.+)\.total_extent\.(\d+)$/.exec(total.name) : null;
    const limit = bound?.k === 'cast' ? bound.a : bound;
    if (buffer?.k !== 'str' || m === null || limit?.k !== 'int') return;
    const extents = Array.from({ length: Number(m[2]) + 1 }, (_, d) => this.global(`${m[1]}.extent.${d}`));
    if (extents.every((e): e is string => e !== null && /^[A-Za-z_]\w*$/.test(e))) this.sizeLimits.push({ buffer: buffer.v, extents, limit: limit.v });
  }

  provide(s: Extract<HStmt, { k: 'provide' }>, sc: Scope): string {
    const f = this.funcs.get(s.name);
    if (f === undefined) throw new Unsupported('Provide', `to '${s.name}', which is not in pipeline().funcs`);
    const traces: Trace[] = [];
    let value = this.val(s.value, sc, { expand: false, spec: false, traces });
    const own = traces.filter((t) => t.func === s.name);
    if (own.length !== 1 || traces.length !== 1) throw new Unsupported('store without its trace', `${s.name} at line ${s.line} carries ${traces.length} trace calls (trace_stores() is called on every Func of pipeline().funcs)`);
    const tr = own[0]!;
    const coords = tr.coords.map((c) => this.must(() => this.idx(c, tr.scope), `a traced coordinate of ${s.name}`));
    // The stage: the innermost `<f>.s<k>.` name bound inside `produce f`.
    let stage: number | null = null;
    const prefix = `${s.name}.s`;
    const closed = new Set<string>();
    for (let x: Scope | null = sc; x !== null; x = x.parent) {
      if (x.b.k === 'closed') for (const n of x.b.names) closed.add(n);
      if (x.name === s.name && x.b.k === 'produce') break;
      if (x.name.startsWith(prefix) && x.b.k === 'idx' && !closed.has(x.name)) {
        const m = /^\.s(\d+)\./.exec(x.name.slice(s.name.length));
        if (m) {
          stage = Number(m[1]);
          break;
        }
      }
    }
    const pc = sc.find(s.name, 'produce');
    if (stage === null) {
      // No loop names a stage: the pure definition of a Func without updates, or the one stage of a
      // 0-dimensional Func without loops (every update of it has RVars, hence loops).
      if (f.updates.length === 0 || (f.args.length === 0 && f.updates.every((u) => u.rvars.length > 0))) stage = 0;
      else {
        // Stages run in order: a store without loops is of the first such stage after the last
        // stage stored so far in `produce f` (whose store may have been under a loop's name).
        // Without a defined pure stage (or without arguments), those are the updates with no RVars
        // and constant left-hand sides (and the pure stage of a 0-dimensional Func).
        // Otherwise the realization is of one point: bounding small realizations removed every
        // pure loop, so the pure definition and the updates without RVars (their loops are pure
        // loops, over the same region) have none; an update with RVars keeps its RVar loops.
        const loopless =
          isUndef(f.pure) || f.args.length === 0
            ? [...(f.args.length === 0 ? [0] : []), ...f.updates.flatMap((u, k) => (u.rvars.length === 0 && u.args.every((a) => /^-?\d+$/.test(a)) ? [k + 1] : []))]
            : [0, ...f.updates.flatMap((u, k) => (u.rvars.length === 0 ? [k + 1] : []))];
        const last = pc?.k === 'produce' ? pc.count.last : -1;
        stage = loopless.find((k) => k > last) ?? null;
      }
      if (stage === null) throw new Unsupported('store of an unknown stage', `${s.name} at line ${s.line}: no ${s.name}.s<k> loop or let encloses it`);
    }
    if (pc?.k === 'produce') pc.count.last = Math.max(pc.count.last, stage);
    // A 0-dimensional Func is a tensor over one unit coordinate, always 0 (the reference compiler's algorithms have no 0-dimensional Funcs).
    const logical = coords.length === 0 ? ['0'] : coords;
    const buf = sc.find(s.name, 'buffer');
    let target: string;
    const ix = s.args.map((a) => this.must(() => this.idx(a, sc), `a store index of ${s.name}`));
    if (buf?.k === 'buffer') target = `${buf.buf.array}[${ix.map((x, k) => (buf.buf.mins[k] === '0' ? x : `${x} - ${buf.buf.mins[k]}`)).join(', ')}]`;
    else if (s.name === this.d.output) target = `${this.outputArray()}[${ix.join(', ')}]`;
    else throw new Unsupported('Provide', `to '${s.name}' outside its Realize`);
    this.stores++;
    const inter = this.rf.intermediates.get(s.name);
    if (this.guards.length > 0) {
      if (inter !== undefined || this.rf.factored.has(s.name)) throw new Unsupported('RDom predicate', `a condition on memory around a store of rfactor's ${s.name} (line ${s.line})`);
      const gt: Trace[] = [];
      const conds = this.guards.map((g) => this.val(g.e, g.sc, { expand: false, spec: false, traces: gt }));
      if (gt.length > 0) throw new Unsupported('trace call', `in the condition around the store to ${s.name} (line ${s.line})`);
      // Nested ifs nest selects (not `c1 && c2`, which reads c2's cells when c1 fails): the
      // conditional-store reading of semantics/bigstep.ts then evaluates them as Halide does.
      value = conds.reduceRight((v, c) => `select(${c}, ${v}, ${target})`, value);
      this.guardedStores++;
    }
    if (inter !== undefined) return this.partialStore(s, sc, stage, inter, tr, target, value);
    if (this.rf.factored.has(s.name) && stage === 1) return this.transferStore(s, sc, f, target, logical);
    let ann: string;
    if (f.updates.length === 0) ann = `${this.tensor(s.name)}(${logical.join(', ')})`;
    else if (stage === 0) ann = `${this.tensor(s.name)}_0(${logical.join(', ')})`;
    else {
      const u = f.updates[stage - 1];
      if (u === undefined) throw new Unsupported('store of an unknown stage', `${s.name}.s${stage}`);
      const rv = [...u.rvars].reverse().map((r) => this.rvarValue(s, sc, stage!, r));
      ann = `${this.tensor(s.name)}_${stage}(${[...logical, ...rv].join(', ')})`;
    }
    return `${target} {${ann}} := ${value}`;
  }

  /** The value of RVar r of a stage of the stored Func: the loop or let Halide names after it. */
  rvarValue(s: Extract<HStmt, { k: 'provide' }>, sc: Scope, stage: number, r: string): string {
    const h = `${s.name}.s${stage}.${r}`;
    if (sc.find(h, 'idx') === undefined) throw new Unsupported('RVar value not in scope', `${h} at the store to ${s.name} (line ${s.line})`);
    return this.idx({ k: 'var', name: h }, sc);
  }

  // ---- rfactor (compilers/halide/rfactor.ts) --------------------------------------------------

  /**
   * A store of an rfactor intermediate I of F: its pure stage starts a partial accumulator at the
   * neutral element; its update accumulates F's element at the position of F's RDom that the
   * RVars' substitutes give: `i[…] {partial F(c)@(κ)} op= e`.
   */
  partialStore(s: Extract<HStmt, { k: 'provide' }>, sc: Scope, stage: number, inter: Intermediate, tr: Trace, target: string, value: string): string {
    const type = valueType(this.funcs.get(inter.of)!);
    if (stage === 0) return `${target} {${printExpr(neutralElement(inter.op, type, NO_POS))}} := ${value}`;
    const acc = this.accumulation(s, sc, type);
    let ks = sc;
    inter.vars.forEach((n, k) => (ks = ks.bind(n, { k: 'lazy', e: tr.coords[k]!, scope: tr.scope })));
    for (const r of inter.rvars) {
      this.rvarValue(s, sc, stage, r); // in scope, or rejected by name
      ks = ks.bind(r, { k: 'lazy', e: { k: 'var', name: `${s.name}.s${stage}.${r}` }, scope: sc });
    }
    // The reduction's dimensions are F's RVars outermost first (compilers/algorithm/update-reduction.ts).
    const pos = [...inter.position].reverse().map((p) => this.must(() => this.idx(p, ks), `the position in ${inter.of}'s RDom of a store to ${s.name}`));
    const cs = inter.coords.map((k) => this.must(() => this.idx(tr.coords[k]!, tr.scope), `a traced coordinate of ${s.name}`));
    return `${target} {partial ${this.tensor(inter.of)}(${(cs.length === 0 ? ['0'] : cs).join(', ')})@(${pos.join(', ')})} ${operatorOf(acc.op).assign} ${acc.value}`;
  }

  /** The update of an rfactor'd F folds an intermediate's cell into F(c): `f[…] {F(c)} op= i[…]`. */
  transferStore(s: Extract<HStmt, { k: 'provide' }>, sc: Scope, f: DriverFunc, target: string, coords: readonly string[]): string {
    const acc = this.accumulation(s, sc, valueType(f));
    if (acc.elem.k !== 'call' || this.rf.intermediates.get(acc.elem.name)?.of !== s.name) throw new Unsupported('rfactor shape', `the update of ${s.name} (line ${s.line}) folds ${printHExpr(acc.elem).slice(0, 100)}, not a cell of its rfactor intermediate`);
    return `${target} {${this.tensor(s.name)}(${coords.join(', ')})} ${operatorOf(acc.op).assign} ${acc.value}`;
  }

  /**
   * A store `f(ι) = f(ι) op e` (under the value's lets and trace call): op, e and e translated.
   * `a[ι] op= e` runs as `a[ι] := a[ι] op e`, so the store is rewritten only when the read is of
   * the stored cell (the same translated indices at the same point), and `e op f(ι)` only where
   * the operator commutes exactly at the type.
   */
  accumulation(s: Extract<HStmt, { k: 'provide' }>, sc: Scope, type: ValueType): { op: ReduceOp; elem: HExpr; value: string } {
    let e = s.value;
    let scope = sc;
    for (;;) {
      if (e.k === 'let') {
        scope = scope.bind(e.name, { k: 'lazy', e: e.value, scope });
        e = e.body;
      } else if (e.k === 'call' && e.name === 'return_second' && e.args.length === 2 && isTraceCall(e.args[0]!)) e = e.args[1]!;
      else if (e.k === 'cast' && e.a.k === 'call' && (e.a.name === 'return_second' || e.a.name === 'strict_float')) e = e.a; // the printer's type prefix of the call
      else if (e.k === 'call' && e.name === 'strict_float' && e.args.length === 1) e = e.args[0]!; // IEEE as written: SCHED's floats
      else if (e.k === 'var') {
        const b = scope.find(e.name);
        if (b?.k !== 'lazy' || b.stmt) break;
        e = b.e;
        scope = b.scope;
      } else break;
    }
    const parts: [string, HExpr, HExpr] | null =
      e.k === 'bin' && ['+', '*', '&&', '||'].includes(e.op) ? [e.op, e.a, e.b] : e.k === 'call' && (e.name === 'min' || e.name === 'max') && e.args.length === 2 ? [e.name, e.args[0]!, e.args[1]!] : null;
    const index = (x: HExpr, xs: Scope): string | null => {
      try {
        return this.idx(x, xs, { ...IDX, marks: [] });
      } catch (err) {
        if (err instanceof NotIndex) return null;
        throw err;
      }
    };
    const cell = s.args.map((a) => index(a, sc));
    const isCell = (y: HExpr): boolean => (x => x.k === 'call' && x.name === s.name && x.args.length === s.args.length && x.args.every((a, k) => cell[k] !== null && index(a, scope) === cell[k]))(sameType(y, type));
    const op = parts?.[0] as ReduceOp | undefined;
    const elem = parts === null ? null : isCell(parts[1]) ? parts[2] : isCell(parts[2]) && operatorOf(op!).exact(type) ? parts[1] : null;
    if (parts === null || elem === null) throw new Unsupported('rfactor shape', `the store to ${s.name} at line ${s.line} is not '${s.name}(…) op e' with op one of + * min max && || on the stored cell`);
    // An accumulation `a[ι] += e` folds with SCHED's wrapping operator, which has no checked
    // variant: an Int(32)/Int(64) sum or product, whose overflow Halide leaves undefined, would be
    // given a meaning. Refused (min and max cannot overflow).
    if ((op === '+' || op === '*') && (type === 'i32' || type === 'i64')) throw new Unsupported(`rfactor of an ${type === 'i32' ? 'Int(32)' : 'Int(64)'} ${op === '+' ? 'sum' : 'product'}`, `${s.name}: the overflow of its partial ${op === '+' ? 'sums' : 'products'} is undefined in Halide, and an accumulation folds without a check (use an unsigned type, whose arithmetic wraps, or a float)`);
    const traces: Trace[] = [];
    // Without the printer's type prefix and strict_float: a transfer's source must be a bare cell.
    const value = this.val(sameType(elem, type), scope, { expand: false, spec: false, traces });
    if (traces.length > 0) throw new Unsupported('rfactor shape', `a trace call in the accumulated value of ${s.name} (line ${s.line})`);
    return { op: op!, elem: sameType(elem, type), value };
  }

  // ---- the spec ----------------------------------------------------------------------------

  /**
   * RDom predicates (`RDom.where`) cannot be read back from Python: the driver records them as the
   * script gives them. The first lowering pass shows them as `if`s around the update's store;
   * both must agree. An update with a recorded predicate must be guarded there (else the record
   * belongs to another RDom of the same name, or Halide dropped it), and an update without one
   * must not be guarded by a condition on its RVars or on memory (a predicate the driver missed;
   * the conditions left are specializations, on Params).
   */
  checkPredicates(): void {
    const initial = (this.d.algorithm ?? this.d.traced).initial;
    if (!initial) return;
    const seen = new Set<string>();
    const walk = (ss: readonly HStmt[], conds: readonly HExpr[], loops: readonly string[]): void => {
      for (const t of ss) {
        if (t.k === 'if') {
          walk(t.then, [...conds, t.cond], loops);
          if (t.else) walk(t.else, conds, loops);
        } else if (t.k === 'provide') {
          const f = this.specFuncs.get(t.name);
          if (!f) continue;
          const guards = conds.filter((c) => {
            let u: HExpr = c;
            while (u.k === 'cast') u = u.a;
            return !(u.k === 'call' && (u.name === 'likely' || u.name === 'likely_if_innermost')); // tail guards
          });
          const stage = [...loops].reverse().map((l) => (l.startsWith(`${t.name}.s`) ? /^\.s(\d+)\./.exec(l.slice(t.name.length)) : null)).find((m) => m)?.[1];
          f.updates.forEach((u, k) => {
            const recorded = (u.where ?? []).length > 0;
            if (stage === String(k + 1)) {
              seen.add(`${t.name}.${k}`);
              if (recorded && guards.length === 0) throw new Unsupported('RDom predicate', `update ${k} of ${t.name} has a recorded predicate, but no condition guards its store in the first lowering pass`);
            }
            if (recorded) return;
            for (const c of guards) {
              const text = printHExpr(c);
              const calls = new Set<string>();
              collectCalls(c, calls);
              const memory = [...calls].some((n) => this.specFuncs.has(n) || this.inputs.has(n.replace(/_im$/, '')));
              if (u.rvars.some((r) => text.includes(`${t.name}.s${k + 1}.${r}`)) || (stage === String(k + 1) && memory)) throw new Unsupported('RDom predicate', `update ${k} of ${t.name} is guarded by ${text.slice(0, 120)}, a predicate the driver did not record (RDom.where called outside pipeline()?)`);
            }
          });
        } else if (t.k === 'for') walk(t.body, conds, [...loops, t.name]);
        else if ('body' in t) walk(t.body, conds, loops);
      }
    };
    walk(parseHStmt(initial), [], []);
    for (const f of this.specFuncs.values()) f.updates.forEach((u, k) => {
      if ((u.where ?? []).length > 0 && !seen.has(`${f.name}.${k}`)) throw new Unsupported('RDom predicate', `update ${k} of ${f.name} has a recorded predicate, but its store is not in the first lowering pass`);
    });
  }

  /**
   * The predicates of update k of f (`RDom.where`), in the spec: the affine ones as the update's
   * filter, the ones that read a Func or an input as a guard of its value.
   */
  predicates(f: DriverFunc, k: number, usc: Scope, cx: Ctx): { where: string | null; guard: string | null } {
    const ws = f.updates[k]!.where ?? [];
    if (ws.length > 0 && this.rf.factored.has(f.name)) throw new Unsupported('RDom predicate', `of ${f.name}'s update, which the schedule rfactors`);
    const filters: string[] = [];
    const guards: string[] = [];
    for (const w of ws) {
      const e = this.definition(f.name, k + 1, w, 'where');
      try {
        filters.push(this.cond(e, usc, { ...cx, traces: null }));
      } catch (err) {
        if (!(err instanceof NotIndex)) throw err;
        guards.push(this.val(e, usc, cx));
      }
    }
    return { where: filters.length === 0 ? null : filters.join(' && '), guard: guards.length === 0 ? null : guards.join(' && ') };
  }

  /** The RDom bounds of update k of f: bounds inference binds `f.s<k>.<r>.min/max` from the RDom. */
  rdomLets(ss: readonly HStmt[], out = new Map<string, HExpr>()): Map<string, HExpr> {
    for (const s of ss) {
      if (s.k === 'let' && /\.s\d+\..*\.(min|max)$/.test(s.name) && !out.has(s.name)) out.set(s.name, s.value);
      if ('body' in s) this.rdomLets(s.body, out);
      if (s.k === 'if') {
        this.rdomLets(s.then, out);
        if (s.else) this.rdomLets(s.else, out);
      }
    }
    return out;
  }

  algorithm(stmt: readonly HStmt[]): Algorithm {
    const alg = this.d.algorithm;
    if (alg && !alg.pass21) throw new Unsupported('lowering', "Halide printed no IR after 'bounding small realizations' for the algorithm without its schedule");
    const lets = this.rdomLets(alg ? parseHStmt(alg.pass21!) : stmt);
    const top = new Scope(null, '', { k: 'produce', count: { last: -1 } });
    const specCx: Ctx = { expand: false, spec: true, traces: null };
    const paramIdx = (e: HExpr, what: string): string => this.must(() => this.idx(e, top, { ...IDX, expand: true }), what);
    const order = topoOrder([...this.specFuncs.values()], this.inputs);
    const funcs: AlgFunc[] = order.map((f) => {
      let sc = top;
      for (const a of f.args) sc = sc.bind(a, { k: 'idx', sched: this.names.get(a, 'v_'), e: null, scope: null, used: false });
      const cx: Ctx = { ...specCx, self: f.name };
      const pv = (text: string, scope: Scope, stage: number): string => this.val(this.definition(f.name, stage, text), scope, cx);
      return {
        name: this.tensor(f.name),
        args: f.args.length === 0 ? [UNIT] : f.args.map((a) => this.names.get(a, 'v_')),
        type: schedType(SCHED_INV[f.type] ?? f.type) as AlgFunc['type'],
        // `f(x) = undef()`: no pure value; the stage tensor gets no equation (unconstrained) below.
        pure: isUndef(f.pure) ? (this.undefPure.push(this.tensor(f.name)), '0') : pv(f.pure, sc, 0),
        updates: f.updates.map((u, k) => {
          let usc = sc;
          const rdom = u.rvars.map((r) => {
            const mn = lets.get(`${f.name}.s${k + 1}.${r}.min`);
            const mx = lets.get(`${f.name}.s${k + 1}.${r}.max`);
            if (mn === undefined || mx === undefined) throw new Unsupported('RDom bounds', `${f.name}.s${k + 1}.${r}.min/max are not bound in the lowered IR`);
            const n = this.names.get(r, 'r_');
            usc = usc.bind(r, { k: 'idx', sched: n, e: null, scope: null, used: false });
            const lo = paramIdx(mn, `the min of RVar ${r}`);
            return { var: n, min: lo, extent: `(${paramIdx(mx, `the max of RVar ${r}`)}) - (${lo}) + 1` };
          });
          const lhs = u.args.length === 0 ? [UNIT] : u.args.map((a) => this.must(() => this.idx(parseHExpr(a), usc, specCx), `the left-hand side of ${f.name}'s update ${k}`));
          const { where, guard } = this.predicates(f, k, usc, cx);
          // A predicate that reads memory is not a filter of the domain (those are affine): where it
          // fails the cell keeps its value, read at the same point as the update's value, as Halide
          // evaluates both before the store.
          const rhs = guard === null ? pv(u.value, usc, k + 1) : `select(${guard}, ${pv(u.value, usc, k + 1)}, ${this.tensor(f.name)}(${lhs.join(', ')}))`;
          return { lhs, rhs, rdom, where };
        }),
      };
    });
    const out = this.specFuncs.get(this.d.output)!;
    // A 0-dimensional output is a tensor over the unit coordinate: its region is [0, 1).
    const extents = out.args.length === 0 ? ['1'] : out.args.map((_, k) => this.global(`${this.d.output}.extent.${k}`)!);
    for (const i of this.d.inputs) for (let k = 0; k < i.dims; k++) for (const f of ['min', 'extent']) this.global(`${i.name}.${f}.${k}`);
    return {
      name: this.name,
      params: [...this.usedParams.keys()],
      inputs: [
        ...this.d.inputs.map((i) => ({ name: this.tensor(i.name), args: Array.from({ length: i.dims }, (_, k) => `i${k}`), type: schedType(SCHED_INV[i.type] ?? i.type) as AlgFunc['type'] })),
        ...this.scalars().map((p) => ({ name: this.tensor(p.name), args: [], type: schedType(SCHED_INV[p.type] ?? p.type) as AlgFunc['type'] })),
      ],
      funcs,
      output: { func: this.tensor(this.d.output), extents },
    };
  }

  run(): Translation {
    if (!this.d.traced.pass21) throw new Unsupported('lowering', "Halide printed no IR after 'bounding small realizations'");
    rejectIntrinsicNames(this.d);
    const stmt = parseHStmt(this.d.traced.pass21);
    const top = new Scope(null, '', { k: 'produce', count: { last: -1 } });
    if (this.d.traced.error) this.notes.push(`Halide failed after lowering (code generation of the traced pipeline): ${this.d.traced.error.split('\n').pop()}`);
    for (const a of this.d.assume ?? []) {
      this.assumes.push(this.must(() => this.cond(parseHExpr(a), top, { ...IDX, expand: true }), `pipeline()'s assumption '${a}'`));
      this.notes.push(`assumed by pipeline(): ${a}`);
    }
    if (this.d.algorithm) this.rf = findRfactors(this.d.algorithm.funcs, this.d.funcs);
    else if (!this.opts.specFromCaller) rejectUnhookedRfactor(this.d.funcs);
    const body = this.block(stmt, top, true);
    // A buffer with an extent of 0 has no memory (host == null), which Halide reads as a bounds
    // query: the pipeline then fills in the shapes it needs and computes nothing, with no error
    // (`_halide_buffer_is_bounds_query`, whose branches the translation never takes). The verdict
    // is about pipelines that compute, so it assumes every input buffer non-empty, and says so. (An
    // empty output has no cells to compute.)
    const nonEmpty = this.d.inputs.flatMap((i) => Array.from({ length: i.dims }, (_, k) => `${this.global(`${i.name}.extent.${k}`)!} >= 1`));
    if (nonEmpty.length > 0) {
      this.assumes.push(nonEmpty.join(' && '));
      this.notes.push('assumed: every input buffer is non-empty (Halide takes an empty buffer, which has no memory, for a bounds query and computes nothing)');
    }
    for (const [kind, n] of this.nestedAsserts) this.notes.push(`${n} assert(s) ${kind} inside loops or branches: not assumed`);
    if (this.metaAsserts > 0) this.notes.unshift(`${this.metaAsserts} assert(s) on buffer metadata (type, dimensions, stride, size limits, host, device) not assumed as such${this.sizeLimits.length > 0 ? ' (the size limits: through their affine consequences, when a note lists them)' : ''}`);
    if (this.opts.specFromCaller) this.notes.push('the spec is the caller\'s (RDom predicates not checked here)');
    else this.checkPredicates();
    const checked = checkAlgorithm(this.algorithm(stmt));
    let spec0 = algorithmToSpec(checked, this.names.get(`${this.name}.spec`));
    // An rfactor'd Func is specified by the reduction its update is, so that the stores of the
    // intermediate can be annotated as partial accumulations of it.
    for (const f of this.rf.factored) {
      const cf = checked.funcByName.get(this.tensor(f))!;
      const red = updateAsReduction(cf);
      if ('why' in red) throw new Unsupported('rfactor of an update that is not a reduction', red.why);
      spec0 = withUpdateReduction(spec0, cf, red);
    }
    const undefStages = new Set(this.undefPure.map((t) => `${t}_0`));
    // An undef pure stage is any value: an input tensor of the spec (no array is bound to it).
    const spec = { ...spec0, tensors: spec0.tensors.map((t) => (undefStages.has(t.name) ? { ...t, role: 'input' as const } : t)), equations: spec0.equations.filter((e) => !undefStages.has(e.tensor)) };
    // Buffer fields are int32 (halide_dimension_t) and a Param holds a value of its type: their
    // ranges bound the loop variables, which the checked Int(32) operations of the values rely on.
    for (const [sched, halide] of this.usedParams) {
      const p = this.d.params.find((q) => q.name === halide);
      const t = p ? halideTypeName(p.type) : 'int32';
      const m = /^(u?)int(\d+)$/.exec(t);
      if (!m) continue;
      const bits = BigInt(m[2]!);
      const [lo, hi] = m[1] ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
      this.assumes.push(`${lo < 0n ? `(${lo})` : lo} <= ${sched} && ${sched} <= ${hi}`);
    }
    const outF = this.funcs.get(this.d.output)!;
    const implName = this.names.get(`${this.name}.halide`);
    const decls: string[] = [];
    for (const a of [...new Set(this.assumes)]) decls.push(`assume ${a};`);
    const inputs = this.d.inputs.map((i) => {
      const extents = Array.from({ length: i.dims }, (_, k) => this.global(`${i.name}.extent.${k}`)!);
      const mins = Array.from({ length: i.dims }, (_, k) => this.global(`${i.name}.min.${k}`)!);
      const array = this.inputArray(i.name);
      const ix = extents.map((_, k) => `i${k}`);
      decls.push(`input ${array}[${ix.join(', ')}]: ${schedType(SCHED_INV[i.type] ?? i.type)}[${extents.join(', ')}] = ${this.tensor(i.name)}(${ix.map((x, k) => `${x} + ${mins[k]}`).join(', ')});`);
      return { name: i.name, array, type: i.type, extents };
    });
    for (const p of this.scalars()) decls.push(`input ${this.inputArray(p.name)}: ${schedType(SCHED_INV[p.type] ?? p.type)}[] = ${this.tensor(p.name)};`);
    const outExt = outF.args.map((_, k) => this.global(`${this.d.output}.extent.${k}`)!);
    if (outF.args.length === 0) decls.push(`output ${this.outputArray()}[]: ${outF.type}[] = ${this.tensor(this.d.output)}(0);`);
    else decls.push(`output ${this.outputArray()}: ${outF.type}[${outExt.join(', ')}] = ${this.tensor(this.d.output)};`);
    const header = [
      `// Translated by sched from Halide 14's lowering of ${this.name} (IR after "bounding small realizations",`,
      '// trace_stores() annotations). Output mins are 0; input mins, buffer extents and integer Params are parameters.',
      ...this.notes.map((n) => `// note: ${n}`),
    ];
    const text = `${header.join('\n')}\n${printSpec(spec)}\n\nimpl ${implName} of ${spec.name} {\n${indent([...decls, body].join('\n'))}\n}\n`;
    return { text, specName: spec.name, implName, notes: this.notes, stores: this.stores, guardedStores: this.guardedStores, params: [...this.usedParams].map(([sched, halide]) => ({ sched, halide })), inputs, scalarInputs: this.scalars().map((p) => ({ name: p.name, array: this.inputArray(p.name) })), outputArray: this.outputArray(), sizeLimits: this.sizeLimits };
  }
}

function valueType(f: DriverFunc): ValueType {
  return schedType(SCHED_INV[f.type] ?? f.type) as ValueType;
}

/** `(T)e` with T the value type is e: the printer's type prefix of a call (`(float32)f(x)`)… */
function sameType(e: HExpr, t: ValueType): HExpr {
  // …and `strict_float(e)`, which makes e's float operations IEEE as written (SCHED's own).
  for (;;) {
    if (e.k === 'cast' && e.t === (SCHED_INV[t] ?? t)) e = e.a;
    else if (e.k === 'call' && e.name === 'strict_float' && e.args.length === 1) e = e.args[0]!;
    else return e;
  }
}

/** The coordinate of 0-dimensional Funcs in the spec. */
const UNIT = 'unit';

function isUndef(text: string): boolean {
  return /^(\([a-z0-9]+\))?undef\(\)$/.test(text.trim());
}

const BUFFER_META = new Set([
  'halide_error_bad_type', 'halide_error_bad_dimensions', 'halide_error_constraint_violated', 'halide_error_buffer_allocation_too_large',
  'halide_error_buffer_extents_too_large', 'halide_error_device_dirty_with_no_device_support', 'halide_error_host_is_null',
]);

/** Driver type names are already SCHED's (u16, f32); Halide's own spelling is accepted too. */
const SCHED_INV: Record<string, string> = { u8: 'uint8', u16: 'uint16', u32: 'uint32', u64: 'uint64', i8: 'int8', i16: 'int16', i32: 'int32', i64: 'int64', f32: 'float32', f64: 'float64', bool: 'bool' };

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** Funcs in an order where each reads only earlier ones (and itself). */
function topoOrder(funcs: readonly DriverFunc[], inputs: ReadonlyMap<string, unknown>): DriverFunc[] {
  const byName = new Map(funcs.map((f) => [f.name, f]));
  const deps = (f: DriverFunc): string[] => {
    const names = new Set<string>();
    for (const text of [f.pure, ...f.updates.flatMap((u) => [u.value, ...u.args])]) collectCalls(parseHExpr(text), names);
    for (const n of names) {
      const base = n.endsWith('_im') ? n.slice(0, -3) : n;
      const hook = "is it an rfactor intermediate? Apply the schedule in pipeline()'s 'schedule' hook, so that the spec is the algorithm as written (docs/halide.md)";
      if (n === 'promise_clamped' || (n === `${f.name}_intm` && !byName.has(n))) throw new Unsupported(`Call ${n}`, `in the definition of ${f.name}: ${hook}`);
      if (!byName.has(n) && !inputs.has(base) && !KNOWN_CALLS.has(n)) throw new Unsupported(`Call ${n}`, `in the definition of ${f.name}: neither an intrinsic with a SCHED counterpart (docs/halide.md, the semantics table) nor a Func of pipeline().funcs or an input (list every Func of the algorithm there)`);
    }
    return [...names].filter((n) => byName.has(n) && n !== f.name);
  };
  const out: DriverFunc[] = [];
  const state = new Map<string, number>();
  const visit = (f: DriverFunc): void => {
    const st = state.get(f.name);
    if (st === 2) return;
    if (st === 1) throw new Unsupported('recursive Funcs', f.name);
    state.set(f.name, 1);
    for (const d of deps(f)) visit(byName.get(d)!);
    state.set(f.name, 2);
    out.push(f);
  };
  for (const f of funcs) visit(f);
  return out;
}

/** The constant of a shift amount (`(uint32)23`), or null. */
function shiftAmount(e: HExpr): bigint | null {
  if (e.k === 'cast' && /^u?int\d+$/.test(e.t)) return shiftAmount(e.a);
  return e.k === 'int' && e.v >= 0n ? e.v : null;
}

/**
 * A Func, input or Param named like an intrinsic prints like a call of it (a 2-D Func `max` is
 * `max(x, y)`, an input `select` is `select(x)`), and call() reads the intrinsic: refused, as the
 * driver refuses names that print like float constants.
 */
function rejectIntrinsicNames(d: DriverOutput): void {
  const named: [string, string][] = [...d.funcs.map((f) => ['Func', f.name] as [string, string]), ...d.inputs.map((i) => ['ImageParam', i.name] as [string, string]), ...d.params.map((p) => ['Param', p.name] as [string, string])];
  for (const [what, n] of named) {
    if (KNOWN_CALLS.has(n) || /^_?halide_/.test(n)) throw new Unsupported('name', `a ${what} named '${n}' prints like Halide's intrinsic ${n}(…) in its IR; rename it`);
  }
}

/** The intrinsics call() translates (a Func definition may call them). */
const KNOWN_CALLS = new Set([
  'strict_float', 'undef', 'min', 'max', 'select', 'mux', 'abs', 'absd', 'reinterpret', 'shift_left', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_not', 'likely', 'likely_if_innermost',
  'promise_clamped', 'unsafe_promise_clamped', 'return_second', 'sqrt_f32', 'sqrt_f64', 'exp_f32', 'exp_f64', 'log_f32', 'log_f64', 'pow_f32', 'pow_f64', 'floor_f32', 'floor_f64', 'ceil_f32', 'ceil_f64', 'trunc_f32', 'trunc_f64', 'is_nan_f32', 'is_nan_f64',
]);
