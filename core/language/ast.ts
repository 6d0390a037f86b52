// The abstract syntax of SCHED (thesis Figures 4.1 and 4.2) plus specifications (SAREs) and
// implementation declarations (docs/language.md). Every node carries the position of its first
// character. Expressions are one syntactic category, as in the thesis: whether an expression is
// an index (𝔸), an affine condition (𝔹), a semantic expression or a prophetic one is decided by
// the type checker, which records the result in `ty`.

export interface Pos {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in UTF-16 code units. */
  readonly col: number;
}

export const NO_POS: Pos = { line: 0, col: 0 };

export const INT_TYPES = ['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64'] as const;
export const FLOAT_TYPES = ['f32', 'f64'] as const;
export type IntType = (typeof INT_TYPES)[number];
export type FloatType = (typeof FLOAT_TYPES)[number];
export type ValueType = 'bool' | IntType | FloatType;
export const VALUE_TYPES: readonly ValueType[] = ['bool', ...INT_TYPES, ...FLOAT_TYPES];

export function isValueTypeName(s: string): s is ValueType {
  return (VALUE_TYPES as readonly string[]).includes(s);
}
export function isIntType(t: ValueType): t is IntType {
  return (INT_TYPES as readonly string[]).includes(t);
}
export function isFloatType(t: ValueType): t is FloatType {
  return t === 'f32' || t === 'f64';
}

/** Types of expressions: the affine 𝔸 (`index`) and 𝔹 (`cond`), or a value type. */
export type Type =
  | { readonly kind: 'index' }
  | { readonly kind: 'cond' }
  | { readonly kind: 'value'; readonly vt: ValueType };

export const T_INDEX: Type = { kind: 'index' };
export const T_COND: Type = { kind: 'cond' };
export function tValue(vt: ValueType): Type {
  return { kind: 'value', vt };
}
export function showType(t: Type): string {
  return t.kind === 'index' ? 'int (index)' : t.kind === 'cond' ? 'bool (affine condition)' : t.vt;
}

/**
 * Checked operations (docs/language.md §4): `add_nsw`, `sub_nsw` and `mul_nsw` on signed integers,
 * and the float → integer conversions `trunc_T`, have the value of `+`, `-`, `*` and of the cast
 * `T(e)` where the exact result is in the type's range, and none outside it: running one there is
 * undefined behaviour (a run error), which the verifier rules out by an obligation. They carry a
 * compiler's meaning where it leaves a result undefined (Halide's Int(32) arithmetic, its float →
 * int casts); implementations only.
 */
export const CHECKED_FUNCTIONS = ['add_nsw', 'sub_nsw', 'mul_nsw', 'trunc_i8', 'trunc_i16', 'trunc_i32', 'trunc_i64', 'trunc_u8', 'trunc_u16', 'trunc_u32', 'trunc_u64'] as const;
export type CheckedFunction = (typeof CHECKED_FUNCTIONS)[number];
export function isCheckedFunction(s: string): s is CheckedFunction {
  return (CHECKED_FUNCTIONS as readonly string[]).includes(s);
}
/** The integer type a `trunc_T` converts to, or null for the other functions. */
export function truncTarget(fn: string): IntType | null {
  return fn.startsWith('trunc_') && isCheckedFunction(fn) ? (fn.slice(6) as IntType) : null;
}

/**
 * Reinterpretations: `reinterpret_f32(e)` is the f32 whose IEEE-754 bits are those of the 32-bit
 * integer e (i32 or u32), `reinterpret_f64` the f64 of a 64-bit one (Halide's `reinterpret`, which
 * `fast_exp` uses to build 2^k from its exponent bits).
 */
export const REINTERPRET_FUNCTIONS = ['reinterpret_f32', 'reinterpret_f64'] as const;
export type ReinterpretFunction = (typeof REINTERPRET_FUNCTIONS)[number];
export function isReinterpretFunction(s: string): s is ReinterpretFunction {
  return (REINTERPRET_FUNCTIONS as readonly string[]).includes(s);
}

