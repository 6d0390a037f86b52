// The type checker of thesis Figure 4.7, extended to the .sched format: affine judgements
// Γ ⊢ ι : 𝔸 / 𝔹 (quasi-affine: products only by constants, `/` and `%` by positive constants),
// semantic judgements Γ ⊢_a e : τ (array reads, no tensors) and prophetic judgements
// Γ ⊢_A t : τ (tensor reads, no arrays). It records the type of every expression in `ty`,
// resolves names, and normalises spec equations (a left-hand-side index expression becomes a
// fresh variable plus an equality in the guard). All errors of a file are collected.

import { operatorOf } from './reductions.ts';
import {
  type ArrayDecl,
  type Cmd,
  declValue,
  declVars,
  type Equation,
  type Expr,
  type Impl,
  isFloatType,
  isIntType,
  isValueTypeName,
  type Pos,
  type Program,
  RESERVED_PREFIX,
  showType,
  type Spec,
  truncTarget,
  T_COND,
  T_INDEX,
  type TensorDecl,
  tValue,
  type Type,
  type ValueType,
} from './ast.ts';
import { type Diagnostic, diag, SchedInputError } from './diagnostics.ts';
import { decimalToF32 } from './float-literal.ts';
import { floatText } from './printer.ts';

// ---------------------------------------------------------------------------------------------
// Results

/** An equation in canonical form ∀ vars. guard ⇒ tensor(vars) = rhs (thesis §2.2). */
export interface NormEquation {
  readonly tensor: string;
  readonly vars: readonly string[];
  /** Type 𝔹, over `vars` and the parameters. */
  readonly guard: Expr;
  readonly rhs: Expr;
  readonly source: Equation;
  /** Index of this equation among those of its tensor (for messages: "equation 2 of R"). */
  readonly ordinal: number;
}

export interface CheckedSpec {
  readonly spec: Spec;
  readonly params: readonly string[];
  readonly tensors: ReadonlyMap<string, TensorDecl>;
  readonly equations: readonly NormEquation[];
}

export interface ArrayInfo {
  readonly decl: ArrayDecl;
  /** Variables bound by the declaration (its own or the shorthand __d0…). */
  readonly vars: readonly string[];
  /** The prophetic expression each cell holds (inputs) or must hold (outputs); null for `array`. */
  readonly value: Expr | null;
}

export interface CheckedImpl {
  readonly impl: Impl;
  readonly spec: CheckedSpec;
  readonly arrays: ReadonlyMap<string, ArrayInfo>;
}

export interface CheckedProgram {
  readonly program: Program;
  readonly specs: ReadonlyMap<string, CheckedSpec>;
  readonly impls: readonly CheckedImpl[];
}

// ---------------------------------------------------------------------------------------------
// Environments

/** Which kind of expression is being checked: semantic (arrays), prophetic (tensors) or affine. */
type Mode = 'semantic' | 'prophetic' | 'affine';

interface Env {
  readonly params: ReadonlySet<string>;
  /** Affine variables in scope: parameters, loop, let and equation variables. */
  readonly vars: ReadonlyMap<string, 'index' | 'cond'>;
  readonly arrays: ReadonlyMap<string, { elem: ValueType; rank: number }>;
  readonly tensors: ReadonlyMap<string, TensorDecl>;
}

function withVar(env: Env, name: string, t: 'index' | 'cond'): Env {
  const vars = new Map(env.vars);
  vars.set(name, t);
  return { ...env, vars };
}

function withArray(env: Env, name: string, elem: ValueType, rank: number): Env {
  const arrays = new Map(env.arrays);
  arrays.set(name, { elem, rank });
  return { ...env, arrays };
}

// ---------------------------------------------------------------------------------------------
// Expressions

class Checker {
  readonly errors: Diagnostic[] = [];
  constructor(private readonly file: string) {}

  err(pos: Pos, message: string, expected: string | null = null, found: string | null = null): void {
    this.errors.push(diag(this.file, pos, 'type', message, expected, found));
  }
  scopeErr(pos: Pos, message: string, expected: string | null = null, found: string | null = null): void {
    this.errors.push(diag(this.file, pos, 'scope', message, expected, found));
  }

  /** Value of a constant index expression (no variables), or null. */
  constValue(e: Expr): bigint | null {
    switch (e.kind) {
      case 'int':
        return e.value;
      case 'unary':
        if (e.op === '-') {
          const v = this.constValue(e.arg);
          return v === null ? null : -v;
        }
        return null;
      case 'binary': {
        if (!['+', '-', '*', '/', '%'].includes(e.op)) return null;
        const a = this.constValue(e.left);
        const b = this.constValue(e.right);
        if (a === null || b === null) return null;
        if (e.op === '/' || e.op === '%') {
          if (b <= 0n) return null;
          const q = a >= 0n ? a / b : -((-a + b - 1n) / b); // floor division
          return e.op === '/' ? q : a - q * b;
        }
        return e.op === '+' ? a + b : e.op === '-' ? a - b : a * b;
      }
      case 'call': {
        if ((e.fn !== 'min' && e.fn !== 'max') || e.args.length !== 2) return null;
        const a = this.constValue(e.args[0]!);
        const b = this.constValue(e.args[1]!);
        if (a === null || b === null) return null;
        return (e.fn === 'min') === a < b ? a : b;
      }
      default:
        return null;
    }
  }

