// The evaluation function ⟦e⟧_{E;μ} of thesis Fig. 4.3 (and ⟦t⟧_{E;M} of §4.2), as a translation of
// expressions to JavaScript source. Each rule of the figure has one emitter below, named after it;
// the value semantics of every operator (⟦f⟧ of rule CALL) is the one of values.ts, called
// through constants so that it has a single definition. Translating to JS (rather than
// interpreting the tree) lets V8 compile a whole loop nest to machine code: this is what makes the
// big-step fast enough to be an oracle (about 20× a closure interpreter on the matrix product).
//
// Where an expression reads memory or a model is the business of a `Target` (the big-step inlines
// array reads with their checks; the model and the small-step call a port). ⊥ is never a JS value
// here: a read that finds ⊥ calls the target's failure path, which throws (⊥ propagates through
// every rule, so the whole expression is ⊥).
//
// Generated code contains only generated identifiers, numeric literals and references to
// registered constants: no text from the source file ever reaches `new Function`.

import { type ArrayRead, type Expr, hasPoison, isCheckedFunction, isLoad, isReinterpretFunction, type TensorRead, truncTarget, type ValueType } from '../core/language/ast.ts';
import * as I from './int.ts';
import type { Scope, Sites } from './scope.ts';
import { arith, type ArithOp, builtin1, builtin2, cast, type CastSource, checkedArith, checkedTrunc, compare, type CmpOp, literalOf, literalValue, negate, POISON, PoisonSignal, poisonRerun, reinterpretBits, type Value } from './values.ts';

/** How a translation reads variables, binds `let`s and reads arrays and tensors. */
export interface Target {
  /** JS expression for the value of slot s (an affine variable). */
  slot(s: number): string;
  /** JS expression evaluating `body` with slot s bound to `value`. */
  bindLet(s: number, value: string, body: string): string;
  /**
   * JS expression reading array `e` (slot of its instance, index expressions, site). With `load`
   * (a checked read), a cell holding ⊥ throws PoisonSignal (kind `uninitialized`) instead of failing.
   */
  arrayRead(e: ArrayRead, arraySlot: number, idx: readonly string[], site: number, sc: Scope, load?: boolean): string;
  /** JS expression reading tensor `e`. */
  tensorRead(e: TensorRead, idx: readonly string[], site: number, sc: Scope): string;
}

/** Helpers every generated function can call by these names (bound in its prologue). */
export const HELPERS = {
  $add: I.add,
  $sub: I.sub,
  $mul: I.mul,
  $neg: I.neg,
  $fdiv: I.floorDiv,
  $emod: I.emod,
  $min: I.min,
  $max: I.max,
  /** SELECT-TRUE / SELECT-FALSE: arguments are evaluated by the call (eagerly), then chosen. */
  $sel: <T>(c: boolean, a: T, b: T): T => (c ? a : b),
  /**
   * The same when an operand holds a checked operation or a `load`: both operands are still
   * evaluated (a ⊥ plain read or an out-of-bounds read in either is an error), but a POISON operand
   * is an error only if chosen.
   */
  $selp: <T>(c: boolean, ta: () => T, tb: () => T): T => {
    const run = (t: () => T): { v: T } | { p: PoisonSignal } => {
      try {
        return { v: t() };
      } catch (x) {
        if (!(x instanceof PoisonSignal)) throw x;
        // The poison stopped the operand part-way: evaluate it again whole, with stand-ins for
        // poison, so that its other reads and errors are not skipped (values.ts, poisonRerun).
        poisonRerun.depth++;
        try {
          t();
        } finally {
          poisonRerun.depth--;
        }
        return { p: x };
      }
    };
    const a = run(ta);
    const b = run(tb);
    const r = c ? a : b;
    if ('p' in r) throw r.p;
    return r.v;
  },
  /** A checked operation's result: its value, or undefined behaviour at `site`. */
  $chk: (v: Value | typeof POISON, site: number, what: string, standIn: Value): Value => {
    if (v === POISON) {
      if (poisonRerun.depth > 0) return standIn;
      throw new PoisonSignal(site, what);
    }
    return v;
  },
  $and: (a: boolean, b: boolean): boolean => a && b,
  $or: (a: boolean, b: boolean): boolean => a || b,
  $pos: (m: I.Int): I.Int => {
    if (m <= 0) throw new Error(`internal: non-positive divisor ${m} in an index expression`);
    return m;
  },
  /** Row-major offset of an in-bounds index, or -1 (the location is not in dom(μ)). */
  $o1: (ref: { dims: readonly number[] }, i: I.Int): number => (typeof i === 'number' && i >= 0 && i < ref.dims[0]! ? i : -1),
  $o2: (ref: { dims: readonly number[]; strides: readonly number[] }, i: I.Int, j: I.Int): number =>
    typeof i === 'number' && typeof j === 'number' && i >= 0 && j >= 0 && i < ref.dims[0]! && j < ref.dims[1]! ? i * ref.strides[0]! + j : -1,
  $oN: (ref: { offset(idx: readonly I.Int[]): number }, idx: readonly I.Int[]): number => ref.offset(idx),
  /** The same with the shape in scalars (dims z, row stride s), for hoisted shapes. */
  $q1: (i: I.Int, z0: number): number => (typeof i === 'number' && i >= 0 && i < z0 ? i : -1),
  $q2: (i: I.Int, j: I.Int, z0: number, z1: number, s0: number): number =>
    typeof i === 'number' && typeof j === 'number' && i >= 0 && j >= 0 && i < z0 && j < z1 ? i * s0 + j : -1,
};

