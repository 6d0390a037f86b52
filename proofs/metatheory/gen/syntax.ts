// Random well-typed SCHED programs (specs and impls) for property tests: fast-check arbitraries
// that later harnesses can reuse (printer round trip, semantics, verifier).
//
// Design: fast-check generates an untyped *skeleton* (trees of shape numbers, small integers and
// children), and a deterministic *repair* turns any skeleton into a program that type-checks
// (thesis Fig. 4.7 as implemented in core/language/typecheck.ts): each skeleton node is read as an index
// expression, a condition, or a value of a wanted type in the current scope, reusing its children
// where the shape allows and falling back to a literal or a cast otherwise. Shrinking works on
// the skeleton (fewer children, shape 0 = literal, smaller numbers), so counterexamples shrink to
// small programs without fast-check's `chain`.
//
// Covered: specs with params / assumes / input, computed and output tensors / equations with
// index expressions on the left and `where`; impls with assumes and input / output / array
// declarations (named and shorthand forms, `where`); every command (skip, nested sequences, if
// with and without else, let, allocate, for, par, annotated and unannotated assignments); every
// expression form (all operators, literals including negative ones and every value type, casts,
// select, let, min / max and the other builtins, array and tensor reads).

import fc from 'fast-check';
import {
  type ArrayDecl,
  type BinaryOp,
  type BuiltinFunction,
  type Cmd,
  type Equation,
  type Expr,
  type Impl,
  isFloatType,
  isIntType,
  type ParamDecl,
  type Pos,
  type Program,
  type Spec,
  type TensorDecl,
  type TensorRole,
  type ReduceOp,
  type ValueType,
} from '../../../core/language/ast.ts';
import { combine } from '../../../core/language/reductions.ts';

// ---------------------------------------------------------------------------------------------
// AST utilities

const P0: Pos = { line: 0, col: 0 };

/** A deep copy of an AST value without positions (`pos`) and types (`ty`), for comparisons. */
export function stripPositions<T>(x: T): T {
  if (Array.isArray(x)) return x.map((y) => stripPositions(y)) as T;
  if (x !== null && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) if (k !== 'pos' && k !== 'ty') out[k] = stripPositions(v);
    return out as T;
  }
  return x;
}

/** Every expression of a program, outermost first (spec assumes, equations, declarations, code). */
export function forEachExpr(p: Program, f: (e: Expr) => void): void {
  const ex = (e: Expr): void => {
    f(e);
    switch (e.kind) {
      case 'array':
      case 'tensor':
        e.indices.forEach(ex);
        break;
      case 'call':
        e.args.forEach(ex);
        break;
      case 'unary':
        ex(e.arg);
        break;
      case 'binary':
        ex(e.left);
        ex(e.right);
        break;
      case 'select':
        ex(e.cond);
        ex(e.then);
        ex(e.else);
        break;
      case 'let':
        ex(e.value);
        ex(e.body);
        break;
      default:
        break;
    }
  };
  const cmd = (c: Cmd): void => {
    switch (c.kind) {
      case 'skip':
        break;
      case 'seq':
        c.cmds.forEach(cmd);
        break;
      case 'assign':
        c.indices.forEach(ex);
        if (c.annot) ex(c.annot);
        ex(c.rhs);
        break;
      case 'if':
        ex(c.cond);
        cmd(c.then);
        if (c.else) cmd(c.else);
        break;
      case 'let':
        ex(c.value);
        cmd(c.body);
        break;
      case 'allocate':
        c.dims.forEach(ex);
        cmd(c.body);
        break;
      case 'for':
      case 'par':
        ex(c.bound);
        cmd(c.body);
        break;
    }
  };
  for (const s of p.specs) {
    s.assumes.forEach(ex);
    for (const q of s.equations) {
      q.lhs.forEach(ex);
      ex(q.rhs);
      if (q.where) ex(q.where);
    }
  }
  for (const m of p.impls) {
    m.assumes.forEach(ex);
    for (const d of m.decls) {
      d.dims.forEach(ex);
      // The `= T` of a shorthand declaration names a tensor; it is not an expression.
      if (d.value && !(d.vars === null && d.value.kind === 'var')) ex(d.value);
      if (d.where) ex(d.where);
    }
    cmd(m.body);
  }
}

