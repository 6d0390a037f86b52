// An independent evaluator of SCHED expressions (thesis Fig. 4.3) and of their read sets (Fig. 4.4),
// written from docs/language.md §4 without using semantics/. The derivation checker
// (proofs/metatheory/derivation-check.ts) and the reference term semantics of the properties use it, so that a
// bug in the production evaluator (semantics/jsgen.ts, values.ts) cannot certify itself.
//
// It is a tree walker over type-checked expressions (`ty` filled by core/language/typecheck.ts). Values have
// their own representation: every machine integer is a bigint (wrapped to its type), floats are JS
// numbers (f32 rounded with Math.fround after every operation), bool is a boolean. ⊥ propagates
// through every rule: all subexpressions are evaluated (select and && are eager), and the first ⊥
// found makes the whole expression ⊥.

import type { Expr, ValueType } from '../../core/language/ast.ts';
import { isFloatType, isIntType, truncTarget } from '../../core/language/ast.ts';

/** A value of 𝒰 in the reference representation. */
export type RValue = bigint | number | boolean;
/** An affine value (𝔸 or 𝔹). */
export type Affine = bigint | boolean;

/** Why an evaluation has no value (no rule of Fig. 4.3 applies). */
/**
 * Why an evaluation has no value (no rule of Fig. 4.3 applies): a read of ⊥ or outside dom(μ),
 * or a checked operation out of its range whose result a select did not discard.
 */
export type Bottom = {
  readonly bot: 'uninitialized' | 'out-of-bounds' | 'undefined-behaviour';
  readonly loc: string;
  /** Poison (a select may discard it): a checked operation out of range, or a `load` of ⊥. */
  readonly poison?: true;
};

export type Cell = { readonly kind: 'value'; readonly v: RValue } | { readonly kind: 'bot' };

/** What an evaluation needs from a memory: the cell a[n̄] of the array named `name` in scope. */
export interface RefMemory {
  /** null when a[n̄] is not in dom(μ) (out of bounds); otherwise its location text and content. */
  cell(name: string, idx: readonly bigint[]): { readonly loc: string; readonly cell: Cell } | null;
}

export type Env = ReadonlyMap<string, Affine>;

// ---------------------------------------------------------------------------------------------
// Machine integers

const WIDTH: Record<string, [number, boolean]> = {
  i8: [8, true],
  i16: [16, true],
  i32: [32, true],
  i64: [64, true],
  u8: [8, false],
  u16: [16, false],
  u32: [32, false],
  u64: [64, false],
};

export function wrap(t: ValueType, x: bigint): bigint {
  const [bits, signed] = WIDTH[t]!;
  const m = 1n << BigInt(bits);
  let r = ((x % m) + m) % m;
  if (signed && r >= m >> 1n) r -= m;
  return r;
}

/** Euclidean division as Halide: remainder in [0, |b|), and 0 for a zero divisor. */
function euclid(a: bigint, b: bigint): [bigint, bigint] {
  if (b === 0n) return [0n, 0n];
  let q = a / b;
  let r = a - q * b;
  if (r < 0n) {
    if (b > 0n) {
      q -= 1n;
      r += b;
    } else {
      q += 1n;
      r -= b;
    }
  }
  return [q, r];
}

/** ⌊a / m⌋ and a mod m for m > 0 (index arithmetic). */
function floorDivMod(a: bigint, m: bigint): [bigint, bigint] {
  return euclid(a, m);
}

// ---------------------------------------------------------------------------------------------
// Rounding to binary32 from an exact integer (no double rounding)

function f32Exact(b: bigint): number {
  const abs = b < 0n ? -b : b;
  if (abs <= 1n << 53n) return Math.fround(Number(b));
  // Candidates: the binary32 values around the nearest double; pick the nearest, ties to even.
  const d = Number(b);
  const f = Math.fround(d);
  const cands = [f, nextF32(f, 1), nextF32(f, -1)].filter((x) => Number.isFinite(x));
  let best = f;
  let bestDist: bigint | null = null;
  for (const c of cands) {
    const dist = BigInt(c) - b;
    const ad = dist < 0n ? -dist : dist;
    if (bestDist === null || ad < bestDist || (ad === bestDist && evenMantissa(c) && !evenMantissa(best))) {
      best = c;
      bestDist = ad;
    }
  }
  // Beyond the largest finite binary32 (plus half an ulp) the value overflows to infinity.
  const maxF = 3.4028234663852886e38;
  const halfUlp = 2n ** 103n;
  if (abs >= BigInt(maxF) + halfUlp) return b < 0n ? -Infinity : Infinity;
  return best;
}

