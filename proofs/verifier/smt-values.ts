// SMT-LIB encoding of SCHED value expressions (semantic and prophetic), ARCHITECTURE decision 3:
// machine integers are bit-vectors (exact two's complement wrapping); floats follow --float:
//   ieee — SMT FloatingPoint, round-to-nearest-even after every operation: exact and sound;
//   real — reals ("fast-math", as the thesis's prototype): fast, NOT sound for IEEE programs;
//   uf   — an uninterpreted sort with uninterpreted operations: sound (IEEE is one
//          interpretation) but knows no arithmetic law, so it proves only structural equalities.
// The value semantics encoded here is the one of semantics/values (see values-reference below):
// any change there must be mirrored here, and test/smt-values checks both against each other.

import {
  type Expr,
  type FloatType,
  hasChecked,
  type IntType,
  isCheckedFunction,
  isLoad,
  isFloatType,
  isIntType,
  isValueTypeName,
  plainOf,
  type TensorRead,
  truncTarget,
  type ValueType,
} from '../../core/language/ast.ts';
import { affineToSmt, smtSymbol } from '../../core/language/affine-smt.ts';
import { literalOf, literalValue } from '../../semantics/values.ts';

export type FloatMode = 'real' | 'ieee' | 'uf';
export const FLOAT_MODES: readonly FloatMode[] = ['ieee', 'real', 'uf'];

const BITS: Record<IntType, number> = { i8: 8, i16: 16, i32: 32, i64: 64, u8: 8, u16: 16, u32: 32, u64: 64 };
const SIGNED: Record<IntType, boolean> = { i8: true, i16: true, i32: true, i64: true, u8: false, u16: false, u32: false, u64: false };
const FP: Record<FloatType, [number, number]> = { f32: [8, 24], f64: [11, 53] };

/** How variables, array reads and tensor reads of an expression become SMT terms. */
export interface EncodeEnv {
  /** SMT Int term of an affine variable (parameter, loop variable, equation variable, hole). */
  intVar(name: string): string;
  /** SMT Int/Bool term of a whole affine index expression or condition (overrides intVar). */
  index?(e: Expr): string;
  /** SMT term of an array read (semantic expressions), in the environment where it occurs. */
  arrayRead?(e: Extract<Expr, { kind: 'array' }>, env: EncodeEnv): string;
  /** SMT term of a tensor read, given its encoded indices (default: the tensor's function). */
  tensorRead?(e: TensorRead, indices: readonly string[]): string;
}

function bvLit(v: bigint, bits: number): string {
  const m = ((v % (1n << BigInt(bits))) + (1n << BigInt(bits))) % (1n << BigInt(bits));
  return `(_ bv${m} ${bits})`;
}

/** The exact value of a finite double as an SMT-LIB Real term. */
export function realLiteral(v: number): string {
  if (!Number.isFinite(v)) throw new Error(`realLiteral: ${v} is not finite`);
  if (v === 0) return '0.0';
  const neg = v < 0;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(v));
  const bits = buf.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  let mant = expBits === 0 ? frac : frac | (1n << 52n);
  let exp = (expBits === 0 ? 1 : expBits) - 1075;
  while (mant % 2n === 0n && exp < 0) {
    mant /= 2n;
    exp++;
  }
  const body = exp >= 0 ? `${(mant << BigInt(exp)).toString()}.0` : `(/ ${mant.toString()}.0 ${(1n << BigInt(-exp)).toString()}.0)`;
  return neg ? `(- ${body})` : body;
}

/** IEEE bits of a double rounded to `ft`, as an SMT-LIB `fp` literal. */
export function fpLiteral(v: number, ft: FloatType): string {
  if (ft === 'f32') {
    const b = new DataView(new ArrayBuffer(4));
    b.setFloat32(0, v);
    const u = b.getUint32(0);
    const s = (u >>> 31).toString(2);
    const e = ((u >>> 23) & 0xff).toString(2).padStart(8, '0');
    const m = (u & 0x7fffff).toString(2).padStart(23, '0');
    return `(fp #b${s} #b${e} #b${m})`;
  }
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, v);
  const u = b.getBigUint64(0);
  const s = (u >> 63n).toString(2);
  const e = ((u >> 52n) & 0x7ffn).toString(2).padStart(11, '0');
  const m = (u & ((1n << 52n) - 1n)).toString(2).padStart(52, '0');
  return `(fp #b${s} #b${e} #b${m})`;
}