// ---------------------------------------------------------------------------------------------
// Skeletons

/** An expression skeleton: a shape number, an integer, children. */
export interface SkelExpr {
  readonly s: number;
  readonly n: number;
  readonly k: readonly SkelExpr[];
}
/** A command skeleton: a shape number, an integer, expression children, command children. */
export interface SkelCmd {
  readonly s: number;
  readonly n: number;
  readonly e: readonly SkelExpr[];
  readonly k: readonly SkelCmd[];
}
interface SkelTensor {
  readonly role: number;
  readonly arity: number;
  readonly type: number;
  readonly n: number;
  readonly inline: boolean;
  readonly eqs: readonly SkelEquation[];
}
interface SkelEquation {
  readonly lhs: readonly { readonly fresh: boolean; readonly e: SkelExpr }[];
  readonly rhs: SkelExpr;
  readonly where: SkelExpr | null;
  /** Printed after all declarations rather than right after its tensor's. */
  readonly late: boolean;
}
interface SkelSpec {
  readonly params: number;
  readonly n: number;
  readonly assumes: readonly SkelExpr[];
  readonly tensors: readonly SkelTensor[];
}
interface SkelDecl {
  readonly role: number;
  readonly n: number;
  readonly shorthand: boolean;
  readonly rank: number;
  readonly type: number;
  readonly dims: readonly SkelExpr[];
  readonly value: SkelExpr;
  readonly where: SkelExpr | null;
}
interface SkelImpl {
  readonly spec: number;
  readonly assumes: readonly SkelExpr[];
  readonly decls: readonly SkelDecl[];
  readonly body: SkelCmd;
}
export interface SkelProgram {
  readonly specs: readonly SkelSpec[];
  readonly impls: readonly SkelImpl[];
}

const EXPR_SHAPES = 21;
const CMD_SHAPES = 9;

export interface GenOptions {
  /** Maximum depth of expression skeletons (default 4). */
  readonly exprDepth?: number;
  /** Maximum depth of command skeletons (default 4). */
  readonly cmdDepth?: number;
}

/** A value type index into GEN_TYPES, f32 half of the time. */
const typeIndex = fc.oneof(fc.constant(0), fc.nat({ max: 10 }));

const num = fc.oneof(fc.integer({ min: -12, max: 12 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 }));

export function skelExprArb(opts: GenOptions = {}): fc.Arbitrary<SkelExpr> {
  const shape = fc.nat({ max: EXPR_SHAPES - 1 });
  return fc.letrec<{ e: SkelExpr }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', maxDepth: opts.exprDepth ?? 4, withCrossShrink: true },
      fc.record({ s: shape, n: num, k: fc.constant([]) }),
      fc.record({ s: shape, n: num, k: fc.array(tie('e'), { maxLength: 3 }) }),
    ),
  })).e;
}

export function skelCmdArb(opts: GenOptions = {}): fc.Arbitrary<SkelCmd> {
  const shape = fc.nat({ max: CMD_SHAPES - 1 });
  const ex = skelExprArb(opts);
  return fc.letrec<{ c: SkelCmd }>((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', maxDepth: opts.cmdDepth ?? 4, withCrossShrink: true },
      fc.record({ s: shape, n: num, e: fc.array(ex, { maxLength: 3 }), k: fc.constant([]) }),
      fc.record({ s: shape, n: num, e: fc.array(ex, { maxLength: 3 }), k: fc.array(tie('c'), { maxLength: 3 }) }),
    ),
  })).c;
}

