// One MLIR function (generic form, compilers/mlir/parse.ts) lowered to the front end's kernel form
// (compilers/mlir/kernel.ts). The op-by-op meaning is the operation table (compilers/mlir/ops.ts);
// this file holds what the table's rules ask of it: SSA scopes, loops and conditions (the sites
// of the accesses), allocations and their scopes, cells for loop-carried and `if` values, views
// (subview/cast) resolved to their root array, calls inlined with MLIR's call-site locations.

import { isBuiltinFunction, isValueTypeName, type ValueType } from '../../core/language/ast.ts';
import { KEYWORDS } from '../../core/language/lexer.ts';
import {
  and, andAll, cong, constant, floor, geT, linear, ltT, max, mod, not, printTerm, simplify, sub, termVars, variable, type Formula, type Term,
} from '../../core/presburger/index.ts';
import type { Block, Loc, Module, MType, Op } from './ir.ts';
import { renameFiles, showLoc, showType } from './ir.ts';
import { type ArrayOrigin, type KArray, type KLoop, type KNode, type KParam, type Kernel, type KStore, type KVal, loadsOf, type Site, storesOf } from './kernel.ts';
import { type Band, type Ctx, opEntry, Unsupported, type View } from './ops.ts';

/** An Unsupported with the place of the op that raised it. */
export class UnsupportedAt extends Unsupported {
  constructor(inner: Unsupported, readonly loc: Loc) {
    super(inner.construct, inner.detail);
    this.message = `${inner.message} (at ${showLoc(loc)})`;
  }
}

type Binding =
  | { readonly t: 'index'; readonly term: Term }
  | { readonly t: 'opaque-index'; readonly why: string; readonly val: KVal | null }
  | { readonly t: 'value'; readonly val: KVal; readonly cond: Formula | null }
  | { readonly t: 'lanes'; readonly lanes: readonly KVal[] }
  | { readonly t: 'view'; readonly view: View };

type MutLoop = KLoop & { body: KNode[] };

interface AllocInfo {
  readonly block: Block;
  readonly depth: number;
}

const SCALARS: Record<string, ValueType> = { f32: 'f32', f64: 'f64', i1: 'bool', i8: 'i8', i16: 'i16', i32: 'i32', i64: 'i64' };

export function scalarType(t: MType): ValueType {
  if (t.kind === 'index') return 'i64';
  const name = t.kind === 'int' && t.signedness === 'signless' ? `i${t.width}` : t.kind === 'float' ? t.name : null;
  const s = name === null ? undefined : SCALARS[name];
  if (s === undefined) throw new Unsupported('type', showType(t));
  return s;
}

class Lowering implements Ctx {
  private readonly scopes: Map<string, Binding>[] = [new Map()];
  private readonly loops: MutLoop[] = [];
  private readonly guards: Formula[] = [];
  private out: KNode[];
  private seq = 0;
  private nextId = 0;
  private readonly taken = new Set<string>();
  readonly arrays: KArray[] = [];
  readonly params: KParam[] = [];
  readonly notes: string[] = [];
  private readonly freed = new Set<string>();
  private readonly allocs = new Map<string, AllocInfo>();
  private readonly argArrays = new Set<string>();
  /** Call-site locations of the calls being inlined, innermost last. */
  private readonly callLocs: Loc[] = [];
  private readonly calling: string[] = [];
  private op!: Op;
  private block!: Block;

  constructor(private readonly funcs: ReadonlyMap<string, Op>, readonly body: KNode[], private readonly fileName: ((f: string) => string) | null, private readonly argNames: readonly string[] | null) {
    this.out = body;
  }

  // ---------------------------------------------------------------------------------------------
  // Names

  /** A new name; `same` may be reused (an input tensor named like its array). */
  fresh(base: string, same?: string): string {
    // SCHED keywords, type names and builtins are not names.
    const reserved = (x: string): boolean => (KEYWORDS as readonly string[]).includes(x) || isValueTypeName(x) || isBuiltinFunction(x) || ['sum', 'prod', 'all', 'any', 'partial'].includes(x);
    if (reserved(base)) base = `${base}_`;
    let n = base;
    for (let k = 2; this.taken.has(n) && n !== same; k++) n = `${base}_${k}`;
    this.taken.add(n);
    return n;
  }

