// THE OPERATION TABLE of the MLIR front end: every op it reads, with its meaning in MLIR 16 and its
// translation into the front end's kernel form (compilers/mlir/kernel.ts), which becomes SCHED.
// An op that is not here is `unknown (unsupported: <op>)`: the translation stops with that reason,
// never crashes and never skips the op. docs/mlir.md prints this table (test/mlir-ops.test.ts
// checks that every entry is documented there).
//
// Meanings follow the MLIR 16 dialect documentation (mlir.llvm.org/docs/Dialects, release 16):
// integers are two's complement and wrap (arith has no overflow flags in 16); `divsi`/`remsi`
// truncate toward zero, `floordivsi`/`ceildivsi` round down/up; division by zero and the overflow of
// INT_MIN / -1 are undefined behaviour, so only divisions by a constant that rules both out are
// translated (any other is refused, never given a made-up value); shifts by the bit width or more
// are poison (refused); `fptosi`/`fptoui` of an out-of-range value is poison (refused); float ops
// are IEEE 754 with round-to-nearest-even and no fast-math (a `fastmath` flag other than `none`
// lets the compiler change the result: refused).

import type { ValueType } from '../../core/language/ast.ts';
import { decimalToF32 } from '../../core/language/float-literal.ts';
import { add, addConst, and, andAll, ceil, constant, eqT, floor, FALSE, geT, gtT, leT, ltT, max, min, mod, neT, not, or, scale, select as selectT, sub, TRUE, type Formula, type Term } from '../../core/presburger/index.ts';
import type { AffineExpr, AffineMap, Attr, IntegerSet, MType, Op } from './ir.ts';
import { showType } from './ir.ts';
import { type KBinOp, type KVal, typeOf } from './kernel.ts';

// ---------------------------------------------------------------------------------------------
// What a translation rule may ask of the lowering (implemented by compilers/mlir/lower.ts)

/** A memref value: a window of a root array (`memref.subview`, `memref.cast` keep the root). */
export interface View {
  /** The kernel array holding the data. */
  readonly array: string;
  /** The view's extents. */
  readonly shape: readonly Term[];
  /** The root index of a view index: `root[d] = at(idx)[d]`. */
  readonly at: (idx: readonly Term[]) => Term[];
  /** MLIR element type. */
  readonly elem: ValueType;
  /** The view's row-major order is the root's from its first element (root views, casts). */
  readonly contiguous?: boolean;
}

export class Unsupported extends Error {
  constructor(readonly construct: string, readonly detail: string) {
    super(`unsupported: ${construct}${detail ? `: ${detail}` : ''}`);
    this.name = 'Unsupported';
  }
}

export interface Ctx {
  /** The affine index an SSA value of type index holds; Unsupported (non-affine) otherwise. */
  index(v: string): Term;
  /** The affine condition an i1 holds, or null when it depends on data. */
  cond(v: string): Formula | null;
  /** The scalar value (an index value as i64). */
  value(v: string): KVal;
  /** The lanes of a vector (one lane for a scalar). */
  lanes(v: string): readonly KVal[];
  view(v: string): View;
  bindIndex(r: string, t: Term): void;
  /** An index-typed value that is not affine (`why`), with its value. */
  bindOpaqueIndex(r: string, why: string, val: KVal | null): void;
  bindValue(r: string, v: KVal, cond?: Formula | null): void;
  bindLanes(r: string, lanes: readonly KVal[]): void;
  bindView(r: string, v: View): void;
  load(view: View, idx: readonly Term[]): KVal;
  store(view: View, idx: readonly Term[], value: KVal, part?: string): void;
  /** A read made only where `cond` holds, `pad` elsewhere (a cell written under `if`). */
  guardedLoad(view: View, idx: readonly Term[], cond: Formula, pad: KVal): KVal;
  /** A write made only where `cond` holds. */
  guardedStore(view: View, idx: readonly Term[], value: KVal, cond: Formula, part: string): void;
  /** `n` consecutive elements (row-major, static shapes) copied from src[at] to dst[at]. */
  dma(src: View, srcAt: readonly Term[], dst: View, dstAt: readonly Term[], n: bigint): void;
  /** A new array whose scope is the rest of the block (or up to its dealloc). */
  alloc(elem: ValueType, dims: readonly Term[], mtype: MType): View;
  dealloc(view: View): void;
  /**
   * A view over the root buffer's memory in row-major order: element idx is the root's element
   * number offset + Σ idx·strides (the root must have a static shape).
   */
  linearView(view: View, offset: Term, sizes: readonly Term[], strides: readonly Term[]): View;
  /**
   * A product of two index terms that mention parameters only (a semi-affine symbol product): a
   * parameter of its own, defined as the product; null when a loop variable occurs.
   */
  product(a: Term, b: Term): Term | null;
  /** A memref's extent: a constant, or the parameter naming it. */
  extent(view: View, d: number): Term;
  /**
   * Lower the op's loop band (one loop per entry, outermost first): the body's first block
   * arguments are the ivs, the others are iter_args, initialised from `inits`.
   */
  loop(l: { band: readonly Band[]; parallel: boolean; inits: readonly string[] }): void;
  /** Lower an if on an affine condition; results come from the branches' yields. */
  branch(cond: Formula): void;
  /**
   * Lower an if on a condition that depends on data: its stores become conditional stores
   * `a[ι] := select(c, v, a[ι])` (same sequential values), its results cells.
   */
  dataBranch(cond: KVal): void;
  /** Inline a call of a function whose body is in the module. */
  call(callee: string, args: readonly string[]): void;
  /** A copy of every element of `from` into `to` (same shape): one store per element. */
  copy(from: View, to: View, count: readonly Term[]): void;
  /** A value type for an MLIR scalar type, or Unsupported. */
  scalar(t: MType): ValueType;
  note(text: string): void;
}

/** One loop of a band: iv from max(lbs) to min(ubs) − 1 by step. */
export interface Band {
  readonly lbs: readonly Term[];
  readonly ubs: readonly Term[];
  readonly step: bigint;
}