  /** Γ ⊢ ι : 𝔸 or 𝔹. Returns the type found (or null after reporting an error). */
  affine(e: Expr, env: Env, want: 'index' | 'cond'): 'index' | 'cond' | null {
    const t = this.affineSynth(e, env);
    if (t === null) return null;
    if (t !== want) {
      this.err(e.pos, want === 'index' ? 'an integer index expression is required here' : 'an affine condition is required here',
        want === 'index' ? 'int (index)' : 'bool (affine condition)', t === 'index' ? 'int (index)' : 'bool (affine condition)');
      return null;
    }
    return t;
  }

  private setTy(e: Expr, t: Type): void {
    e.ty = t;
  }

  affineSynth(e: Expr, env: Env): 'index' | 'cond' | null {
    const ok = (t: 'index' | 'cond'): 'index' | 'cond' => {
      this.setTy(e, t === 'index' ? T_INDEX : T_COND);
      return t;
    };
    switch (e.kind) {
      case 'int':
        return ok('index');
      case 'bool':
        return ok('cond');
      case 'float':
        this.err(e.pos, 'a floating-point literal cannot be an index', 'an integer', floatText(e.value));
        return null;
      case 'var': {
        const t = env.vars.get(e.name);
        if (t === undefined) {
          this.scopeErr(e.pos, `unknown variable '${e.name}'`, 'a parameter, loop, let or equation variable', `'${e.name}'`);
          return null;
        }
        return ok(t);
      }
      case 'array':
        this.err(e.pos, `array read '${e.name}[…]' in an index expression: indices, bounds and conditions must be affine in parameters and loop variables`, 'an affine expression', 'an array read');
        return null;
      case 'tensor':
        this.err(e.pos, `tensor read '${e.name}(…)' in an index expression: indices must be affine`, 'an affine expression', 'a tensor read');
        return null;
      case 'call': {
        if (e.fn === 'min' || e.fn === 'max') {
          if (e.args.length !== 2) {
            this.err(e.pos, `'${e.fn}' takes 2 arguments`, '2 arguments', countOf(e.args.length, 'argument', 'arguments'));
            return null;
          }
          const a = this.affine(e.args[0]!, env, 'index');
          const b = this.affine(e.args[1]!, env, 'index');
          return a && b ? ok('index') : null;
        }
        this.err(e.pos, isValueTypeName(e.fn) ? `cast '${e.fn}(…)' in an index expression: a cast turns an index into a value, not the reverse` : `function '${e.fn}' in an index expression: only + - c* / % min max select are affine`, 'an affine expression', `'${e.fn}(…)'`);
        return null;
      }
      case 'unary':
        if (e.op === '-') return this.affine(e.arg, env, 'index') ? ok('index') : null;
        return this.affine(e.arg, env, 'cond') ? ok('cond') : null;
      case 'binary': {
        switch (e.op) {
          case '+':
          case '-': {
            const a = this.affine(e.left, env, 'index');
            const b = this.affine(e.right, env, 'index');
            return a && b ? ok('index') : null;
          }
          case '*': {
            const a = this.affine(e.left, env, 'index');
            const b = this.affine(e.right, env, 'index');
            if (!a || !b) return null;
            if (this.constValue(e.left) === null && this.constValue(e.right) === null) {
              this.err(e.pos, 'product of two non-constant index expressions is not affine', 'a product with a constant (c * ι)', 'a product of two variables');
              return null;
            }
            return ok('index');
          }
          case '/':
          case '%': {
            const a = this.affine(e.left, env, 'index');
            const b = this.affine(e.right, env, 'index');
            if (!a || !b) return null;
            const c = this.constValue(e.right);
            if (c === null || c <= 0n) {
              this.err(e.right.pos, `'${e.op}' in an index expression needs a positive constant divisor`, 'a constant > 0', c === null ? 'a non-constant divisor' : `${c}`);
              return null;
            }
            return ok('index');
          }
          case '==':
          case '!=':
          case '<':
          case '<=':
          case '>':
          case '>=': {
            const a = this.affine(e.left, env, 'index');
            const b = this.affine(e.right, env, 'index');
            return a && b ? ok('cond') : null;
          }
          case '&&':
          case '||': {
            const a = this.affine(e.left, env, 'cond');
            const b = this.affine(e.right, env, 'cond');
            return a && b ? ok('cond') : null;
          }
        }
        return null;
      }
      case 'select': {
        const c = this.affine(e.cond, env, 'cond');
        const a = this.affineSynth(e.then, env);
        const b = a === null ? null : this.affine(e.else, env, a);
        return c && a && b ? ok(a) : null;
      }
      case 'let': {
        if (!this.freshLet(e, env)) return null;
        const v = this.affineSynth(e.value, env);
        if (v === null) return null;
        const t = this.affineSynth(e.body, withVar(env, e.name, v));
        return t === null ? null : ok(t);
      }
    }
  }

  /** A `let` may shadow loop and let variables, not parameters (as the `let` command). */
  freshLet(e: { name: string; pos: Pos }, env: Env): boolean {
    if (!env.params.has(e.name)) return true;
    this.scopeErr(e.pos, `'let ${e.name}' shadows the parameter '${e.name}'`, 'a fresh name', `'${e.name}'`);
    return false;
  }