export function skelProgramArb(opts: GenOptions = {}): fc.Arbitrary<SkelProgram> {
  const ex = skelExprArb(opts);
  const eq = fc.record({
    lhs: fc.array(fc.record({ fresh: fc.boolean(), e: ex }), { maxLength: 3 }),
    rhs: ex,
    where: fc.option(ex, { nil: null }),
    late: fc.boolean(),
  });
  const tensor = fc.record({
    role: fc.nat({ max: 2 }),
    arity: fc.nat({ max: 3 }),
    type: typeIndex,
    n: num,
    inline: fc.boolean(),
    eqs: fc.array(eq, { maxLength: 2 }),
  });
  const spec = fc.record({
    params: fc.nat({ max: 4 }),
    n: num,
    assumes: fc.array(ex, { maxLength: 2 }),
    tensors: fc.array(tensor, { maxLength: 4 }),
  });
  const decl = fc.record({
    role: fc.nat({ max: 2 }),
    n: num,
    shorthand: fc.boolean(),
    rank: fc.nat({ max: 3 }),
    type: typeIndex,
    dims: fc.array(ex, { maxLength: 3 }),
    value: ex,
    where: fc.option(ex, { nil: null }),
  });
  const impl = fc.record({
    spec: fc.nat(),
    assumes: fc.array(ex, { maxLength: 1 }),
    decls: fc.array(decl, { maxLength: 4 }),
    body: skelCmdArb(opts),
  });
  return fc.record({ specs: fc.array(spec, { minLength: 1, maxLength: 2 }), impls: fc.array(impl, { maxLength: 2 }) });
}

/** Random well-typed programs. */
export function programArb(opts: GenOptions = {}): fc.Arbitrary<Program> {
  return skelProgramArb(opts).map((s) => buildProgram(s));
}

/** Random index expressions (Γ ⊢ ι : 𝔸) over the variables of `scope`. */
export function indexExprArb(scope: Scope, opts: GenOptions = {}): fc.Arbitrary<Expr> {
  return skelExprArb(opts).map((s) => toIndex(s, scope));
}

/** Random affine conditions (Γ ⊢ ι : 𝔹). */
export function condExprArb(scope: Scope, opts: GenOptions = {}): fc.Arbitrary<Expr> {
  return skelExprArb(opts).map((s) => toCond(s, scope));
}

/** Random value expressions of type `t`, semantic or prophetic as `scope.mode` says. */
export function valueExprArb(scope: Scope, t: ValueType, opts: GenOptions = {}): fc.Arbitrary<Expr> {
  return skelExprArb(opts).map((s) => toValue(s, t, scope));
}

// ---------------------------------------------------------------------------------------------
// Repair: skeleton → well-typed AST

/** Value types, the most common first (shrinking goes toward index 0). */
export const GEN_TYPES: readonly ValueType[] = ['f32', 'i32', 'bool', 'f64', 'i8', 'i16', 'i64', 'u8', 'u16', 'u32', 'u64'];
const NUMERIC_TYPES = GEN_TYPES.filter((t) => t !== 'bool');

const PARAMS = ['N', 'M', 'P', 'K'];
const TENSORS = ['A', 'B', 'C', 'D', 'E', 'F'];
const TENSOR_ARGS = ['i', 'j', 'k', 'l'];
const EQ_VARS = ['i', 'j', 'k', 'x', 'y'];
const ARRAYS = ['a', 'b', 'c', 'd'];
const LOCALS = ['t0', 't1', 't2'];
const LOOP_VARS = ['i', 'j', 'k', 'x', 'y', 'z'];
const LET_VARS = ['u', 'v', 'w', 'i'];
const FLOATS = [0, 1.5, -2.25, 0.1, -0, 1e-7, 123456.789, 3.4e38, -1e30, 1e300, 5e-324, 2];
const CMP_OPS: readonly BinaryOp[] = ['==', '!=', '<', '<=', '>', '>='];
const FLOAT_FNS: readonly BuiltinFunction[] = ['sqrt', 'exp', 'log', 'floor', 'ceil', 'abs', 'pow', 'min', 'max'];

const INT_RANGE: Record<string, [bigint, bigint]> = {
  i8: [-128n, 127n],
  i16: [-32768n, 32767n],
  i32: [-(2n ** 31n), 2n ** 31n - 1n],
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  u8: [0n, 255n],
  u16: [0n, 65535n],
  u32: [0n, 2n ** 32n - 1n],
  u64: [0n, 2n ** 64n - 1n],
};