/**
 * `load(a[ι])`, the checked read (docs/language.md §4): the cell's value where it holds one, and
 * *poison* where it holds ⊥, which a select may discard and any other use makes the error
 * `uninitialized-read`. Its indices are still checked (out of bounds is an error). It carries the
 * meaning of a compiler's load from an allocation that the program then discards (Halide reads a
 * never-computed cell in the unchosen operand of a `select`); implementations only. A plain read
 * `a[ι]` keeps the thesis's eager rule: ⊥ in either operand of a select is an error.
 */
export const LOAD = 'load';
/** Whether e is a checked read `load(a[ι])`. */
export function isLoad(e: Expr): e is Extract<Expr, { kind: 'call' }> & { readonly args: readonly [ArrayRead] } {
  return e.kind === 'call' && e.fn === LOAD && e.args.length === 1 && e.args[0]!.kind === 'array';
}

/** Pure functions callable in value expressions (min/max also in index expressions). */
export const BUILTIN_FUNCTIONS = ['min', 'max', 'abs', 'sqrt', 'exp', 'log', 'pow', 'floor', 'ceil', ...REINTERPRET_FUNCTIONS, ...CHECKED_FUNCTIONS, LOAD] as const;
export type BuiltinFunction = (typeof BUILTIN_FUNCTIONS)[number];
export function isBuiltinFunction(s: string): s is BuiltinFunction {
  return (BUILTIN_FUNCTIONS as readonly string[]).includes(s);
}

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';
export type UnaryOp = '-' | '!';

interface Node {
  readonly pos: Pos;
  /** Filled in by the type checker. */
  ty?: Type;
}

export type Expr =
  | IntLit
  | FloatLit
  | BoolLit
  | VarRef
  | ArrayRead
  | TensorRead
  | Call
  | Unary
  | Binary
  | Select
  | LetExpr;

/** An integer literal: an index, or a value of the type its context expects. */
export interface IntLit extends Node {
  readonly kind: 'int';
  readonly value: bigint;
}
export interface FloatLit extends Node {
  readonly kind: 'float';
  /** The binary64 nearest to the decimal written. */
  readonly value: number;
  /**
   * Only where reading the binary64 as binary32 rounds twice (float-literal.ts): the binary32
   * nearest to the decimal written, and that text (printed back as written).
   */
  readonly f32?: { readonly value: number; readonly text: string };
}
export interface BoolLit extends Node {
  readonly kind: 'bool';
  readonly value: boolean;
}
/** A parameter, loop variable, `let` variable or equation variable. */
export interface VarRef extends Node {
  readonly kind: 'var';
  readonly name: string;
}
/** `a[ι1, …, ιn]`: implementation code only. */
export interface ArrayRead extends Node {
  readonly kind: 'array';
  readonly name: string;
  readonly indices: readonly Expr[];
}
/** `A(ι1, …, ιn)`: specifications and prophetic annotations only. */
export interface TensorRead extends Node {
  readonly kind: 'tensor';
  readonly name: string;
  readonly indices: readonly Expr[];
}
/** A builtin function (`min`, `sqrt`, …) or a cast written as a type name (`f32(e)`). */
export interface Call extends Node {
  readonly kind: 'call';
  readonly fn: BuiltinFunction | ValueType;
  readonly args: readonly Expr[];
}
export interface Unary extends Node {
  readonly kind: 'unary';
  readonly op: UnaryOp;
  readonly arg: Expr;
}
export interface Binary extends Node {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}
/** Eager conditional (all three arguments are evaluated), as in Halide. */
export interface Select extends Node {
  readonly kind: 'select';
  readonly cond: Expr;
  readonly then: Expr;
  readonly else: Expr;
}
export interface LetExpr extends Node {
  readonly kind: 'let';
  readonly name: string;
  readonly value: Expr;
  readonly body: Expr;
}

export type Cmd = Skip | Seq | Assign | If | LetCmd | Allocate | Loop;