  /**
   * Γ ⊢_a e : τ (mode semantic) or Γ ⊢_A t : τ (mode prophetic), checked against the expected
   * value type `want` when known (untyped literals take it). Returns the value type, 'cond' for an
   * affine condition used as a Boolean value, or null after an error.
   */
  value(e: Expr, env: Env, mode: 'semantic' | 'prophetic', want: ValueType | null): ValueType | 'cond' | null {
    const before = this.errors.length;
    const got = this.valueSynth(e, env, mode, want);
    if (got === null && this.errors.length === before) {
      // Every failure must be reported: an expression left untyped without a diagnostic would
      // let an ill-typed program through.
      this.err(e.pos, 'cannot determine the type of this expression', want ?? 'a value type given by the context', 'no type');
    }
    if (got === null || want === null) return got;
    const gotVt = got === 'cond' ? 'bool' : got;
    if (gotVt !== want) {
      this.err(e.pos, `type mismatch: this expression has type ${gotVt}`, want, gotVt);
      return null;
    }
    return got;
  }

  private valueSynth(e: Expr, env: Env, mode: 'semantic' | 'prophetic', want: ValueType | null): ValueType | 'cond' | null {
    const ok = (vt: ValueType): ValueType => {
      this.setTy(e, tValue(vt));
      return vt;
    };
    switch (e.kind) {
      case 'int':
        if (want === null) {
          this.err(e.pos, `cannot tell the type of the integer literal ${e.value}: nothing in its context gives one (write e.g. i32(${e.value}) or ${e.value}.0)`, 'a value type given by the context', 'an untyped integer literal');
          return null;
        }
        if (want === 'bool') {
          this.err(e.pos, 'an integer literal cannot be a bool value', 'bool', 'an integer literal');
          return null;
        }
        if (isIntType(want) ? !fitsInt(e.value, want) : !fitsFloat(want === 'f32' ? decimalToF32(e.value.toString()) : Number(e.value), want)) {
          this.err(e.pos, `integer literal ${e.value} does not fit in ${want}`, `a value of ${want}`, `${e.value}`);
          return null;
        }
        return ok(want);
      case 'float': {
        const vt = want ?? 'f32';
        if (!isFloatType(vt)) {
          this.err(e.pos, `a floating-point literal cannot have type ${vt}`, vt, 'a floating-point literal');
          return null;
        }
        if (!fitsFloat(vt === 'f32' && e.f32 !== undefined ? e.f32.value : e.value, vt)) {
          this.err(e.pos, `floating-point literal ${floatText(e.value)} does not fit in ${vt}`, `a finite value of ${vt}`, floatText(e.value));
          return null;
        }
        return ok(vt);
      }
      case 'bool':
        return ok('bool');
      case 'var': {
        const t = env.vars.get(e.name);
        if (t === undefined) {
          this.scopeErr(e.pos, `unknown variable '${e.name}'`, 'a parameter, loop, let or equation variable', `'${e.name}'`);
          return null;
        }
        if (t === 'cond') {
          this.setTy(e, T_COND);
          return 'cond';
        }
        this.err(e.pos, `'${e.name}' is an index (an unbounded integer) and cannot be used as a value; cast it, e.g. i32(${e.name}) or f32(${e.name})`, want ?? 'a value', 'int (index)');
        return null;
      }
      case 'array': {
        if (mode === 'prophetic') {
          this.err(e.pos, `array read '${e.name}[…]' in a prophetic expression: annotations and specs speak of tensors, not arrays`, 'a tensor read T(…)', 'an array read');
          return null;
        }
        const a = env.arrays.get(e.name);
        if (a === undefined) {
          this.scopeErr(e.pos, `unknown array '${e.name}'`, 'a declared or allocated array', `'${e.name}'`);
          return null;
        }
        if (e.indices.length !== a.rank) {
          this.err(e.pos, `array '${e.name}' has ${a.rank} dimension${a.rank === 1 ? '' : 's'}`, countOf(a.rank, 'index', 'indices'), countOf(e.indices.length, 'index', 'indices'));
          return null;
        }
        let good = true;
        for (const ix of e.indices) good = this.affine(ix, env, 'index') !== null && good;
        return good ? ok(a.elem) : null;
      }
      case 'tensor': {
        if (mode === 'semantic') {
          this.err(e.pos, `tensor read '${e.name}(…)' in implementation code: tensors may appear only in specs and in annotations {…}`, 'an array read a[…]', 'a tensor read');
          return null;
        }
        const t = env.tensors.get(e.name);
        if (t === undefined) {
          this.scopeErr(e.pos, `unknown tensor '${e.name}'`, 'a tensor declared in the spec', `'${e.name}'`);
          return null;
        }
        if (e.indices.length !== t.vars.length) {
          this.err(e.pos, `tensor '${e.name}' has arity ${t.vars.length}`, countOf(t.vars.length, 'index', 'indices'), countOf(e.indices.length, 'index', 'indices'));
          return null;
        }
        let good = true;
        for (const ix of e.indices) good = this.affine(ix, env, 'index') !== null && good;
        return good ? ok(t.type) : null;
      }
      case 'call':
        return this.call(e, env, mode, want);
      case 'unary': {
        if (e.op === '!') {
          const t = this.valueOrCond(e.arg, env, mode);
          if (t === null) return null;
          if (t === 'cond') {
            this.setTy(e, T_COND);
            return 'cond';
          }
          if (t !== 'bool') {
            this.err(e.arg.pos, "'!' needs a bool", 'bool', t);
            return null;
          }
          return ok('bool');
        }
        const t = this.value(e.arg, env, mode, want);
        if (t === null) return null;
        if (t === 'cond' || t === 'bool') {
          this.err(e.arg.pos, "unary '-' needs a number", 'a numeric type', 'bool');
          return null;
        }
        return ok(t);
      }
      case 'binary':
        return this.binary(e, env, mode, want);
      case 'select': {
        const c = this.valueOrCond(e.cond, env, mode);
        if (c === null) return null;
        if (c !== 'cond' && c !== 'bool') {
          this.err(e.cond.pos, "the condition of 'select' must be a bool", 'bool', c);
          return null;
        }
        const t = this.pair(e.then, e.else, env, mode, want);
        if (t === null) return null;
        if (t === 'cond') {
          // Affine only if the condition is affine too: select(c[0], β1, β2) reads memory.
          if (c === 'cond') {
            this.setTy(e, T_COND);
            return 'cond';
          }
          return ok('bool');
        }
        return ok(t);
      }
      case 'let': {
        if (!this.freshLet(e, env)) return null;
        const v = this.affineSynth(e.value, env);
        if (v === null) return null;
        const t = this.value(e.body, withVar(env, e.name, v), mode, want);
        if (t === null) return null;
        if (t === 'cond') {
          this.setTy(e, T_COND);
          return 'cond';
        }
        return ok(t);
      }
    }
  }