function pick<T>(xs: readonly T[], n: number): T {
  return xs[Math.abs(n) % xs.length]!;
}

/** What is in scope where an expression is generated. */
export interface Scope {
  /** Affine variables in scope (parameters, loop, let and equation variables). */
  readonly vars: ReadonlyMap<string, 'index' | 'cond'>;
  readonly arrays: readonly { readonly name: string; readonly elem: ValueType; readonly rank: number }[];
  readonly tensors: readonly TensorDecl[];
  readonly mode: 'semantic' | 'prophetic';
}

function withVar(sc: Scope, name: string, t: 'index' | 'cond'): Scope {
  const vars = new Map(sc.vars);
  vars.set(name, t);
  return { ...sc, vars };
}

const lit = (n: number | bigint): Expr => ({ kind: 'int', value: BigInt(n), pos: P0 });
const bin = (op: BinaryOp, left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, pos: P0 });
const call = (fn: BuiltinFunction | ValueType, args: Expr[]): Expr => ({ kind: 'call', fn, args, pos: P0 });
const v = (name: string): Expr => ({ kind: 'var', name, pos: P0 });

const LEAF: SkelExpr = { s: 0, n: 0, k: [] };
/** Child i, or a leaf (a literal or a variable, by the parity of n) when the skeleton has none. */
function kid(s: SkelExpr, i: number): SkelExpr {
  return s.k[i] ?? { s: (Math.abs(s.n) + i) % 2, n: s.n + i, k: [] };
}

function varsOf(sc: Scope, t: 'index' | 'cond'): string[] {
  return [...sc.vars].filter(([, k]) => k === t).map(([n]) => n);
}

/** Γ ⊢ ι : 𝔸 */
export function toIndex(s: SkelExpr, sc: Scope): Expr {
  switch (s.s % 12) {
    case 0:
      return lit(s.n);
    case 1: {
      const xs = varsOf(sc, 'index');
      return xs.length > 0 ? v(pick(xs, s.n)) : lit(s.n);
    }
    case 2:
      return bin('+', toIndex(kid(s, 0), sc), toIndex(kid(s, 1), sc));
    case 3:
      return bin('-', toIndex(kid(s, 0), sc), toIndex(kid(s, 1), sc));
    case 4: {
      // c * ι or ι * c, the constant possibly negative or 0.
      const c = lit(s.n % 5);
      const x = toIndex(kid(s, 0), sc);
      return s.n % 2 === 0 ? bin('*', c, x) : bin('*', x, c);
    }
    case 5:
    case 6:
      return bin(s.s % 12 === 5 ? '/' : '%', toIndex(kid(s, 0), sc), lit((Math.abs(s.n) % 6) + 1));
    case 7:
      return { kind: 'unary', op: '-', arg: toIndex(kid(s, 0), sc), pos: P0 };
    case 8:
    case 9:
      return call(s.s % 12 === 8 ? 'min' : 'max', [toIndex(kid(s, 0), sc), toIndex(kid(s, 1), sc)]);
    case 10:
      return { kind: 'select', cond: toCond(kid(s, 0), sc), then: toIndex(kid(s, 1), sc), else: toIndex(kid(s, 2), sc), pos: P0 };
    default: {
      const name = pick(LET_VARS, s.n);
      const bindCond = s.n % 3 === 0;
      const value = bindCond ? toCond(kid(s, 0), sc) : toIndex(kid(s, 0), sc);
      return { kind: 'let', name, value, body: toIndex(kid(s, 1), withVar(sc, name, bindCond ? 'cond' : 'index')), pos: P0 };
    }
  }
}