export interface Skip {
  readonly kind: 'skip';
  readonly pos: Pos;
}
/** `c1; c2; …` with at least two commands; nested sequences come from braces. */
export interface Seq {
  readonly kind: 'seq';
  readonly pos: Pos;
  readonly cmds: readonly Cmd[];
}
/** `a[ι…] {t} := e`; `annot` is null for an unannotated assignment. */
export interface Assign {
  readonly kind: 'assign';
  readonly pos: Pos;
  readonly array: string;
  readonly indices: readonly Expr[];
  readonly annot: Expr | null;
  /** For an accumulation `a[ι] {T(c)@(κ)} += e` the desugared `a[ι] + e` (what runs). */
  readonly rhs: Expr;
  /** Present for an accumulation or a transfer (core/language/reductions.ts); absent for `:=`. */
  readonly accum?: Accumulation;
}

/** The reduction operators of the registry (core/language/reductions.ts). */
export type ReduceOp = '+' | '*' | 'min' | 'max' | '&&' | '||';

/**
 * `a[ι] {[partial] T(c)@(κ)} op= e` (an accumulation: `at` is κ, `elem` is e) or
 * `a[ι] {[partial] T(c)} op= b[ι']` (a transfer of the partial accumulator b[ι']: `at` is null).
 */
export interface Accumulation {
  readonly op: ReduceOp;
  readonly at: readonly Expr[] | null;
  readonly elem: Expr;
  /** Started from the operator's neutral element rather than from T's initial value. */
  readonly partial: boolean;
}
export interface If {
  readonly kind: 'if';
  readonly pos: Pos;
  readonly cond: Expr;
  readonly then: Cmd;
  /** null when the source has no `else` (same meaning as `else skip`). */
  readonly else: Cmd | null;
}
export interface LetCmd {
  readonly kind: 'let';
  readonly pos: Pos;
  readonly name: string;
  readonly value: Expr;
  readonly body: Cmd;
}
export interface Allocate {
  readonly kind: 'allocate';
  readonly pos: Pos;
  readonly name: string;
  readonly elem: ValueType;
  readonly dims: readonly Expr[];
  readonly body: Cmd;
}
/** `for x < ι do c` (sequential) or `par x < ι do c` (parallel, non-communicating). */
export interface Loop {
  readonly kind: 'for' | 'par';
  readonly pos: Pos;
  readonly var: string;
  readonly bound: Expr;
  readonly body: Cmd;
}

// ---------------------------------------------------------------------------------------------
// Specifications

export interface ParamDecl {
  readonly name: string;
  readonly pos: Pos;
}

export type TensorRole = 'input' | 'tensor' | 'output';

export interface TensorDecl {
  readonly role: TensorRole;
  readonly name: string;
  /** Argument names as written (documentation for inputs; equation variables for inline outputs). */
  readonly vars: readonly string[];
  readonly type: ValueType;
  readonly pos: Pos;
}

/** `T(ι1, …, ιn) = e where φ;` meaning ∀x. φ ⇒ T(x) = e (arguments may be index expressions). */
export interface Equation {
  readonly tensor: string;
  readonly lhs: readonly Expr[];
  readonly rhs: Expr;
  readonly where: Expr | null;
  /** True for `output T(…): τ = e [where φ];` (printed back on the declaration). */
  readonly inline: boolean;
  readonly pos: Pos;
}

export interface Spec {
  readonly name: string;
  readonly params: readonly ParamDecl[];
  readonly assumes: readonly Expr[];
  readonly tensors: readonly TensorDecl[];
  /** Includes the recurrences a reduction equation is desugared to (core/language/reductions.ts). */
  readonly equations: readonly Equation[];
  readonly pos: Pos;
  /** The reduction equations as written (absent or empty: none). */
  readonly reductions?: readonly ReductionDef[];
}

/** One dimension `lo <= j < hi` of a reduction domain. */
export interface ReductionDim {
  readonly var: string;
  readonly lo: Expr;
  readonly hi: Expr;
}

/**
 * `T(x…) = [init op] red{lo <= j < hi, … | φ}(body) [where ψ];` as written. It is desugared to
 * a hidden tensor `acc` (a left fold in lexicographic order of j, from init or the neutral
 * element) and `T(x…) = acc(x…, last j…)`; see core/language/reductions.ts.
 */