  /** A Boolean position in a value expression: an affine condition or a bool value. */
  private valueOrCond(e: Expr, env: Env, mode: 'semantic' | 'prophetic'): ValueType | 'cond' | null {
    if (isPurelyAffine(e, env)) return this.affineSynth(e, env) === null ? null : 'cond';
    return this.value(e, env, mode, 'bool');
  }

  /** Two operands of the same type; an untyped literal takes the other's type. */
  private pair(a: Expr, b: Expr, env: Env, mode: 'semantic' | 'prophetic', want: ValueType | null): ValueType | 'cond' | null {
    if (want !== null) {
      const x = this.value(a, env, mode, want);
      const y = this.value(b, env, mode, want);
      return x === null || y === null ? null : x === 'cond' && y === 'cond' ? 'cond' : want;
    }
    const ua = untypedKind(a, env);
    const ub = untypedKind(b, env);
    if (ua !== null && ub !== null) {
      // Two untyped operands (`1.5 < 2.0`): a float literal makes them f32; integer literals
      // alone give no type.
      if (ua === 'float' || ub === 'float') return this.pair(a, b, env, mode, 'f32');
      this.err(a.pos, 'cannot tell the type of these operands: both are untyped integer literals and nothing in the context gives a type (write e.g. i32(3) or 3.0)', 'a typed operand', 'two untyped literals');
      return null;
    }
    if (ua !== null) {
      // The untyped operand takes the type of the other one (`1.5 < a[i]` with a: f64).
      const y = this.value(b, env, mode, null);
      if (y === null) return null;
      const x = this.value(a, env, mode, y === 'cond' ? 'bool' : y);
      return x === null ? null : y;
    }
    const x = this.value(a, env, mode, null);
    if (x === null) return null;
    const y = this.value(b, env, mode, x === 'cond' ? 'bool' : x);
    if (y === null) return null;
    return x === 'cond' && y === 'cond' ? 'cond' : x === 'cond' ? 'bool' : x;
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, env: Env, mode: 'semantic' | 'prophetic', want: ValueType | null): ValueType | 'cond' | null {
    const setCond = (): 'cond' => {
      this.setTy(e, T_COND);
      return 'cond';
    };
    const ok = (vt: ValueType): ValueType => {
      this.setTy(e, tValue(vt));
      return vt;
    };
    switch (e.op) {
      case '+':
      case '-':
      case '*':
      case '/':
      case '%': {
        const t = this.pair(e.left, e.right, env, mode, want === 'bool' ? null : want);
        if (t === null) return null;
        if (t === 'cond' || t === 'bool') {
          this.err(e.pos, `'${e.op}' needs numbers`, 'a numeric type', 'bool');
          return null;
        }
        if (e.op === '%' && isFloatType(t)) {
          this.err(e.pos, "'%' is not defined on floating-point values", 'an integer type', t);
          return null;
        }
        return ok(t);
      }
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        if (isPurelyAffine(e, env)) return this.affineSynth(e, env) === null ? null : setCond();
        const t = this.pair(e.left, e.right, env, mode, null);
        if (t === null) return null;
        if ((t === 'bool' || t === 'cond') && e.op !== '==' && e.op !== '!=') {
          this.err(e.pos, `'${e.op}' needs numbers`, 'a numeric type', 'bool');
          return null;
        }
        return ok('bool');
      }
      case '&&':
      case '||': {
        if (isPurelyAffine(e, env)) return this.affineSynth(e, env) === null ? null : setCond();
        const a = this.valueOrCond(e.left, env, mode);
        const b = this.valueOrCond(e.right, env, mode);
        if (a === null || b === null) return null;
        for (const [x, side] of [[a, e.left], [b, e.right]] as const) {
          if (x !== 'cond' && x !== 'bool') {
            this.err(side.pos, `'${e.op}' needs bools`, 'bool', x);
            return null;
          }
        }
        return ok('bool');
      }
    }
  }

  /**
   * A checked operation is an execution's: in a spec or an annotation (which define values, not
   * run) its undefined results would have no meaning.
   */
  private implOnly(e: Extract<Expr, { kind: 'call' }>, mode: 'semantic' | 'prophetic'): boolean {
    if (mode === 'semantic') return true;
    if (e.fn === 'load') this.err(e.pos, "'load' is a checked read, allowed in an implementation's right-hand sides only", 'a value everywhere', e.fn);
    else this.err(e.pos, `'${e.fn}' is a checked operation, allowed in an implementation's right-hand sides only`, 'an operation with a value everywhere (+, -, *, a cast)', e.fn);
    return false;
  }

  private call(e: Extract<Expr, { kind: 'call' }>, env: Env, mode: 'semantic' | 'prophetic', want: ValueType | null): ValueType | null {
    const ok = (vt: ValueType): ValueType => {
      this.setTy(e, tValue(vt));
      return vt;
    };
    const arity = (n: number): boolean => {
      if (e.args.length !== n) {
        this.err(e.pos, `'${e.fn}' takes ${countOf(n, 'argument', 'arguments')}`, countOf(n, 'argument', 'arguments'), countOf(e.args.length, 'argument', 'arguments'));
        return false;
      }
      return true;
    };
    if (isValueTypeName(e.fn)) {
      // A cast: from any value or from an index (the only way to turn an index into a value).
      if (!arity(1)) return null;
      const a = e.args[0]!;
      if (isPurelyAffine(a, env)) {
        const t = this.affineSynth(a, env);
        if (t === null) return null;
        return ok(e.fn);
      }
      // A literal is read at the cast's type: `i64(9223372036854775807)`, `f64(0.1)` (the double
      // 0.1, not the float 0.1 widened).
      const t = this.value(a, env, mode, a.kind === 'int' ? (e.fn === 'bool' ? 'i32' : e.fn) : a.kind === 'float' && (e.fn === 'f32' || e.fn === 'f64') ? e.fn : null);
      if (t === null) return null;
      return ok(e.fn);
    }
    switch (e.fn) {
      case 'min':
      case 'max': {
        if (!arity(2)) return null;
        const t = this.pair(e.args[0]!, e.args[1]!, env, mode, want);
        if (t === null) return null;
        if (t === 'cond' || t === 'bool') {
          this.err(e.pos, `'${e.fn}' needs numbers`, 'a numeric type', 'bool');
          return null;
        }
        return ok(t);
      }
      case 'abs': {
        if (!arity(1)) return null;
        const t = this.value(e.args[0]!, env, mode, want);
        if (t === null) return null;
        if (t === 'cond' || t === 'bool') {
          this.err(e.pos, "'abs' needs a number", 'a numeric type', 'bool');
          return null;
        }
        return ok(t);
      }
      case 'add_nsw':
      case 'sub_nsw':
      case 'mul_nsw': {
        if (!arity(2) || !this.implOnly(e, mode)) return null;
        const t = this.pair(e.args[0]!, e.args[1]!, env, mode, want);
        if (t === null) return null;
        if (t === 'cond' || !isIntType(t) || t.startsWith('u')) {
          this.err(e.pos, `'${e.fn}' needs signed integers`, 'i8, i16, i32 or i64', t === 'cond' ? 'bool' : t);
          return null;
        }
        return ok(t);
      }
      case 'load': {
        // The checked read: an array cell, or poison where it holds ⊥ (ast.ts, LOAD).
        if (!arity(1) || !this.implOnly(e, mode)) return null;
        const a = e.args[0]!;
        if (a.kind !== 'array') {
          this.err(a.pos, "'load' reads one array cell", "an array read 'a[…]'", a.kind === 'tensor' ? `a tensor read '${a.name}(…)'` : 'another expression');
          return null;
        }
        const t = this.value(a, env, mode, want);
        if (t === null) return null;
        if (t === 'cond') return null;
        return ok(t);
      }
      default: {
        // trunc_T
        if (!arity(1) || !this.implOnly(e, mode)) return null;
        const t = this.value(e.args[0]!, env, mode, null);
        if (t === null) return null;
        if (t === 'cond' || !isFloatType(t)) {
          this.err(e.pos, `'${e.fn}' converts a float`, 'f32 or f64', t === 'cond' ? 'bool' : t);
          return null;
        }
        return ok(truncTarget(e.fn)!);
      }
      case 'reinterpret_f32':
      case 'reinterpret_f64': {
        if (!arity(1)) return null;
        const t = this.value(e.args[0]!, env, mode, null);
        if (t === null) return null;
        const width = e.fn === 'reinterpret_f32' ? '32' : '64';
        if (t === 'cond' || !isIntType(t) || !t.endsWith(width)) {
          this.err(e.pos, `'${e.fn}' reads the bits of a ${width}-bit integer`, `i${width} or u${width}`, t === 'cond' ? 'bool' : t);
          return null;
        }
        return ok(e.fn === 'reinterpret_f32' ? 'f32' : 'f64');
      }
      case 'sqrt':
      case 'exp':
      case 'log':
      case 'floor':
      case 'ceil':
      case 'pow': {
        if (!arity(e.fn === 'pow' ? 2 : 1)) return null;
        const t = e.fn === 'pow' ? this.pair(e.args[0]!, e.args[1]!, env, mode, want ?? null) : this.value(e.args[0]!, env, mode, want);
        if (t === null) return null;
        if (t === 'cond' || !isFloatType(t)) {
          this.err(e.pos, `'${e.fn}' needs floating-point arguments`, 'f32 or f64', t === 'cond' ? 'bool' : t);
          return null;
        }
        return ok(t);
      }
    }
  }
}