/** Γ ⊢ ι : 𝔹 */
export function toCond(s: SkelExpr, sc: Scope): Expr {
  switch (s.s % 8) {
    case 0:
      return { kind: 'bool', value: s.n % 2 === 0, pos: P0 };
    case 1: {
      const bs = varsOf(sc, 'cond');
      if (bs.length > 0) return v(pick(bs, s.n));
      return bin(pick(CMP_OPS, s.n), toIndex(kid(s, 0), sc), toIndex(kid(s, 1), sc));
    }
    case 2:
    case 3:
      return bin(pick(CMP_OPS, s.n), toIndex(kid(s, 0), sc), toIndex(kid(s, 1), sc));
    case 4:
      return bin(s.n % 2 === 0 ? '&&' : '||', toCond(kid(s, 0), sc), toCond(kid(s, 1), sc));
    case 5:
      return { kind: 'unary', op: '!', arg: toCond(kid(s, 0), sc), pos: P0 };
    case 6:
      return { kind: 'select', cond: toCond(kid(s, 0), sc), then: toCond(kid(s, 1), sc), else: toCond(kid(s, 2), sc), pos: P0 };
    default: {
      const name = pick(LET_VARS, s.n);
      return { kind: 'let', name, value: toIndex(kid(s, 0), sc), body: toCond(kid(s, 1), withVar(sc, name, 'index')), pos: P0 };
    }
  }
}

function intLit(n: number, t: ValueType): Expr {
  const [lo, hi] = INT_RANGE[t]!;
  const span = hi - lo + 1n;
  let x = BigInt(n);
  if (x < lo || x > hi) x = lo + ((((x - lo) % span) + span) % span);
  return lit(x);
}

function floatLit(n: number, t: ValueType): Expr {
  let x = pick(FLOATS, n);
  if (t === 'f32' && !Number.isFinite(Math.fround(x))) x = 1;
  return { kind: 'float', value: x, pos: P0 };
}

/** The type of `e` comes from its context only (see untypedKind in core/language/typecheck.ts). */
function untyped(e: Expr): boolean {
  switch (e.kind) {
    case 'int':
    case 'float':
      return true;
    case 'unary':
      return e.op === '-' && untyped(e.arg);
    case 'binary':
      return ['+', '-', '*', '/', '%'].includes(e.op) && untyped(e.left) && untyped(e.right);
    case 'select':
      return untyped(e.then) && untyped(e.else);
    case 'let':
      return untyped(e.body);
    case 'call':
      return e.fn !== 'bool' && !GEN_TYPES.includes(e.fn as ValueType) && e.args.length > 0 && e.args.every(untyped);
    default:
      return false;
  }
}

/** A value of type t whose type does not depend on its context (operand of a comparison, cast). */
function toTyped(s: SkelExpr, t: ValueType, sc: Scope): Expr {
  const e = toValue(s, t, sc);
  return untyped(e) ? call(t, [toIndex(s, sc)]) : e;
}

