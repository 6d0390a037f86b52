// The generator side of `sched fuzz --compiler mlir`: random static-control affine functions and
// random mlir-opt 16 pass pipelines with random options, their MLIR text (with a corpus header,
// docs/mlir.md § Corpus files), and the shrinking steps of both.
//
// A program is a list of loop nests over static-shape memref arguments (and local buffers filled
// before they are read): affine.for with max/min bounds, non-unit steps and bounds on outer
// induction variables and an index parameter; affine.if guards; stores whose values are
// expressions over loads, constants, induction variables and a scalar argument; in-place updates,
// reductions, accumulators in 0-d or 1-element memrefs, several stores to one cell. Every access is
// in bounds by construction: array shapes are computed from the accesses (interval arithmetic over
// the iteration domain at the parameter's value), and a subscript that could be negative is shifted.
// Integer programs use i32 (wrapping arithmetic: exact and defined); float programs f64 without
// pipelines that reassociate reductions (vectorize-reductions, parallel-reductions), so that any
// difference between source and output is a miscompilation.

export type Elem = 'i32' | 'f64';

/** sum of coef * var + c, over induction variables (dims) and the parameter (a symbol). */
export interface Aff {
  readonly terms: readonly (readonly [string, number])[];
  readonly c: number;
}

export type Val =
  | { readonly k: 'load'; readonly array: string; readonly idx: readonly Aff[] }
  | { readonly k: 'const'; readonly v: number }
  | { readonly k: 'iv'; readonly iv: string }
  | { readonly k: 'scalar' }
  | { readonly k: 'bin'; readonly op: 'add' | 'sub' | 'mul' | 'max' | 'min'; readonly a: Val; readonly b: Val };

export type Stmt =
  | {
      readonly k: 'for';
      readonly iv: string;
      readonly lb: readonly Aff[];
      readonly ub: readonly Aff[];
      readonly step: number;
      readonly body: readonly Stmt[];
      /** A loop of the fill nest of a local buffer: its upper bound is the buffer's extent DIM (ub is ignored). */
      readonly fill?: { readonly array: string; readonly dim: number };
    }
  | { readonly k: 'if'; readonly conds: readonly { readonly aff: Aff; readonly eq: boolean }[]; readonly then: readonly Stmt[]; readonly else: readonly Stmt[] | null }
  | { readonly k: 'store'; readonly array: string; readonly idx: readonly Aff[]; readonly value: Val };

export interface ArrayDecl {
  readonly name: string;
  readonly rank: number;
  /** A local buffer (memref.alloc in the function, filled by the first nest before any read). */
  readonly local: boolean;
  /** Extra cells beyond the largest subscript (never touched by a correct compilation). */
  readonly slack: readonly number[];
}

export interface Program {
  readonly elem: Elem;
  readonly arrays: readonly ArrayDecl[];
  /** The index parameter %N and the value it is run at, or null. */
  readonly param: { readonly name: string; readonly value: number } | null;
  readonly scalar: boolean;
  readonly body: readonly Stmt[];
}

// ---------------------------------------------------------------------------------------------
// Randomness

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = (seed ^ 0x9e3779b9) >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  int(lo: number, hi: number): number {
    return lo + (this.next() % (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.next() % xs.length]!;
  }
  chance(p: number): boolean {
    return this.next() / 4294967296 < p;
  }
}