/**
 * Whether the type of value expression `e` comes only from its context: it is built from untyped
 * literals (`3`, `-2.5`, `abs(1)`, `let x = i in 2 * 3`, …). 'float' when a floating-point literal
 * is among them, 'int' when only integer literals are; null when `e` has a type of its own.
 */
function untypedKind(e: Expr, env: Env): 'int' | 'float' | null {
  const both = (xs: readonly Expr[]): 'int' | 'float' | null => {
    let k: 'int' | 'float' = 'int';
    for (const x of xs) {
      const u = untypedKind(x, env);
      if (u === null) return null;
      if (u === 'float') k = 'float';
    }
    return k;
  };
  switch (e.kind) {
    case 'int':
      return 'int';
    case 'float':
      return 'float';
    case 'unary':
      return e.op === '-' ? untypedKind(e.arg, env) : null;
    case 'binary':
      return ['+', '-', '*', '/', '%'].includes(e.op) ? both([e.left, e.right]) : null;
    case 'select':
      return both([e.then, e.else]);
    case 'let':
      return untypedKind(e.body, env);
    case 'call':
      return isValueTypeName(e.fn) || e.args.length === 0 ? null : both(e.args);
    default:
      return null;
  }
}

/** Names of the variables `e` reads (let-bound names excluded). */
function freeVars(e: Expr, bound: ReadonlySet<string> = new Set(), out: string[] = []): string[] {
  switch (e.kind) {
    case 'var':
      if (!bound.has(e.name)) out.push(e.name);
      break;
    case 'array':
    case 'tensor':
      for (const x of e.indices) freeVars(x, bound, out);
      break;
    case 'call':
      for (const x of e.args) freeVars(x, bound, out);
      break;
    case 'unary':
      freeVars(e.arg, bound, out);
      break;
    case 'binary':
      freeVars(e.left, bound, out);
      freeVars(e.right, bound, out);
      break;
    case 'select':
      freeVars(e.cond, bound, out);
      freeVars(e.then, bound, out);
      freeVars(e.else, bound, out);
      break;
    case 'let':
      freeVars(e.value, bound, out);
      freeVars(e.body, new Set([...bound, e.name]), out);
      break;
    default:
      break;
  }
  return out;
}