/** The IEEE value of a float expression made of literals and + - * / (null otherwise). */
function foldFloat(e: Expr, vt: FloatType): number | null {
  const r = (x: number): number => (vt === 'f32' ? Math.fround(x) : x);
  if (e.ty?.kind !== 'value' || e.ty.vt !== vt) return null;
  switch (e.kind) {
    case 'float':
    case 'int':
      return literalOf(e, vt) as number;
    case 'unary': {
      if (e.op !== '-') return null;
      const a = foldFloat(e.arg, vt);
      return a === null ? null : -a;
    }
    case 'binary': {
      if (!['+', '-', '*', '/'].includes(e.op)) return null;
      const a = foldFloat(e.left, vt);
      const b = a === null ? null : foldFloat(e.right, vt);
      if (a === null || b === null) return null;
      const v = e.op === '+' ? a + b : e.op === '-' ? a - b : e.op === '*' ? a * b : a / b;
      return Number.isFinite(v) ? r(v) : null;
    }
    default:
      return null;
  }
}

/**
 * Encodes value expressions for one SMT script, collecting the declarations they need (sorts,
 * uninterpreted operations, helper definitions) so that the script stays self-contained.
 */
export class ValueEncoder {
  private readonly decls = new Map<string, string>();
  /**
   * Why a model of the scripts built so far need not be a machine execution: uninterpreted
   * operations (`exp`, `log`, `pow`, every operation under `--float uf`) or floats as reals. Empty:
   * the encoding is exact, and a `sat` answer is a real counterexample.
   */
  private readonly inexact = new Set<string>();
  constructor(readonly mode: FloatMode) {}

  /** The reasons the encoding is not exact, or null when it is (see `inexact`). */
  inexactReason(): string | null {
    return this.inexact.size === 0 ? null : [...this.inexact].sort().join('; ');
  }

  /** Declarations and helper definitions used so far, in a stable order. */
  preamble(): string[] {
    return [...this.decls.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  }

  private need(key: string, text: string): void {
    if (!this.decls.has(key)) this.decls.set(key, text);
  }

  sort(vt: ValueType): string {
    if (vt === 'bool') return 'Bool';
    if (this.mode === 'uf') {
      this.inexact.add('uninterpreted values and operations (--float uf)');
      const s = vt.toUpperCase();
      this.need(`0sort.${s}`, `(declare-sort ${s} 0)`);
      return s;
    }
    if (isIntType(vt)) return `(_ BitVec ${BITS[vt]})`;
    if (this.mode === 'ieee') return `(_ FloatingPoint ${FP[vt][0]} ${FP[vt][1]})`;
    this.inexact.add('floats as reals (--float real)');
    return 'Real';
  }

  /** An uninterpreted function (exp, log, pow, and sqrt over the reals: no exact encoding). */
  private uf(name: string, args: readonly ValueType[] | readonly string[], ret: string): string {
    const sorts = (args as readonly string[]).map((a) => (a === 'Int' || a === 'Real' || a === 'Bool' || a.startsWith('(') ? a : this.sort(a as ValueType)));
    this.inexact.add(`'${name.slice(name.indexOf('.') + 1)}' uninterpreted`);
    this.need(`1fun.${name}`, `(declare-fun ${name} (${sorts.join(' ')}) ${ret})`);
    return name;
  }

  literal(v: number | bigint | boolean, vt: ValueType): string {
    if (vt === 'bool') return v ? 'true' : 'false';
    if (isIntType(vt) && this.mode === 'uf') {
      const name = `${vt}.lit.${BigInt(v as number | bigint)}`;
      this.need(`2lit.${name}`, `(declare-const ${smtSymbol(name)} ${this.sort(vt)})`);
      return smtSymbol(name);
    }
    if (isIntType(vt)) return bvLit(BigInt(v as number | bigint), BITS[vt]);
    const x = literalValue(v, vt) as number;
    if (this.mode === 'ieee') return fpLiteral(x, vt);
    if (this.mode === 'real') return realLiteral(x);
    // uf: one uninterpreted constant per distinct literal (no distinctness assumed).
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, x);
    const name = `${vt}.lit.${b.getBigUint64(0).toString(16)}`;
    this.need(`2lit.${name}`, `(declare-const ${smtSymbol(name)} ${this.sort(vt)}) ; ${x}`);
    return smtSymbol(name);
  }

