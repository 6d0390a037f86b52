// Memories μ (thesis §4.2): maps from locations ℓ = a[n1, …, nn] to 𝒰 ⊎ {⊥}, whose domain is the
// set of in-bounds cells of the arrays in scope. We store each array instance in typed storage
// (one typed array of its element type plus a "written" byte per cell, 0 meaning ⊥) and name a
// location by one integer, its key: the instance's base plus the row-major offset of the cell.
// Bases come from one counter per run, so keys of distinct instances never collide: two threads'
// copies of a local array, or an array shadowing another of the same name, are distinct instances
// (the Barendregt convention the thesis assumes for `allocate`).

import type { Pos, ValueType } from '../core/language/ast.ts';
import type { Int } from './int.ts';
import { showValue, type Bot, type Value } from './values.ts';

export type Storage =
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

export function newStorage(t: ValueType, n: number): Storage {
  switch (t) {
    case 'f32':
      return new Float32Array(n);
    case 'f64':
      return new Float64Array(n);
    case 'i8':
      return new Int8Array(n);
    case 'i16':
      return new Int16Array(n);
    case 'i32':
      return new Int32Array(n);
    case 'u8':
    case 'bool':
      return new Uint8Array(n);
    case 'u16':
      return new Uint16Array(n);
    case 'u32':
      return new Uint32Array(n);
    case 'i64':
      return new BigInt64Array(n);
    case 'u64':
      return new BigUint64Array(n);
  }
}

/** The contents of one array instance: values and the written (non-⊥) flags. */
export class Cells {
  constructor(
    readonly data: Storage,
    readonly def: Uint8Array,
    /** For sparse contents (sparseCells): a copy of them. */
    private readonly copy: (() => Cells) | null = null,
  ) {}
  static empty(t: ValueType, n: number): Cells {
    return new Cells(newStorage(t, n), new Uint8Array(n));
  }
  clone(): Cells {
    return this.copy ? this.copy() : new Cells(this.data.slice() as Storage, this.def.slice());
  }
}

/**
 * Arrays of at least this many cells are sparse in a run that asks for it (Space's `sparseFrom`):
 * a slice (semantics/slice.ts) of a kernel whose sizes are too large to hold runs one iteration,
 * which touches a few cells of arrays of millions or billions (a counterexample at N = 2^31).
 * Below it an array is dense while the space's cap allows: a sparse cell costs a proxy trap with
 * a string key and a map lookup per access (about 5 µs), and a slice of sgemm1024 that runs 504
 * iterations of its reduction over 1024 × 1024 arrays spent 17 s there.
 */
export const SPARSE_CELLS = 1 << 22;

/** The largest extent of one dimension of a sparse array (offsets stay safe integers). */
export const SPARSE_MAX_EXTENT = 2 ** 46;

/** A cell key of a proxy's property, or -1 for any other property. */
function cellKey(p: string | symbol): number {
  if (typeof p !== 'string') return -1;
  const k = Number(p);
  return Number.isInteger(k) && k >= 0 ? k : -1;
}

/**
 * Contents held in maps, that the generated code indexes like typed storage (`c[k]`, `d[k]`):
 * a value is stored as a typed array of the element type would store it (the conversion goes
 * through a one-cell typed array). `initial(k)` gives the value cell k holds before any write
 * (an input's binding), or undefined for ⊥; it is asked once per cell, when first needed.
 */
export function sparseCells(t: ValueType, initial: ((k: number) => Value | undefined) | null): Cells {
  return sparseFrom(t, initial, new Map(), new Map(), new Map());
}