export interface ReductionDef {
  readonly tensor: string;
  readonly vars: readonly string[];
  readonly op: ReduceOp;
  readonly init: Expr | null;
  readonly dims: readonly ReductionDim[];
  readonly filter: Expr | null;
  readonly body: Expr;
  readonly where: Expr | null;
  readonly inline: boolean;
  /** The hidden tensor holding the fold (a reserved name). */
  readonly acc: string;
  readonly pos: Pos;
}

// ---------------------------------------------------------------------------------------------
// Implementations

export type ArrayRole = 'input' | 'output' | 'array';

/**
 * `input a[i, k]: f32[N, P] = A(i, k);`, `input b: f32[P, M] = B;` (shorthand: `vars` is null and
 * `value` is the tensor name as a VarRef), `output c[i, j]: f32[N, M] = C(i, j) where φ;`,
 * `array s: f32[4];` (no value).
 */
export interface ArrayDecl {
  readonly role: ArrayRole;
  readonly name: string;
  readonly vars: readonly string[] | null;
  readonly elem: ValueType;
  readonly dims: readonly Expr[];
  readonly value: Expr | null;
  readonly where: Expr | null;
  readonly pos: Pos;
}

export interface Impl {
  readonly name: string;
  readonly spec: string;
  readonly assumes: readonly Expr[];
  readonly decls: readonly ArrayDecl[];
  readonly body: Cmd;
  readonly pos: Pos;
}

export interface Program {
  readonly file: string;
  readonly specs: readonly Spec[];
  readonly impls: readonly Impl[];
}

/** Identifiers starting with `__` are reserved for names the toolkit introduces. */
export const RESERVED_PREFIX = '__';

/** Variables bound by an array declaration: its own names, or __d0…__d(n-1) for the shorthand. */
export function declVars(d: ArrayDecl): string[] {
  return d.vars ? [...d.vars] : d.dims.map((_, i) => `${RESERVED_PREFIX}d${i}`);
}

/** The prophetic expression an input/output declaration binds each cell to. */
export function declValue(d: ArrayDecl): Expr | null {
  if (d.value === null) return null;
  if (d.vars === null && d.value.kind === 'var') {
    const vars = declVars(d);
    return {
      kind: 'tensor',
      name: d.value.name,
      indices: vars.map((name) => ({ kind: 'var', name, pos: d.value!.pos }) as const),
      pos: d.value.pos,
    };
  }
  return d.value;
}

/** Whether a value expression holds a checked operation (its evaluation may be POISON). */
export function hasChecked(e: Expr): boolean {
  return holdsCall(e, isCheckedFunction);
}

/** Whether a value expression may evaluate to POISON: it holds a checked operation or a `load`. */
export function hasPoison(e: Expr): boolean {
  return holdsCall(e, (fn) => isCheckedFunction(fn) || fn === LOAD);
}

/** Whether a value expression calls a function that `fn` accepts (indices and let values are affine). */
function holdsCall(e: Expr, fn: (name: string) => boolean): boolean {
  switch (e.kind) {
    case 'call':
      return fn(e.fn) || e.args.some((a) => holdsCall(a, fn));
    case 'unary':
      return holdsCall(e.arg, fn);
    case 'binary':
      return holdsCall(e.left, fn) || holdsCall(e.right, fn);
    case 'select':
      return holdsCall(e.cond, fn) || holdsCall(e.then, fn) || holdsCall(e.else, fn);
    case 'let':
      return holdsCall(e.body, fn);
    default:
      return false;
  }
}

/** The plain operation a checked one has the value of: `+`, `-`, `*`, or the cast to T. */
export function plainOf(e: Extract<Expr, { kind: 'call' }>): Expr {
  const to = truncTarget(e.fn);
  if (to !== null) return { kind: 'call', fn: to, args: e.args, pos: e.pos, ty: e.ty };
  const op = e.fn === 'add_nsw' ? '+' : e.fn === 'sub_nsw' ? '-' : '*';
  return { kind: 'binary', op, left: e.args[0]!, right: e.args[1]!, pos: e.pos, ty: e.ty };
}