  /** Encode an affine index expression (Int). */
  index(e: Expr, env: EncodeEnv): string {
    return env.index ? env.index(e) : affineToSmt(e, (n) => env.intVar(n));
  }

  /** Encode a typed value expression (its `ty` set by the type checker). */
  value(e: Expr, env: EncodeEnv): string {
    const ty = e.ty;
    if (ty === undefined) throw new Error('ValueEncoder.value: expression not type-checked');
    if (ty.kind !== 'value') {
      if (ty.kind === 'cond') return this.index(e, env);
      throw new Error('ValueEncoder.value: an index expression is not a value');
    }
    const vt = ty.vt;
    if (this.mode !== 'real' && isFloatType(vt) && e.kind !== 'float') {
      // Float arithmetic on literals is folded with IEEE semantics (what the program computes):
      // `-1.0 / 12.0` and the literal Halide prints for it are then the same term.
      const c = foldFloat(e, vt);
      if (c !== null) return this.literal(c, vt);
    }
    const go = (x: Expr): string => this.value(x, env);
    const uf = this.mode === 'uf';
    switch (e.kind) {
      case 'int':
        return this.literal(e.value, vt);
      case 'float':
        return this.literal(literalOf(e, vt) as number, vt);
      case 'bool':
        return e.value ? 'true' : 'false';
      case 'array':
        if (!env.arrayRead) throw new Error('ValueEncoder.value: array read without an array environment');
        return env.arrayRead(e, env);
      case 'tensor': {
        const idx = e.indices.map((i) => this.index(i, env));
        if (env.tensorRead) return env.tensorRead(e, idx);
        return idx.length === 0 ? smtSymbol(e.name) : `(${smtSymbol(e.name)} ${idx.join(' ')})`;
      }
      case 'var':
        throw new Error('ValueEncoder.value: an index variable is not a value');
      case 'let': {
        if (env.index) throw new Error('ValueEncoder.value: a let-expression with an index hook (substitute it first)');
        const inner: EncodeEnv = { ...env, intVar: (n) => (n === e.name ? smtSymbol(`${e.name}!let`) : env.intVar(n)) };
        return `(let ((${smtSymbol(`${e.name}!let`)} ${this.index(e.value, env)})) ${this.value(e.body, inner)})`;
      }
      case 'select':
        return `(ite ${this.bool(e.cond, env)} ${go(e.then)} ${go(e.else)})`;
      case 'unary':
        if (e.op === '!') return `(not ${this.bool(e.arg, env)})`;
        return uf ? this.ufOperation(e, vt, env) : this.neg(go(e.arg), vt);
      case 'binary':
        return uf && e.op !== '&&' && e.op !== '||' ? this.ufOperation(e, vt, env) : this.binary(e, vt, env);
      case 'call':
        // A checked operation's value, where it has one, is its plain operation's; a `load`'s is its
        // cell's (where it is used, proved defined: proofs/verifier/load-guard.ts).
        if (isCheckedFunction(e.fn)) return this.value(plainOf(e), env);
        if (isLoad(e)) return go(e.args[0]);
        return uf ? this.ufOperation(e, vt, env) : this.call(e, vt, env);
    }
  }