function sparseFrom(t: ValueType, initial: ((k: number) => Value | undefined) | null, vals: Map<number, number | bigint>, defs: Map<number, number>, first: Map<number, number | bigint | undefined>): Cells {
  const conv = newStorage(t, 1);
  const zero = newStorage(t, 1)[0]!;
  const store = (v: unknown): number | bigint => {
    (conv as unknown as unknown[])[0] = t === 'bool' && typeof v === 'boolean' ? (v ? 1 : 0) : v;
    return conv[0]!;
  };
  const initialAt = (k: number): number | bigint | undefined => {
    if (initial === null) return undefined;
    if (!first.has(k)) {
      const v = initial(k);
      first.set(k, v === undefined ? undefined : store(v));
    }
    return first.get(k);
  };
  const data = new Proxy({} as Record<string, unknown>, {
    get: (_, p) => {
      const k = cellKey(p);
      if (k < 0) return undefined;
      return vals.has(k) ? vals.get(k) : (initialAt(k) ?? zero);
    },
    set: (_, p, v) => {
      const k = cellKey(p);
      if (k >= 0) vals.set(k, store(v));
      return true;
    },
  }) as unknown as Storage;
  const def = new Proxy({} as Record<string, unknown>, {
    get: (_, p) => {
      const k = cellKey(p);
      if (k < 0) return undefined;
      return defs.has(k) ? defs.get(k) : initialAt(k) === undefined ? 0 : 1;
    },
    set: (_, p, v) => {
      const k = cellKey(p);
      if (k >= 0) defs.set(k, Number(v));
      return true;
    },
  }) as unknown as Uint8Array;
  return new Cells(data, def, () => sparseFrom(t, initial, new Map(vals), new Map(defs), first));
}

/** Zero-filled 32-bit records for n cells (race tracking), sparse for a sparse array. */
export function recordArray(n: number, sparse: boolean): Int32Array {
  if (!sparse) return new Int32Array(n);
  const m = new Map<number, number>();
  return new Proxy({} as Record<string, unknown>, {
    get: (_, p) => {
      const k = cellKey(p);
      return k < 0 ? undefined : (m.get(k) ?? 0);
    },
    set: (_, p, v) => {
      const k = cellKey(p);
      if (k >= 0) m.set(k, Number(v) | 0);
      return true;
    },
  }) as unknown as Int32Array;
}

/** Zero-filled flags for n cells, sparse for a sparse array. */
export function flagArray(n: number, sparse: boolean): Uint8Array {
  return sparse ? (recordArray(n, true) as unknown as Uint8Array) : new Uint8Array(n);
}

/** Read cell k of `c` as a value of type t, or ⊥. */
export function getCell(c: Cells, t: ValueType, k: number): Value | Bot {
  if (c.def[k] === 0) return undefined;
  const v = c.data[k]!;
  return t === 'bool' ? v !== 0 : v;
}

export function setCell(c: Cells, t: ValueType, k: number, v: Value): void {
  if (t === 'bool') (c.data as Uint8Array)[k] = v ? 1 : 0;
  else (c.data as unknown as Value[])[k] = v;
  c.def[k] = 1;
}

export function clearCell(c: Cells, k: number): void {
  c.def[k] = 0;
}

/** The identity and shape of one array instance (contents live elsewhere: `cells` or a store). */
export class ArrayRef {
  readonly size: number;
  readonly strides: readonly number[];
  /** Big-step: the contents, updated in place. Unused by the small-step (its stores are maps). */
  cells: Cells | null = null;
  /** Big-step race tracking (see bigstep.ts): per `par` level, a packed record per cell. */
  track: (Int32Array | undefined)[] | null = null;
  /** Big-step ω tracking (optional write-set variant): per level, first value and flags. */
  omega: ({ vals: (Value | Bot)[]; distinct: Uint8Array } | undefined)[] | null = null;
  /** Its contents and race records live in maps (see SPARSE_CELLS): set by Space.alloc. */
  sparse = false;
  constructor(
    /** Unique within a run (ids are allocated in order, so they are deterministic). */
    readonly id: number,
    readonly name: string,
    readonly elem: ValueType,
    readonly dims: readonly number[],
    /** Key of cell 0; the key of cell k is base + k. */
    readonly base: number,
    /** Declared in the implementation's header (input/output/array), or allocated. */
    readonly global: boolean,
    /** Where it is declared or allocated. */
    readonly pos: Pos,
    /** Number of enclosing `par` loops when it was allocated (big-step race tracking). */
    readonly parDepth: number,
  ) {
    const strides: number[] = new Array(dims.length);
    let s = 1;
    for (let i = dims.length - 1; i >= 0; i--) {
      strides[i] = s;
      s *= dims[i]!;
    }
    this.strides = strides;
    this.size = s;
  }

