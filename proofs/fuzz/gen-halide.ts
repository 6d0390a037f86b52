// The `halide` profile of `sched fuzz` (the default with `--compiler halide`): algorithms that
// exercise what Halide 14 means differently from SCHED's defaults or leaves undefined
// (docs/halide.md, the semantics table), with the schedules of gen.ts. Every value type (all
// integer widths, f32, f64); casts of every kind between them: narrowing and widening integers,
// integer ↔ float, float → integer clamped, guarded by a select, or bare (out of range it is
// undefined in Halide: the verdict is then `invalid (undefined-behaviour)`); Euclidean `/` and `%`
// by constants of both signs and by zero; select and clamp boundary handling, of values and of
// the reads at the edges of the output; up to three update stages, with reduction domains and
// `where` filters. Int(32)/Int(64) arithmetic (whose overflow is undefined) reads narrow inputs,
// so that it stays in range, except in a few cases that read 32- or 64-bit inputs; Funcs with
// updates take a type whose arithmetic wraps (or a float), since no update overflow can be proved
// away without induction. A recipe of small integers, as gen.ts's, so that fast-check shrinks it.

import fc from 'fast-check';
import type { ValueType } from '../../core/language/ast.ts';
import type { Algorithm, AlgFunc, AlgUpdate } from '../../compilers/algorithm/algorithm.ts';

interface HTermR {
  readonly src: number;
  readonly offs: readonly number[];
  readonly cast: number;
  readonly arith: number;
  readonly konst: number;
  readonly guard: number;
}
interface HUpdateR {
  readonly kind: number;
  readonly ext: number;
  readonly offs: readonly number[];
  readonly filter: number;
  readonly op: number;
}
interface HFuncR {
  readonly type: number;
  readonly terms: readonly HTermR[];
  readonly combine: readonly number[];
  readonly updates: readonly HUpdateR[];
}
export interface HAlgR {
  readonly dims: number;
  readonly inType: number;
  readonly funcs: readonly HFuncR[];
}

const small = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });

export function halideAlgArb(): fc.Arbitrary<HAlgR> {
  const term = fc.record({ src: small(5), offs: fc.array(fc.integer({ min: -1, max: 2 }), { minLength: 2, maxLength: 2 }), cast: small(7), arith: small(7), konst: small(7), guard: small(7) });
  const update = fc.record({ kind: small(3), ext: small(2), offs: fc.array(fc.integer({ min: -1, max: 1 }), { minLength: 2, maxLength: 2 }), filter: small(3), op: small(3) });
  const func = fc.record({ type: small(15), terms: fc.array(term, { minLength: 1, maxLength: 3 }), combine: fc.array(small(5), { minLength: 2, maxLength: 2 }), updates: fc.array(update, { maxLength: 3 }) });
  // Mostly 1-D (cheaper to verify, the same operations).
  return fc.record({ dims: fc.constantFrom(1, 1, 1, 2), inType: small(15), funcs: fc.array(func, { minLength: 1, maxLength: 3 }) });
}

/** Types, the most common first (shrinking goes towards index 0). */
const TYPES: readonly ValueType[] = ['i32', 'u8', 'f32', 'i16', 'u16', 'i8', 'u32', 'f64', 'i64', 'u64'];
/** Input types: mostly narrow, so that Int(32)/Int(64) arithmetic on them stays in range. */
const INPUT_TYPES: readonly ValueType[] = ['u8', 'i16', 'f32', 'i8', 'u16', 'f64', 'u8', 'i16', 'f32', 'i32', 'u32', 'i64', 'u64', 'f32', 'i8', 'u16'];
/** Types of Funcs with updates: their arithmetic wraps (or is IEEE). */
const UPDATE_TYPES: readonly ValueType[] = ['u32', 'u8', 'f32', 'i16', 'u16', 'i8', 'f64', 'u64'];

const isFloat = (t: ValueType): boolean => t === 'f32' || t === 'f64';
const isInt = (t: ValueType): boolean => !isFloat(t) && t !== 'bool';
const signed = (t: ValueType): boolean => t.startsWith('i');
const bits = (t: ValueType): number => Number(t.slice(1));