/** True when `e` reads no array or tensor and calls no value function: an affine candidate. */
function isPurelyAffine(e: Expr, env: Env): boolean {
  switch (e.kind) {
    case 'int':
    case 'bool':
      return true;
    case 'float':
    case 'array':
    case 'tensor':
      return false;
    case 'var':
      return env.vars.has(e.name);
    case 'call':
      return (e.fn === 'min' || e.fn === 'max') && e.args.every((a) => isPurelyAffine(a, env));
    case 'unary':
      return isPurelyAffine(e.arg, env);
    case 'binary':
      return isPurelyAffine(e.left, env) && isPurelyAffine(e.right, env);
    case 'select':
      return isPurelyAffine(e.cond, env) && isPurelyAffine(e.then, env) && isPurelyAffine(e.else, env);
    case 'let':
      return isPurelyAffine(e.value, env) && isPurelyAffine(e.body, { ...env, vars: new Map([...env.vars, [e.name, 'index']]) });
  }
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  i8: [-(2n ** 7n), 2n ** 7n - 1n],
  i16: [-(2n ** 15n), 2n ** 15n - 1n],
  i32: [-(2n ** 31n), 2n ** 31n - 1n],
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  u8: [0n, 2n ** 8n - 1n],
  u16: [0n, 2n ** 16n - 1n],
  u32: [0n, 2n ** 32n - 1n],
  u64: [0n, 2n ** 64n - 1n],
};

/** `1 index`, `2 indices`. */
function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function fitsInt(v: bigint, t: ValueType): boolean {
  const r = INT_RANGES[t];
  return r !== undefined && v >= r[0] && v <= r[1];
}

/** A finite literal that rounds to a finite value of the float type (f32: below about 3.4e38; the
 * binary32 value of an f32 literal is given rounded once, float-literal.ts). */
function fitsFloat(v: number, t: ValueType): boolean {
  return Number.isFinite(t === 'f32' ? Math.fround(v) : v);
}

// ---------------------------------------------------------------------------------------------
// Specs