  /**
   * Whether every checked operation of `e` whose result the evaluation uses is in its range
   * (docs/language.md §4): the operands of each one (every one outside a select's operands, and
   * in a select's chosen operand) give it a value. 'true' when e has none. Exact for integers in
   * every mode but uf, and for float → integer conversions under ieee and real; under uf the
   * ranges are uninterpreted predicates.
   */
  defined(e: Expr, env: EncodeEnv): string {
    if (!hasChecked(e)) return 'true';
    const all = (xs: readonly string[]): string => {
      const ys = xs.filter((x) => x !== 'true');
      return ys.length === 0 ? 'true' : ys.length === 1 ? ys[0]! : `(and ${ys.join(' ')})`;
    };
    switch (e.kind) {
      case 'call': {
        const parts = e.args.map((a) => this.defined(a, env));
        if (isCheckedFunction(e.fn)) parts.push(this.inRange(e, env));
        return all(parts);
      }
      case 'unary':
        return this.defined(e.arg, env);
      case 'binary':
        return all([this.defined(e.left, env), this.defined(e.right, env)]);
      case 'select':
        return all([this.defined(e.cond, env), `(ite ${this.bool(e.cond, env)} ${this.defined(e.then, env)} ${this.defined(e.else, env)})`]);
      case 'let': {
        if (env.index) throw new Error('ValueEncoder.defined: a let-expression with an index hook (substitute it first)');
        const inner: EncodeEnv = { ...env, intVar: (n) => (n === e.name ? smtSymbol(`${e.name}!let`) : env.intVar(n)) };
        return `(let ((${smtSymbol(`${e.name}!let`)} ${this.index(e.value, env)})) ${this.defined(e.body, inner)})`;
      }
      default:
        return 'true';
    }
  }

  /** The range condition of one checked operation, over its operands' values. */
  private inRange(e: Extract<Expr, { kind: 'call' }>, env: EncodeEnv): string {
    const args = e.args.map((a) => this.value(a, env));
    const to = truncTarget(e.fn);
    const from = (e.args[0]!.ty as { vt: ValueType }).vt;
    if (this.mode === 'uf') {
      // No arithmetic to decide the range with: a predicate of its own (a proof still holds for
      // the machine, which is one interpretation of it; a refutation is never exact).
      const name = `${from}.${e.fn}.defined`;
      this.need(`1fun.${name}`, `(declare-fun ${smtSymbol(name)} (${e.args.map(() => this.sort(from)).join(' ')}) Bool)`);
      this.inexact.add(`the range of '${e.fn}' uninterpreted`);
      return `(${smtSymbol(name)} ${args.join(' ')})`;
    }
    if (to === null) {
      // add/sub/mul_nsw: the operation in one more bit (twice the bits for *) is the same number.
      const n = BITS[from as IntType];
      const w = e.fn === 'mul_nsw' ? n : 1;
      const op = e.fn === 'add_nsw' ? 'bvadd' : e.fn === 'sub_nsw' ? 'bvsub' : 'bvmul';
      const ext = (x: string): string => `((_ sign_extend ${w}) ${x})`;
      return `(= ${ext(`(${op} ${args[0]} ${args[1]})`)} (${op} ${ext(args[0]!)} ${ext(args[1]!)}))`;
    }
    // trunc_T: the value truncated toward zero is in [lo, hi] iff lo - 1 < x < hi + 1 (NaN
    // compares false, ±∞ is out): comparisons only, which the solver decides far faster than a
    // rounding. hi + 1 is a power of two, exact in both formats; where lo - 1 is not exact (i64),
    // no float lies strictly between it and lo, so the bound is lo itself, inclusive.
    const n = BigInt(BITS[to]);
    const lo = SIGNED[to] ? -(1n << (n - 1n)) : 0n;
    const above = SIGNED[to] ? 1n << (n - 1n) : 1n << n;
    const ft = from as FloatType;
    const x = args[0]!;
    if (this.mode === 'ieee') {
      const below = Number(lo - 1n);
      const exact = BigInt(below) === lo - 1n && (ft === 'f64' || Math.fround(below) === below);
      const low = exact ? `(fp.gt ${x} ${fpLiteral(below, ft)})` : `(fp.geq ${x} ${fpLiteral(Number(lo), ft)})`;
      return `(and ${low} (fp.lt ${x} ${fpLiteral(Number(above), ft)}))`;
    }
    const real = (v: bigint): string => (v < 0n ? `(- ${-v}.0)` : `${v}.0`);
    return `(and (> ${x} ${real(lo - 1n)}) (< ${x} ${real(above)}))`;
  }