const HELPER_NAMES = Object.keys(HELPERS);

/** A JS literal for a value or an Int (no registered constant needed). */
export function jsLiteral(v: Value | I.Int): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (Object.is(v, -0)) return '-0';
  return v < 0 ? `(${v})` : String(v);
}

/** JS for the offset of an index tuple in array instance `ref` (or -1). */
export function offsetCode(ref: string, idx: readonly string[]): string {
  if (idx.length === 0) return '0';
  if (idx.length === 1) return `$o1(${ref}, ${idx[0]})`;
  if (idx.length === 2) return `$o2(${ref}, ${idx[0]}, ${idx[1]})`;
  return `$oN(${ref}, [${idx.join(', ')}])`;
}

function tyOf(e: Expr): NonNullable<Expr['ty']> {
  if (e.ty === undefined) throw new Error('internal: expression not type-checked');
  return e.ty;
}

/** Translates expressions for one generated function, collecting the constants it uses. */
export class Emitter {
  private readonly consts: unknown[] = [];
  private readonly constIds = new Map<unknown, number>();

  constructor(
    readonly target: Target,
    readonly sites: Sites,
  ) {}

  /** Name of a registered constant (functions of values.ts, strings, objects). */
  constant(x: unknown): string {
    let i = this.constIds.get(x);
    if (i === undefined) {
      i = this.consts.length;
      this.consts.push(x);
      this.constIds.set(x, i);
    }
    return `K${i}`;
  }

  /** An index expression (type 𝔸): JS producing an exact Int. */
  index(e: Expr, sc: Scope): string {
    switch (e.kind) {
      case 'int':
        return jsLiteral(I.fromBig(e.value)); // LIT
      case 'var':
        return this.target.slot(sc.varSlot(e.name)); // VAR: x ↦ v ∈ E
      case 'unary':
        return `$neg(${this.index(e.arg, sc)})`;
      case 'binary': {
        const a = this.index(e.left, sc);
        const b = this.index(e.right, sc);
        switch (e.op) {
          case '+':
            return `$add(${a}, ${b})`; // ⟦ι1 + ι2⟧ = n + m
          case '-':
            return `$sub(${a}, ${b})`;
          case '*':
            return `$mul(${a}, ${b})`; // ⟦m · ι⟧ = m · n
          case '/':
            return `$fdiv(${a}, $pos(${b}))`; // ⟦⌊ι/m⌋⟧ = ⌊n/m⌋, m > 0
          case '%':
            return `$emod(${a}, $pos(${b}))`; // ⟦ι mod m⟧ = n mod m, m > 0
          default:
            throw new Error(`internal: '${e.op}' is not an index operator`);
        }
      }
      case 'call':
        if (e.fn !== 'min' && e.fn !== 'max') throw new Error(`internal: '${e.fn}' in an index expression`);
        return `$${e.fn}(${this.index(e.args[0]!, sc)}, ${this.index(e.args[1]!, sc)})`;
      case 'select':
        return this.SELECT(this.cond(e.cond, sc), this.index(e.then, sc), this.index(e.else, sc));
      case 'let':
        return this.LET(e, sc, (s) => this.index(e.body, s));
      default:
        throw new Error(`internal: ${e.kind} is not an index expression`);
    }
  }

