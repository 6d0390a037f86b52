// The syntax tree of MLIR's generic form (`mlir-opt --mlir-print-op-generic --mlir-print-debuginfo`),
// as compilers/mlir/parse.ts reads it. Every input goes through mlir-opt first, so only the generic
// form is read: `%r = "dialect.op"(%a, %b) ({regions}) {attributes} : (types) -> types loc(...)`.
// Attributes and types the front end interprets are structured (affine maps and sets, integers,
// floats, memref and vector types); the others keep their text.

/** A position in the generic text (1-based line and column). */
export interface TextPos {
  readonly line: number;
  readonly col: number;
}

/** An MLIR location: where the op came from in the user's file (it survives the passes). */
export type Loc =
  | { readonly kind: 'file'; readonly file: string; readonly line: number; readonly col: number }
  | { readonly kind: 'name'; readonly name: string; readonly child: Loc | null }
  | { readonly kind: 'callsite'; readonly callee: Loc; readonly caller: Loc }
  | { readonly kind: 'fused'; readonly locs: readonly Loc[]; readonly metadata: string | null }
  | { readonly kind: 'unknown' };

export const UNKNOWN_LOC: Loc = { kind: 'unknown' };

/**
 * A canonical text of a location: equal locations have equal keys. File names are left out: a
 * target printed from the source file and the source read again (from a path or from stdin) name
 * the same positions with different file names.
 */
export function locKey(l: Loc): string {
  switch (l.kind) {
    case 'file': return `${l.line}:${l.col}`;
    case 'name': return `${JSON.stringify(l.name)}${l.child ? `(${locKey(l.child)})` : ''}`;
    case 'callsite': return `callsite(${locKey(l.callee)} at ${locKey(l.caller)})`;
    case 'fused': return `fused${l.metadata ? `<${l.metadata}>` : ''}[${l.locs.map(locKey).join(', ')}]`;
    case 'unknown': return 'unknown';
  }
}

/** The location with every file name given by `f` (the display name of a file read from stdin). */
export function renameFiles(l: Loc, f: (file: string) => string): Loc {
  switch (l.kind) {
    case 'file': return { ...l, file: f(l.file) };
    case 'name': return l.child ? { ...l, child: renameFiles(l.child, f) } : l;
    case 'callsite': return { ...l, callee: renameFiles(l.callee, f), caller: renameFiles(l.caller, f) };
    case 'fused': return { ...l, locs: l.locs.map((x) => renameFiles(x, f)) };
    case 'unknown': return l;
  }
}

/** How a location reads in a message: `file:line:col` of the user's file where there is one. */
export function showLoc(l: Loc): string {
  switch (l.kind) {
    case 'file': return `${l.file}:${l.line}:${l.col}`;
    case 'name': return l.child ? `${JSON.stringify(l.name)} at ${showLoc(l.child)}` : JSON.stringify(l.name);
    case 'callsite': return `${showLoc(l.callee)} (called at ${showLoc(l.caller)})`;
    case 'fused': return l.locs.length > 0 ? showLoc(l.locs[0]!) : 'fused location';
    case 'unknown': return 'unknown location';
  }
}

// ---------------------------------------------------------------------------------------------
// Affine expressions, maps and integer sets (the `affine_map<…>` / `affine_set<…>` attributes)

export type AffineExpr =
  | { readonly k: 'dim'; readonly i: number }
  | { readonly k: 'sym'; readonly i: number }
  | { readonly k: 'const'; readonly v: bigint }
  | { readonly k: 'add' | 'mul' | 'floordiv' | 'ceildiv' | 'mod'; readonly a: AffineExpr; readonly b: AffineExpr };

export interface AffineMap {
  readonly dims: number;
  readonly syms: number;
  readonly results: readonly AffineExpr[];
}

/** `(dims)[syms] : (e1 >= 0, e2 == 0, …)`; no constraint is the universe. */
export interface IntegerSet {
  readonly dims: number;
  readonly syms: number;
  readonly constraints: readonly { readonly e: AffineExpr; readonly eq: boolean }[];
}

// ---------------------------------------------------------------------------------------------
// Types

export type MType =
  | { readonly kind: 'int'; readonly width: number; readonly signedness: 'signless' | 'signed' | 'unsigned' }
  | { readonly kind: 'float'; readonly name: string; readonly width: number }
  | { readonly kind: 'index' }
  | { readonly kind: 'none' }
  /** `memref<4x?xf32, layout, space>`; a dynamic extent is null. */
  | { readonly kind: 'memref'; readonly shape: readonly (bigint | null)[]; readonly elem: MType; readonly layout: Attr | null; readonly space: Attr | null }
  | { readonly kind: 'vector'; readonly shape: readonly number[]; readonly scalable: boolean; readonly elem: MType }
  | { readonly kind: 'function'; readonly inputs: readonly MType[]; readonly results: readonly MType[] }
  /** Any other type (tensor, tuple, complex, dialect types): kept as text. */
  | { readonly kind: 'other'; readonly text: string };