function checkSpec(c: Checker, spec: Spec, file: string): CheckedSpec {
  const params = new Set<string>();
  for (const p of spec.params) {
    if (params.has(p.name)) c.scopeErr(p.pos, `parameter '${p.name}' declared twice`, 'distinct parameter names', `'${p.name}'`);
    params.add(p.name);
  }
  const tensors = new Map<string, TensorDecl>();
  for (const t of spec.tensors) {
    if (tensors.has(t.name)) {
      c.scopeErr(t.pos, `tensor '${t.name}' declared twice in spec '${spec.name}'`, 'one declaration per tensor', `a second declaration of '${t.name}'`);
      continue;
    }
    const seen = new Set<string>();
    for (const v of t.vars) {
      if (seen.has(v)) c.scopeErr(t.pos, `argument '${v}' appears twice in the declaration of '${t.name}'`, 'distinct argument names', `'${v}' twice`);
      seen.add(v);
    }
    tensors.set(t.name, t);
  }
  const baseVars = new Map<string, 'index' | 'cond'>([...params].map((p) => [p, 'index'] as const));
  const env: Env = { params, vars: baseVars, arrays: new Map(), tensors };
  for (const a of spec.assumes) c.affine(a, env, 'cond');

  const equations: NormEquation[] = [];
  const count = new Map<string, number>();
  /** Tensors with at least one equation, well-typed or not (no "has no equation" cascade). */
  const defined = new Set<string>();
  for (const eq of spec.equations) {
    const t = tensors.get(eq.tensor);
    if (t === undefined) {
      c.scopeErr(eq.pos, `equation for undeclared tensor '${eq.tensor}'`, `a declaration such as 'tensor ${eq.tensor}(…): f32;'`, `'${eq.tensor}'`);
      continue;
    }
    if (t.role === 'input') {
      c.err(eq.pos, `'${eq.tensor}' is an input tensor and cannot be defined by an equation`, 'an equation for a computed (tensor/output) tensor', `an equation for input '${eq.tensor}'`);
      continue;
    }
    defined.add(eq.tensor);
    if (eq.lhs.length !== t.vars.length) {
      c.err(eq.pos, `tensor '${eq.tensor}' has arity ${t.vars.length}`, countOf(t.vars.length, 'argument', 'arguments'), countOf(eq.lhs.length, 'argument', 'arguments'));
      continue;
    }
    // Left-hand side: fresh variables, or index expressions over parameters.
    const vars: string[] = [];
    const extra: Expr[] = [];
    let eqEnv = env;
    let good = true;
    eq.lhs.forEach((arg, k) => {
      if (arg.kind === 'var' && !params.has(arg.name)) {
        if (vars.includes(arg.name)) {
          c.err(arg.pos, `variable '${arg.name}' appears twice on the left-hand side of an equation of '${eq.tensor}'`, `distinct variables (write e.g. ${eq.tensor}(i, j) = … where i == j)`, `'${arg.name}' twice`);
          good = false;
          return;
        }
        vars.push(arg.name);
        eqEnv = withVar(eqEnv, arg.name, 'index');
        arg.ty = T_INDEX;
      } else {
        const stray = freeVars(arg).find((v) => !params.has(v));
        if (stray !== undefined) {
          c.scopeErr(arg.pos, `argument ${k + 1} of '${eq.tensor}' on the left-hand side uses '${stray}', which is not a parameter: a left-hand-side argument is a fresh variable or an index expression over the parameters`, `a fresh variable, or an expression over ${params.size > 0 ? [...params].map((p) => `'${p}'`).join(', ') : 'the parameters'} (write e.g. ${eq.tensor}(…, j, …) = … where j == …)`, `'${stray}'`);
          good = false;
          return;
        }
        if (c.affine(arg, env, 'index') === null) {
          good = false;
          return;
        }
        const v = `${RESERVED_PREFIX}a${k}`;
        vars.push(v);
        eqEnv = withVar(eqEnv, v, 'index');
        const ref: Expr = { kind: 'var', name: v, pos: arg.pos, ty: T_INDEX };
        extra.push({ kind: 'binary', op: '==', left: ref, right: arg, pos: arg.pos, ty: T_COND });
      }
    });
    if (!good) continue;
    if (eq.where !== null) c.affine(eq.where, eqEnv, 'cond');
    c.value(eq.rhs, eqEnv, 'prophetic', t.type);
    const conds = [...extra, ...(eq.where ? [eq.where] : [])];
    const guard = conds.length === 0 ? ({ kind: 'bool', value: true, pos: eq.pos, ty: T_COND } as Expr) : conds.reduce((a, b) => ({ kind: 'binary', op: '&&', left: a, right: b, pos: a.pos, ty: T_COND }));
    const ordinal = (count.get(eq.tensor) ?? 0) + 1;
    count.set(eq.tensor, ordinal);
    equations.push({ tensor: eq.tensor, vars, guard, rhs: eq.rhs, source: eq, ordinal });
  }
  for (const t of spec.tensors) {
    if (t.role !== 'input' && !defined.has(t.name)) {
      c.err(t.pos, `computed tensor '${t.name}' has no equation`, `an equation '${t.name}(…) = …' (or declare it 'input')`, 'none');
    }
  }
  void file;
  return { spec, params: [...params], tensors, equations };
}

// ---------------------------------------------------------------------------------------------
// Implementations

function checkCmd(c: Checker, cmd: Cmd, env: Env): void {
  switch (cmd.kind) {
    case 'skip':
      return;
    case 'seq':
      for (const x of cmd.cmds) checkCmd(c, x, env);
      return;
    case 'assign': {
      const a = env.arrays.get(cmd.array);
      if (a === undefined) {
        c.scopeErr(cmd.pos, `assignment to unknown array '${cmd.array}'`, 'a declared or allocated array', `'${cmd.array}'`);
        return;
      }
      if (cmd.indices.length !== a.rank) {
        c.err(cmd.pos, `array '${cmd.array}' has ${a.rank} dimension${a.rank === 1 ? '' : 's'}`, countOf(a.rank, 'index', 'indices'), countOf(cmd.indices.length, 'index', 'indices'));
      } else for (const ix of cmd.indices) c.affine(ix, env, 'index');
      if (cmd.annot !== null) c.value(cmd.annot, env, 'prophetic', a.elem);
      c.value(cmd.rhs, env, 'semantic', a.elem);
      if (cmd.accum) {
        const o = operatorOf(cmd.accum.op);
        if (!o.accepts(a.elem)) c.err(cmd.pos, `'${o.assign}' does not apply to '${cmd.array}' of type ${a.elem}`, o.op === '&&' || o.op === '||' ? 'a bool array' : 'a numeric array', a.elem);
        for (const ix of cmd.accum.at ?? []) c.affine(ix, env, 'index');
        if (cmd.annot !== null && cmd.annot.kind !== 'tensor') c.err(cmd.annot.pos, 'the annotation of an accumulation names the reduction it contributes to', "a reduction tensor 'T(…)'", 'another expression');
      }
      return;
    }
    case 'if':
      c.affine(cmd.cond, env, 'cond');
      checkCmd(c, cmd.then, env);
      if (cmd.else !== null) checkCmd(c, cmd.else, env);
      return;
    case 'let': {
      if (env.params.has(cmd.name)) c.scopeErr(cmd.pos, `'let ${cmd.name}' shadows the parameter '${cmd.name}'`, 'a fresh name', `'${cmd.name}'`);
      const t = c.affineSynth(cmd.value, env);
      checkCmd(c, cmd.body, withVar(env, cmd.name, t ?? 'index'));
      return;
    }
    case 'allocate':
      // A local array may shadow an outer one (U-ALLOCATE: (μ ∖ a) ▷ μ_a): inside, the name
      // denotes the fresh array; the outer one is untouched and visible again after the scope.
      for (const d of cmd.dims) c.affine(d, env, 'index');
      checkCmd(c, cmd.body, withArray(env, cmd.name, cmd.elem, cmd.dims.length));
      return;
    case 'for':
    case 'par':
      if (env.params.has(cmd.var)) c.scopeErr(cmd.pos, `loop variable '${cmd.var}' shadows the parameter '${cmd.var}'`, 'a fresh name', `'${cmd.var}'`);
      c.affine(cmd.bound, env, 'index');
      checkCmd(c, cmd.body, withVar(env, cmd.var, 'index'));
      return;
  }
}