  private addArray(base: string, elem: ValueType, dims: readonly Term[], origin: ArrayOrigin, mtype: MType): string {
    const name = this.fresh(base);
    // Arguments' contents are input tensors, capitalised (an array and a tensor may share a name).
    const tensor = origin.kind === 'arg' || origin.kind === 'scalar' ? this.fresh(name.charAt(0).toUpperCase() + name.slice(1), name) : undefined;
    this.arrays.push({ name, elem, dims, origin, mtype, ...(tensor !== undefined ? { tensor } : {}) });
    return name;
  }

  // ---------------------------------------------------------------------------------------------
  // The function

  lowerFunc(f: Op): void {
    const region = f.regions[0];
    if (!region || region.blocks.length === 0) throw new Unsupported('func.func', 'a function without a body');
    if (region.blocks.length > 1) throw new Unsupported('func.func', 'several blocks (unstructured control flow)');
    const block = region.blocks[0]!;
    this.op = f;
    this.block = block;
    block.args.forEach((a, k) => {
      // The argument's name in the source text when it is known (`%NI`), else `argK`.
      const given = this.argNames?.[k];
      const base = given ? given.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d)/, 'a') : `arg${k}`;
      const shown = `%${given ?? `arg${k}`}`;
      if (a.type.kind === 'memref') {
        if (a.type.layout !== null) throw new Unsupported('func.func', `memref argument ${shown} with a layout (${showType(a.type)})`);
        const dims = a.type.shape.map((d, i) => (d === null ? this.param(`${base}_d${i}`, `extent ${i} of ${shown}`) : constant(d)));
        const name = this.addArray(base, this.scalar(a.type.elem), dims, { kind: 'arg', index: k }, a.type);
        this.argArrays.add(name);
        this.bind(a.name, { t: 'view', view: rootView(name, this.scalar(a.type.elem), dims) });
      } else if (a.type.kind === 'index') {
        this.bind(a.name, { t: 'index', term: this.param(base, `index argument ${shown}`, undefined, k) });
      } else {
        const elem = this.scalar(a.type);
        const name = this.addArray(base, elem, [], { kind: 'scalar', index: k }, a.type);
        this.argArrays.add(name);
        const v = this.load(rootView(name, elem, []), []);
        // The argument itself, not a read the function makes.
        this.loads.pop();
        this.bind(a.name, { t: 'value', val: v, cond: null });
      }
    });
    const fnType = f.attrs.get('function_type');
    if (fnType?.kind === 'type' && fnType.type.kind === 'function' && fnType.type.results.length > 0) throw new Unsupported('func.func', 'a function that returns values');
    this.lowerOps(block, (term) => {
      if (term.name !== 'func.return') throw new Unsupported(term.name, 'a terminator other than func.return');
    });
  }

  private param(name: string, what: string, product?: readonly [Term, Term], arg?: number): Term {
    const n = this.fresh(name);
    this.params.push({ name: n, what, ...(product ? { product } : {}), ...(arg !== undefined ? { arg } : {}) });
    return variable(n);
  }

  product(a: Term, b: Term): Term | null {
    const params = new Set(this.params.map((p) => p.name));
    if (![...termVars(a), ...termVars(b)].every((v) => params.has(v))) return null;
    const [x, y] = a.key <= b.key ? [a, b] : [b, a];
    const have = this.params.find((p) => p.product && p.product[0].key === x.key && p.product[1].key === y.key);
    if (have) return variable(have.name);
    const show = (t: Term): string => printTerm(t);
    const name = `${[...termVars(x)].join('_')}_times_${[...termVars(y)].join('_')}`;
    return this.param(name, `the product (${show(x)}) * (${show(y)})`, [x, y]);
  }

  /** The ops of a block, the terminator handed to `onTerminator`. */
  private lowerOps(block: Block, onTerminator: (op: Op) => void): void {
    const saveOut = this.out;
    const saveBlock = this.block;
    this.block = block;
    this.scopes.push(new Map());
    try {
      for (const op of block.ops) {
        const last = op === block.ops[block.ops.length - 1];
        if (last && /\.(yield|return)$/.test(op.name)) {
          this.at(op, () => onTerminator(op));
          continue;
        }
        this.at(op, () => this.lowerOp(op));
      }
    } finally {
      this.scopes.pop();
      this.out = saveOut;
      this.block = saveBlock;
    }
  }

  private at(op: Op, f: () => void): void {
    const save = this.op;
    this.op = op;
    this.seq++;
    try {
      f();
    } catch (e) {
      if (e instanceof Unsupported && !(e instanceof UnsupportedAt)) throw new UnsupportedAt(e, this.locOf(op));
      throw e;
    } finally {
      this.op = save;
    }
  }

  private lowerOp(op: Op): void {
    const entry = opEntry(op.name);
    if (entry === undefined) throw new Unsupported(op.name, '');
    if (op.successors.length > 0) throw new Unsupported(op.name, 'successors (unstructured control flow)');
    entry.lower(this, op);
  }

  /** The location of an op, with the call sites of the calls being inlined (as MLIR's inliner). */
  locOf(op: Op): Loc {
    let l = this.fileName ? renameFiles(op.loc, this.fileName) : op.loc;
    for (let k = this.callLocs.length - 1; k >= 0; k--) l = { kind: 'callsite', callee: l, caller: this.fileName ? renameFiles(this.callLocs[k]!, this.fileName) : this.callLocs[k]! };
    return l;
  }

  // ---------------------------------------------------------------------------------------------
  // SSA bindings

  private bind(name: string, b: Binding): void {
    this.scopes[this.scopes.length - 1]!.set(name, b);
  }

  private lookup(name: string): Binding {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const b = this.scopes[k]!.get(name);
      if (b !== undefined) return b;
    }
    throw new Unsupported('ssa', `the value ${name} is not defined where it is used`);
  }

  index(v: string): Term {
    const b = this.lookup(v);
    if (b.t === 'index') return b.term;
    if (b.t === 'opaque-index') throw new Unsupported('non-affine index', b.why);
    throw new Unsupported('ssa', `${v} is not an index`);
  }

  cond(v: string): Formula | null {
    const b = this.lookup(v);
    return b.t === 'value' ? b.cond : null;
  }

  value(v: string): KVal {
    const b = this.lookup(v);
    switch (b.t) {
      case 'value': return b.val;
      case 'index': return { k: 'index', term: b.term, type: 'i64' };
      case 'opaque-index':
        if (b.val === null) throw new Unsupported('non-affine index', b.why);
        return b.val;
      case 'lanes': throw new Unsupported('ssa', `${v} is a vector where a scalar is expected`);
      case 'view': throw new Unsupported('ssa', `${v} is a memref where a value is expected`);
    }
  }

  lanes(v: string): readonly KVal[] {
    const b = this.lookup(v);
    return b.t === 'lanes' ? b.lanes : [this.value(v)];
  }

  view(v: string): View {
    const b = this.lookup(v);
    if (b.t !== 'view') throw new Unsupported('ssa', `${v} is not a memref`);
    if (this.freed.has(b.view.array)) throw new Unsupported('memref.dealloc', `${v} used after its dealloc (undefined behaviour)`);
    return b.view;
  }

  bindIndex(r: string, t: Term): void {
    this.bind(r, { t: 'index', term: t });
  }

  bindOpaqueIndex(r: string, why: string, val: KVal | null): void {
    this.bind(r, { t: 'opaque-index', why, val });
  }

  bindValue(r: string, v: KVal, cond: Formula | null = null): void {
    this.bind(r, { t: 'value', val: v, cond: cond ?? (v.k === 'cond' ? v.cond : null) });
  }

  bindLanes(r: string, lanes: readonly KVal[]): void {
    this.bind(r, { t: 'lanes', lanes });
  }

  bindView(r: string, v: View): void {
    this.bind(r, { t: 'view', view: v });
  }

  scalar(t: MType): ValueType {
    return scalarType(t);
  }

  note(text: string): void {
    this.notes.push(text);
  }

  // ---------------------------------------------------------------------------------------------
  // Accesses

  private site(): Site {
    return { loops: [...this.loops], domain: andAll(this.guards), seq: this.seq++ };
  }

  private checkBounds(view: View, idx: readonly Term[]): void {
    if (idx.length !== view.shape.length) throw new Unsupported(this.op.name, `${idx.length} indices for a rank-${view.shape.length} memref`);
  }

  /** Every read made, to find those whose value no write uses (dead loads). */
  readonly loads: Extract<KVal, { k: 'load' }>[] = [];

  load(view: View, idx: readonly Term[]): KVal {
    this.checkBounds(view, idx);
    const arr = this.arrays.find((a) => a.name === view.array)!;
    const l: KVal = { k: 'load', id: this.nextId++, array: view.array, index: view.at(idx), site: this.site(), loc: this.locOf(this.op), type: arr.elem, op: this.op.name };
    this.loads.push(l);
    return l;
  }

  store(view: View, idx: readonly Term[], value: KVal, part?: string): void {
    this.checkBounds(view, idx);
    let v = value;
    if (this.dataGuards.length > 0) {
      // A conditional store: the cell keeps its value where a condition fails, the outermost
      // condition outermost (the form `sched run --conditional-stores` reads as `if (c) store`).
      const old = this.load(view, idx);
      for (let k = this.dataGuards.length - 1; k >= 0; k--) v = { k: 'select', c: this.dataGuards[k]!, a: v, b: old, type: old.k === 'load' ? old.type : 'f32' };
    }
    const s: KStore = { kind: 'store', id: this.nextId++, array: view.array, index: view.at(idx), value: v, site: this.site(), loc: this.locOf(this.op), op: this.op.name, ...(part ? { part } : {}), ...(this.dataGuards.length > 0 ? { guarded: true } : {}) };
    this.out.push(s);
  }

  /** Conditions on data around the ops being lowered (outermost first). */
  private readonly dataGuards: KVal[] = [];

  dataBranch(cond: KVal): void {
    const op = this.op;
    // Results: cells given a value first (0), so that the conditional stores of the branches
    // never read an undefined cell.
    const cells = op.results.map((_, k) => {
      const t = op.resultTypes[k]!;
      const elem = this.scalar(t.kind === 'vector' ? t.elem : t);
      const zero: KVal = { k: 'const', type: elem, value: elem === 'bool' ? false : elem === 'f32' || elem === 'f64' ? 0 : 0n };
      return this.cellsFor(t, `result ${k} of ${op.name}`, Array.from({ length: t.kind === 'vector' ? t.shape.reduce((a, b) => a * b, 1) : 1 }, () => zero));
    });
    const run = (k: number, c: KVal): void => {
      const r = op.regions[k];
      if (!r || r.blocks.length === 0) {
        if (cells.length > 0) throw new Unsupported(op.name, 'results without an else region');
        return;
      }
      if (r.blocks.length > 1) throw new Unsupported(op.name, 'a region of several blocks');
      this.dataGuards.push(c);
      try {
        this.lowerOps(r.blocks[0]!, (term) => {
          if (term.operands.length !== cells.length) throw new Unsupported(term.name, 'yields a different number of values than the op has results');
          term.operands.forEach((v, j) => this.lanes(v).forEach((x, lane) => this.store(cells[j]![lane]!, [], x)));
        });
      } finally {
        this.dataGuards.pop();
      }
    };
    run(0, cond);
    run(1, { k: 'un', op: '!', a: cond, type: 'bool' });
    op.results.forEach((r, k) => this.bindCells(r, op.resultTypes[k]!, cells[k]!));
  }

  guardedLoad(view: View, idx: readonly Term[], cond: Formula, pad: KVal): KVal {
    const c = simplify(cond);
    if (c.kind === 'true') return this.load(view, idx);
    const cell = this.cell(view.elem, 'a guarded lane');
    this.ifNode(c, () => this.store(cell, [], this.load(view, idx)), () => this.store(cell, [], pad));
    return this.load(cell, []);
  }

  guardedStore(view: View, idx: readonly Term[], value: KVal, cond: Formula, part: string): void {
    const c = simplify(cond);
    if (c.kind === 'true') return this.store(view, idx, value, part);
    if (c.kind === 'false') return;
    this.ifNode(c, () => this.store(view, idx, value, part), () => undefined);
  }

  private ifNode(cond: Formula, then: () => void, els: () => void): void {
    const seq = this.seq;
    const saveOut = this.out;
    const t: KNode[] = [];
    const e: KNode[] = [];
    this.out = t;
    this.guards.push(cond);
    try {
      then();
    } finally {
      this.guards.pop();
    }
    this.out = e;
    this.guards.push(not(cond));
    try {
      els();
    } finally {
      this.guards.pop();
      this.out = saveOut;
    }
    this.out.push({ kind: 'if', cond, then: t, else: e, loc: this.locOf(this.op), seq });
  }

  // ---------------------------------------------------------------------------------------------
  // Arrays

  alloc(elem: ValueType, dims: readonly Term[], mtype: MType): View {
    const name = this.addArray('buf', elem, dims, { kind: 'alloc', loc: this.locOf(this.op), op: this.op.name }, mtype);
    this.allocs.set(name, { block: this.block, depth: this.loops.length });
    this.openScope(name);
    return rootView(name, elem, dims);
  }

  /** A cell: a 0-dimensional array for an SSA value, allocated for the rest of the block. */
  private cell(elem: ValueType, what: string): View {
    const name = this.addArray('cell', elem, [], { kind: 'cell', loc: this.locOf(this.op), what }, { kind: 'other', text: elem });
    this.openScope(name);
    return rootView(name, elem, []);
  }

  private openScope(array: string): void {
    const body: KNode[] = [];
    this.out.push({ kind: 'alloc', array, body, seq: this.seq });
    this.out = body;
  }

  dealloc(view: View): void {
    if (this.argArrays.has(view.array)) throw new Unsupported('memref.dealloc', 'of a function argument');
    const info = this.allocs.get(view.array);
    if (!info || info.block !== this.block || info.depth !== this.loops.length) throw new Unsupported('memref.dealloc', 'in another block than its alloc');
    this.freed.add(view.array);
  }

  linearView(view: View, offset: Term, sizes: readonly Term[], strides: readonly Term[]): View {
    const root = this.arrays.find((a) => a.name === view.array)!;
    if (root.dims.some((d) => d.parts.length > 0)) throw new Unsupported(this.op.name, 'a buffer of dynamic shape');
    const rs = root.dims.map((d) => d.c);
    const rowMajor: bigint[] = [];
    let acc = 1n;
    for (let d = rs.length - 1; d >= 0; d--) {
      rowMajor.unshift(acc);
      acc *= rs[d]!;
    }
    // The same layout as the root from its first element: the root's own indices.
    const same = offset.parts.length === 0 && offset.c === 0n && sizes.length === rs.length && sizes.every((s, d) => s.parts.length === 0 && s.c === rs[d]) && strides.every((s, d) => s.parts.length === 0 && s.c === rowMajor[d]);
    if (same) return { ...rootView(view.array, view.elem, root.dims), contiguous: true };
    const contiguous = offset.parts.length === 0 && offset.c === 0n && strides.every((s, d) => s.parts.length === 0 && s.c === sizes.slice(d + 1).reduce((p, x) => p * (x.parts.length === 0 ? x.c : 0n), 1n));
    return {
      array: view.array,
      elem: view.elem,
      shape: sizes,
      contiguous,
      at: (idx) => {
        let lin: Term = offset;
        idx.forEach((x, d) => {
          const st = strides[d]!;
          if (st.parts.length > 0) throw new Unsupported(this.op.name, 'a stride that is not a constant');
          lin = linear([[lin, 1n], [x, st.c]]);
        });
        return rowMajor.map((st, d) => (d === 0 ? floor(lin, st) : mod(floor(lin, st), rs[d]!)));
      },
    };
  }

  extent(view: View, d: number): Term {
    return view.shape[d]!;
  }

  // ---------------------------------------------------------------------------------------------
  // Structure

  loop(l: { band: readonly Band[]; parallel: boolean; inits: readonly string[] }): void {
    const op = this.op;
    if (this.dataGuards.length > 0) throw new Unsupported(op.name, 'a loop under a condition that depends on data');
    const region = op.regions[0];
    if (!region || region.blocks.length !== 1) throw new Unsupported(op.name, 'a body that is not one block');
    const body = region.blocks[0]!;
    const n = l.band.length;
    if (body.args.length !== n + l.inits.length) throw new Unsupported(op.name, 'block arguments do not match the ivs and iter_args');
    if (op.results.length !== l.inits.length) throw new Unsupported(op.name, 'results do not match the iter_args');
    // Cells for the iter_args, one per lane, written with the inits before the loop.
    const cells = l.inits.map((v, k) => this.cellsFor(body.args[n + k]!.type, `iter_arg ${k}`, this.lanes(v)));
    const saveOut = this.out;
    const ivs: Term[] = [];
    const made: MutLoop[] = [];
    for (let k = 0; k < n; k++) {
      const b = l.band[k]!;
      if (b.lbs.length === 0 || b.ubs.length === 0) throw new Unsupported(op.name, 'a loop without bounds');
      const argName = body.args[k]!.name.replace(/^%/, '');
      const iv = this.fresh(/^arg\d+$/.test(argName) ? `i${argName.slice(3)}` : `i_${argName.replace(/[^A-Za-z0-9_]/g, '')}`);
      const loop: MutLoop = { kind: 'loop', id: this.nextId++, iv, lbs: b.lbs, ubs: b.ubs, step: b.step, parallel: l.parallel, body: [], loc: this.locOf(op), op: op.name, seq: this.seq };
      this.out.push(loop);
      this.out = loop.body;
      this.loops.push(loop);
      made.push(loop);
      const x = variable(iv);
      const lb = b.lbs.length === 1 ? b.lbs[0]! : max(...b.lbs);
      this.guards.push(andAll([...b.lbs.map((t) => geT(x, t)), ...b.ubs.map((t) => ltT(x, t)), ...(b.step > 1n ? [cong(sub(x, lb), b.step)] : [])]));
      ivs.push(x);
    }
    try {
      this.scopes.push(new Map());
      body.args.slice(0, n).forEach((a, k) => this.bind(a.name, { t: 'index', term: ivs[k]! }));
      cells.forEach((cs, k) => this.bindCells(body.args[n + k]!.name, body.args[n + k]!.type, cs));
      this.lowerOps(body, (term) => {
        if (term.operands.length !== cells.length) throw new Unsupported(term.name, 'yields a different number of values than the loop carries');
        term.operands.forEach((v, k) => this.lanes(v).forEach((x, lane) => this.store(cells[k]![lane]!, [], x, cells[k]!.length > 1 ? `lane ${lane}` : undefined)));
      });
    } finally {
      this.scopes.pop();
      for (let k = 0; k < n; k++) {
        this.loops.pop();
        this.guards.pop();
      }
      this.out = saveOut;
    }
    op.results.forEach((r, k) => this.bindCells(r, op.resultTypes[k]!, cells[k]!));
  }

  /** Cells for a value of type t (one per lane), initialised with `init` when given. */
  private cellsFor(t: MType, what: string, init: readonly KVal[] | null): View[] {
    const lanes = t.kind === 'vector' ? t.shape.reduce((a, b) => a * b, 1) : 1;
    const elem = this.scalar(t.kind === 'vector' ? t.elem : t);
    return Array.from({ length: lanes }, (_, k) => {
      const c = this.cell(elem, what);
      if (init) this.store(c, [], init[k]!, lanes > 1 ? `lane ${k}` : undefined);
      return c;
    });
  }

  private bindCells(name: string, t: MType, cells: readonly View[]): void {
    const vals = cells.map((c) => this.load(c, []));
    if (t.kind === 'vector') this.bindLanes(name, vals);
    else this.bindValue(name, vals[0]!);
  }

  branch(cond: Formula): void {
    const op = this.op;
    const cells = op.results.map((_, k) => this.cellsFor(op.resultTypes[k]!, `result ${k} of ${op.name}`, null));
    const region = (k: number): Block | null => {
      const r = op.regions[k];
      if (!r || r.blocks.length === 0) return null;
      if (r.blocks.length > 1) throw new Unsupported(op.name, 'a region of several blocks');
      return r.blocks[0]!;
    };
    const yieldTo = (term: Op): void => {
      if (term.operands.length !== cells.length) throw new Unsupported(term.name, 'yields a different number of values than the op has results');
      term.operands.forEach((v, k) => this.lanes(v).forEach((x, lane) => this.store(cells[k]![lane]!, [], x)));
    };
    const run = (b: Block | null): void => {
      if (b === null) {
        if (cells.length > 0) throw new Unsupported(op.name, 'results without an else region');
        return;
      }
      this.lowerOps(b, yieldTo);
    };
    this.ifNode(cond, () => run(region(0)), () => run(region(1)));
    op.results.forEach((r, k) => this.bindCells(r, op.resultTypes[k]!, cells[k]!));
  }

  call(callee: string, args: readonly string[]): void {
    const op = this.op;
    const f = this.funcs.get(callee);
    if (!f || f.regions.length === 0 || f.regions[0]!.blocks.length === 0) throw new Unsupported('func.call', `@${callee} has no body in the module`);
    if (this.calling.includes(callee)) throw new Unsupported('func.call', `recursive call of @${callee}`);
    const region = f.regions[0]!;
    if (region.blocks.length > 1) throw new Unsupported('func.call', `@${callee} has several blocks`);
    const block = region.blocks[0]!;
    if (block.args.length !== args.length) throw new Unsupported('func.call', `@${callee} takes ${block.args.length} arguments, given ${args.length}`);
    const bound = args.map((a) => this.lookup(a));
    const saveScopes = this.scopes.splice(0, this.scopes.length, new Map());
    this.callLocs.push(op.loc);
    this.calling.push(callee);
    let returned: Binding[] = [];
    try {
      block.args.forEach((a, k) => this.bind(a.name, bound[k]!));
      this.lowerOps(block, (term) => {
        if (term.name !== 'func.return') throw new Unsupported(term.name, 'a terminator other than func.return');
        returned = term.operands.map((v) => this.lookup(v));
      });
    } finally {
      this.callLocs.pop();
      this.calling.pop();
      this.scopes.splice(0, this.scopes.length, ...saveScopes);
    }
    if (returned.length !== op.results.length) throw new Unsupported('func.call', 'result count differs from the callee’s return');
    op.results.forEach((r, k) => this.bind(r, returned[k]!));
  }

  copy(from: View, to: View, count: readonly Term[]): void {
    if (from.shape.length !== to.shape.length) throw new Unsupported(this.op.name, 'source and target ranks differ');
    this.nest(count, (idx) => this.store(to, idx, this.load(from, idx)));
  }

  dma(src: View, srcAt: readonly Term[], dst: View, dstAt: readonly Term[], n: bigint): void {
    const strides = (v: View): bigint[] => {
      const s: bigint[] = [];
      let acc = 1n;
      for (let d = v.shape.length - 1; d >= 0; d--) {
        const e = v.shape[d]!;
        if (e.parts.length > 0) throw new Unsupported('affine.dma_start', 'a memref of dynamic shape');
        s.unshift(acc);
        acc *= e.c;
      }
      return s;
    };
    const ss = strides(src);
    const ds = strides(dst);
    const at = (v: View, base: readonly Term[], st: bigint[], e: Term): Term[] => {
      let lin: Term = e;
      base.forEach((b, d) => { lin = linear([[lin, 1n], [b, st[d]!]]); });
      return st.map((s, d) => (d === 0 ? floor(lin, s) : mod(floor(lin, s), v.shape[d]!.c)));
    };
    this.nest([constant(n)], ([e]) => this.store(dst, at(dst, dstAt, ds, e!), this.load(src, at(src, srcAt, ss, e!))));
  }

  /** Loops 0 ≤ idx < count (the op's own, e.g. the elements of a copy). */
  private nest(count: readonly Term[], body: (idx: Term[]) => void): void {
    const saveOut = this.out;
    const idx: Term[] = [];
    let depth = 0;
    try {
      for (const c of count) {
        const iv = this.fresh('e');
        const loop: MutLoop = { kind: 'loop', id: this.nextId++, iv, lbs: [constant(0n)], ubs: [c], step: 1n, parallel: false, body: [], loc: this.locOf(this.op), op: this.op.name, seq: this.seq };
        this.out.push(loop);
        this.out = loop.body;
        this.loops.push(loop);
        this.guards.push(and(geT(variable(iv), constant(0n)), ltT(variable(iv), c)));
        depth++;
        idx.push(variable(iv));
      }
      body(idx);
    } finally {
      for (let k = 0; k < depth; k++) {
        this.loops.pop();
        this.guards.pop();
      }
      this.out = saveOut;
    }
  }
}