export function showType(t: MType): string {
  switch (t.kind) {
    case 'int': return `${t.signedness === 'signless' ? 'i' : t.signedness === 'signed' ? 'si' : 'ui'}${t.width}`;
    case 'float': return t.name;
    case 'index': return 'index';
    case 'none': return 'none';
    case 'memref': {
      const dims = t.shape.map((d) => (d === null ? '?' : d.toString())).join('x');
      const extra = [t.layout ? showAttr(t.layout) : null, t.space ? showAttr(t.space) : null].filter((x) => x !== null);
      return `memref<${dims}${dims ? 'x' : ''}${showType(t.elem)}${extra.map((x) => `, ${x}`).join('')}>`;
    }
    case 'vector': return `vector<${t.scalable ? '[' : ''}${t.shape.join('x')}${t.scalable ? ']' : ''}x${showType(t.elem)}>`;
    case 'function': return `(${t.inputs.map(showType).join(', ')}) -> (${t.results.map(showType).join(', ')})`;
    case 'other': return t.text;
  }
}

// ---------------------------------------------------------------------------------------------
// Attributes

export type Attr =
  | { readonly kind: 'int'; readonly value: bigint; readonly type: MType | null }
  /** A float attribute; `value` is the number it denotes (hex forms `0x…` are bit patterns of `type`). */
  | { readonly kind: 'float'; readonly value: number; readonly text: string; readonly type: MType | null }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'unit' }
  | { readonly kind: 'map'; readonly map: AffineMap }
  | { readonly kind: 'set'; readonly set: IntegerSet }
  | { readonly kind: 'array'; readonly items: readonly Attr[] }
  /** `array<i32: 1, 0>` (a DenseArrayAttr). */
  | { readonly kind: 'dense-array'; readonly elem: string; readonly values: readonly bigint[] }
  | { readonly kind: 'symbol'; readonly name: string }
  | { readonly kind: 'type'; readonly type: MType }
  | { readonly kind: 'dict'; readonly entries: ReadonlyMap<string, Attr> }
  /** `strided<[10, 1], offset: 23>` (a memref layout); `?` is a dynamic stride or offset. */
  | { readonly kind: 'strided'; readonly strides: readonly (bigint | null)[]; readonly offset: bigint | null }
  /** Anything else (`#arith.fastmath<none>`, `#vector.kind<add>`, `dense<…>`): its text. */
  | { readonly kind: 'other'; readonly text: string };

export function showAttr(a: Attr): string {
  switch (a.kind) {
    case 'int': return `${a.value}${a.type ? ` : ${showType(a.type)}` : ''}`;
    case 'float': return `${a.text}${a.type ? ` : ${showType(a.type)}` : ''}`;
    case 'bool': return String(a.value);
    case 'string': return JSON.stringify(a.value);
    case 'unit': return 'unit';
    case 'map': return 'affine_map<…>';
    case 'set': return 'affine_set<…>';
    case 'array': return `[${a.items.map(showAttr).join(', ')}]`;
    case 'dense-array': return `array<${a.elem}: ${a.values.join(', ')}>`;
    case 'symbol': return `@${a.name}`;
    case 'type': return showType(a.type);
    case 'dict': return `{${[...a.entries].map(([k, v]) => `${k} = ${showAttr(v)}`).join(', ')}}`;
    case 'strided': return `strided<[${a.strides.map((s) => (s === null ? '?' : s)).join(', ')}], offset: ${a.offset ?? '?'}>`;
    case 'other': return a.text;
  }
}

// ---------------------------------------------------------------------------------------------
// Operations

export interface BlockArg {
  readonly name: string;
  readonly type: MType;
  readonly loc: Loc;
}

export interface Block {
  /** `^bb0`, or null for an entry block printed without a label. */
  readonly label: string | null;
  readonly args: readonly BlockArg[];
  readonly ops: readonly Op[];
}

export interface Region {
  readonly blocks: readonly Block[];
}

export interface Op {
  /** `dialect.name` as printed in quotes. */
  readonly name: string;
  /** Result SSA names (`%0`, or `%0#1` for the second result of `%0:2`). */
  readonly results: readonly string[];
  readonly operands: readonly string[];
  readonly successors: readonly string[];
  readonly regions: readonly Region[];
  readonly attrs: ReadonlyMap<string, Attr>;
  readonly operandTypes: readonly MType[];
  readonly resultTypes: readonly MType[];
  readonly loc: Loc;
  /** Where the op starts in the generic text. */
  readonly pos: TextPos;
}

/** The module: its top-level op (`builtin.module`). */
export interface Module {
  readonly op: Op;
}