  /** An affine condition (type 𝔹): JS producing a Boolean. */
  cond(e: Expr, sc: Scope): string {
    switch (e.kind) {
      case 'bool':
        return e.value ? 'true' : 'false';
      case 'var':
        return this.target.slot(sc.varSlot(e.name));
      case 'unary':
        return `!(${this.cond(e.arg, sc)})`; // ⟦!ι⟧ = ¬b
      case 'binary': {
        if (e.op === '&&' || e.op === '||') return `$${e.op === '&&' ? 'and' : 'or'}(${this.cond(e.left, sc)}, ${this.cond(e.right, sc)})`;
        const a = this.index(e.left, sc);
        const b = this.index(e.right, sc);
        // ⟦ι1 ⊙ ι2⟧ = n ⊙ m: exact comparisons (Ints are canonical: a bigint is never safe).
        switch (e.op) {
          case '==':
            return `(${a} === ${b})`;
          case '!=':
            return `(${a} !== ${b})`;
          case '<':
          case '<=':
          case '>':
          case '>=':
            return `(${a} ${e.op} ${b})`;
          default:
            throw new Error(`internal: '${e.op}' is not a condition operator`);
        }
      }
      case 'select':
        return this.SELECT(this.cond(e.cond, sc), this.cond(e.then, sc), this.cond(e.else, sc));
      case 'let':
        return this.LET(e, sc, (s) => this.cond(e.body, s));
      default:
        throw new Error(`internal: ${e.kind} is not an affine condition`);
    }
  }

  /** An affine expression of either affine type. */
  affine(e: Expr, sc: Scope): string {
    return tyOf(e).kind === 'cond' ? this.cond(e, sc) : this.index(e, sc);
  }

  /** A Boolean position inside a value expression: an affine condition or a bool value. */
  private boolish(e: Expr, sc: Scope): string {
    return tyOf(e).kind === 'cond' ? this.cond(e, sc) : this.value(e, sc);
  }