function rootView(array: string, elem: ValueType, dims: readonly Term[]): View {
  return { array, elem, shape: dims, at: (idx) => [...idx], contiguous: true };
}

/** The function to validate: `name`, or the only function with a body that no other one calls. */
export function pickFunction(mod: Module, name?: string): { func: Op; funcs: Map<string, Op> } {
  const funcs = new Map<string, Op>();
  for (const r of mod.op.regions) for (const b of r.blocks) for (const op of b.ops) {
    if (op.name !== 'func.func') continue;
    const s = op.attrs.get('sym_name');
    if (s?.kind === 'string') funcs.set(s.value, op);
  }
  if (name !== undefined) {
    const f = funcs.get(name);
    if (!f) throw new Unsupported('func.func', `no function @${name} in the module (there ${funcs.size === 1 ? 'is' : 'are'} ${[...funcs.keys()].map((n) => `@${n}`).join(', ') || 'none'})`);
    return { func: f, funcs };
  }
  const called = new Set<string>();
  const walk = (op: Op): void => {
    if (op.name === 'func.call') {
      const c = op.attrs.get('callee');
      if (c?.kind === 'symbol') called.add(c.name);
    }
    for (const r of op.regions) for (const b of r.blocks) for (const o of b.ops) walk(o);
  };
  for (const f of funcs.values()) walk(f);
  const roots = [...funcs].filter(([n, f]) => !called.has(n) && f.regions.length > 0 && f.regions[0]!.blocks.length > 0);
  if (roots.length !== 1) throw new Unsupported('func.func', roots.length === 0 ? 'no function with a body' : `several functions (${roots.map(([n]) => `@${n}`).join(', ')}): choose one with --func`);
  return { func: roots[0]![1], funcs };
}