/** Γ ⊢_a e : τ (semantic) or Γ ⊢_A t : τ (prophetic), τ = t. */
export function toValue(s: SkelExpr, t: ValueType, sc: Scope): Expr {
  const isBool = t === 'bool';
  const isInt = isIntType(t);
  const k0 = kid(s, 0);
  const k1 = kid(s, 1);
  const k2 = kid(s, 2);
  switch (s.s % EXPR_SHAPES) {
    case 0:
      if (isBool) return { kind: 'bool', value: s.n % 2 !== 0, pos: P0 };
      return isInt || s.n % 2 === 0 ? intLit(isInt ? s.n : s.n % 1000, isInt ? t : 'i32') : floatLit(s.n, t);
    case 1: {
      const bs = varsOf(sc, 'cond');
      if (isBool && bs.length > 0) return v(pick(bs, s.n));
      if (s.n % 2 !== 0) return toValue({ ...s, s: 17 }, t, sc);
      return call(t, [toIndex({ ...s, s: 1 }, sc)]);
    }
    case 2:
    case 3:
    case 4:
    case 5:
    case 6: {
      if (isBool) return toValue({ ...s, s: 12 }, t, sc);
      const ops: BinaryOp[] = ['+', '-', '*', '/', isInt ? '%' : '*'];
      return bin(ops[(s.s % EXPR_SHAPES) - 2]!, toValue(k0, t, sc), toValue(k1, t, sc));
    }
    case 7:
      if (isBool) return { kind: 'unary', op: '!', arg: toValue(k0, t, sc), pos: P0 };
      return { kind: 'unary', op: '-', arg: toValue(k0, t, sc), pos: P0 };
    case 8:
    case 9:
      if (isBool) return bin(s.s % EXPR_SHAPES === 8 ? '&&' : '||', toValue(k0, t, sc), toValue(k1, t, sc));
      return call(s.s % EXPR_SHAPES === 8 ? 'min' : 'max', [toValue(k0, t, sc), toValue(k1, t, sc)]);
    case 10: {
      const cond = s.n % 2 === 0 ? toCond(k0, sc) : toValue(k0, 'bool', sc);
      return { kind: 'select', cond, then: toValue(k1, t, sc), else: toValue(k2, t, sc), pos: P0 };
    }
    case 11: {
      const name = pick(LET_VARS, s.n);
      const bindCond = s.n % 3 === 0;
      const value = bindCond ? toCond(k0, sc) : toIndex(k0, sc);
      return { kind: 'let', name, value, body: toValue(k1, t, withVar(sc, name, bindCond ? 'cond' : 'index')), pos: P0 };
    }
    case 12: {
      // A comparison of two values of a numeric type (the left one typed by itself).
      const ot = pick(NUMERIC_TYPES, s.n);
      const c = bin(pick(CMP_OPS, s.n >> 3), toTyped(k0, ot, sc), toValue(k1, ot, sc));
      return isBool ? c : call(t, [c]);
    }
    case 13:
    case 14: {
      const c = bin(s.s % EXPR_SHAPES === 13 ? '&&' : '||', toValue(k0, 'bool', sc), toValue(k1, 'bool', sc));
      return isBool ? c : call(t, [c]);
    }
    case 15:
      return isBool ? { kind: 'unary', op: '!', arg: toValue(k0, t, sc), pos: P0 } : toValue({ ...s, s: 7 }, t, sc);
    case 16:
      return isBool ? toCond(k0, sc) : call(t, [toCond(k0, sc)]);
    case 17: {
      // A read of an array (semantic) or a tensor (prophetic) of type t, or of another type and
      // cast to t.
      const idx = (rank: number): Expr[] => Array.from({ length: rank }, (_, i) => toIndex(kid(s, i), sc));
      const sources =
        sc.mode === 'semantic'
          ? sc.arrays.map((a) => ({ type: a.elem, read: (): Expr => ({ kind: 'array', name: a.name, indices: idx(a.rank), pos: P0 }) }))
          : sc.tensors.map((x) => ({ type: x.type, read: (): Expr => ({ kind: 'tensor', name: x.name, indices: idx(x.vars.length), pos: P0 }) }));
      const same = sources.filter((x) => x.type === t);
      if (same.length > 0) return pick(same, s.n).read();
      if (sources.length > 0) return call(t, [pick(sources, s.n).read()]);
      return call(t, [toIndex(k0, sc)]);
    }
    case 18: {
      // A cast, from an index (the only way to turn one into a value) or from another type.
      if (s.n % 2 === 0) return call(t, [toIndex(k0, sc)]);
      return call(t, [toTyped(k0, pick(GEN_TYPES, s.n >> 1), sc)]);
    }
    case 19:
      return isFloatType(t) ? floatLit(s.n, t) : toValue({ ...s, s: 17 }, t, sc);
    default: {
      if (isBool) return { kind: 'unary', op: '!', arg: toValue(k0, t, sc), pos: P0 };
      if (!isFloatType(t)) return call('abs', [toValue(k0, t, sc)]);
      const fn = pick(FLOAT_FNS, s.n);
      const two = fn === 'pow' || fn === 'min' || fn === 'max';
      return call(fn, two ? [toValue(k0, t, sc), toValue(k1, t, sc)] : [toValue(k0, t, sc)]);
    }
  }
}

// -- commands ---------------------------------------------------------------------------------