function nextF32(x: number, dir: 1 | -1): number {
  const buf = new DataView(new ArrayBuffer(4));
  buf.setFloat32(0, x);
  let bits = buf.getUint32(0);
  if (x === 0) return dir > 0 ? 1.401298464324817e-45 : -1.401298464324817e-45;
  bits += (x > 0) === (dir > 0) ? 1 : -1;
  buf.setUint32(0, bits >>> 0);
  return buf.getFloat32(0);
}

function evenMantissa(x: number): boolean {
  const buf = new DataView(new ArrayBuffer(4));
  buf.setFloat32(0, x);
  return (buf.getUint32(0) & 1) === 0;
}

function toFloat(t: ValueType, b: bigint): number {
  return t === 'f32' ? f32Exact(b) : Number(b); // Number(bigint) rounds to nearest even
}

function roundF(t: ValueType, x: number): number {
  return t === 'f32' ? Math.fround(x) : x;
}

// ---------------------------------------------------------------------------------------------
// Operators on values

function arith(op: string, t: ValueType, a: RValue, b: RValue): RValue {
  if (isFloatType(t)) {
    const x = a as number;
    const y = b as number;
    switch (op) {
      case '+':
        return roundF(t, x + y);
      case '-':
        return roundF(t, x - y);
      case '*':
        return roundF(t, x * y);
      case '/':
        return roundF(t, x / y);
    }
    throw new Error(`ref-eval: '${op}' on ${t}`);
  }
  const x = a as bigint;
  const y = b as bigint;
  switch (op) {
    case '+':
      return wrap(t, x + y);
    case '-':
      return wrap(t, x - y);
    case '*':
      return wrap(t, x * y);
    case '/':
      return wrap(t, euclid(x, y)[0]);
    case '%':
      return wrap(t, euclid(x, y)[1]);
  }
  throw new Error(`ref-eval: '${op}' on ${t}`);
}

function cmp(op: string, a: RValue, b: RValue): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
  throw new Error(`ref-eval: comparison '${op}'`);
}

/** A cast to `to` of a value of type `from` (or of an index / affine condition). */
function castTo(to: ValueType, a: RValue): RValue {
  if (to === 'bool') {
    if (typeof a === 'boolean') return a;
    if (typeof a === 'bigint') return a !== 0n;
    return a !== 0; // NaN → true, ±0 → false
  }
  if (typeof a === 'boolean') return isFloatType(to) ? (a ? 1 : 0) : a ? 1n : 0n;
  if (isIntType(to)) {
    if (typeof a === 'bigint') return wrap(to, a);
    if (!Number.isFinite(a)) return 0n;
    return wrap(to, BigInt(Math.trunc(a)));
  }
  if (typeof a === 'bigint') return toFloat(to, a);
  return roundF(to, a);
}

function typeOf(e: Expr): ValueType | 'index' | 'cond' {
  const t = e.ty;
  if (t === undefined) throw new Error('ref-eval: expression not type-checked');
  return t.kind === 'value' ? t.vt : t.kind;
}

function litValue(e: Expr, t: ValueType): RValue {
  if (e.kind === 'bool') return e.value;
  const n = e.kind === 'int' ? e.value : null;
  if (t === 'bool') return n !== null ? n !== 0n : (e as { value: number }).value !== 0;
  if (isIntType(t)) return wrap(t, n ?? BigInt(Math.trunc((e as { value: number }).value)));
  if (e.kind === 'float' && t === 'f32' && e.f32 !== undefined) return e.f32.value;
  return n !== null ? toFloat(t, n) : roundF(t, (e as { value: number }).value);
}

// ---------------------------------------------------------------------------------------------
// The evaluator

class Bot {
  constructor(readonly b: Bottom) {}
}

/**
 * ⟦e⟧_{E;μ} with rd_{E;μ}(e). On success, `reads` lists the locations read (in evaluation order,
 * possibly repeated); on ⊥, the first reason.
 */