  /**
   * The uninterpreted encoding of an operation: every operation of every value type is an uninterpreted
   * function (its name says the operation and types), every literal an uninterpreted constant.
   * Sound because the machine semantics is one interpretation of these symbols; equality `=` is
   * kept for integers and bools, where value equality is identity, but IEEE `==` on floats is an
   * uninterpreted predicate (NaN ≠ NaN, -0 == +0).
   */
  private ufOperation(e: Extract<Expr, { kind: 'unary' | 'binary' | 'call' }>, vt: ValueType, env: EncodeEnv): string {
    const go = (x: Expr): string => this.value(x, env);
    const opType = (x: Expr): ValueType => (x.ty?.kind === 'value' ? x.ty.vt : 'bool');
    const app = (name: string, args: readonly string[], argTypes: readonly (ValueType | 'Int')[], ret: ValueType): string => {
      const sorts = argTypes.map((t) => (t === 'Int' ? 'Int' : this.sort(t)));
      this.need(`1fun.${name}`, `(declare-fun ${smtSymbol(name)} (${sorts.join(' ')}) ${this.sort(ret)})`);
      return args.length === 0 ? smtSymbol(name) : `(${smtSymbol(name)} ${args.join(' ')})`;
    };
    switch (e.kind) {
      case 'unary':
        return app(`${vt}.neg`, [go(e.arg)], [vt], vt);
      case 'binary': {
        const ot = e.left.ty?.kind === 'cond' ? 'bool' : opType(e.left);
        const a = ot === 'bool' ? this.bool(e.left, env) : go(e.left);
        const b = ot === 'bool' ? this.bool(e.right, env) : go(e.right);
        const names: Record<string, string> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '==': 'eq', '!=': 'eq' };
        const cmp = ['<', '<=', '>', '>=', '==', '!='].includes(e.op);
        if (cmp && (e.op === '==' || e.op === '!=') && !isFloatType(ot)) {
          return e.op === '==' ? `(= ${a} ${b})` : `(not (= ${a} ${b}))`;
        }
        if (cmp) {
          const f = app(`${ot}.${names[e.op]}`, [a, b], [ot, ot], 'bool');
          return e.op === '!=' ? `(not ${f})` : f;
        }
        const t = app(`${vt}.${names[e.op]}`, [a, b], [vt, vt], vt);
        if (e.op === '+' || e.op === '*') this.commutative(`${vt}.${names[e.op]}`, vt);
        return t;
      }
      case 'call': {
        if (isValueTypeName(e.fn)) {
          const a = e.args[0]!;
          if (a.ty?.kind === 'index') return app(`${vt}.of_int`, [this.index(a, env)], ['Int'], vt);
          if (a.ty?.kind === 'cond') return app(`${vt}.of_cond`, [this.index(a, env)], ['bool'], vt);
          const from = opType(a);
          if (from === vt) return go(a);
          return app(`${vt}.of_${from}`, [go(a)], [from], vt);
        }
        return app(`${vt}.${e.fn}`, e.args.map(go), e.args.map(opType), vt);
      }
    }
  }

  /**
   * The commutativity axiom of an uninterpreted `+` or `*`. Without it, `r + b * a` against the
   * spec's `r + a * b` is unknown in every encoding (for IEEE it is a multiplier equivalence
   * under a rounding that bit-blasting does not finish). Sound: the machine's addition and
   * multiplication commute on every value type (IEEE with RNE included: the signed-zero rule is
   * symmetric and NaN is one value), so the machine stays an interpretation of the symbols. One
   * instance per term and pattern, so E-matching terminates.
   */
  private commutative(name: string, vt: ValueType): void {
    const f = smtSymbol(name);
    const s = this.sort(vt);
    this.need(`1fun.${name}.comm`, `(assert (! (forall ((a ${s}) (b ${s})) (! (= (${f} a b) (${f} b a)) :pattern ((${f} a b)))) :named ${smtSymbol(`comm.${name}`)}))`);
  }

  /** A Boolean position: an affine condition or a bool value. */
  bool(e: Expr, env: EncodeEnv): string {
    return e.ty?.kind === 'cond' ? this.index(e, env) : this.value(e, env);
  }

  private neg(a: string, vt: ValueType): string {
    if (isIntType(vt)) return `(bvneg ${a})`;
    return this.mode === 'ieee' ? `(fp.neg ${a})` : `(- ${a})`;
  }

  private operandType(e: Expr): ValueType | 'cond' {
    const t = e.ty!;
    return t.kind === 'value' ? t.vt : 'cond';
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, vt: ValueType, env: EncodeEnv): string {
    switch (e.op) {
      case '&&':
        return `(and ${this.bool(e.left, env)} ${this.bool(e.right, env)})`;
      case '||':
        return `(or ${this.bool(e.left, env)} ${this.bool(e.right, env)})`;
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const ot = this.operandType(e.left);
        const a = ot === 'cond' ? this.bool(e.left, env) : this.value(e.left, env);
        const b = ot === 'cond' ? this.bool(e.right, env) : this.value(e.right, env);
        const c = this.compare(e.op, a, b, ot === 'cond' ? 'bool' : ot);
        return c;
      }
      default:
        break;
    }
    const a = this.value(e.left, env);
    const b = this.value(e.right, env);
    if (isIntType(vt)) return this.intArith(e.op, a, b, vt);
    const op = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div' }[e.op as '+' | '-' | '*' | '/'];
    if (op === undefined) throw new Error(`ValueEncoder: '${e.op}' on ${vt}`);
    return this.mode === 'ieee' ? `(fp.${op} RNE ${a} ${b})` : `(${e.op} ${a} ${b})`;
  }

  /** Halide integer division and modulo: Euclidean, and 0 for a zero divisor. */
  private intArith(op: string, a: string, b: string, vt: IntType): string {
    const n = BITS[vt];
    switch (op) {
      case '+':
        return `(bvadd ${a} ${b})`;
      case '-':
        return `(bvsub ${a} ${b})`;
      case '*':
        return `(bvmul ${a} ${b})`;
      default:
        break;
    }
    const zero = bvLit(0n, n);
    if (!SIGNED[vt]) {
      const f = op === '/' ? 'bvudiv' : 'bvurem';
      return `(ite (= ${b} ${zero}) ${zero} (${f} ${a} ${b}))`;
    }
    // Euclidean: r = a - b*q with 0 <= r < |b|. bvsrem has the sign of a; fix negative remainders.
    const name = `${vt}.${op === '/' ? 'div' : 'mod'}`;
    const s = `(_ BitVec ${n})`;
    this.need(`1def.${vt}.0mod`, `(define-fun ${vt}.mod ((a ${s}) (b ${s})) ${s} (ite (= b ${zero}) ${zero} (let ((r (bvsrem a b))) (ite (bvslt r ${zero}) (ite (bvslt b ${zero}) (bvsub r b) (bvadd r b)) r))))`);
    if (op === '/') {
      // The truncated quotient, moved by one where the truncated remainder is negative (as the
      // concrete semantics does). Not (a - a mod b) / b: that difference can wrap (i8: -128 - 4).
      this.need(`1def.${vt}.1div`, `(define-fun ${vt}.div ((a ${s}) (b ${s})) ${s} (ite (= b ${zero}) ${zero} (let ((q (bvsdiv a b))) (ite (bvslt (bvsrem a b) ${zero}) (ite (bvslt b ${zero}) (bvadd q ${bvLit(1n, n)}) (bvsub q ${bvLit(1n, n)})) q))))`);
    }
    return `(${name} ${a} ${b})`;
  }

  private compare(op: string, a: string, b: string, vt: ValueType): string {
    if (vt === 'bool') {
      if (op === '==') return `(= ${a} ${b})`;
      if (op === '!=') return `(not (= ${a} ${b}))`;
      throw new Error(`ValueEncoder: '${op}' on bool`);
    }
    if (isIntType(vt)) {
      const sg = SIGNED[vt] ? 's' : 'u';
      switch (op) {
        case '==':
          return `(= ${a} ${b})`;
        case '!=':
          return `(not (= ${a} ${b}))`;
        case '<':
          return `(bv${sg}lt ${a} ${b})`;
        case '<=':
          return `(bv${sg}le ${a} ${b})`;
        case '>':
          return `(bv${sg}gt ${a} ${b})`;
        case '>=':
          return `(bv${sg}ge ${a} ${b})`;
      }
    }
    if (this.mode === 'ieee') {
      const f = { '==': 'fp.eq', '<': 'fp.lt', '<=': 'fp.leq', '>': 'fp.gt', '>=': 'fp.geq' }[op as '=='];
      return op === '!=' ? `(not (fp.eq ${a} ${b}))` : `(${f} ${a} ${b})`;
    }
    return op === '==' ? `(= ${a} ${b})` : op === '!=' ? `(not (= ${a} ${b}))` : `(${op} ${a} ${b})`;
  }

  private call(e: Extract<Expr, { kind: 'call' }>, vt: ValueType, env: EncodeEnv): string {
    const fn = e.fn;
    const arg0 = e.args[0]!;
    if (isValueTypeName(fn)) return this.cast(arg0, vt, env); // a cast, written as the type name
    switch (fn) {
      case 'min':
      case 'max': {
        // min(a, b) = a < b ? a : b (max symmetric), for every type: the concrete semantics too.
        const a = this.value(arg0, env);
        const b = this.value(e.args[1]!, env);
        return `(ite ${this.compare(fn === 'min' ? '<' : '>', a, b, vt)} ${a} ${b})`;
      }
      case 'abs': {
        const a = this.value(arg0, env);
        if (isIntType(vt)) return SIGNED[vt] ? `(ite (bvslt ${a} ${bvLit(0n, BITS[vt])}) (bvneg ${a}) ${a})` : a;
        return this.mode === 'ieee' ? `(fp.abs ${a})` : `(ite (< ${a} 0.0) (- ${a}) ${a})`;
      }
      case 'sqrt':
      case 'floor':
      case 'ceil': {
        const a = this.value(arg0, env);
        if (this.mode === 'ieee') {
          if (fn === 'sqrt') return `(fp.sqrt RNE ${a})`;
          return `(fp.roundToIntegral ${fn === 'floor' ? 'RTN' : 'RTP'} ${a})`;
        }
        if (fn === 'floor') return `(to_real (to_int ${a}))`;
        if (fn === 'ceil') return `(- (to_real (to_int (- ${a}))))`;
        return `(${this.uf(`${vt}.sqrt`, [vt], this.sort(vt))} ${a})`; // real mode: sqrt opaque
      }
      case 'exp':
      case 'log':
        return `(${this.uf(`${vt}.${fn}`, [vt], this.sort(vt))} ${this.value(arg0, env)})`;
      case 'pow':
        return `(${this.uf(`${vt}.pow`, [vt, vt], this.sort(vt))} ${this.value(arg0, env)} ${this.value(e.args[1]!, env)})`;
      case 'reinterpret_f32':
      case 'reinterpret_f64': {
        // IEEE: the bit-vector read as an interchange-format float (exact); otherwise the float
        // sort has no bits, and the reinterpretation is a function of the integer.
        const a = this.value(arg0, env);
        if (this.mode === 'ieee') return `((_ to_fp ${FP[vt as FloatType][0]} ${FP[vt as FloatType][1]}) ${a})`;
        const from = (arg0.ty as { vt: ValueType }).vt;
        return `(${this.uf(`${vt}.reinterpret.${from}`, [from], this.sort(vt))} ${a})`;
      }
      default:
        throw new Error(`ValueEncoder: unsupported call ${fn}`);
    }
  }

  private cast(arg: Expr, to: ValueType, env: EncodeEnv): string {
    const at = arg.ty!;
    // From an index (Int) or an affine condition.
    if (at.kind === 'index' || at.kind === 'cond') {
      if (at.kind === 'cond') return this.fromBool(this.index(arg, env), to);
      if (isIntType(to)) return this.indexToBv(arg, BITS[to], env);
      const i = this.index(arg, env);
      if (to === 'bool') return `(not (= ${i} 0))`;
      return this.mode === 'ieee' ? `((_ to_fp ${FP[to][0]} ${FP[to][1]}) RNE (to_real ${i}))` : `(to_real ${i})`;
    }
    const from = at.vt;
    const a = this.value(arg, env);
    if (from === to) return a;
    if (from === 'bool') return this.fromBool(a, to);
    if (to === 'bool') {
      if (isIntType(from)) return `(not (= ${a} ${bvLit(0n, BITS[from])}))`;
      return this.mode === 'ieee' ? `(not (fp.isZero ${a}))` : `(not (= ${a} 0.0))`;
    }
    if (isIntType(from) && isIntType(to)) {
      const [m, n] = [BITS[from], BITS[to]];
      if (n === m) return a;
      if (n < m) return `((_ extract ${n - 1} 0) ${a})`;
      return `((_ ${SIGNED[from] ? 'sign_extend' : 'zero_extend'} ${n - m}) ${a})`;
    }
    if (isIntType(from) && isFloatType(to)) {
      if (this.mode === 'ieee') return `((_ ${SIGNED[from] ? 'to_fp' : 'to_fp_unsigned'} ${FP[to][0]} ${FP[to][1]}) RNE ${a})`;
      return `(to_real ${this.bvToInt(a, from)})`;
    }
    if (isFloatType(from) && isIntType(to)) {
      if (this.mode === 'ieee') return this.floatToInt(a, from, to);
      return `((_ int2bv ${BITS[to]}) (ite (>= ${a} 0.0) (to_int ${a}) (- (to_int (- ${a})))))`;
    }
    // f32 <-> f64
    return this.mode === 'ieee' ? `((_ to_fp ${FP[to as FloatType][0]} ${FP[to as FloatType][1]}) RNE ${a})` : a;
  }

  /**
   * The language's float → integer cast, exactly: NaN and ±∞ give 0, other values truncate toward
   * zero and wrap modulo 2^n. SMT-LIB's fp.to_sbv/fp.to_ubv leave NaN, ±∞ and out-of-range values
   * unspecified, so the conversion is done in a width where every value that matters is in range:
   * with p bits of precision, |x| ≥ 2^(n+p-1) makes x a multiple of 2^n (result 0), and below that
   * the truncated value fits in n + p + 1 signed bits; its low n bits are the wrapped result.
   */
  private floatToInt(a: string, from: FloatType, to: IntType): string {
    const n = BITS[to];
    const [eb, p] = FP[from];
    const wide = n + p + 1;
    const name = `${from}.to_${to}`;
    const s = `(_ FloatingPoint ${eb} ${p})`;
    const big = fpLiteral(2 ** (n + p - 1), from);
    const zero = bvLit(0n, n);
    this.need(`1def.${name}`, `(define-fun ${name} ((x ${s})) (_ BitVec ${n}) (ite (or (fp.isNaN x) (fp.isInfinite x) (fp.geq (fp.abs x) ${big})) ${zero} ((_ extract ${n - 1} 0) ((_ fp.to_sbv ${wide}) RTZ x))))`);
    return `(${name} ${a})`;
  }

  /**
   * An index cast to an n-bit integer: its value modulo 2^n. Reduction modulo 2^n is a ring
   * homomorphism, so it is pushed through +, - and products by constants (bit-vector arithmetic),
   * down to the leaves; `int2bv` stays only at variables and at what is not a ring operation
   * (`/`, `%`, `min`, …). Z3 proves `i32(i * 4294967296 + i) = i32(i)` at once in this form, and
   * times out on the `int2bv` of the whole sum.
   */
  private indexToBv(e: Expr, n: number, env: EncodeEnv): string {
    switch (e.kind) {
      case 'int':
        return bvLit(e.value, n);
      case 'unary':
        if (e.op === '-') return `(bvneg ${this.indexToBv(e.arg, n, env)})`;
        break;
      case 'binary':
        if (e.op === '+' || e.op === '-' || e.op === '*') {
          const f = e.op === '+' ? 'bvadd' : e.op === '-' ? 'bvsub' : 'bvmul';
          return `(${f} ${this.indexToBv(e.left, n, env)} ${this.indexToBv(e.right, n, env)})`;
        }
        break;
      default:
        break;
    }
    return `((_ int2bv ${n}) ${this.index(e, env)})`;
  }

  private fromBool(b: string, to: ValueType): string {
    if (to === 'bool') return b;
    return `(ite ${b} ${this.literal(1, to)} ${this.literal(0, to)})`;
  }

  /** Integer value of a bit-vector (signed or unsigned), for real-mode casts. */
  private bvToInt(a: string, t: IntType): string {
    const n = BITS[t];
    if (!SIGNED[t]) return `(bv2nat ${a})`;
    return `(ite (bvslt ${a} ${bvLit(0n, n)}) (- (bv2nat ${a}) ${(1n << BigInt(n)).toString()}) (bv2nat ${a}))`;
  }
}