  /** A semantic or prophetic expression (or an affine condition used as a bool value). */
  value(e: Expr, sc: Scope): string {
    const ty = tyOf(e);
    if (ty.kind === 'cond') return this.cond(e, sc);
    if (ty.kind === 'index') throw new Error('internal: an index is not a value (a cast is required)');
    const vt = ty.vt;
    switch (e.kind) {
      case 'int':
      case 'float':
      case 'bool':
        return jsLiteral(literalOf(e, vt)); // LIT
      case 'array':
        return this.ARRAY(e, sc);
      case 'tensor':
        return this.TENSOR(e, sc);
      case 'call':
        return this.CALL(e, vt, sc);
      case 'unary':
        if (e.op === '!') return `!(${this.boolish(e.arg, sc)})`;
        return `${this.constant(negate(vt))}(${this.value(e.arg, sc)})`;
      case 'binary':
        return this.binary(e, vt, sc);
      case 'select':
        if (hasPoison(e.then) || hasPoison(e.else)) return `$selp(${this.boolish(e.cond, sc)}, () => ${this.value(e.then, sc)}, () => ${this.value(e.else, sc)})`;
        return this.SELECT(this.boolish(e.cond, sc), this.value(e.then, sc), this.value(e.else, sc));
      case 'let':
        return this.LET(e, sc, (s) => this.value(e.body, s));
      case 'var':
        throw new Error(`internal: variable '${e.name}' used as a value`);
    }
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, vt: ValueType, sc: Scope): string {
    switch (e.op) {
      case '&&':
      case '||':
        // Both operands are evaluated (no short circuit: ⊥ on either side gives ⊥).
        return `$${e.op === '&&' ? 'and' : 'or'}(${this.boolish(e.left, sc)}, ${this.boolish(e.right, sc)})`;
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const a = tyOf(e.left).kind === 'cond' ? this.cond(e.left, sc) : this.value(e.left, sc);
        const b = tyOf(e.right).kind === 'cond' ? this.cond(e.right, sc) : this.value(e.right, sc);
        return `${this.constant(compare(e.op as CmpOp))}(${a}, ${b})`;
      }
      default:
        return `${this.constant(arith(e.op as ArithOp, vt))}(${this.value(e.left, sc)}, ${this.value(e.right, sc)})`;
    }
  }

  /**
   * SELECT-TRUE / SELECT-FALSE: all three arguments are evaluated (eager, as in Halide), then one
   * is chosen. A call evaluates its arguments, so `$sel` is eager by construction.
   */
  private SELECT(c: string, a: string, b: string): string {
    return `$sel(${c}, ${a}, ${b})`;
  }

  /** let x = ι in e: ⟦ι⟧ = v0 and ⟦e⟧_{E + x ↦ v0} = v (x gets a slot of its own). */
  private LET(e: Extract<Expr, { kind: 'let' }>, sc: Scope, body: (s: Scope) => string): string {
    const v = this.affine(e.value, sc);
    const { scope, slot } = sc.bindVar(e.name);
    return this.target.bindLet(slot, v, body(scope));
  }

  /** CALL: ⟦f(e1, …, en)⟧ = ⟦f⟧(v1, …, vn), call by value; casts are functions named after types. */
  private CALL(e: Extract<Expr, { kind: 'call' }>, vt: ValueType, sc: Scope): string {
    const fn = e.fn;
    if (fn === 'min' || fn === 'max' || fn === 'pow') {
      return `${this.constant(builtin2(fn, vt))}(${this.value(e.args[0]!, sc)}, ${this.value(e.args[1]!, sc)})`;
    }
    if (fn === 'abs' || fn === 'sqrt' || fn === 'exp' || fn === 'log' || fn === 'floor' || fn === 'ceil') {
      return `${this.constant(builtin1(fn, vt))}(${this.value(e.args[0]!, sc)})`;
    }
    if (isReinterpretFunction(fn)) {
      const at = tyOf(e.args[0]!);
      if (at.kind !== 'value') throw new Error(`${fn} of an ${at.kind}`);
      return `${this.constant(reinterpretBits(at.vt))}(${this.value(e.args[0]!, sc)})`;
    }
    if (isCheckedFunction(fn)) {
      // A checked operation: its value, or POISON, which $chk turns into undefined behaviour here.
      const site = this.sites.add(e, e.pos, sc);
      const to = truncTarget(fn);
      const f = to !== null ? checkedTrunc(to) : checkedArith(fn === 'add_nsw' ? '+' : fn === 'sub_nsw' ? '-' : '*', vt);
      const what = to !== null ? `${fn} of a value outside ${to}'s range (or NaN, ±∞)` : `${fn} overflows ${vt}`;
      return `$chk(${this.constant(f)}(${e.args.map((a) => this.value(a, sc)).join(', ')}), ${site}, ${this.constant(what)}, ${jsLiteral(literalValue(0n, to ?? vt))})`;
    }
    if (fn === 'load') {
      if (!isLoad(e)) throw new Error('internal: load of a non-array (not type-checked?)');
      return this.ARRAY(e.args[0], sc, true); // the checked read (ast.ts, LOAD)
    }
    const arg = e.args[0]!;
    const at = tyOf(arg);
    const from: CastSource = at.kind === 'value' ? at.vt : at.kind;
    const a = at.kind === 'index' ? this.index(arg, sc) : at.kind === 'cond' ? this.cond(arg, sc) : this.value(arg, sc);
    return `${this.constant(cast(from, fn))}(${a})`;
  }

  /** Array rule: ⟦ι_i⟧ = n_i ∈ ℕ and a[n̄] ↦ v ∈ μ give v (the target emits the checks). */
  private ARRAY(e: ArrayRead, sc: Scope, load = false): string {
    const slot = sc.arraySlot(e.name);
    const idx = e.indices.map((i) => this.index(i, sc));
    const site = this.sites.add(e, e.pos, sc);
    return this.target.arrayRead(e, slot, idx, site, sc, load);
  }

  /** Tensor rule (§4.2): ⟦A(ι̅)⟧_{E;M} = ⟦A⟧_M(n̄). */
  private TENSOR(e: TensorRead, sc: Scope): string {
    const idx = e.indices.map((i) => this.index(i, sc));
    const site = this.sites.add(e, e.pos, sc);
    return this.target.tensorRead(e, idx, site, sc);
  }

  /**
   * Build a function from generated code: `args` are its parameters, `body` its statements;
   * `extra` names more values the code refers to (a port, a machine).
   */
  build<F>(args: readonly string[], body: string, extra: Record<string, unknown> = {}): { fn: F; source: string } {
    const extraNames = Object.keys(extra);
    const prologue = [
      '"use strict";',
      `const { ${HELPER_NAMES.join(', ')} } = H;`,
      ...this.consts.map((_, i) => `const K${i} = K[${i}];`),
      ...extraNames.map((n) => `const ${n} = X.${n};`),
    ].join('\n');
    const source = `${prologue}\nreturn function (${args.join(', ')}) {\n${body}\n};`;
    const make = new Function('K', 'H', 'X', source) as (k: unknown[], h: typeof HELPERS, x: Record<string, unknown>) => F;
    return { fn: make(this.consts, HELPERS, extra), source };
  }
}