export interface OpEntry {
  /** What the op means in MLIR 16. */
  readonly meaning: string;
  /** What the front end makes of it. */
  readonly sched: string;
  readonly lower: (c: Ctx, op: Op) => void;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function fail(op: Op, detail: string): never {
  throw new Unsupported(op.name, detail);
}

function attr(op: Op, name: string): Attr {
  const a = op.attrs.get(name);
  if (a === undefined) fail(op, `attribute '${name}' missing`);
  return a;
}

function intAttr(op: Op, name: string): bigint {
  const a = attr(op, name);
  if (a.kind !== 'int') fail(op, `attribute '${name}' is not an integer`);
  return a.value;
}

function mapAttr(op: Op, name: string): AffineMap {
  const a = attr(op, name);
  if (a.kind !== 'map') fail(op, `attribute '${name}' is not an affine map`);
  return a.map;
}

function denseArray(op: Op, name: string): readonly bigint[] {
  const a = op.attrs.get(name);
  if (a === undefined) return [];
  if (a.kind === 'dense-array') return a.values;
  if (a.kind === 'array') return a.items.map((x) => (x.kind === 'int' ? x.value : fail(op, `'${name}' holds a non-integer`)));
  return fail(op, `attribute '${name}' is not an integer array`);
}

/** MLIR 16 prints the int64 "dynamic" marker in static_offsets/sizes/strides. */
const DYNAMIC = -9223372036854775808n;

/** An affine expression over dim and symbol terms. */
export function affineTerm(e: AffineExpr, dims: readonly Term[], syms: readonly Term[], why: (d: string) => never, product: ((a: Term, b: Term) => Term | null) | null = null): Term {
  const go = (x: AffineExpr): Term => {
    switch (x.k) {
      case 'dim': return dims[x.i] ?? why(`dimension d${x.i} has no operand`);
      case 'sym': return syms[x.i] ?? why(`symbol s${x.i} has no operand`);
      case 'const': return constant(x.v);
      case 'add': return add(go(x.a), go(x.b));
      case 'mul': {
        const a = go(x.a);
        const b = go(x.b);
        if (b.parts.length === 0) return scale(a, b.c);
        if (a.parts.length === 0) return scale(b, a.c);
        return product?.(a, b) ?? why('a product of two non-constant expressions (semi-affine map)');
      }
      case 'floordiv': case 'ceildiv': case 'mod': {
        const a = go(x.a);
        const b = go(x.b);
        if (b.parts.length > 0 || b.c <= 0n) return why(`${x.k} by ${b.parts.length > 0 ? 'a non-constant' : 'a non-positive constant'} (semi-affine map)`);
        return x.k === 'floordiv' ? floor(a, b.c) : x.k === 'ceildiv' ? ceil(a, b.c) : mod(a, b.c);
      }
    }
  };
  return go(e);
}

/** The results of a map applied to the ops's operands [from, from + dims + syms). */
export function applyMap(c: Ctx, op: Op, map: AffineMap, from: number): Term[] {
  const ops = op.operands.slice(from, from + map.dims + map.syms);
  if (ops.length !== map.dims + map.syms) fail(op, 'fewer operands than the map has dimensions and symbols');
  const terms = ops.map((v) => c.index(v));
  return map.results.map((e) => affineTerm(e, terms.slice(0, map.dims), terms.slice(map.dims), (d) => fail(op, d), (a, b) => c.product(a, b)));
}

export function setFormula(c: Ctx, op: Op, set: IntegerSet, from: number): Formula {
  const ops = op.operands.slice(from, from + set.dims + set.syms);
  const terms = ops.map((v) => c.index(v));
  return andAll(set.constraints.map(({ e, eq }) => {
    const t = affineTerm(e, terms.slice(0, set.dims), terms.slice(set.dims), (d) => fail(op, d));
    return eq ? eqT(t, constant(0n)) : geT(t, constant(0n));
  }));
}

/** The element type of a memref or vector operand, as a value type. */
function elemOf(c: Ctx, t: MType): ValueType {
  if (t.kind === 'memref' || t.kind === 'vector') return c.scalar(t.elem);
  return c.scalar(t);
}

function resultType(c: Ctx, op: Op, k = 0): ValueType {
  return elemOf(c, op.resultTypes[k]!);
}

function noFastMath(op: Op): void {
  const fm = op.attrs.get('fastmath');
  if (fm && !(fm.kind === 'other' && /<none>$/.test(fm.text))) fail(op, `fast-math flags ${fm.kind === 'other' ? fm.text : ''} (the compiler may change the result)`);
}

const bin = (op: KBinOp, a: KVal, b: KVal, type: ValueType): KVal => ({ k: 'bin', op, a, b, type });
const lit = (type: ValueType, value: number | bigint | boolean): KVal => ({ k: 'const', type, value });
const cast = (to: ValueType, a: KVal): KVal => (typeOf(a) === to ? a : { k: 'cast', to, a });
const sel = (c: KVal, a: KVal, b: KVal, type: ValueType): KVal => ({ k: 'select', c, a, b, type });

function unsignedOf(t: ValueType): ValueType {
  return t.startsWith('i') ? (`u${t.slice(1)}` as ValueType) : t;
}

function bitsOf(t: ValueType): number {
  return t === 'bool' ? 1 : Number(t.slice(1));
}

/** Element-wise over lanes: scalars are one lane. */
function lanewise(c: Ctx, op: Op, f: (args: KVal[], lane: number) => KVal): void {
  const ls = op.operands.map((v) => c.lanes(v));
  const n = Math.max(...ls.map((l) => l.length));
  const out: KVal[] = [];
  for (let l = 0; l < n; l++) out.push(f(ls.map((x) => x[x.length === 1 ? 0 : l]!), l));
  if (op.resultTypes[0]!.kind === 'vector') c.bindLanes(op.results[0]!, out);
  else c.bindValue(op.results[0]!, out[0]!);
}

/** A binary integer op: on indices an affine term when it is one, on values a SCHED expression. */
function intBinary(indexRule: ((a: Term, b: Term) => Term | null) | null, valueRule: (a: KVal, b: KVal, t: ValueType, op: Op) => KVal) {
  return (c: Ctx, op: Op): void => {
    if (op.resultTypes[0]!.kind === 'index') {
      const [x, y] = op.operands as [string, string];
      let why = `${op.name} on indices is not affine`;
      if (indexRule) {
        try {
          const t = indexRule(c.index(x), c.index(y));
          if (t !== null) return c.bindIndex(op.results[0]!, t);
        } catch (e) {
          if (!(e instanceof Unsupported)) throw e;
          why = e.message;
        }
      }
      let val: KVal | null = null;
      try {
        val = valueRule(c.value(x), c.value(y), 'i64', op);
      } catch (e) {
        if (!(e instanceof Unsupported)) throw e;
      }
      return c.bindOpaqueIndex(op.results[0]!, why, val);
    }
    const t = resultType(c, op);
    lanewise(c, op, ([a, b]) => valueRule(a!, b!, t, op));
  };
}

/** The constant a value is, if it is one. */
function constOf(v: KVal): bigint | null {
  if (v.k === 'const' && typeof v.value === 'bigint') return v.value;
  if (v.k === 'index' && v.term.parts.length === 0) return v.term.c;
  return null;
}

function minOf(t: ValueType): bigint {
  return -(1n << BigInt(bitsOf(t) - 1));
}

/** The divisor of a division: a nonzero constant, and not −1 where the quotient may overflow. */
function divisor(b: KVal, t: ValueType, op: Op, signed: boolean): bigint {
  const d = constOf(b);
  if (d === null) fail(op, 'division by a value that is not a constant (division by zero is undefined behaviour in MLIR; no obligation for it is generated, so the division is refused)');
  const w = BigInt(bitsOf(t));
  const v = signed ? BigInt.asIntN(Number(w), d) : BigInt.asUintN(Number(w), d);
  if (v === 0n) fail(op, 'division by zero (undefined behaviour)');
  if (signed && v === -1n) fail(op, 'division by -1 (INT_MIN / -1 overflows: undefined behaviour)');
  return v;
}

/** C's truncating quotient from SCHED's Euclidean one (q, r with a = d·q + r, 0 ≤ r < |d|). */
function truncDiv(a: KVal, d: bigint, t: ValueType): KVal {
  const q = bin('/', a, lit(t, d), t);
  const inexactNeg = bin('&&', bin('<', a, lit(t, 0n), t), bin('!=', bin('%', a, lit(t, d), t), lit(t, 0n), t), 'bool');
  // a < 0 and inexact: Euclid rounded away from the truncation by one step toward −∞·sign(d).
  return sel(inexactNeg, bin(d > 0n ? '+' : '-', q, lit(t, 1n), t), q, t);
}

function floatCompare(pred: number, a: KVal, b: KVal): KVal {
  const t = typeOf(a);
  const isNan = (x: KVal): KVal => bin('!=', x, x, t);
  const ord = bin('&&', bin('==', a, a, t), bin('==', b, b, t), 'bool');
  const uno = bin('||', isNan(a), isNan(b), 'bool');
  const nt = (x: KVal): KVal => ({ k: 'un', op: '!', a: x, type: 'bool' });
  // arith.cmpf predicates, in the order of their integer encoding (MLIR 16 CmpFPredicate).
  switch (pred) {
    case 0: return lit('bool', false);
    case 1: return bin('==', a, b, t); // oeq
    case 2: return bin('>', a, b, t); // ogt
    case 3: return bin('>=', a, b, t); // oge
    case 4: return bin('<', a, b, t); // olt
    case 5: return bin('<=', a, b, t); // ole
    case 6: return bin('||', bin('<', a, b, t), bin('>', a, b, t), 'bool'); // one
    case 7: return ord; // ord
    case 8: return bin('||', uno, bin('==', a, b, t), 'bool'); // ueq
    case 9: return nt(bin('<=', a, b, t)); // ugt
    case 10: return nt(bin('<', a, b, t)); // uge
    case 11: return nt(bin('>=', a, b, t)); // ult
    case 12: return nt(bin('>', a, b, t)); // ule
    case 13: return bin('!=', a, b, t); // une
    case 14: return uno; // uno
    case 15: return lit('bool', true);
    default: throw new Unsupported('arith.cmpf', `predicate ${pred}`);
  }
}

const CMPI = ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge'] as const;

function cmpiValue(p: (typeof CMPI)[number], a: KVal, b: KVal, t: ValueType): KVal {
  const u = p.startsWith('u');
  const x = u ? cast(unsignedOf(t), a) : a;
  const y = u ? cast(unsignedOf(t), b) : b;
  const tt = u ? unsignedOf(t) : t;
  const op: KBinOp = p === 'eq' ? '==' : p === 'ne' ? '!=' : p.endsWith('lt') ? '<' : p.endsWith('le') ? '<=' : p.endsWith('gt') ? '>' : '>=';
  return bin(op, x, y, tt);
}

function cmpiIndex(p: (typeof CMPI)[number], a: Term, b: Term): Formula | null {
  switch (p) {
    case 'eq': return eqT(a, b);
    case 'ne': return neT(a, b);
    case 'slt': return ltT(a, b);
    case 'sle': return leT(a, b);
    case 'sgt': return gtT(a, b);
    case 'sge': return geT(a, b);
    default: return null; // unsigned comparisons of indices depend on the sign bit
  }
}

/** maxf/minf as MLIR 16 documents them: NaN if either operand is NaN, −0 < +0. */
function minMaxF(isMax: boolean, a: KVal, b: KVal, t: ValueType): KVal {
  const nan = bin('||', bin('!=', a, a, t), bin('!=', b, b, t), 'bool');
  const better = bin(isMax ? '>' : '<', a, b, t);
  const worse = bin(isMax ? '<' : '>', a, b, t);
  // Equal: ±0 tie broken by the sign (1/−0 = −∞); otherwise a.
  const aNeg = bin('<', bin('/', lit(t, 1), a, t), lit(t, 0), t);
  const tie = sel(aNeg, isMax ? b : a, isMax ? a : b, t);
  return sel(nan, bin('+', a, b, t), sel(better, a, sel(worse, b, tie, t), t), t);
}

// ---------------------------------------------------------------------------------------------
// Vectors

function vectorShape(op: Op, t: MType): readonly number[] {
  if (t.kind !== 'vector') fail(op, `expected a vector type, found ${showType(t)}`);
  if (t.scalable) fail(op, 'scalable vectors');
  return t.shape;
}

function laneCount(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** Lane number → its position in a vector of `shape` (row-major). */
function lanePos(shape: readonly number[], lane: number): number[] {
  const out: number[] = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    out.unshift(lane % shape[d]!);
    lane = Math.floor(lane / shape[d]!);
  }
  return out;
}

/**
 * Per lane of a transfer: the memref index it reads or writes, and whether it is in bounds
 * (permutation maps that select memref dimensions or broadcast, `0`).
 */
function transferLanes(c: Ctx, op: Op, view: View, base: readonly Term[], vshape: readonly number[]): { idx: Term[]; inBounds: Formula }[] {
  const perm = op.attrs.get('permutation_map');
  const map = perm && perm.kind === 'map' ? perm.map : { dims: base.length, syms: 0, results: vshape.map((_, k) => ({ k: 'dim' as const, i: base.length - vshape.length + k })) };
  if (map.results.length !== vshape.length) fail(op, 'permutation map and vector rank differ');
  const ib = op.attrs.get('in_bounds');
  const declared = ib && ib.kind === 'array' ? ib.items.map((x) => x.kind === 'bool' && x.value) : vshape.map(() => false);
  const out: { idx: Term[]; inBounds: Formula }[] = [];
  for (let l = 0; l < laneCount(vshape); l++) {
    const pos = lanePos(vshape, l);
    const idx = [...base];
    let inb: Formula = TRUE;
    map.results.forEach((e, k) => {
      if (e.k === 'const' && e.v === 0n) return; // broadcast along this vector dimension
      if (e.k !== 'dim') fail(op, 'a permutation map result that is not a dimension or 0');
      idx[e.i] = addConst(idx[e.i]!, BigInt(pos[k]!));
      if (!declared[k]) inb = and(inb, ltT(idx[e.i]!, c.extent(view, e.i)));
    });
    out.push({ idx, inBounds: inb });
  }
  return out;
}

/** The lanes of a mask operand (`vector.create_mask`, `constant_mask`) as formulas, or all true. */
function maskLanes(c: Ctx, v: string | undefined, n: number): Formula[] {
  if (v === undefined) return Array.from({ length: n }, () => TRUE);
  return c.lanes(v).map((x) => {
    if (x.k === 'cond') return x.cond;
    if (x.k === 'const' && typeof x.value === 'boolean') return x.value ? TRUE : FALSE;
    throw new Unsupported('vector mask', 'a mask that is not an affine condition per lane (create_mask / constant_mask)');
  });
}

// ---------------------------------------------------------------------------------------------
// The table

const terminator = (parent: string): OpEntry['lower'] => (_c, op) => fail(op, `a terminator outside ${parent}`);

export const OPS: Readonly<Record<string, OpEntry>> = {
  // ----- affine ------------------------------------------------------------------------------
  'affine.for': {
    meaning: 'for iv = max(lower_bound map) to min(upper_bound map) − 1 by step (> 0); iter_args carry values from one iteration to the next and are the results',
    sched: 'a loop; iter_args and results are cells written by the init and each yield',
    lower: (c, op) => {
      const lb = mapAttr(op, 'lower_bound');
      const ub = mapAttr(op, 'upper_bound');
      const lbs = applyMap(c, op, lb, 0);
      const ubs = applyMap(c, op, ub, lb.dims + lb.syms);
      const step = intAttr(op, 'step');
      if (step <= 0n) fail(op, 'a non-positive step');
      c.loop({ band: [{ lbs, ubs, step }], parallel: false, inits: op.operands.slice(lb.dims + lb.syms + ub.dims + ub.syms) });
    },
  },
  'affine.parallel': {
    meaning: 'a band of loops whose iterations may run in any order or at once (bounds: max/min of groups of map results); reductions combine yielded values',
    sched: 'nested `par` loops; reductions are refused',
    lower: (c, op) => {
      const red = op.attrs.get('reductions');
      if (red && red.kind === 'array' && red.items.length > 0) fail(op, 'reductions');
      if (op.results.length > 0) fail(op, 'results');
      const lbm = mapAttr(op, 'lowerBoundsMap');
      const ubm = mapAttr(op, 'upperBoundsMap');
      const lbAll = applyMap(c, op, lbm, 0);
      const ubAll = applyMap(c, op, ubm, lbm.dims + lbm.syms);
      const groups = (name: string): number[] => {
        const a = op.attrs.get(name);
        if (a && a.kind === 'other') {
          const m = /^dense<([^>]*)>/.exec(a.text);
          if (m) {
            const body = m[1]!.trim();
            const vals = body.startsWith('[') ? body.slice(1, -1).split(',').map((x) => Number(x.trim())) : [Number(body)];
            return vals;
          }
        }
        return fail(op, `attribute '${name}' not understood`);
      };
      const steps = denseArray(op, 'steps');
      const lg = groups('lowerBoundsGroups');
      const ug = groups('upperBoundsGroups');
      const n = steps.length;
      const pick = (all: Term[], g: number[], k: number): Term[] => {
        const counts = g.length === 1 ? Array.from({ length: n }, () => g[0]!) : g;
        const start = counts.slice(0, k).reduce((a, b) => a + b, 0);
        return all.slice(start, start + counts[k]!);
      };
      for (let k = 0; k < n; k++) if (steps[k]! <= 0n) fail(op, 'a non-positive step');
      c.loop({ parallel: true, inits: [], band: Array.from({ length: n }, (_, k) => ({ lbs: pick(lbAll, lg, k), ubs: pick(ubAll, ug, k), step: steps[k]! })) });
    },
  },
  'affine.if': {
    meaning: 'runs the then region where the integer set holds, else the else region; results come from the yields',
    sched: '`if` on the affine condition; results are cells',
    lower: (c, op) => {
      const s = attr(op, 'condition');
      if (s.kind !== 'set') fail(op, "'condition' is not an integer set");
      c.branch(setFormula(c, op, s.set, 0));
    },
  },
  'affine.load': {
    meaning: 'reads memref[map(operands)]',
    sched: 'a read of the array at the map’s results (affine in the loop variables and parameters)',
    lower: (c, op) => {
      const view = c.view(op.operands[0]!);
      c.bindValue(op.results[0]!, c.load(view, applyMap(c, op, mapAttr(op, 'map'), 1)));
    },
  },
  'affine.store': {
    meaning: 'writes value to memref[map(operands)]',
    sched: 'an assignment; its annotation is inferred (statement from the location, instance from the accesses)',
    lower: (c, op) => {
      const view = c.view(op.operands[1]!);
      c.store(view, applyMap(c, op, mapAttr(op, 'map'), 2), c.value(op.operands[0]!));
    },
  },
  'affine.vector_load': {
    meaning: 'reads consecutive elements memref[map(operands)] … along the last dimension into a vector',
    sched: 'one read per lane',
    lower: (c, op) => {
      const view = c.view(op.operands[0]!);
      const base = applyMap(c, op, mapAttr(op, 'map'), 1);
      const n = laneCount(vectorShape(op, op.resultTypes[0]!));
      c.bindLanes(op.results[0]!, Array.from({ length: n }, (_, l) => c.load(view, [...base.slice(0, -1), addConst(base[base.length - 1]!, BigInt(l))])));
    },
  },
  'affine.vector_store': {
    meaning: 'writes a vector to consecutive elements along the last dimension',
    sched: 'one assignment per lane',
    lower: (c, op) => {
      const view = c.view(op.operands[1]!);
      const base = applyMap(c, op, mapAttr(op, 'map'), 2);
      c.lanes(op.operands[0]!).forEach((v, l) => c.store(view, [...base.slice(0, -1), addConst(base[base.length - 1]!, BigInt(l))], v, `lane ${l}`));
    },
  },
  'affine.apply': {
    meaning: 'the single result of an affine map applied to index operands',
    sched: 'an index term',
    lower: (c, op) => {
      const r = applyMap(c, op, mapAttr(op, 'map'), 0);
      if (r.length !== 1) fail(op, 'a map with several results');
      c.bindIndex(op.results[0]!, r[0]!);
    },
  },
  'affine.min': {
    meaning: 'the minimum of the map’s results',
    sched: 'min(…) of index terms',
    lower: (c, op) => c.bindIndex(op.results[0]!, min(...applyMap(c, op, mapAttr(op, 'map'), 0))),
  },
  'affine.max': {
    meaning: 'the maximum of the map’s results',
    sched: 'max(…) of index terms',
    lower: (c, op) => c.bindIndex(op.results[0]!, max(...applyMap(c, op, mapAttr(op, 'map'), 0))),
  },
  'affine.dma_start': {
    meaning: 'starts a copy of num_elements contiguous elements (row-major) from src[src map] to dst[dst map]; the tag memref is signalled on completion',
    sched: 'the copy itself, element by element, at the start (dma_wait is then a no-op); only for memrefs of static shape, without stride operands',
    lower: (c, op) => {
      const sm = mapAttr(op, 'src_map');
      const dm = mapAttr(op, 'dst_map');
      const tm = mapAttr(op, 'tag_map');
      const src = c.view(op.operands[0]!);
      const srcIdx = applyMap(c, op, sm, 1);
      let at = 1 + sm.dims + sm.syms;
      const dst = c.view(op.operands[at]!);
      const dstIdx = applyMap(c, op, dm, at + 1);
      at += 1 + dm.dims + dm.syms;
      at += 1 + tm.dims + tm.syms;
      const n = c.index(op.operands[at]!);
      if (op.operands.length > at + 1) fail(op, 'stride operands');
      if (n.parts.length > 0) fail(op, 'a number of elements that is not a constant');
      c.dma(src, srcIdx, dst, dstIdx, n.c);
    },
  },
  'affine.dma_wait': {
    meaning: 'waits for the completion of a dma_start with the same tag',
    sched: 'nothing (the copy was made at dma_start)',
    lower: () => undefined,
  },
  'affine.yield': { meaning: 'ends an affine.for/if/parallel region, giving its values', sched: 'writes the values to the op’s cells', lower: terminator('affine.for/if/parallel') },

  // ----- scf ---------------------------------------------------------------------------------
  'scf.for': {
    meaning: 'for iv = lb to ub − 1 by step (index SSA values; step > 0), with iter_args',
    sched: 'a loop when lb and ub are affine and step a positive constant; iter_args are cells',
    lower: (c, op) => {
      const [lb, ub, st, ...inits] = op.operands as [string, string, string, ...string[]];
      const step = c.index(st);
      if (step.parts.length > 0 || step.c <= 0n) fail(op, 'a step that is not a positive constant');
      c.loop({ band: [{ lbs: [c.index(lb)], ubs: [c.index(ub)], step: step.c }], parallel: false, inits });
    },
  },
  'scf.parallel': {
    meaning: 'a band of parallel loops over index SSA bounds and steps; scf.reduce combines values',
    sched: 'nested `par` loops; reductions are refused',
    lower: (c, op) => {
      if (op.results.length > 0) fail(op, 'reductions');
      const n = (op.operands.length) / 3;
      if (!Number.isInteger(n)) fail(op, 'operands not in three groups');
      const band = Array.from({ length: n }, (_, k) => {
        const s = c.index(op.operands[2 * n + k]!);
        if (s.parts.length > 0 || s.c <= 0n) fail(op, 'a step that is not a positive constant');
        return { lbs: [c.index(op.operands[k]!)], ubs: [c.index(op.operands[n + k]!)], step: s.c };
      });
      c.loop({ parallel: true, inits: [], band });
    },
  },
  'scf.if': {
    meaning: 'runs the then region if the i1 condition holds, else the else region; results from the yields',
    sched: '`if` when the condition is affine (comparisons of indices); on data, its stores become conditional stores a[ι] := select(c, v, a[ι]) (no loop inside), its results cells',
    lower: (c, op) => {
      const f = c.cond(op.operands[0]!);
      if (f === null) c.dataBranch(c.value(op.operands[0]!));
      else c.branch(f);
    },
  },
  'scf.yield': { meaning: 'ends an scf.for/if region, giving its values', sched: 'writes the values to the op’s cells', lower: terminator('scf.for/if') },

  // ----- memref ------------------------------------------------------------------------------
  'memref.load': {
    meaning: 'reads memref[indices]; the indices are index values',
    sched: 'a read; the indices must be affine (arith on loop variables, constants and parameters)',
    lower: (c, op) => c.bindValue(op.results[0]!, c.load(c.view(op.operands[0]!), op.operands.slice(1).map((v) => c.index(v)))),
  },
  'memref.store': {
    meaning: 'writes value to memref[indices]',
    sched: 'an assignment (annotation inferred); the indices must be affine',
    lower: (c, op) => c.store(c.view(op.operands[1]!), op.operands.slice(2).map((v) => c.index(v)), c.value(op.operands[0]!)),
  },
  'memref.alloc': {
    meaning: 'a new buffer of the type’s shape (dynamic extents from the operands), uninitialised',
    sched: '`allocate` over the rest of the block (or up to its dealloc); every cell ⊥',
    lower: (c, op) => allocLike(c, op),
  },
  'memref.alloca': {
    meaning: 'a new stack buffer, freed when the enclosing scope (loop body, function) ends; uninitialised',
    sched: '`allocate` over the rest of the block; one per iteration of a `par` loop',
    lower: (c, op) => allocLike(c, op),
  },
  'memref.dealloc': {
    meaning: 'frees the buffer; any later access is undefined behaviour',
    sched: 'ends the `allocate` scope (a later access is refused as an access outside the scope)',
    lower: (c, op) => c.dealloc(c.view(op.operands[0]!)),
  },
  'memref.dim': {
    meaning: 'the extent of a memref dimension',
    sched: 'the constant extent, or the parameter naming it',
    lower: (c, op) => {
      const d = c.index(op.operands[1]!);
      if (d.parts.length > 0) fail(op, 'a dimension that is not a constant');
      const v = c.view(op.operands[0]!);
      if (d.c < 0n || d.c >= BigInt(v.shape.length)) fail(op, `dimension ${d.c} of a rank-${v.shape.length} memref`);
      c.bindIndex(op.results[0]!, v.shape[Number(d.c)]!);
    },
  },
  'memref.cast': {
    meaning: 'the same buffer with a type that differs in static information',
    sched: 'another name of the same array',
    lower: (c, op) => c.bindView(op.results[0]!, c.view(op.operands[0]!)),
  },
  'memref.subview': {
    meaning: 'a window of a buffer: element i of the view is element offset + stride·i of the source (rank-reducing views drop unit dimensions)',
    sched: 'another name of the same array, indices mapped by offset and stride',
    lower: (c, op) => {
      const src = c.view(op.operands[0]!);
      const segs = denseArray(op, 'operand_segment_sizes');
      let at = 1;
      const dyn = (name: string, count: number): Term[] => {
        const vals = denseArray(op, name);
        if (vals.length !== src.shape.length) fail(op, `'${name}' does not have the source rank`);
        let used = 0;
        const out = vals.map((v) => (v === DYNAMIC ? c.index(op.operands[at + used++]!) : constant(v)));
        if (used !== count) fail(op, `operand counts of '${name}' disagree`);
        at += used;
        return out;
      };
      const offs = dyn('static_offsets', Number(segs[1] ?? 0n));
      const sizes = dyn('static_sizes', Number(segs[2] ?? 0n));
      const strides = dyn('static_strides', Number(segs[3] ?? 0n));
      const rt = op.resultTypes[0]!;
      if (rt.kind !== 'memref') fail(op, 'a result that is not a memref');
      // Rank reduction: drop unit-size dimensions, from the left, until the ranks agree.
      const keep: number[] = sizes.map((_, d) => d);
      let extra = sizes.length - rt.shape.length;
      for (let d = 0; d < sizes.length && extra > 0; d++) {
        const s = sizes[d]!;
        if (s.parts.length === 0 && s.c === 1n && (rt.shape[keep.indexOf(d) - (sizes.length - rt.shape.length - extra)] ?? 1n) === 1n) {
          keep.splice(keep.indexOf(d), 1);
          extra--;
        }
      }
      if (extra > 0) fail(op, 'a rank reduction that drops a dimension whose size is not 1');
      c.bindView(op.results[0]!, {
        array: src.array,
        elem: src.elem,
        shape: keep.map((d) => sizes[d]!),
        at: (idx) => src.at(offs.map((o, d) => {
          const k = keep.indexOf(d);
          return k < 0 ? o : add(o, mulTerm(op, strides[d]!, idx[k]!));
        })),
      });
    },
  },
  'memref.view': {
    meaning: 'a view of a 1-D i8 buffer, from a byte shift, as a memref of another element type',
    sched: 'refused: its elements are the buffer’s bytes read as another type, and a SCHED array has one element type',
    lower: (_c, op) => fail(op, 'a view of bytes as another element type (SCHED arrays are typed; no bit casts)'),
  },
  'memref.reinterpret_cast': {
    meaning: 'a view of the source’s underlying buffer (from its base, ignoring the source’s own offset) with the given offset, sizes and strides',
    sched: 'another name of the same array: element idx is the root’s element offset + Σ idx·stride in row-major order (static shapes)',
    lower: (c, op) => {
      const src = c.view(op.operands[0]!);
      let at = 1;
      const dyn = (name: string, rank: number | null): Term[] => {
        const vals = denseArray(op, name);
        if (rank !== null && vals.length !== rank) fail(op, `'${name}' does not have the result rank`);
        return vals.map((v) => (v === DYNAMIC ? c.index(op.operands[at++]!) : constant(v)));
      };
      const [off] = dyn('static_offsets', 1) as [Term];
      const rt = op.resultTypes[0]!;
      if (rt.kind !== 'memref') fail(op, 'a result that is not a memref');
      const sizes = dyn('static_sizes', rt.shape.length);
      const strides = dyn('static_strides', rt.shape.length);
      c.bindView(op.results[0]!, c.linearView(src, off, sizes, strides));
    },
  },
  'memref.collapse_shape': {
    meaning: 'the same contiguous buffer with groups of dimensions merged (row-major)',
    sched: 'another name of the same array, indices re-linearised (the source must be contiguous)',
    lower: (c, op) => reshape(c, op),
  },
  'memref.expand_shape': {
    meaning: 'the same contiguous buffer with dimensions split (row-major)',
    sched: 'another name of the same array, indices re-linearised (the source must be contiguous)',
    lower: (c, op) => reshape(c, op),
  },
  'memref.copy': {
    meaning: 'copies every element of the source memref into the target memref (same shape)',
    sched: 'loops over the shape with one assignment each',
    lower: (c, op) => {
      const from = c.view(op.operands[0]!);
      const to = c.view(op.operands[1]!);
      c.copy(from, to, from.shape);
    },
  },

  // ----- func --------------------------------------------------------------------------------
  'func.call': {
    meaning: 'calls a function; its body runs with the arguments bound (memrefs are passed by reference)',
    sched: 'the body inlined (a function without a body, or a recursive one, is refused)',
    lower: (c, op) => {
      const callee = attr(op, 'callee');
      if (callee.kind !== 'symbol') fail(op, "'callee' is not a symbol");
      c.call(callee.name, op.operands);
    },
  },
  'func.return': { meaning: 'returns from the function', sched: 'the end of the body (returned values are refused)', lower: terminator('func.func') },

  // ----- arith -------------------------------------------------------------------------------
  'arith.constant': {
    meaning: 'a constant (integer, index, float, i1, or a splat vector)',
    sched: 'a literal of the type (an index constant is an index term)',
    lower: (c, op) => {
      const a = attr(op, 'value');
      const t = op.resultTypes[0]!;
      if (t.kind === 'index') {
        if (a.kind !== 'int') fail(op, 'an index constant that is not an integer');
        return c.bindIndex(op.results[0]!, constant(a.value));
      }
      if (t.kind === 'vector') {
        const m = a.kind === 'other' ? /^dense<([^[\]<>,]+)>/.exec(a.text) : null;
        if (!m) fail(op, 'a vector constant that is not a splat');
        const et = c.scalar(t.elem);
        const v = scalarLiteral(op, et, m[1]!.trim());
        return c.bindLanes(op.results[0]!, Array.from({ length: laneCount(vectorShape(op, t)) }, () => v));
      }
      const vt = c.scalar(t);
      if (a.kind === 'int') return c.bindValue(op.results[0]!, lit(vt, vt === 'bool' ? a.value !== 0n : BigInt.asIntN(bitsOf(vt), a.value)), vt === 'bool' ? (a.value !== 0n ? TRUE : FALSE) : null);
      if (a.kind === 'bool') return c.bindValue(op.results[0]!, lit('bool', a.value), a.value ? TRUE : FALSE);
      if (a.kind === 'float') return c.bindValue(op.results[0]!, lit(vt, vt === 'f32' ? Math.fround(a.value) : a.value));
      return fail(op, 'a constant of an unsupported kind');
    },
  },
  'arith.addi': { meaning: 'integer addition, wrapping', sched: '+ (wraps); on indices an affine sum', lower: intBinary((a, b) => add(a, b), (a, b, t) => bin('+', a, b, t)) },
  'arith.subi': { meaning: 'integer subtraction, wrapping', sched: '- (wraps); on indices an affine difference', lower: intBinary((a, b) => sub(a, b), (a, b, t) => bin('-', a, b, t)) },
  'arith.muli': {
    meaning: 'integer multiplication, wrapping',
    sched: '* (wraps); on indices only by a constant (affine)',
    lower: (c, op) => intBinary((a, b) => (b.parts.length === 0 ? scale(a, b.c) : a.parts.length === 0 ? scale(b, a.c) : c.product(a, b)), (a, b, t) => bin('*', a, b, t))(c, op),
  },
  'arith.divsi': {
    meaning: 'signed division rounding toward zero; x / 0 and INT_MIN / -1 are undefined behaviour',
    sched: 'by a constant other than 0 and -1 only: the truncating quotient written with SCHED’s Euclidean / and %',
    lower: intBinary(null, (a, b, t, op) => truncDiv(a, divisor(b, t, op, true), t)),
  },
  'arith.divui': {
    meaning: 'unsigned division; x / 0 is undefined behaviour',
    sched: 'by a nonzero constant: iN(uN(a) / uN(c))',
    lower: intBinary(null, (a, b, t, op) => cast(t, bin('/', cast(unsignedOf(t), a), lit(unsignedOf(t), divisor(b, t, op, false)), unsignedOf(t)))),
  },
  'arith.remsi': {
    meaning: 'signed remainder with the sign of the dividend; x rem 0 is undefined behaviour',
    sched: 'by a nonzero constant: the Euclidean remainder, minus |c| when the dividend is negative and the remainder nonzero',
    lower: intBinary(null, (a, b, t, op) => {
      const d = divisor(b, t, op, true);
      const r = bin('%', a, lit(t, d), t);
      const abs = d < 0n ? -d : d;
      return sel(bin('&&', bin('<', a, lit(t, 0n), t), bin('!=', r, lit(t, 0n), t), 'bool'), bin('-', r, lit(t, BigInt.asIntN(bitsOf(t), abs)), t), r, t);
    }),
  },
  'arith.remui': {
    meaning: 'unsigned remainder; x rem 0 is undefined behaviour',
    sched: 'by a nonzero constant: iN(uN(a) % uN(c))',
    lower: intBinary(null, (a, b, t, op) => cast(t, bin('%', cast(unsignedOf(t), a), lit(unsignedOf(t), divisor(b, t, op, false)), unsignedOf(t)))),
  },
  'arith.floordivsi': {
    meaning: 'signed division rounding toward −∞; x / 0 and INT_MIN / -1 are undefined behaviour',
    sched: 'on indices by a positive constant: ⌊t / c⌋; on values by a constant other than 0 and -1',
    lower: intBinary((a, b) => (b.parts.length === 0 && b.c > 0n ? floor(a, b.c) : null), (a, b, t, op) => {
      const d = divisor(b, t, op, true);
      const q = bin('/', a, lit(t, d), t);
      return d > 0n ? q : sel(bin('!=', bin('%', a, lit(t, d), t), lit(t, 0n), t), bin('-', q, lit(t, 1n), t), q, t);
    }),
  },
  'arith.ceildivsi': {
    meaning: 'signed division rounding toward +∞; x / 0 and INT_MIN / -1 are undefined behaviour',
    sched: 'on indices by a positive constant: ⌈t / c⌉; on values by a constant other than 0 and -1',
    lower: intBinary((a, b) => (b.parts.length === 0 && b.c > 0n ? ceil(a, b.c) : null), (a, b, t, op) => {
      const d = divisor(b, t, op, true);
      const q = bin('/', a, lit(t, d), t);
      return d < 0n ? q : sel(bin('!=', bin('%', a, lit(t, d), t), lit(t, 0n), t), bin('+', q, lit(t, 1n), t), q, t);
    }),
  },
  'arith.minsi': { meaning: 'signed minimum', sched: 'min (on indices a min term)', lower: intBinary((a, b) => min(a, b), (a, b, t) => ({ k: 'call', fn: 'min', args: [a, b], type: t })) },
  'arith.maxsi': { meaning: 'signed maximum', sched: 'max (on indices a max term)', lower: intBinary((a, b) => max(a, b), (a, b, t) => ({ k: 'call', fn: 'max', args: [a, b], type: t })) },
  'arith.minui': { meaning: 'unsigned minimum', sched: 'iN(min(uN(a), uN(b)))', lower: intBinary(null, (a, b, t) => cast(t, { k: 'call', fn: 'min', args: [cast(unsignedOf(t), a), cast(unsignedOf(t), b)], type: unsignedOf(t) })) },
  'arith.maxui': { meaning: 'unsigned maximum', sched: 'iN(max(uN(a), uN(b)))', lower: intBinary(null, (a, b, t) => cast(t, { k: 'call', fn: 'max', args: [cast(unsignedOf(t), a), cast(unsignedOf(t), b)], type: unsignedOf(t) })) },
  'arith.andi': {
    meaning: 'bitwise and of two integers',
    sched: 'on i1: && (on an affine condition: its conjunction); on wider integers refused',
    lower: (c, op) => boolOp(c, op, '&&'),
  },
  'arith.ori': {
    meaning: 'bitwise or of two integers',
    sched: 'on i1: || ; on wider integers refused',
    lower: (c, op) => boolOp(c, op, '||'),
  },
  'arith.xori': {
    meaning: 'bitwise exclusive or',
    sched: 'on i1: != (with true: negation); with the constant -1 on integers: -a - 1; otherwise refused',
    lower: (c, op) => {
      const t = resultType(c, op);
      if (t !== 'bool') {
        lanewise(c, op, ([a, b]) => {
          const k = constOf(b!) ?? constOf(a!);
          if (k === null || BigInt.asIntN(bitsOf(t), k) !== -1n) fail(op, `on ${t} other than with -1`);
          const x = constOf(b!) !== null ? a! : b!;
          return bin('-', { k: 'un', op: '-', a: x, type: t }, lit(t, 1n), t);
        });
        return;
      }
      const [x, y] = op.operands as [string, string];
      const fx = c.cond(x);
      const fy = c.cond(y);
      const f = fx !== null && fy !== null ? or(and(fx, not(fy)), and(not(fx), fy)) : null;
      if (op.resultTypes[0]!.kind === 'vector') return lanewise(c, op, ([a, b]) => bin('!=', a!, b!, 'bool'));
      c.bindValue(op.results[0]!, f ? { k: 'cond', cond: f } : bin('!=', c.value(x), c.value(y), 'bool'), f);
    },
  },
  'arith.shli': {
    meaning: 'shift left; a shift by the bit width or more is poison',
    sched: 'by a constant k below the width: a * 2^k (wraps); otherwise refused',
    lower: intBinary((a, b) => (b.parts.length === 0 && b.c >= 0n && b.c < 63n ? scale(a, 1n << b.c) : null), (a, b, t, op) => bin('*', a, lit(t, BigInt.asIntN(bitsOf(t), 1n << shiftOf(b, t, op))), t)),
  },
  'arith.shrsi': {
    meaning: 'arithmetic shift right; by the bit width or more is poison',
    sched: 'by a constant k: a / 2^k (Euclidean = floor for a positive divisor)',
    lower: intBinary((a, b) => (b.parts.length === 0 && b.c >= 0n && b.c < 63n ? floor(a, 1n << b.c) : null), (a, b, t, op) => {
      const k = shiftOf(b, t, op);
      return k === BigInt(bitsOf(t) - 1) ? sel(bin('<', a, lit(t, 0n), t), lit(t, -1n), lit(t, 0n), t) : bin('/', a, lit(t, 1n << k), t);
    }),
  },
  'arith.shrui': {
    meaning: 'logical shift right; by the bit width or more is poison',
    sched: 'by a constant k: iN(uN(a) / 2^k)',
    lower: intBinary(null, (a, b, t, op) => cast(t, bin('/', cast(unsignedOf(t), a), lit(unsignedOf(t), 1n << shiftOf(b, t, op)), unsignedOf(t)))),
  },
  'arith.cmpi': {
    meaning: 'integer comparison (eq ne slt sle sgt sge ult ule ugt uge)',
    sched: 'on indices an affine condition (signed predicates); on values a comparison (unsigned ones through uN casts)',
    lower: (c, op) => {
      const p = CMPI[Number(intAttr(op, 'predicate'))];
      if (p === undefined) fail(op, 'an unknown predicate');
      const [x, y] = op.operands as [string, string];
      if (op.operandTypes[0]!.kind === 'index') {
        let f: Formula | null = null;
        try {
          f = cmpiIndex(p, c.index(x), c.index(y));
        } catch (e) {
          if (!(e instanceof Unsupported)) throw e;
        }
        if (f !== null) return c.bindValue(op.results[0]!, { k: 'cond', cond: f }, f);
        return c.bindValue(op.results[0]!, cmpiValue(p, c.value(x), c.value(y), 'i64'));
      }
      const t = elemOf(c, op.operandTypes[0]!);
      if (t === 'bool' && p !== 'eq' && p !== 'ne') fail(op, `predicate ${p} on i1`);
      lanewise(c, op, ([a, b]) => (t === 'bool' ? bin(p === 'eq' ? '==' : '!=', a!, b!, 'bool') : cmpiValue(p, a!, b!, t)));
    },
  },
  'arith.cmpf': {
    meaning: 'float comparison: ordered predicates are false on NaN, unordered ones true',
    sched: 'comparisons with NaN tests (x != x)',
    lower: (c, op) => lanewise(c, op, ([a, b]) => floatCompare(Number(intAttr(op, 'predicate')), a!, b!)),
  },
  'arith.select': {
    meaning: 'the second operand where the i1 condition holds, else the third',
    sched: 'select(c, a, b) (its operands are values already computed, so SCHED’s eager select reads nothing more)',
    lower: (c, op) => {
      const t = resultType(c, op);
      if (op.resultTypes[0]!.kind === 'index') {
        const f = c.cond(op.operands[0]!);
        try {
          if (f !== null) return c.bindIndex(op.results[0]!, selectTerm(f, c.index(op.operands[1]!), c.index(op.operands[2]!)));
        } catch (e) {
          if (!(e instanceof Unsupported)) throw e;
        }
        return c.bindOpaqueIndex(op.results[0]!, 'arith.select of indices on a condition that depends on data', null);
      }
      lanewise(c, op, ([k, a, b]) => sel(k!, a!, b!, t));
    },
  },
  'arith.addf': { meaning: 'IEEE addition', sched: '+', lower: floatBinary('+') },
  'arith.subf': { meaning: 'IEEE subtraction', sched: '-', lower: floatBinary('-') },
  'arith.mulf': { meaning: 'IEEE multiplication', sched: '*', lower: floatBinary('*') },
  'arith.divf': { meaning: 'IEEE division', sched: '/', lower: floatBinary('/') },
  'arith.negf': {
    meaning: 'IEEE negation (flips the sign bit)',
    sched: 'unary -',
    lower: (c, op) => {
      noFastMath(op);
      const t = resultType(c, op);
      lanewise(c, op, ([a]) => ({ k: 'un', op: '-', a: a!, type: t }));
    },
  },
  'arith.maxf': {
    meaning: 'maximum; NaN if either operand is NaN; −0 < +0 (MLIR 16 documentation; its LLVM lowering is maxnum, which differs on NaN)',
    sched: 'a select on NaN tests, the comparison, and the sign of zero (1/x < 0)',
    lower: (c, op) => {
      noFastMath(op);
      const t = resultType(c, op);
      lanewise(c, op, ([a, b]) => minMaxF(true, a!, b!, t));
    },
  },
  'arith.minf': {
    meaning: 'minimum; NaN if either operand is NaN; −0 < +0 (MLIR 16 documentation; its LLVM lowering is minnum, which differs on NaN)',
    sched: 'a select on NaN tests, the comparison, and the sign of zero',
    lower: (c, op) => {
      noFastMath(op);
      const t = resultType(c, op);
      lanewise(c, op, ([a, b]) => minMaxF(false, a!, b!, t));
    },
  },
  'arith.extf': { meaning: 'exact float widening', sched: 'a cast f64(x)', lower: (c, op) => castOp(c, op, (a, t) => cast(t, a)) },
  'arith.truncf': { meaning: 'float narrowing, rounded to nearest even', sched: 'a cast f32(x)', lower: (c, op) => castOp(c, op, (a, t) => cast(t, a)) },
  'arith.extsi': {
    meaning: 'sign extension',
    sched: 'iM(x) (keeps the signed value); from i1: select(x, -1, 0)',
    lower: (c, op) => castOp(c, op, (a, t) => (typeOf(a) === 'bool' ? sel(a, lit(t, -1n), lit(t, 0n), t) : cast(t, a))),
  },
  'arith.extui': {
    meaning: 'zero extension',
    sched: 'iM(uN(x)); from i1: 1 or 0',
    lower: (c, op) => castOp(c, op, (a, t) => (typeOf(a) === 'bool' ? cast(t, a) : cast(t, cast(unsignedOf(typeOf(a)), a)))),
  },
  'arith.trunci': { meaning: 'integer truncation (keeps the low bits)', sched: 'iM(x) (wraps); to i1: the low bit, x % 2 != 0', lower: (c, op) => castOp(c, op, (a, t) => (t === 'bool' ? bin('!=', bin('%', a, lit(typeOf(a), 2n), typeOf(a)), lit(typeOf(a), 0n), typeOf(a)) : cast(t, a))) },
  'arith.sitofp': { meaning: 'signed integer to float, rounded to nearest even', sched: 'fN(x)', lower: (c, op) => castOp(c, op, (a, t) => cast(t, typeOf(a) === 'bool' ? sel(a, lit('i8', -1n), lit('i8', 0n), 'i8') : a)) },
  'arith.uitofp': { meaning: 'unsigned integer to float, rounded to nearest even', sched: 'fN(uN(x))', lower: (c, op) => castOp(c, op, (a, t) => cast(t, typeOf(a) === 'bool' ? a : cast(unsignedOf(typeOf(a)), a))) },
  'arith.index_cast': {
    meaning: 'index to integer (truncating to the width) or integer to index (sign-extending)',
    sched: 'to an integer: iN(index term); to an index: the value, affine only if it was an index',
    lower: (c, op) => {
      const from = op.operandTypes[0]!;
      const to = op.resultTypes[0]!;
      if (to.kind === 'index') {
        const v = c.value(op.operands[0]!);
        return c.bindOpaqueIndex(op.results[0]!, 'an index computed from a value read in memory (not static control)', cast('i64', v));
      }
      if (from.kind !== 'index') fail(op, 'vectors of indices');
      c.bindValue(op.results[0]!, cast(c.scalar(to), c.value(op.operands[0]!)));
    },
  },
  'math.sqrt': { meaning: 'IEEE square root (correctly rounded)', sched: 'sqrt', lower: floatUnary('sqrt') },
  'math.absf': { meaning: 'float absolute value', sched: 'abs', lower: floatUnary('abs') },
  'math.floor': { meaning: 'round toward −∞', sched: 'floor', lower: floatUnary('floor') },
  'math.ceil': { meaning: 'round toward +∞', sched: 'ceil', lower: floatUnary('ceil') },
  'math.exp': { meaning: 'e^x (the platform libm; not correctly rounded)', sched: 'exp (uninterpreted in SMT)', lower: floatUnary('exp') },
  'math.log': { meaning: 'natural logarithm (platform libm)', sched: 'log (uninterpreted in SMT)', lower: floatUnary('log') },
  'math.powf': { meaning: 'x^y (platform libm)', sched: 'pow (uninterpreted in SMT)', lower: (c, op) => { noFastMath(op); const t = resultType(c, op); lanewise(c, op, ([a, b]) => ({ k: 'call', fn: 'pow', args: [a!, b!], type: t })); } },

  // ----- vector ------------------------------------------------------------------------------
  'vector.transfer_read': {
    meaning: 'reads a vector from memref[indices] along the permutation map (0 broadcasts); lanes outside the memref (not declared in_bounds) or masked off get the padding value',
    sched: 'one read per lane; a lane that may be outside or masked is a cell written under `if` (read) / `else` (padding), so no read is made that MLIR does not make',
    lower: (c, op) => {
      const view = c.view(op.operands[0]!);
      const rank = view.shape.length;
      const base = op.operands.slice(1, 1 + rank).map((v) => c.index(v));
      const pad = c.value(op.operands[1 + rank]!);
      const vshape = vectorShape(op, op.resultTypes[0]!);
      const lanes = transferLanes(c, op, view, base, vshape);
      const mask = maskLanes(c, op.operands[2 + rank], lanes.length);
      c.bindLanes(op.results[0]!, lanes.map((l, k) => c.guardedLoad(view, l.idx, and(l.inBounds, mask[k]!), pad)));
    },
  },
  'vector.transfer_write': {
    meaning: 'writes a vector to memref[indices] along the permutation map; lanes outside the memref or masked off are not written',
    sched: 'one assignment per lane, under `if` when the lane may be outside or masked',
    lower: (c, op) => {
      const vals = c.lanes(op.operands[0]!);
      const view = c.view(op.operands[1]!);
      const rank = view.shape.length;
      const base = op.operands.slice(2, 2 + rank).map((v) => c.index(v));
      const vshape = vectorShape(op, op.operandTypes[0]!);
      const lanes = transferLanes(c, op, view, base, vshape);
      const mask = maskLanes(c, op.operands[2 + rank], lanes.length);
      lanes.forEach((l, k) => c.guardedStore(view, l.idx, vals[k]!, and(l.inBounds, mask[k]!), `lane ${k}`));
    },
  },
  'vector.load': {
    meaning: 'reads consecutive elements along the last dimension into a vector',
    sched: 'one read per lane',
    lower: (c, op) => {
      const view = c.view(op.operands[0]!);
      const base = op.operands.slice(1).map((v) => c.index(v));
      const n = laneCount(vectorShape(op, op.resultTypes[0]!));
      c.bindLanes(op.results[0]!, Array.from({ length: n }, (_, l) => c.load(view, [...base.slice(0, -1), addConst(base[base.length - 1]!, BigInt(l))])));
    },
  },
  'vector.store': {
    meaning: 'writes a vector to consecutive elements along the last dimension',
    sched: 'one assignment per lane',
    lower: (c, op) => {
      const view = c.view(op.operands[1]!);
      const base = op.operands.slice(2).map((v) => c.index(v));
      c.lanes(op.operands[0]!).forEach((v, l) => c.store(view, [...base.slice(0, -1), addConst(base[base.length - 1]!, BigInt(l))], v, `lane ${l}`));
    },
  },
  'vector.broadcast': {
    meaning: 'a vector with every lane equal to a scalar (or a lower-rank vector repeated)',
    sched: 'the same value in every lane',
    lower: (c, op) => {
      const src = c.lanes(op.operands[0]!);
      const n = laneCount(vectorShape(op, op.resultTypes[0]!));
      if (n % src.length !== 0) fail(op, 'a broadcast of a vector whose length does not divide the result');
      c.bindLanes(op.results[0]!, Array.from({ length: n }, (_, l) => src[l % src.length]!));
    },
  },
  'vector.splat': {
    meaning: 'a vector with every lane equal to the scalar',
    sched: 'the same value in every lane',
    lower: (c, op) => c.bindLanes(op.results[0]!, Array.from({ length: laneCount(vectorShape(op, op.resultTypes[0]!)) }, () => c.value(op.operands[0]!))),
  },
  'vector.reduction': {
    meaning: 'combines the lanes (and the optional accumulator); for floats MLIR 16 lowers add/mul to LLVM’s ordered reductions starting from +0.0 / 1.0',
    sched: 'add and mul: ((start op v0) op v1) …; integer min/max: min/max; float min/max refused',
    lower: (c, op) => {
      const a = attr(op, 'kind');
      const kind = a.kind === 'other' ? /<(\w+)>/.exec(a.text)?.[1] : undefined;
      const t = resultType(c, op);
      const lanes = c.lanes(op.operands[0]!);
      const float = t === 'f32' || t === 'f64';
      let acc: KVal;
      let rest = lanes;
      const withAcc = op.operands.length > 1;
      switch (kind) {
        case 'add': case 'mul': {
          const o = kind === 'add' ? '+' : '*';
          if (withAcc) acc = c.value(op.operands[1]!);
          else if (float) acc = lit(t, kind === 'add' ? 0 : 1);
          else { acc = lanes[0]!; rest = lanes.slice(1); }
          for (const l of rest) acc = bin(o, acc, l, t);
          break;
        }
        case 'minsi': case 'maxsi': case 'minui': case 'maxui': {
          if (float) fail(op, `kind ${kind} on floats`);
          const u = kind.endsWith('ui');
          const fn = kind.startsWith('min') ? 'min' : 'max';
          const tt = u ? unsignedOf(t) : t;
          acc = withAcc ? cast(tt, c.value(op.operands[1]!)) : cast(tt, lanes[0]!);
          for (const l of withAcc ? lanes : lanes.slice(1)) acc = { k: 'call', fn, args: [acc, cast(tt, l)], type: tt };
          acc = cast(t, acc);
          break;
        }
        default:
          return fail(op, `kind ${kind ?? '?'}`);
      }
      c.bindValue(op.results[0]!, acc);
    },
  },
  'vector.extractelement': {
    meaning: 'one lane of a 1-D vector',
    sched: 'that lane (its position must be a constant)',
    lower: (c, op) => {
      const lanes = c.lanes(op.operands[0]!);
      const p = op.operands.length > 1 ? c.index(op.operands[1]!) : constant(0n);
      if (p.parts.length > 0 || p.c < 0n || p.c >= BigInt(lanes.length)) fail(op, 'a position that is not a constant lane');
      c.bindValue(op.results[0]!, lanes[Number(p.c)]!);
    },
  },
  'vector.insertelement': {
    meaning: 'a 1-D vector with one lane replaced',
    sched: 'the lanes, one replaced (its position must be a constant)',
    lower: (c, op) => {
      const lanes = [...c.lanes(op.operands[1]!)];
      const p = op.operands.length > 2 ? c.index(op.operands[2]!) : constant(0n);
      if (p.parts.length > 0 || p.c < 0n || p.c >= BigInt(lanes.length)) fail(op, 'a position that is not a constant lane');
      lanes[Number(p.c)] = c.value(op.operands[0]!);
      c.bindLanes(op.results[0]!, lanes);
    },
  },
  'vector.create_mask': {
    meaning: 'a mask whose lane (i1, …) is set where every coordinate is below the corresponding operand',
    sched: 'per lane an affine condition',
    lower: (c, op) => {
      const shape = vectorShape(op, op.resultTypes[0]!);
      const bounds = op.operands.map((v) => c.index(v));
      c.bindLanes(op.results[0]!, Array.from({ length: laneCount(shape) }, (_, l) => {
        const pos = lanePos(shape, l);
        return { k: 'cond', cond: andAll(pos.map((p, d) => gtT(bounds[d]!, constant(BigInt(p))))) } as KVal;
      }));
    },
  },
  'vector.constant_mask': {
    meaning: 'a mask set on the leading box given by mask_dim_sizes',
    sched: 'per lane true or false',
    lower: (c, op) => {
      const shape = vectorShape(op, op.resultTypes[0]!);
      const a = attr(op, 'mask_dim_sizes');
      const sizes = a.kind === 'array' ? a.items.map((x) => (x.kind === 'int' ? Number(x.value) : 0)) : [];
      c.bindLanes(op.results[0]!, Array.from({ length: laneCount(shape) }, (_, l) => {
        const on = lanePos(shape, l).every((p, d) => p < (sizes[d] ?? 0));
        return { k: 'cond', cond: on ? TRUE : FALSE } as KVal;
      }));
    },
  },
};

function scalarLiteral(op: Op, t: ValueType, text: string): KVal {
  if (t === 'bool') return lit('bool', text === 'true' || text === '1');
  if (t === 'f32' || t === 'f64') {
    const v = t === 'f32' ? decimalToF32(text) : Number(text);
    if (Number.isNaN(v) && !/nan/i.test(text)) fail(op, `the constant ${text}`);
    return lit(t, v);
  }
  if (!/^-?\d+$/.test(text)) fail(op, `the constant ${text}`);
  return lit(t, BigInt(text));
}

function allocLike(c: Ctx, op: Op): void {
  const t = op.resultTypes[0]!;
  if (t.kind !== 'memref') fail(op, 'a result that is not a memref');
  if (t.layout !== null) fail(op, 'a memref with a layout');
  let k = 0;
  const dims = t.shape.map((d) => (d === null ? c.index(op.operands[k++] ?? fail(op, 'missing dynamic size')) : constant(d)));
  const v = c.alloc(c.scalar(t.elem), dims, t);
  c.bindView(op.results[0]!, v);
}

function reshape(c: Ctx, op: Op): void {
  const src = c.view(op.operands[0]!);
  if (!src.contiguous) fail(op, 'a source that is not contiguous (a window of a buffer)');
  const rt = op.resultTypes[0]!;
  if (rt.kind !== 'memref' || rt.shape.some((d) => d === null)) fail(op, 'a result of dynamic shape');
  const sizes = rt.shape.map((d) => constant(d!));
  const strides: Term[] = [];
  let acc = 1n;
  for (let d = sizes.length - 1; d >= 0; d--) {
    strides.unshift(constant(acc));
    acc *= rt.shape[d]!;
  }
  c.bindView(op.results[0]!, c.linearView(src, constant(0n), sizes, strides));
}

function mulTerm(op: Op, a: Term, b: Term): Term {
  if (a.parts.length === 0) return scale(b, a.c);
  if (b.parts.length === 0) return scale(a, b.c);
  return fail(op, 'a stride and an index that are both not constant');
}

function selectTerm(f: Formula, a: Term, b: Term): Term {
  return a.key === b.key ? a : selectT(f, a, b);
}

function shiftOf(b: KVal, t: ValueType, op: Op): bigint {
  const k = constOf(b);
  if (k === null) fail(op, 'a shift by a value that is not a constant');
  if (k < 0n || k >= BigInt(bitsOf(t))) fail(op, `a shift by ${k} on ${t} (poison)`);
  return k;
}

function boolOp(c: Ctx, op: Op, o: '&&' | '||'): void {
  const t = resultType(c, op);
  if (t !== 'bool') fail(op, `on ${t} (SCHED has no bitwise operations)`);
  if (op.resultTypes[0]!.kind === 'vector') return lanewise(c, op, ([a, b]) => bin(o, a!, b!, 'bool'));
  const [x, y] = op.operands as [string, string];
  const fx = c.cond(x);
  const fy = c.cond(y);
  const f = fx !== null && fy !== null ? (o === '&&' ? and(fx, fy) : or(fx, fy)) : null;
  c.bindValue(op.results[0]!, f ? { k: 'cond', cond: f } : bin(o, c.value(x), c.value(y), 'bool'), f);
}

function floatBinary(o: KBinOp): OpEntry['lower'] {
  return (c, op) => {
    noFastMath(op);
    const t = resultType(c, op);
    lanewise(c, op, ([a, b]) => bin(o, a!, b!, t));
  };
}

function floatUnary(fn: 'sqrt' | 'abs' | 'floor' | 'ceil' | 'exp' | 'log'): OpEntry['lower'] {
  return (c, op) => {
    noFastMath(op);
    const t = resultType(c, op);
    lanewise(c, op, ([a]) => ({ k: 'call', fn, args: [a!], type: t }));
  };
}

function castOp(c: Ctx, op: Op, f: (a: KVal, t: ValueType) => KVal): void {
  const t = resultType(c, op);
  lanewise(c, op, ([a]) => f(a!, t));
}

/** Ops whose translation lives in the lowering itself (regions, terminators, the function). */
export const STRUCTURAL = ['builtin.module', 'func.func'];

export function opEntry(name: string): OpEntry | undefined {
  return Object.prototype.hasOwnProperty.call(OPS, name) ? OPS[name] : undefined;
}


/** The table as docs/mlir.md prints it (test/mlir-frontend.test.ts keeps the two equal). */
export function opsTableMarkdown(): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    '| op | meaning in MLIR 16 | translation |',
    '| --- | --- | --- |',
    ...Object.entries(OPS).map(([k, e]) => `| \`${k}\` | ${esc(e.meaning)} | ${esc(e.sched)} |`),
  ].join('\n');
}