export function evaluate(e: Expr, env: Env, mem: RefMemory): { ok: true; v: RValue | Affine; reads: string[] } | { ok: false; bot: Bottom } {
  const reads: string[] = [];
  let first: Bottom | null = null;
  const bottom = (b: Bottom): Bot => {
    if (!b.poison) first ??= b;
    return new Bot(b);
  };
  // The array rule; with `load`, a cell holding ⊥ is poison (a select may discard it).
  const readArray = (x: Extract<Expr, { kind: 'array' }>, E: Env, load: boolean): RValue | Bot => {
    const idx = x.indices.map((i) => go(i, E));
    if (idx.some((i) => i instanceof Bot)) return idx.find((i) => i instanceof Bot) as Bot;
    const ns = idx as bigint[];
    const c = mem.cell(x.name, ns);
    if (c === null) return bottom({ bot: 'out-of-bounds', loc: `${x.name}[${ns.join(', ')}]` });
    reads.push(c.loc);
    if (c.cell.kind === 'bot') return bottom(load ? { bot: 'uninitialized', loc: c.loc, poison: true } : { bot: 'uninitialized', loc: c.loc });
    return c.cell.v;
  };
  // Returns a value or a Bot marker (⊥); evaluation continues past ⊥ (eagerness).
  const go = (x: Expr, E: Env): RValue | Bot => {
    const t = typeOf(x);
    switch (x.kind) {
      case 'int':
        return t === 'index' ? x.value : litValue(x, t as ValueType);
      case 'float':
        return litValue(x, t as ValueType);
      case 'bool':
        return x.value;
      case 'var': {
        const v = E.get(x.name);
        if (v === undefined) throw new Error(`ref-eval: unbound variable ${x.name}`);
        return v;
      }
      case 'array':
        return readArray(x, E, false);
      case 'tensor':
        throw new Error('ref-eval: tensor read in implementation code');
      case 'let': {
        const v = go(x.value, E);
        if (v instanceof Bot) return v;
        const E2 = new Map(E);
        E2.set(x.name, v as Affine);
        return go(x.body, E2);
      }
      case 'unary': {
        const a = go(x.arg, E);
        if (a instanceof Bot) return a;
        if (x.op === '!') return !(a as boolean);
        if (t === 'index') return -(a as bigint);
        const vt = t as ValueType;
        return isFloatType(vt) ? -(a as number) : wrap(vt, -(a as bigint));
      }
      case 'binary': {
        const a = go(x.left, E);
        const b = go(x.right, E);
        if (a instanceof Bot) return a;
        if (b instanceof Bot) return b;
        if (x.op === '&&') return (a as boolean) && (b as boolean);
        if (x.op === '||') return (a as boolean) || (b as boolean);
        if (['==', '!=', '<', '<=', '>', '>='].includes(x.op)) return cmp(x.op, a, b);
        if (t === 'index') {
          const p = a as bigint;
          const q = b as bigint;
          switch (x.op) {
            case '+':
              return p + q;
            case '-':
              return p - q;
            case '*':
              return p * q;
            case '/':
              return floorDivMod(p, q)[0];
            case '%':
              return floorDivMod(p, q)[1];
          }
          throw new Error(`ref-eval: index operator ${x.op}`);
        }
        return arith(x.op, t as ValueType, a, b);
      }
      case 'select': {
        // SELECT-TRUE / SELECT-FALSE: all three arguments have values, except that an operand
        // without one because a checked operation left its range is an error only if chosen.
        const c = go(x.cond, E);
        const a = go(x.then, E);
        const b = go(x.else, E);
        if (c instanceof Bot) return c;
        const ub = (v: RValue | Bot): boolean => v instanceof Bot && v.b.poison === true;
        if (a instanceof Bot && !ub(a)) return a;
        if (b instanceof Bot && !ub(b)) return b;
        return c ? a : b;
      }
      case 'call': {
        // The checked read: the cell, or poison where it holds ⊥ (out of bounds is still ⊥).
        if (x.fn === 'load' && x.args[0]?.kind === 'array') return readArray(x.args[0], E, true);
        const args = x.args.map((y) => go(y, E));
        const bad = args.find((y) => y instanceof Bot);
        if (bad) return bad;
        const vs = args as RValue[];
        const fn = x.fn;
        // min(a, b) = a < b ? a : b and max(a, b) = a > b ? a : b on every type (NaN follows IEEE <).
        if (fn === 'min') return vs[0]! < vs[1]! ? vs[0]! : vs[1]!;
        if (fn === 'max') return vs[0]! > vs[1]! ? vs[0]! : vs[1]!;
        const vt = t as ValueType;
        switch (fn) {
          case 'add_nsw':
          case 'sub_nsw':
          case 'mul_nsw': {
            const [p, q] = vs as bigint[];
            const exact = fn === 'add_nsw' ? p! + q! : fn === 'sub_nsw' ? p! - q! : p! * q!;
            return wrap(vt, exact) === exact ? exact : bottom({ bot: 'undefined-behaviour', poison: true, loc: `${fn} overflows ${vt}` });
          }
          case 'abs':
            if (isFloatType(vt)) return Math.abs(vs[0] as number);
            return wrap(vt, (vs[0] as bigint) < 0n ? -(vs[0] as bigint) : (vs[0] as bigint));
          case 'sqrt':
            return roundF(vt, Math.sqrt(vs[0] as number));
          case 'exp':
            return roundF(vt, Math.exp(vs[0] as number));
          case 'log':
            return roundF(vt, Math.log(vs[0] as number));
          case 'floor':
            return roundF(vt, Math.floor(vs[0] as number));
          case 'ceil':
            return roundF(vt, Math.ceil(vs[0] as number));
          case 'pow':
            return roundF(vt, Math.pow(vs[0] as number, vs[1] as number));
          case 'reinterpret_f32':
            // The integer's bits read back through a float view of the same memory.
            return new Float32Array(new Uint32Array([Number(BigInt.asUintN(32, BigInt(vs[0] as bigint)))]).buffer)[0]!;
          case 'reinterpret_f64':
            return new Float64Array(new BigUint64Array([BigInt.asUintN(64, BigInt(vs[0] as bigint))]).buffer)[0]!;
          default: {
            if (truncTarget(fn) !== null) {
              // trunc_T: the float truncated toward zero, if it is a number and fits T.
              const f = vs[0] as number;
              const exact = Number.isFinite(f) ? BigInt(Math.trunc(f)) : null;
              return exact !== null && wrap(vt, exact) === exact ? exact : bottom({ bot: 'undefined-behaviour', poison: true, loc: `${fn} of ${f}` });
            }
            return castTo(fn as ValueType, vs[0]!);
          }
        }
      }
    }
  };
  const v = go(e, env);
  if (v instanceof Bot) return { ok: false, bot: first ?? v.b };
  return { ok: true, v, reads };
}