function toCmd(s: SkelCmd, sc: Scope): Cmd {
  const e = (i: number): SkelExpr => s.e[i] ?? { s: 0, n: s.n + i, k: [] };
  const c = (i: number, scope: Scope): Cmd => (s.k[i] ? toCmd(s.k[i]!, scope) : { kind: 'skip', pos: P0 });
  switch (s.s % CMD_SHAPES) {
    case 0:
      return { kind: 'skip', pos: P0 };
    case 1: {
      // A sequence (at least two commands; an element may itself be a braced sequence).
      const cmds = s.k.map((x) => toCmd(x, sc));
      while (cmds.length < 2) cmds.push({ kind: 'skip', pos: P0 });
      return { kind: 'seq', cmds, pos: P0 };
    }
    case 2:
    case 3: {
      if (sc.arrays.length === 0) return { kind: 'skip', pos: P0 };
      const a = pick(sc.arrays, s.n);
      const indices = Array.from({ length: a.rank }, (_, i) => toIndex(s.e[i + 2] ?? LEAF, sc));
      if (s.s % CMD_SHAPES === 3 && s.n % 4 === 1) {
        // An unannotated accumulation `a[ι] op= e` (chapter 7), which runs as `a[ι] := a[ι] op e`.
        const op: ReduceOp = a.elem === 'bool' ? (s.n % 8 === 1 ? '&&' : '||') : (['+', '*', 'min', 'max'] as const)[(s.n >> 2) % 4]!;
        const elem = toValue(e(0), a.elem, { ...sc, mode: 'semantic' });
        return { kind: 'assign', array: a.name, indices, annot: null, rhs: combine(op, { kind: 'array', name: a.name, indices, pos: P0 }, elem, P0), accum: { op, at: null, elem, partial: false }, pos: P0 };
      }
      const annot = s.s % CMD_SHAPES === 2 ? toValue(e(1), a.elem, { ...sc, mode: 'prophetic' }) : null;
      return { kind: 'assign', array: a.name, indices, annot, rhs: toValue(e(0), a.elem, { ...sc, mode: 'semantic' }), pos: P0 };
    }
    case 4:
      return { kind: 'if', cond: toCond(e(0), sc), then: c(0, sc), else: s.n % 2 === 0 ? null : c(1, sc), pos: P0 };
    case 5: {
      const name = pick(LOOP_VARS, s.n);
      const bindCond = s.n % 3 === 0;
      const value = bindCond ? toCond(e(0), sc) : toIndex(e(0), sc);
      return { kind: 'let', name, value, body: c(0, withVar(sc, name, bindCond ? 'cond' : 'index')), pos: P0 };
    }
    case 6: {
      const free = LOCALS.filter((l) => !sc.arrays.some((a) => a.name === l));
      if (free.length === 0) return c(0, sc);
      const name = pick(free, s.n);
      const elem = pick(GEN_TYPES, s.n >> 2);
      const dims = s.e.slice(0, 3).map((x) => toIndex(x, sc));
      const inner: Scope = { ...sc, arrays: [...sc.arrays, { name, elem, rank: dims.length }] };
      return { kind: 'allocate', name, elem, dims, body: c(0, inner), pos: P0 };
    }
    default: {
      const name = pick(LOOP_VARS, s.n);
      return { kind: s.s % CMD_SHAPES === 7 ? 'for' : 'par', var: name, bound: toIndex(e(0), sc), body: c(0, withVar(sc, name, 'index')), pos: P0 };
    }
  }
}

// -- specs and impls --------------------------------------------------------------------------

