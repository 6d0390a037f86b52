// The front end's form of one MLIR function: what compilers/mlir/lower.ts makes of the ops through
// the operation table (compilers/mlir/ops.ts), and what the spec (dataflow.ts) and the
// implementation (impl.ts) are built from. Index arithmetic is quasi-affine Presburger terms over
// the loop variables and the parameters; values are SCHED-like expressions whose leaves are
// loads, so a value is read where its load op stands (see `Load.seq`).
//
// SSA values that live across iterations (iter_args, results of `affine.if`/`scf.if`) are kept in
// *cells*: 0-dimensional arrays the front end adds, written where the value is defined (the init
// and every `yield`) and read where it is used. Their writes are statements like any store.

import type { Formula, Term } from '../../core/presburger/index.ts';
import type { ValueType } from '../../core/language/ast.ts';
import type { Loc, MType } from './ir.ts';

/** Where a kernel array comes from. */
export type ArrayOrigin =
  /** A memref argument of the function (its position). */
  | { readonly kind: 'arg'; readonly index: number }
  /** A scalar argument (f32, i32, …), read as a 0-dimensional input. */
  | { readonly kind: 'scalar'; readonly index: number }
  /** `memref.alloc` / `memref.alloca`, by the location of the op. */
  | { readonly kind: 'alloc'; readonly loc: Loc; readonly op: string }
  /** A cell holding an SSA value (iter_arg, `if` result): the location of the op that defines it. */
  | { readonly kind: 'cell'; readonly loc: Loc; readonly what: string };

export interface KArray {
  /** The SCHED name. */
  readonly name: string;
  readonly elem: ValueType;
  /** Extents, over the parameters. */
  readonly dims: readonly Term[];
  readonly origin: ArrayOrigin;
  /** The MLIR type it came from (for messages and the harness). */
  readonly mtype: MType;
  /** For an argument: the input tensor of its initial contents (the output is `<tensor>_out`). */
  readonly tensor?: string;
}

export interface KParam {
  readonly name: string;
  /** What it is in MLIR terms (`extent 1 of %arg2`, `index argument %arg3`). */
  readonly what: string;
  /** For an index argument: its position. */
  readonly arg?: number;
  /** A product of parameters (a semi-affine symbol product): its value is a · b. */
  readonly product?: readonly [Term, Term];
}

/** A loop: `iv` runs from max(lbs) to min(ubs) − 1 by `step` (> 0). */
export interface KLoop {
  readonly kind: 'loop';
  readonly id: number;
  readonly iv: string;
  readonly lbs: readonly Term[];
  readonly ubs: readonly Term[];
  readonly step: bigint;
  readonly parallel: boolean;
  readonly body: readonly KNode[];
  readonly loc: Loc;
  readonly op: string;
  /** The op's place in the order (see Site.seq). */
  readonly seq: number;
}

export interface KIf {
  readonly kind: 'if';
  readonly cond: Formula;
  readonly then: readonly KNode[];
  readonly else: readonly KNode[];
  readonly loc: Loc;
  readonly seq: number;
}

/** Where an access stands: its enclosing loops (outermost first), its guard, its place in the order. */
export interface Site {
  readonly loops: readonly KLoop[];
  /** Loop bounds and `if` conditions around it, over the loops' ivs and the parameters. */
  readonly domain: Formula;
  /** Program order within one iteration of the common loops: ops are numbered as they appear. */
  readonly seq: number;
}

/** A write of one cell: `array[index] := value`. */
export interface KStore {
  readonly kind: 'store';
  readonly id: number;
  readonly array: string;
  readonly index: readonly Term[];
  readonly value: KVal;
  readonly site: Site;
  /** The location of the op, with the call sites of inlined calls around it. */
  readonly loc: Loc;
  /** The op it came from (`affine.store`, `memref.copy`, `affine.yield` for a cell, …). */
  readonly op: string;
  /** Lane of a vector op or element of a copy (for messages). */
  readonly part?: string;
  /** Under an if on data: the value is select(c, v, old value of the cell). */
  readonly guarded?: boolean;
}

/** An allocation: the array exists in `body` (the rest of its block, or up to its dealloc). */
export interface KAlloc {
  readonly kind: 'alloc';
  readonly array: string;
  readonly body: readonly KNode[];
  readonly seq: number;
}

export type KNode = KLoop | KIf | KStore | KAlloc;

export type KVal =
  | { readonly k: 'load'; readonly id: number; readonly array: string; readonly index: readonly Term[]; readonly site: Site; readonly loc: Loc; readonly type: ValueType; readonly op: string }
  | { readonly k: 'const'; readonly type: ValueType; readonly value: number | bigint | boolean }
  /** An affine index as a value (`arith.index_cast`): its integer value, wrapped to `type`. */
  | { readonly k: 'index'; readonly term: Term; readonly type: ValueType }
  /** An affine condition as a value (`arith.cmpi` on indices used as an i1). */
  | { readonly k: 'cond'; readonly cond: Formula }
  | { readonly k: 'un'; readonly op: '-' | '!'; readonly a: KVal; readonly type: ValueType }
  | { readonly k: 'bin'; readonly op: KBinOp; readonly a: KVal; readonly b: KVal; readonly type: ValueType }
  | { readonly k: 'select'; readonly c: KVal; readonly a: KVal; readonly b: KVal; readonly type: ValueType }
  /** A SCHED cast (`f32(x)`, `u32(x)`): the meaning of docs/language.md's cast table. */
  | { readonly k: 'cast'; readonly to: ValueType; readonly a: KVal }
  | { readonly k: 'call'; readonly fn: 'min' | 'max' | 'abs' | 'sqrt' | 'exp' | 'log' | 'pow' | 'floor' | 'ceil'; readonly args: readonly KVal[]; readonly type: ValueType };

export type KBinOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

export function typeOf(v: KVal): ValueType {
  switch (v.k) {
    case 'cond': return 'bool';
    case 'cast': return v.to;
    case 'bin': return ['==', '!=', '<', '<=', '>', '>=', '&&', '||'].includes(v.op) ? 'bool' : v.type;
    default: return v.type;
  }
}

/** One MLIR function, lowered. */
export interface Kernel {
  readonly name: string;
  readonly params: readonly KParam[];
  /** Arguments' arrays first (in argument order), then allocations and cells. */
  readonly arrays: readonly KArray[];
  readonly body: readonly KNode[];
  /** Things the translation did that a reader should know (dead loads dropped, …). */
  readonly notes: readonly string[];
}

/** Every store of a node list, in program order. */
export function storesOf(nodes: readonly KNode[], out: KStore[] = []): KStore[] {
  for (const n of nodes) {
    if (n.kind === 'store') out.push(n);
    else if (n.kind === 'loop' || n.kind === 'alloc') storesOf(n.body, out);
    else {
      storesOf(n.then, out);
      storesOf(n.else, out);
    }
  }
  return out;
}

/** Every load a value reads. */
export function loadsOf(v: KVal, out: Extract<KVal, { k: 'load' }>[] = []): Extract<KVal, { k: 'load' }>[] {
  switch (v.k) {
    case 'load': out.push(v); break;
    case 'un': case 'cast': loadsOf(v.a, out); break;
    case 'bin': loadsOf(v.a, out); loadsOf(v.b, out); break;
    case 'select': loadsOf(v.c, out); loadsOf(v.a, out); loadsOf(v.b, out); break;
    case 'call': for (const a of v.args) loadsOf(a, out); break;
    default: break;
  }
  return out;
}