function checkImpl(c: Checker, impl: Impl, specs: ReadonlyMap<string, CheckedSpec>): CheckedImpl | null {
  const spec = specs.get(impl.spec);
  if (spec === undefined) {
    const names = [...specs.keys()];
    c.scopeErr(impl.pos, `impl '${impl.name}' refers to unknown spec '${impl.spec}'`, names.length ? `one of ${names.map((n) => `'${n}'`).join(', ')}` : 'a spec declared in the same file', `'${impl.spec}'`);
    return null;
  }
  const params = new Set(spec.params);
  const baseVars = new Map<string, 'index' | 'cond'>([...params].map((p) => [p, 'index'] as const));
  let env: Env = { params, vars: baseVars, arrays: new Map(), tensors: spec.tensors };
  for (const a of impl.assumes) c.affine(a, env, 'cond');
  const arrays = new Map<string, ArrayInfo>();
  for (const d of impl.decls) {
    if (arrays.has(d.name)) {
      c.scopeErr(d.pos, `array '${d.name}' declared twice`, 'one declaration per array', `a second '${d.name}'`);
      continue;
    }
    for (const dim of d.dims) c.affine(dim, env, 'index');
    const vars = declVars(d);
    if (d.vars !== null) {
      if (d.vars.length !== d.dims.length) {
        c.err(d.pos, `'${d.name}[${d.vars.join(', ')}]' names ${countOf(d.vars.length, 'index', 'indices')} but its shape has ${countOf(d.dims.length, 'dimension', 'dimensions')}`, countOf(d.dims.length, 'index name', 'index names'), countOf(d.vars.length, 'index name', 'index names'));
        env = withArray(env, d.name, d.elem, d.dims.length); // still in scope: no cascade of errors
        continue;
      }
      const seen = new Set<string>();
      for (const v of d.vars) {
        if (seen.has(v) || params.has(v)) c.scopeErr(d.pos, `index name '${v}' of '${d.name}' ${params.has(v) ? 'is a parameter' : 'appears twice'}`, 'distinct fresh names', `'${v}'`);
        seen.add(v);
      }
    }
    let value: Expr | null = null;
    if (d.value !== null) {
      if (d.vars === null) {
        const tname = d.value.kind === 'var' ? d.value.name : null;
        const t = tname === null ? undefined : spec.tensors.get(tname);
        if (t === undefined) {
          c.scopeErr(d.value.pos, tname === null ? `the shorthand '= T' of '${d.name}' needs a tensor name` : `unknown tensor '${tname}'`, 'a tensor of the spec', tname === null ? 'an expression' : `'${tname}'`);
          env = withArray(env, d.name, d.elem, d.dims.length);
          continue;
        }
        if (t.vars.length !== d.dims.length) {
          c.err(d.value.pos, `'${d.name}' has ${d.dims.length} dimensions but tensor '${t.name}' has arity ${t.vars.length}`, `a tensor of arity ${d.dims.length}`, `arity ${t.vars.length}`);
          env = withArray(env, d.name, d.elem, d.dims.length);
          continue;
        }
      }
      value = declValue(d);
      let venv = env;
      for (const v of vars) venv = withVar(venv, v, 'index');
      if (value !== null) c.value(value, venv, 'prophetic', d.elem);
      if (d.where !== null) c.affine(d.where, venv, 'cond');
    }
    arrays.set(d.name, { decl: d, vars, value });
    env = withArray(env, d.name, d.elem, d.dims.length);
  }
  checkCmd(c, impl.body, env);
  return { impl, spec, arrays };
}

/** Type-check a parsed program; throws SchedInputError listing every error found. */
export function typecheckProgram(prog: Program): CheckedProgram {
  const c = new Checker(prog.file);
  const specs = new Map<string, CheckedSpec>();
  for (const s of prog.specs) {
    if (specs.has(s.name)) c.scopeErr(s.pos, `spec '${s.name}' defined twice`, 'distinct spec names', `a second '${s.name}'`);
    else specs.set(s.name, checkSpec(c, s, prog.file));
  }
  const impls: CheckedImpl[] = [];
  const implNames = new Set<string>();
  for (const m of prog.impls) {
    if (implNames.has(m.name)) c.scopeErr(m.pos, `impl '${m.name}' defined twice`, 'distinct impl names', `a second '${m.name}'`);
    implNames.add(m.name);
    const r = checkImpl(c, m, specs);
    if (r) impls.push(r);
  }
  // In source order, so that the first diagnostic is the first error of the file.
  if (c.errors.length > 0) throw new SchedInputError([...c.errors].sort((a, b) => a.line - b.line || a.col - b.col));
  return { program: prog, specs, impls };
}

export type { Mode };