// ---------------------------------------------------------------------------------------------
// Canonical texts of values (to compare with other representations)

/** A canonical text of a value: decimal integers, `-0`, `NaN`, `Infinity`, `true`. */
export function valueText(v: RValue | Affine): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  return String(v);
}

/**
 * The reference value of a JSON value as semantics/values.ts writes it (numbers, bigints as
 * strings, 'NaN', '±Infinity', '-0.0'), read at type t; null when it does not denote a value of t.
 */
export function valueOfJson(j: unknown, t: ValueType): RValue | null {
  if (t === 'bool') return typeof j === 'boolean' ? j : null;
  if (isIntType(t)) {
    let b: bigint;
    if (typeof j === 'number' && Number.isInteger(j)) b = BigInt(j);
    else if (typeof j === 'string' && /^-?\d+$/.test(j)) b = BigInt(j);
    else return null;
    return wrap(t, b) === b ? b : null;
  }
  let x: number;
  if (typeof j === 'number') x = j;
  else if (j === 'NaN') x = NaN;
  else if (j === 'Infinity') x = Infinity;
  else if (j === '-Infinity') x = -Infinity;
  else if (j === '-0.0') x = -0;
  else return null;
  if (t === 'f32' && !Number.isNaN(x) && !Object.is(Math.fround(x), x)) return null;
  return x;
}

/** A value of the production representation (numbers for ≤ 32-bit integers) as a reference value. */
export function fromProduction(v: number | bigint | boolean, t: ValueType): RValue {
  if (isIntType(t)) return typeof v === 'bigint' ? v : BigInt(v as number);
  return v;
}

/** Does `v` belong to ⟦t⟧ (reference representation)? */
export function refHasType(v: RValue, t: ValueType): boolean {
  if (t === 'bool') return typeof v === 'boolean';
  if (isIntType(t)) return typeof v === 'bigint' && wrap(t, v) === v;
  if (typeof v !== 'number') return false;
  return t === 'f64' || Number.isNaN(v) || Object.is(Math.fround(v), v);
}