/**
 * Lower one function of a module. `fileName` renames the files of locations (the module was read
 * from stdin, where mlir-opt calls the file `<stdin>`).
 */
export function lowerFunction(mod: Module, name?: string, fileName: ((f: string) => string) | null = null, argNames: ((func: string) => readonly string[] | null) | null = null): Kernel {
  const { func, funcs } = pickFunction(mod, name);
  const body: KNode[] = [];
  const sym0 = func.attrs.get('sym_name');
  const names = argNames && sym0?.kind === 'string' ? argNames(sym0.value) : null;
  const l = new Lowering(funcs, body, fileName, names && names.length === func.regions[0]?.blocks[0]?.args.length ? names : null);
  const sym = func.attrs.get('sym_name');
  try {
    l.lowerFunc(func);
  } catch (e) {
    if (e instanceof Unsupported && !(e instanceof UnsupportedAt)) throw new UnsupportedAt(e, fileName ? renameFiles(func.loc, fileName) : func.loc);
    throw e;
  }
  // A read whose value no write uses is not translated (it writes nothing); say so, since an
  // out-of-bounds or uninitialised read there is undefined behaviour the verdict does not cover.
  const used = new Set(storesOf(body).flatMap((s) => loadsOf(s.value).map((x) => x.id)));
  const dead = l.loads.filter((x) => !used.has(x.id));
  const deadLocs = [...new Set(dead.map((x) => showLoc(x.loc)))];
  if (deadLocs.length > 0) l.notes.push(`${dead.length} read(s) whose value no write uses were not translated (their accesses are not checked): at ${deadLocs.slice(0, 5).join(', ')}${deadLocs.length > 5 ? ', …' : ''}`);
  return { name: sym?.kind === 'string' ? sym.value : 'main', params: l.params, arrays: l.arrays, body, notes: l.notes };
}