/** A literal of type t (floats with a decimal point, SCHED's literal syntax). */
function lit(t: ValueType, n: number): string {
  if (isFloat(t)) return `${t}(${Number.isInteger(n) ? `${n}.0` : String(n)})`;
  if (!signed(t) && n < 0) return `${t}(${n})`; // wraps: u8(-3) is 253, as Halide's cast
  return `${t}(${n})`;
}

/** The range [lo, hi] a float is clamped or guarded into before a cast to the integer type t (in range). */
function safeRange(t: ValueType): [number, number] {
  if (!signed(t)) return [0, Math.min(2 ** bits(t) - 1, 1000)];
  return [-Math.min(2 ** (bits(t) - 1), 1000), Math.min(2 ** (bits(t) - 1) - 1, 1000)];
}

const FUNC_NAMES = ['P', 'Q', 'S'];

export function buildHalideAlgorithm(r: HAlgR): Algorithm {
  const dims = r.dims;
  const args = dims === 1 ? ['x'] : ['x', 'y'];
  const n = r.funcs.length;
  const names = r.funcs.map((_, i) => (i === n - 1 ? 'F' : FUNC_NAMES[i]!));
  const params = ['N', ...(dims === 2 ? ['M'] : [])];
  let usesK = false;
  let usesW = false;
  const inType = INPUT_TYPES[r.inType % INPUT_TYPES.length]!;
  const types = new Map<string, ValueType>([['A', inType]]);
  const idx = (base: readonly string[], offs: readonly number[]): string =>
    base.map((v, p) => {
      const o = offs[p] ?? 0;
      return o === 0 ? v : o > 0 ? `${v} + ${o}` : `${v} - ${-o}`;
    }).join(', ');
  const funcs: AlgFunc[] = r.funcs.map((f, i) => {
    const hasUpdates = f.updates.length > 0;
    const type = (hasUpdates ? UPDATE_TYPES : TYPES)[f.type % (hasUpdates ? UPDATE_TYPES : TYPES).length]!;
    const sources = ['A', ...names.slice(0, i)];
    const wide = type === 'i32' || type === 'i64';
    /** One term of the pure definition: a read, cast to the Func's type, one operation, maybe a guard. */
    const term = (t: HTermR): string => {
      const src = sources[t.src % sources.length]!;
      const st = types.get(src)!;
      let e = `${src}(${idx(args, t.offs)})`;
      // Boundary handling: a constant outside [0, 4) in x, as constant_exterior writes it. (Not
      // [0, N): N is the output buffer's extent in the script, which a definition cannot read.)
      if (t.guard % 8 === 7) e = `select(${args[0]} + ${t.offs[0] ?? 0} >= 0 && ${args[0]} + ${t.offs[0] ?? 0} < 4, ${e}, ${lit(st, 0)})`;
      if (st !== type) {
        if (isFloat(st) && isInt(type)) {
          // float → integer: clamped, guarded, or bare (undefined out of range in Halide).
          const [lo, hi] = safeRange(type);
          const way = t.cast % 4;
          if (way === 0) e = `${type}(min(max(${e}, ${lit(st, lo)}), ${lit(st, hi)}))`;
          else if (way === 1) e = `select(${e} > ${lit(st, lo)} && ${e} < ${lit(st, hi)}, ${type}(${e}), ${lit(type, 0)})`;
          else if (way === 2) e = `${type}(${e} * ${lit(st, 100)})`; // scaled: inputs in [-1, 1) stay in range; others may not
          else e = `${type}(${e})`;
        } else e = `${type}(${e})`;
      }
      const k = t.konst;
      const c = [2, -3, 5, 7, -1, 3, 4, 1][k % 8]!;
      const d = [3, -2, 0, 4, -1, 5, 2, -7][k % 8]!;
      switch (t.arith % 8) {
        case 1:
          e = `${e} + ${lit(type, c)}`;
          break;
        case 2:
          e = `${e} * ${lit(type, c)}`;
          break;
        case 3:
          // Euclidean division (integers), by negative divisors and by zero (Halide's x / 0 = 0).
          e = isFloat(type) ? `${e} / ${lit(type, d === 0 ? 0.5 : d)}` : `${e} / ${lit(type, d)}`;
          break;
        case 4:
          e = isFloat(type) ? `${e} - ${lit(type, 0.25)}` : `${e} % ${lit(type, d)}`;
          break;
        case 5:
          // Clamp, select.
          e = t.guard % 2 === 0 ? `min(max(${e}, ${lit(type, -c)}), ${lit(type, 9)})` : `select(${e} > ${lit(type, c)}, ${e}, ${lit(type, 1)})`;
          break;
        case 6:
          e = `-(${e})`;
          break;
        default:
          break;
      }
      return e;
    };
    let pure = '';
    f.terms.forEach((t, k) => {
      const e = term(t);
      if (k === 0) {
        pure = e;
        return;
      }
      // Int(32)/Int(64): no product of two terms (it would leave the range the inputs keep).
      const ops = isFloat(type) ? ['+', '-', '*', 'min', 'max', '/'] : wide ? ['+', '-', 'min', 'max', '+', '-'] : ['+', '-', '*', 'min', 'max', '+'];
      const op = ops[f.combine[k - 1]! % ops.length]!;
      pure = op === 'min' || op === 'max' ? `${op}(${pure}, ${e})` : `${pure} ${op} ${e}`;
    });
    const self = `${names[i]}(${args.join(', ')})`;
    const updates: AlgUpdate[] = f.updates.map((u) => {
      const kind = [0, 2, 0, 1][u.kind % 4]!;
      const a = `A(${idx(args, u.offs)})`;
      const ta = types.get('A')!;
      const elem = (x: string): string => (ta === type ? x : `${type}(${isFloat(ta) && isInt(type) ? `min(max(${x}, ${lit(ta, 0)}), ${lit(ta, 100)})` : x})`);
      const combineWith = (t: string): string => ['${s} * 2 + ${t}', 'max(${s}, ${t})', '${s} + ${t}', '${s} - ${t}'][u.op % 4]!.replace('${s}', self).replace('${t}', t).replace(' * 2', ` * ${lit(type, 2)}`);
      if (kind === 2) return { lhs: args, rhs: combineWith(elem(a)) };
      const extent = u.ext === 0 ? 'K' : u.ext === 1 ? '2' : '3';
      if (extent === 'K') usesK = true;
      if (kind === 1) {
        // Two reduction variables; the filter keeps the diagonal out.
        const rx = [`${args[0]} + rx`, ...args.slice(1)];
        return { lhs: args, rhs: combineWith(elem(`A(${rx.join(', ')})`)), rdom: [{ var: 'rx', min: '0', extent: '2' }, { var: 'ry', min: '0', extent }], where: u.filter % 2 === 1 ? 'rx != ry' : null };
      }
      let t: string;
      if (u.filter === 3) {
        usesW = true;
        t = elem(`W(${[...args, 'r'].join(', ')})`);
      } else t = elem(`A(${[`${args[0]} + r`, ...args.slice(1)].join(', ')})`);
      const where = u.filter === 1 ? 'r % 2 == 0' : u.filter === 2 ? `r != 1` : null;
      return { lhs: args, rhs: combineWith(t), rdom: [{ var: 'r', min: '0', extent }], where };
    });
    types.set(names[i]!, type);
    return { name: names[i]!, args, type, pure, updates };
  });
  if (usesK) params.push('K');
  const inputs = [{ name: 'A', args, type: inType }];
  if (usesW) inputs.push({ name: 'W', args: [...args, 'r'], type: inType });
  const assumes = [params.map((p) => `${p} >= 0`).join(' && ')];
  return { name: 'fz', params, assumes, inputs, funcs, output: { func: 'F', extents: dims === 1 ? ['N'] : ['N', 'M'] } };
}