  /** Row-major offset of an index tuple, or -1 when it is out of bounds. */
  offset(idx: readonly Int[]): number {
    let k = 0;
    for (let i = 0; i < idx.length; i++) {
      const x = idx[i]!;
      if (typeof x !== 'number' || x < 0 || x >= this.dims[i]!) return -1;
      k += x * this.strides[i]!;
    }
    return k;
  }

  /** The index tuple of offset k. */
  indexOf(k: number): number[] {
    const out: number[] = new Array(this.dims.length);
    for (let i = 0; i < this.dims.length; i++) {
      const s = this.strides[i]!;
      out[i] = Math.floor(k / s);
      k -= out[i]! * s;
    }
    return out;
  }

  /** A short label: the name, plus `#id` for allocated (local) instances. */
  label(): string {
    return this.global ? this.name : `${this.name}#${this.id}`;
  }

  /** `a[1, 2]` (or `b#7[3]` for a local instance). */
  showLoc(k: number): string {
    return `${this.label()}[${this.indexOf(k).join(', ')}]`;
  }
}

/** `a[i, j]` for an index tuple that may be out of bounds. */
export function showAccess(name: string, idx: readonly Int[]): string {
  return `${name}[${idx.map(String).join(', ')}]`;
}

/**
 * Allocates array instances: ids and bases, with a cap on the total number of cells. With
 * `sparseFrom`, an array of at least that many cells is sparse (its contents in maps: see
 * sparseCells) and does not count against the cap: only the cells a run touches cost memory.
 */
export class Space {
  private nextId = 1;
  private nextBase = 0;
  cells = 0;
  constructor(
    readonly maxCells: number,
    readonly sparseFrom: number | null = null,
  ) {}

  /**
   * Whether an array of `size` cells is sparse in this space: from `sparseFrom` cells on, or when
   * the dense cells already allocated leave no room for it (a sparse space never runs out).
   */
  isSparse(size: number): boolean {
    return this.sparseFrom !== null && (size >= this.sparseFrom || this.cells + size > this.maxCells);
  }

  /** The largest extent of a dimension this space allocates. */
  get maxExtent(): number {
    return this.sparseFrom === null ? 0x7fffffff : SPARSE_MAX_EXTENT;
  }

  /** Null when the cap would be exceeded. */
  alloc(name: string, elem: ValueType, dims: readonly number[], global: boolean, pos: Pos, parDepth: number): ArrayRef | null {
    let size = 1;
    for (const d of dims) size *= d;
    const sparse = this.isSparse(size);
    if (!Number.isSafeInteger(size) || !Number.isSafeInteger(this.nextBase + size) || (!sparse && this.cells + size > this.maxCells)) return null;
    const ref = new ArrayRef(this.nextId++, name, elem, dims, this.nextBase, global, pos, parDepth);
    ref.sparse = sparse;
    this.nextBase += Math.max(size, 1);
    if (!sparse) this.cells += size;
    return ref;
  }

  /** Empty contents (every cell ⊥) for an instance. */
  emptyCells(ref: ArrayRef): Cells {
    return ref.sparse ? sparseCells(ref.elem, null) : Cells.empty(ref.elem, ref.size);
  }

  /** Give back the cells of a local instance (its key range is never reused). */
  free(ref: ArrayRef): void {
    if (!ref.sparse) this.cells -= ref.size;
  }
}

/** A memory as seen from outside: every global array with its cells. */
export interface MemorySnapshot {
  readonly arrays: ReadonlyMap<string, { readonly ref: ArrayRef; readonly cells: Cells }>;
}

/** Human-readable dump of an array's contents (small arrays: tests and `sched step`). */
export function showCells(ref: ArrayRef, c: Cells, limit = 64): string {
  const parts: string[] = [];
  for (let k = 0; k < ref.size && k < limit; k++) {
    parts.push(showValue(getCell(c, ref.elem, k)));
  }
  if (ref.size > limit) parts.push(`… (${ref.size} cells)`);
  return `${ref.label()} = [${parts.join(', ')}]`;
}