/** The case seed of iteration I of a campaign with seed S (the same on every machine). */
export function caseSeed(seed: number, i: number): number {
  return (Math.imul(seed + 1, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35)) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Affine expressions

export const aff = (terms: readonly (readonly [string, number])[], c: number): Aff => ({ terms: terms.filter(([, k]) => k !== 0), c });
const varsOf = (a: Aff): string[] => a.terms.map(([v]) => v);

function substAff(a: Aff, v: string, by: Aff): Aff {
  const k = a.terms.find(([x]) => x === v)?.[1] ?? 0;
  if (k === 0) return a;
  const terms = new Map<string, number>();
  for (const [x, c] of a.terms) if (x !== v) terms.set(x, c);
  for (const [x, c] of by.terms) terms.set(x, (terms.get(x) ?? 0) + k * c);
  return aff([...terms], a.c + k * by.c);
}

type Interval = readonly [number, number];

/** The parameter's range for the in-bounds analysis: any natural number (bounds clamp it to constants). */
const PARAM_RANGE: Interval = [0, 1 << 20];

function evalInterval(a: Aff, env: ReadonlyMap<string, Interval>): Interval {
  let lo = a.c;
  let hi = a.c;
  for (const [v, k] of a.terms) {
    const r = env.get(v) ?? [0, 0];
    lo += Math.min(k * r[0], k * r[1]);
    hi += Math.max(k * r[0], k * r[1]);
  }
  return [lo, hi];
}

/** The range of an induction variable: lb = max of its exprs, ub (exclusive) = min of its exprs. */
function ivRange(s: Extract<Stmt, { k: 'for' }>, env: ReadonlyMap<string, Interval>): Interval {
  const lbs = s.lb.map((e) => evalInterval(e, env));
  const ubs = s.ub.map((e) => evalInterval(e, env));
  const lo = Math.max(...lbs.map((r) => r[0]));
  const hi = Math.min(...ubs.map((r) => r[1])) - 1;
  return [lo, Math.max(lo, hi)];
}

// ---------------------------------------------------------------------------------------------
// Generation

export interface GenOptions {
  /** Top-level nests (default 1 to 4). */
  readonly nests?: readonly [number, number];
  readonly maxDepth?: number;
}

const ARRAY_NAMES = ['A', 'B', 'C', 'D', 'E'];

export function genProgram(rng: Rng, o: GenOptions = {}): Program {
  const elem: Elem = rng.chance(0.7) ? 'i32' : 'f64';
  const param = rng.chance(0.4) ? { name: 'N', value: rng.int(3, 7) } : null;
  const nArrays = rng.int(2, 4);
  const arrays: ArrayDecl[] = [];
  for (let k = 0; k < nArrays; k++) {
    const acc = k === nArrays - 1 && rng.chance(0.35);
    const rank = acc ? rng.int(0, 1) : rng.int(1, 3);
    arrays.push({ name: ARRAY_NAMES[k]!, rank, local: false, slack: Array.from({ length: rank }, () => (acc ? 0 : rng.int(0, 2))) });
  }
  // A local buffer written whole by the first nest, then read: what fusion privatises.
  const local: ArrayDecl | null = rng.chance(0.3) ? { name: 'T', rank: rng.int(1, 2), local: true, slack: [] } : null;
  const last = arrays[arrays.length - 1]!;
  const accName = last.rank <= 1 && last.slack.every((x) => x === 0) && rng.chance(0.5) ? last.name : null;
  const g = new Gen(rng, elem, arrays, local, param, accName, o.maxDepth ?? 3);
  const body: Stmt[] = [];
  if (local) body.push(g.fillNest(local));
  const [lo, hi] = o.nests ?? [1, 4];
  const nests = rng.int(lo, hi);
  for (let k = 0; k < nests; k++) body.push(g.nest());
  const scalar = g.usedScalar;
  const all = local ? [...arrays, local] : arrays;
  return fixSubscripts({ elem, arrays: all, param, scalar, body });
}

class Gen {
  usedScalar = false;
  private nextIv = 0;
  private readonly readable: string[];
  constructor(
    readonly rng: Rng,
    readonly elem: Elem,
    readonly arrays: readonly ArrayDecl[],
    readonly local: ArrayDecl | null,
    readonly param: Program['param'],
    readonly acc: string | null,
    readonly maxDepth: number,
  ) {
    this.readable = [...arrays.map((a) => a.name), ...(local ? [local.name] : [])];
  }

  private iv(): string {
    return `i${this.nextIv++}`;
  }

  /** The fill nest of a local buffer: every cell, a value of the ivs only (no loads: the extent is the buffer's). */
  fillNest(t: ArrayDecl): Stmt {
    const ivs = Array.from({ length: t.rank }, () => this.iv());
    const noLoads = (v: Val): Val => (v.k === 'load' ? { k: 'const', v: 2 } : v.k === 'bin' ? { ...v, a: noLoads(v.a), b: noLoads(v.b) } : v);
    let s: Stmt = { k: 'store', array: t.name, idx: ivs.map((v) => aff([[v, 1]], 0)), value: noLoads(this.value(ivs, 1)) };
    for (let d = t.rank - 1; d >= 0; d--) s = { k: 'for', iv: ivs[d]!, lb: [aff([], 0)], ub: [aff([], 1)], step: 1, body: [s], fill: { array: t.name, dim: d } };
    return s;
  }

  nest(): Stmt {
    return this.loop([], 1);
  }

  private loop(outer: string[], depth: number): Stmt {
    const r = this.rng;
    const iv = this.iv();
    const lb: Aff[] = [];
    const ub: Aff[] = [];
    // Lower bound: 0, a constant, an outer iv (+c), or max(0, outer - c).
    const o = outer.length > 0 ? r.pick(outer) : null;
    const lbKind = r.int(0, 9);
    if (o !== null && lbKind >= 7) lb.push(aff([[o, 1]], r.int(0, 1)));
    else if (o !== null && lbKind >= 5) lb.push(aff([], 0), aff([[o, 1]], -r.int(1, 2)));
    else lb.push(aff([], lbKind >= 3 ? r.int(1, 2) : 0));
    // Upper bound: a constant, the parameter, outer + c, min(c, outer + c').
    const ubKind = r.int(0, 9);
    // The parameter only ever lowers a constant bound (min(c, N - k)): every access is in bounds for
    // every value of N, not only the one the program runs at.
    if (this.param && ubKind >= 7) ub.push(aff([], r.int(3, 7)), aff([[this.param.name, 1]], -r.int(0, 1)));
    else if (o !== null && ubKind >= 5) ub.push(aff([[o, 1]], r.int(1, 3)));
    else if (o !== null && ubKind >= 3) ub.push(aff([], r.int(3, 7)), aff([[o, 1]], r.int(1, 4)));
    else ub.push(aff([], r.int(2, 7)));
    if (this.param && ub.length === 1 && ub[0]!.terms.length === 0 && r.chance(0.15)) ub.push(aff([[this.param.name, 1]], 0));
    const step = r.chance(0.2) ? r.int(2, 3) : 1;
    const ivs = [...outer, iv];
    const body: Stmt[] = [];
    const n = r.int(1, 3);
    for (let k = 0; k < n; k++) {
      const kind = r.int(0, 9);
      if (depth < this.maxDepth && kind >= 7) body.push(this.loop(ivs, depth + 1));
      else if (kind === 6) body.push(this.guard(ivs));
      else body.push(this.stmt(ivs));
    }
    if (depth < this.maxDepth && !body.some((s) => s.k === 'for') && r.chance(0.5)) body.push(this.loop(ivs, depth + 1));
    return { k: 'for', iv, lb, ub, step, body };
  }

  private guard(ivs: string[]): Stmt {
    const r = this.rng;
    const conds: { aff: Aff; eq: boolean }[] = [];
    const n = r.int(1, 2);
    for (let k = 0; k < n; k++) {
      const a = r.pick(ivs);
      const b = r.pick(ivs);
      const e = a === b || r.chance(0.4) ? aff([[a, 1]], -r.int(0, 3)) : aff([[a, 1], [b, -1]], r.int(-1, 1));
      conds.push({ aff: e, eq: r.chance(0.2) });
    }
    return { k: 'if', conds, then: [this.stmt(ivs)], else: r.chance(0.4) ? [this.stmt(ivs)] : null };
  }

  private subscript(ivs: string[]): Aff {
    const r = this.rng;
    const v = r.pick(ivs);
    const kind = r.int(0, 9);
    if (kind <= 5) return aff([[v, 1]], r.int(0, 2));
    if (kind <= 6) return aff([], r.int(0, 3));
    if (kind <= 7) return aff([[v, 2]], r.int(0, 1));
    const w = r.pick(ivs);
    return aff(w === v ? [[v, 1]] : [[v, 1], [w, r.pick([1, -1])]], r.int(0, 3));
  }

  private index(array: string, ivs: string[]): Aff[] {
    const rank = (this.arrays.find((x) => x.name === array) ?? this.local)!.rank;
    if (array === this.acc) return Array.from({ length: rank }, () => aff([], 0));
    return Array.from({ length: rank }, () => this.subscript(ivs));
  }

  private stmt(ivs: string[]): Stmt {
    const r = this.rng;
    const writable = this.arrays.map((a) => a.name);
    const array = r.pick(writable);
    const idx = this.index(array, ivs);
    const kind = r.int(0, 9);
    if (kind <= 3) {
      // An in-place update or a reduction: X[idx] = X[idx] op value.
      const op = r.pick(['add', 'add', 'mul', 'max', 'sub'] as const);
      return { k: 'store', array, idx, value: { k: 'bin', op, a: { k: 'load', array, idx }, b: this.value(ivs, 1) } };
    }
    return { k: 'store', array, idx, value: this.value(ivs, 2) };
  }

  value(ivs: string[], depth: number): Val {
    const r = this.rng;
    const kind = r.int(0, 9);
    if (depth > 0 && kind >= 6) {
      const op = r.pick(['add', 'sub', 'mul', 'max', 'min', 'add'] as const);
      return { k: 'bin', op, a: this.value(ivs, depth - 1), b: this.value(ivs, depth - 1) };
    }
    if (kind <= 3) {
      const array = r.pick(this.readable);
      return { k: 'load', array, idx: this.index(array, ivs) };
    }
    if (kind === 4) return { k: 'const', v: r.int(-3, 5) };
    if (kind === 5 && this.rng.chance(0.5)) {
      this.usedScalar = true;
      return { k: 'scalar' };
    }
    return { k: 'iv', iv: r.pick(ivs) };
  }
}

type StoreStmt = Extract<Stmt, { k: 'store' }>;

/** F on every store of SS, in program order, through loops and both branches of ifs. */
function forEachStore(ss: readonly Stmt[], f: (s: StoreStmt) => void): void {
  for (const s of ss) {
    if (s.k === 'for') forEachStore(s.body, f);
    else if (s.k === 'if') {
      forEachStore(s.then, f);
      if (s.else) forEachStore(s.else, f);
    } else f(s);
  }
}

/** F on V and every value inside it. */
function forEachVal(v: Val, f: (v: Val) => void): void {
  f(v);
  if (v.k === 'bin') {
    forEachVal(v.a, f);
    forEachVal(v.b, f);
  }
}

/**
 * Make every subscript non-negative over the iteration domain (shifting its constant), give local
 * loads their subscripts (the buffer's fill extent wraps them), and drop arrays nothing uses. Run
 * after generation and after every shrinking step: the program stays in bounds by construction.
 */
export function fixSubscripts(p: Program): Program {
  const fixIdx = (idx: readonly Aff[], env: ReadonlyMap<string, Interval>): Aff[] =>
    idx.map((a) => {
      const [lo] = evalInterval(a, env);
      return lo < 0 ? aff(a.terms, a.c - lo) : a;
    });
  const fixVal = (v: Val, env: ReadonlyMap<string, Interval>): Val => {
    if (v.k === 'load') return { ...v, idx: fixIdx(v.idx, env) };
    if (v.k === 'bin') return { ...v, a: fixVal(v.a, env), b: fixVal(v.b, env) };
    return v;
  };
  const base = new Map<string, Interval>(p.param ? [[p.param.name, PARAM_RANGE]] : []);
  const fix = (ss: readonly Stmt[], env: ReadonlyMap<string, Interval>): Stmt[] =>
    ss.map((s): Stmt => {
      // A fill loop's subscripts are its ivs (never negative); its range needs the shapes: not needed here.
      if (s.k === 'for') return s.fill ? s : { ...s, body: fix(s.body, new Map(env).set(s.iv, ivRange(s, env))) };
      if (s.k === 'if') return { ...s, then: fix(s.then, env), else: s.else ? fix(s.else, env) : null };
      return { ...s, idx: fixIdx(s.idx, env), value: fixVal(s.value, env) };
    });
  // Loops and ifs without a store do nothing (and a fill nest without its store names a dropped buffer).
  const hasStore = (ss: readonly Stmt[]): boolean => ss.some((x) => x.k === 'store' || (x.k === 'for' ? hasStore(x.body) : hasStore(x.then) || hasStore(x.else ?? [])));
  const prune = (ss: readonly Stmt[]): Stmt[] =>
    ss.flatMap((x): Stmt[] => {
      if (x.k === 'store') return [x];
      if (x.k === 'for') return hasStore(x.body) ? [{ ...x, body: prune(x.body) }] : [];
      return hasStore(x.then) || hasStore(x.else ?? []) ? [{ ...x, then: prune(x.then), else: x.else ? prune(x.else) : null }] : [];
    });
  const body = prune(fix(p.body, base));
  const used = new Set<string>();
  let scalar = false;
  forEachStore(body, (st) => {
    used.add(st.array);
    forEachVal(st.value, (v) => {
      if (v.k === 'load') used.add(v.array);
      if (v.k === 'scalar') scalar = true;
    });
  });
  const usesParam = JSON.stringify(body).includes(`"${p.param?.name ?? '\u0000'}"`);
  return { ...p, arrays: p.arrays.filter((a) => used.has(a.name)), body, scalar, param: usesParam ? p.param : null };
}

/** Array shapes: the largest subscript over the iteration domain, plus one, plus the slack. */
export function shapes(p: Program): Map<string, number[]> {
  const max = new Map<string, number[]>(p.arrays.map((a) => [a.name, Array.from({ length: a.rank }, () => 0)]));
  const see = (array: string, idx: readonly Aff[], env: ReadonlyMap<string, Interval>): void => {
    const m = max.get(array);
    if (!m) return;
    idx.forEach((a, d) => {
      m[d] = Math.max(m[d]!, evalInterval(a, env)[1]);
    });
  };
  const seeVal = (v: Val, env: ReadonlyMap<string, Interval>): void => {
    if (v.k === 'load') see(v.array, v.idx, env);
    if (v.k === 'bin') {
      seeVal(v.a, env);
      seeVal(v.b, env);
    }
  };
  const walk = (ss: readonly Stmt[], env: ReadonlyMap<string, Interval>): void => {
    for (const s of ss) {
      if (s.k === 'for' && s.fill) continue; // the fill nest covers the buffer, whatever its shape
      if (s.k === 'for') walk(s.body, new Map(env).set(s.iv, ivRange(s, env)));
      else if (s.k === 'if') {
        walk(s.then, env);
        if (s.else) walk(s.else, env);
      } else {
        see(s.array, s.idx, env);
        seeVal(s.value, env);
      }
    }
  };
  walk(p.body, new Map(p.param ? [[p.param.name, PARAM_RANGE]] : []));
  return new Map(p.arrays.map((a) => [a.name, max.get(a.name)!.map((m, d) => m + 1 + (a.slack[d] ?? 0))]));
}

// ---------------------------------------------------------------------------------------------
// Printing

function affText(a: Aff, dims: readonly string[], syms: readonly string[]): string {
  const parts: string[] = [];
  for (const [v, k] of a.terms) {
    const d = dims.indexOf(v);
    const name = d >= 0 ? `d${d}` : `s${syms.indexOf(v)}`;
    parts.push(k === 1 ? name : k === -1 ? `-${name}` : `${name} * ${k}`);
  }
  if (a.c !== 0 || parts.length === 0) parts.push(String(a.c));
  return parts.join(' + ').replace(/\+ -/g, '- ');
}

/** `affine_map<(d…)[s…] -> (…)>(%dims)[%syms]` for bound expressions over VARS (dims: ivs; syms: the parameter). */
function mapOperands(exprs: readonly Aff[], param: string | null): { map: string; operands: string } {
  const vars = [...new Set(exprs.flatMap(varsOf))];
  const dims = vars.filter((v) => v !== param);
  const syms = vars.filter((v) => v === param);
  const map = `affine_map<(${dims.map((_, k) => `d${k}`).join(', ')})[${syms.map((_, k) => `s${k}`).join(', ')}] -> (${exprs.map((e) => affText(e, dims, syms)).join(', ')})>`;
  return { map, operands: `(${dims.map((d) => `%${d}`).join(', ')})[${syms.map((s) => `%${s}`).join(', ')}]` };
}

/** A subscript in affine.load/store syntax (SSA ids as dims). */
function subText(a: Aff): string {
  const parts: string[] = [];
  for (const [v, k] of a.terms) parts.push(k === 1 ? `%${v}` : `%${v} * ${k}`);
  if (a.c !== 0 || parts.length === 0) parts.push(String(a.c));
  return parts.join(' + ').replace(/\+ -/g, '- ').replace(/%(\w+) \* -1\b/g, '-%$1');
}

export const KERNEL = 'fuzz';

/** The program as an MLIR function (custom syntax), the kernel @NAME (@fuzz by default). */
export function programText(p: Program, name = KERNEL): string {
  const sh = shapes(p);
  const ty = (a: string): string => `memref<${sh.get(a)!.map((d) => `${d}x`).join('')}${p.elem}>`;
  const args: string[] = [];
  for (const a of p.arrays) if (!a.local) args.push(`%${a.name}: ${ty(a.name)}`);
  if (p.param) args.push(`%${p.param.name}: index`);
  if (p.scalar) args.push(`%s: ${p.elem}`);
  const out: string[] = [`func.func @${name}(${args.join(', ')}) {`];
  let n = 0;
  const fresh = (): string => `%v${n++}`;
  const f = p.elem === 'f64';
  const param = p.param?.name ?? null;
  const val = (v: Val, ind: string): string => {
    switch (v.k) {
      case 'load': {
        const r = fresh();
        out.push(`${ind}${r} = affine.load %${v.array}[${v.idx.map(subText).join(', ')}] : ${ty(v.array)}`);
        return r;
      }
      case 'const': {
        const r = fresh();
        out.push(`${ind}${r} = arith.constant ${f ? `${v.v}.0` : v.v} : ${p.elem}`);
        return r;
      }
      case 'scalar':
        return '%s';
      case 'iv': {
        const c = fresh();
        out.push(`${ind}${c} = arith.index_cast %${v.iv} : index to i32`);
        if (!f) return c;
        const r = fresh();
        out.push(`${ind}${r} = arith.sitofp ${c} : i32 to f64`);
        return r;
      }
      case 'bin': {
        const a = val(v.a, ind);
        const b = val(v.b, ind);
        const r = fresh();
        const op = f ? { add: 'addf', sub: 'subf', mul: 'mulf', max: 'maxf', min: 'minf' }[v.op] : { add: 'addi', sub: 'subi', mul: 'muli', max: 'maxsi', min: 'minsi' }[v.op];
        out.push(`${ind}${r} = arith.${op} ${a}, ${b} : ${p.elem}`);
        return r;
      }
    }
  };
  const locals = p.arrays.filter((a) => a.local);
  for (const l of locals) out.push(`  %${l.name} = memref.alloc() : ${ty(l.name)}`);
  const stmts = (ss: readonly Stmt[], ind: string): void => {
    for (const s of ss) {
      if (s.k === 'for') {
        const lb = mapOperands(s.lb, param);
        const ub = mapOperands(s.fill ? [aff([], sh.get(s.fill.array)![s.fill.dim]!)] : s.ub, param);
        out.push(`${ind}affine.for %${s.iv} = ${s.lb.length > 1 ? 'max ' : ''}${lb.map}${lb.operands} to ${s.ub.length > 1 ? 'min ' : ''}${ub.map}${ub.operands}${s.step !== 1 ? ` step ${s.step}` : ''} {`);
        stmts(s.body, `${ind}  `);
        out.push(`${ind}}`);
      } else if (s.k === 'if') {
        const vars = [...new Set(s.conds.flatMap((c) => varsOf(c.aff)))];
        const dims = vars.filter((v) => v !== param);
        const syms = vars.filter((v) => v === param);
        const set = `affine_set<(${dims.map((_, k) => `d${k}`).join(', ')})[${syms.map((_, k) => `s${k}`).join(', ')}] : (${s.conds.map((c) => `${affText(c.aff, dims, syms)} ${c.eq ? '==' : '>='} 0`).join(', ')})>`;
        out.push(`${ind}affine.if ${set}(${dims.map((d) => `%${d}`).join(', ')})[${syms.map((x) => `%${x}`).join(', ')}] {`);
        stmts(s.then, `${ind}  `);
        if (s.else) {
          out.push(`${ind}} else {`);
          stmts(s.else, `${ind}  `);
        }
        out.push(`${ind}}`);
      } else {
        const v = val(s.value, ind);
        out.push(`${ind}affine.store ${v}, %${s.array}[${s.idx.map(subText).join(', ')}] : ${ty(s.array)}`);
      }
    }
  };
  stmts(p.body, '  ');
  for (const l of locals) out.push(`  memref.dealloc %${l.name} : ${ty(l.name)}`);
  out.push('  return', '}');
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Pipelines

export interface Pass {
  readonly name: string;
  /** Options as `key` (a flag) or `key=value`, in the order written. */
  readonly options: readonly string[];
}
export type Pipeline = readonly Pass[];

/** Passes that reassociate floating-point reductions (a difference under them is not a miscompilation). */
function reassociates(p: Pass): boolean {
  return p.options.includes('vectorize-reductions') || p.options.includes('parallel-reductions');
}

export function genPipeline(rng: Rng, elem: Elem): Pipeline {
  const n = rng.int(1, 3);
  const out: Pass[] = [];
  for (let k = 0; k < n; k++) {
    let p = genPass(rng);
    if (elem === 'f64') p = { ...p, options: p.options.filter((o) => o !== 'vectorize-reductions' && o !== 'parallel-reductions') };
    out.push(p);
  }
  return out;
}

function genPass(r: Rng): Pass {
  const kind = r.int(0, 15);
  const opt = (o: string[]): string[] => o.filter((x) => x !== '');
  switch (kind) {
    case 0:
    case 1:
      return { name: 'affine-loop-tile', options: opt([r.chance(0.5) ? `tile-size=${r.int(1, 5)}` : `tile-sizes=${Array.from({ length: r.int(1, 3) }, () => r.int(1, 4)).join(',')}`, r.chance(0.2) ? 'separate' : '']) };
    case 2:
    case 3:
      return { name: 'affine-loop-unroll', options: opt([r.chance(0.25) ? 'unroll-full' : `unroll-factor=${r.int(2, 5)}`, r.chance(0.2) ? 'cleanup-unroll' : '', r.chance(0.15) ? `unroll-full-threshold=${r.int(2, 8)}` : '']) };
    case 4:
      return { name: 'affine-loop-unroll-jam', options: [`unroll-jam-factor=${r.int(2, 4)}`] };
    case 5:
      return { name: 'affine-parallelize', options: opt([r.chance(0.3) ? `max-nested=${r.int(1, 2)}` : '', r.chance(0.4) ? 'parallel-reductions' : '']) };
    case 6:
      return { name: 'affine-super-vectorize', options: opt([`virtual-vector-size=${r.pick([2, 4, 8])}`, r.chance(0.3) ? 'vectorize-reductions' : '']) };
    case 7:
      return { name: 'affine-scalrep', options: [] };
    case 8:
      return { name: 'affine-loop-invariant-code-motion', options: [] };
    case 9:
      return { name: 'affine-data-copy-generate', options: opt(['generate-dma=false', 'fast-mem-space=0', r.chance(0.3) ? `fast-mem-capacity=${r.int(1, 4)}` : '', r.chance(0.2) ? 'skip-non-unit-stride-loops' : '']) };
    case 10:
    case 11:
    case 12:
      return { name: 'affine-loop-fusion', options: opt([r.chance(0.4) ? `mode=${r.pick(['greedy', 'producer', 'sibling'])}` : '', r.chance(0.4) ? 'fusion-maximal' : '', r.chance(0.2) ? `fusion-compute-tolerance=${r.pick(['0', '0.5', '2', '100'])}` : '']) };
    case 13:
      return { name: 'affine-loop-normalize', options: r.chance(0.3) ? ['promote-single-iter'] : [] };
    case 14:
      return { name: 'affine-loop-coalescing', options: [] };
    default:
      return { name: r.pick(['affine-simplify-structures', 'canonicalize', 'cse']), options: [] };
  }
}

/** The pipeline as mlir-opt arguments: one `--pass-pipeline` nested in func.func (fusion needs it). */
export function pipelineText(p: Pipeline): string {
  const passes = p.map((x) => (x.options.length > 0 ? `${x.name}{${x.options.join(' ')}}` : x.name));
  return `--pass-pipeline='builtin.module(func.func(${passes.join(', ')}))'`;
}

export function pipelineReassociates(p: Pipeline): boolean {
  return p.some(reassociates);
}

// ---------------------------------------------------------------------------------------------
// Shrinking: smaller variants, most aggressive first (a greedy shrinker takes the first that keeps
// the failure, and asks again).

export function* shrinkPipeline(p: Pipeline): Generator<Pipeline> {
  if (p.length > 1) for (let k = 0; k < p.length; k++) yield [...p.slice(0, k), ...p.slice(k + 1)];
  for (let k = 0; k < p.length; k++) {
    const pass = p[k]!;
    for (let o = 0; o < pass.options.length; o++) {
      const opt = pass.options[o]!;
      if (opt === 'generate-dma=false' || opt === 'fast-mem-space=0') continue; // runnable copies need both
      yield [...p.slice(0, k), { ...pass, options: [...pass.options.slice(0, o), ...pass.options.slice(o + 1)] }, ...p.slice(k + 1)];
      const m = /^([\w-]+)=(\d+)$/.exec(opt);
      if (m && Number(m[2]) > 1) {
        yield [...p.slice(0, k), { ...pass, options: pass.options.map((x, i) => (i === o ? `${m[1]}=${Number(m[2]) - 1}` : x)) }, ...p.slice(k + 1)];
      }
    }
  }
}

type Path = number[];

function stmtsAt(p: Program): Stmt[] {
  return [...p.body];
}

/** Every statement with its path (indices through bodies; an if's else branch is offset by 1000). */
function paths(ss: readonly Stmt[], prefix: Path = []): { path: Path; s: Stmt }[] {
  const out: { path: Path; s: Stmt }[] = [];
  ss.forEach((s, k) => {
    const path = [...prefix, k];
    out.push({ path, s });
    if (s.k === 'for') out.push(...paths(s.body, path));
    if (s.k === 'if') {
      out.push(...paths(s.then, path));
      if (s.else) out.push(...paths(s.else, [...path, -1]).map((x) => x));
    }
  });
  return out;
}

/** Replace the statement at PATH by REPL (a list: empty removes it) in SS. */
function replaceAt(ss: readonly Stmt[], path: Path, repl: Stmt[]): Stmt[] {
  const [k, ...rest] = path;
  if (rest.length === 0) return [...ss.slice(0, k), ...repl, ...ss.slice(k! + 1)];
  const s = ss[k!]!;
  let next: Stmt;
  if (s.k === 'for') next = { ...s, body: replaceAt(s.body, rest, repl) };
  else if (s.k === 'if') next = rest[0] === -1 ? { ...s, else: replaceAt(s.else ?? [], rest.slice(1), repl) } : { ...s, then: replaceAt(s.then, rest, repl) };
  else return [...ss];
  return [...ss.slice(0, k), next, ...ss.slice(k! + 1)];
}

function substStmt(s: Stmt, v: string, by: Aff): Stmt {
  const sv = (x: Val): Val => (x.k === 'load' ? { ...x, idx: x.idx.map((a) => substAff(a, v, by)) } : x.k === 'bin' ? { ...x, a: sv(x.a), b: sv(x.b) } : x.k === 'iv' && x.iv === v ? (by.terms.length === 0 ? { k: 'const', v: by.c } : x) : x);
  if (s.k === 'for') return { ...s, lb: s.lb.map((a) => substAff(a, v, by)), ub: s.ub.map((a) => substAff(a, v, by)), body: s.body.map((t) => substStmt(t, v, by)) };
  if (s.k === 'if') return { ...s, conds: s.conds.map((c) => ({ ...c, aff: substAff(c.aff, v, by) })), then: s.then.map((t) => substStmt(t, v, by)), else: s.else ? s.else.map((t) => substStmt(t, v, by)) : null };
  return { ...s, idx: s.idx.map((a) => substAff(a, v, by)), value: sv(s.value) };
}

function simplerVals(v: Val): Val[] {
  if (v.k === 'bin') return [v.a, v.b, ...simplerVals(v.a).map((a) => ({ ...v, a })), ...simplerVals(v.b).map((b) => ({ ...v, b }))];
  if (v.k === 'load' || v.k === 'iv' || v.k === 'scalar') return [{ k: 'const', v: 1 }];
  return v.v === 0 || v.v === 1 ? [] : [{ k: 'const', v: 1 }];
}

export function* shrinkProgram(p: Program): Generator<Program> {
  const ok = (body: Stmt[]): Program => fixSubscripts({ ...p, body });
  const all = paths(stmtsAt(p));
  const read = new Set<string>();
  forEachStore(p.body, (st) => forEachVal(st.value, (v) => (v.k === 'load' ? void read.add(v.array) : undefined)));
  // Remove a statement (nests first: they are listed before their bodies); a fill nest only once its buffer is unread.
  for (const { path, s } of all) {
    if (s.k === 'for' && s.fill && read.has(s.fill.array)) continue;
    if (s.k === 'store' && p.arrays.some((a) => a.local && a.name === s.array) && read.has(s.array)) continue;
    yield ok(replaceAt(p.body, path, []));
  }
  for (const { path, s } of all) {
    if (s.k === 'for' && s.fill) continue;
    if (s.k === 'for') {
      // The loop replaced by its body at its lower bound (one iteration).
      const lb = s.lb[0]!;
      yield ok(replaceAt(p.body, path, s.body.map((t) => substStmt(t, s.iv, lb))));
      if (s.lb.length > 1) yield ok(replaceAt(p.body, path, [{ ...s, lb: s.lb.slice(0, 1) }]));
      if (s.ub.length > 1) yield ok(replaceAt(p.body, path, [{ ...s, ub: s.ub.slice(0, 1) }]));
      if (s.step > 1) yield ok(replaceAt(p.body, path, [{ ...s, step: 1 }]));
      const ub = s.ub[0]!;
      if (ub.c > 1) yield ok(replaceAt(p.body, path, [{ ...s, ub: [aff(ub.terms, ub.c - 1), ...s.ub.slice(1)] }]));
    } else if (s.k === 'if') {
      yield ok(replaceAt(p.body, path, [...s.then]));
      if (s.else) yield ok(replaceAt(p.body, path, [...s.else]));
      if (s.conds.length > 1) for (let c = 0; c < s.conds.length; c++) yield ok(replaceAt(p.body, path, [{ ...s, conds: s.conds.filter((_, i) => i !== c) }]));
    } else {
      for (const v of simplerVals(s.value)) yield ok(replaceAt(p.body, path, [{ ...s, value: v }]));
    }
  }
  if (p.param) {
    // The parameter replaced by its value.
    const v = p.param;
    yield ok(p.body.map((s) => substStmt(s, v.name, aff([], v.value))));
  }
  const slack = p.arrays.findIndex((a) => a.slack.some((x) => x > 0));
  if (slack >= 0) yield fixSubscripts({ ...p, arrays: p.arrays.map((a, k) => (k === slack ? { ...a, slack: a.slack.map(() => 0) } : a)) });
}

/** The statements of a program (for sizes in reports). */
export function countStmts(p: Program): number {
  return paths(p.body).length;
}