function buildSpec(s: SkelSpec, name: string): Spec {
  const params: ParamDecl[] = PARAMS.slice(0, s.params).map((p) => ({ name: p, pos: P0 }));
  const pvars = new Map(params.map((p) => [p.name, 'index' as const]));
  const base: Scope = { vars: pvars, arrays: [], tensors: [], mode: 'prophetic' };
  const assumes = s.assumes.map((a) => toCond(a, base));
  const roles: TensorRole[] = ['input', 'tensor', 'output'];
  const decls: TensorDecl[] = s.tensors.map((t, i) => {
    const vars = TENSOR_ARGS.slice(0, t.arity);
    return { role: roles[t.role % 3]!, name: TENSORS[i]!, vars, type: pick(GEN_TYPES, t.type), pos: P0 };
  });
  const sc: Scope = { ...base, tensors: decls };
  // Source order: each declaration followed by its equations, "late" equations at the end.
  const tensors: TensorDecl[] = [];
  const equations: Equation[] = [];
  const late: Equation[] = [];
  s.tensors.forEach((t, i) => {
    const d = decls[i]!;
    tensors.push(d);
    if (d.role === 'input') return;
    const inline = d.role === 'output' && t.inline;
    const eqs = t.eqs.length > 0 ? t.eqs : [{ lhs: [], rhs: LEAF, where: null, late: false }];
    eqs.forEach((q, qi) => {
      if (inline && qi === 0) {
        const scope: Scope = { ...sc, vars: new Map([...pvars, ...d.vars.map((x) => [x, 'index'] as const)]) };
        equations.push({
          tensor: d.name,
          lhs: d.vars.map(v),
          rhs: toValue(q.rhs, d.type, scope),
          where: q.where ? toCond(q.where, scope) : null,
          inline: true,
          pos: P0,
        });
        return;
      }
      let scope: Scope = sc;
      const used = new Set<string>();
      const lhs: Expr[] = d.vars.map((_, k) => {
        const a = q.lhs[k];
        const fresh = EQ_VARS.filter((x) => !used.has(x));
        if (a === undefined || a.fresh) {
          const x = pick(fresh, a?.e.n ?? k);
          used.add(x);
          scope = withVar(scope, x, 'index');
          return v(x);
        }
        return toIndex(a.e, sc); // over the parameters only
      });
      const eq: Equation = {
        tensor: d.name,
        lhs,
        rhs: toValue(q.rhs, d.type, scope),
        where: q.where ? toCond(q.where, scope) : null,
        inline: false,
        pos: P0,
      };
      (q.late ? late : equations).push(eq);
    });
  });
  return { name, params, assumes, tensors, equations: [...equations, ...late], pos: P0 };
}

function buildImpl(s: SkelImpl, name: string, spec: Spec): Impl {
  const pvars = new Map(spec.params.map((p) => [p.name, 'index' as const]));
  const base: Scope = { vars: pvars, arrays: [], tensors: spec.tensors, mode: 'prophetic' };
  const assumes = s.assumes.map((a) => toCond(a, base));
  const roles = ['input', 'output', 'array'] as const;
  const decls: ArrayDecl[] = s.decls.map((d, i) => {
    const role = roles[d.role % 3]!;
    const arrayName = ARRAYS[i]!;
    const dimsOf = (rank: number): Expr[] => Array.from({ length: rank }, (_, k) => toIndex(d.dims[k] ?? LEAF, base));
    if (role === 'array') {
      const dims = dimsOf(d.rank);
      return { role, name: arrayName, vars: null, elem: pick(GEN_TYPES, d.type), dims, value: null, where: null, pos: P0 };
    }
    if (d.shorthand && spec.tensors.length > 0) {
      const t = pick(spec.tensors, d.n);
      const dims = dimsOf(t.vars.length);
      const where = d.where ? toCond(d.where, base) : null;
      return { role, name: arrayName, vars: null, elem: t.type, dims, value: v(t.name), where, pos: P0 };
    }
    const vars = LOOP_VARS.slice(0, d.rank);
    const elem = pick(GEN_TYPES, d.type);
    const scope: Scope = { ...base, vars: new Map([...pvars, ...vars.map((x) => [x, 'index'] as const)]) };
    const where = d.where ? toCond(d.where, scope) : null;
    return { role, name: arrayName, vars, elem, dims: dimsOf(d.rank), value: toValue(d.value, elem, scope), where, pos: P0 };
  });
  const sc: Scope = { ...base, arrays: decls.map((d) => ({ name: d.name, elem: d.elem, rank: d.dims.length })) };
  return { name, spec: spec.name, assumes, decls, body: toCmd(s.body, sc), pos: P0 };
}

export function buildProgram(s: SkelProgram, file = 'gen.sched'): Program {
  const specs = s.specs.map((x, i) => buildSpec(x, `s${i}`));
  const impls = s.impls.map((x, i) => buildImpl(x, `m${i}`, pick(specs, x.spec)));
  return { file, specs, impls };
}
