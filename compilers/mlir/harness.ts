// The execution harness: the kernel's signature read from mlir-opt's generic printing, and a
// `@__sched_main` that calls the kernel once on given inputs and prints every memref argument's
// final contents (then its guard-zone check), every scalar result, then the heap's guard check,
// each as one i64 line (floats bitcast: exact). Each memref argument lives in the middle of a larger byte buffer
// filled with a canary (memref.view gives it an identity layout there), so an out-of-bounds write
// by the kernel is seen as changed guard bytes instead of silently corrupting another buffer, and
// the heap is filled with the same canary, so a read of memory nobody wrote is deterministic.

import { bitWidth, type ElemType, denseHex, isElemType } from './cells.ts';

export interface MemrefType {
  readonly kind: 'memref';
  readonly text: string;
  readonly elem: ElemType;
  /** null for a dynamic (`?`) dimension. */
  readonly shape: readonly (number | null)[];
}

export interface ScalarType {
  readonly kind: 'scalar';
  readonly text: string;
  readonly elem: ElemType;
}

export type ArgType = MemrefType | ScalarType;

export interface Signature {
  readonly name: string;
  readonly args: readonly ArgType[];
  readonly results: readonly ScalarType[];
}

/** The kernel cannot be run by the harness (its signature, or the sizes given for it). */
export class HarnessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarnessError';
  }
}

/** Split S at top-level commas (nesting by <>, (), [], {}; `->` is not a bracket). */
export function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '-' && s[i + 1] === '>') {
      i++;
      continue;
    }
    if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = s.slice(start).trim();
  if (last !== '' || out.length > 0) out.push(last);
  return out;
}

/** The index just after the bracket that closes the one at S[open] (-1 if none). */
export function closeOf(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i]!;
    if (c === '-' && s[i + 1] === '>') {
      i++;
      continue;
    }
    if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c)) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** One argument or result type; HarnessError for what the harness cannot allocate or print. */
export function parseArgType(text: string, what: string): ArgType {
  const t = text.trim();
  if (isElemType(t)) return { kind: 'scalar', text: t, elem: t };
  const m = /^memref<(.*)>$/s.exec(t);
  if (!m) throw new HarnessError(`${what} has type ${t}: the harness supports memrefs of f32, f64, i8, i16, i32, i64, index and scalars of those types`);
  const parts = splitTopLevel(m[1]!);
  const dimsElem = parts[0]!;
  const dm = /^((?:(?:\d+|\?)x)*)([a-z0-9]+)$/.exec(dimsElem);
  if (!dm || !isElemType(dm[2]!)) throw new HarnessError(`${what} has type ${t}: elements of type ${dm?.[2] ?? dimsElem} are not supported (f32, f64, i8, i16, i32, i64, index)`);
  const shape = dm[1]!.split('x').filter((d) => d !== '').map((d) => (d === '?' ? null : Number(d)));
  for (const extra of parts.slice(1)) {
    // A strided layout is reached by memref.cast from the identity layout (mlir-opt checks the cast);
    // another memory space or an affine-map layout has no buffer the harness could make.
    if (!/^strided<.*>$/s.test(extra) && extra !== '0') throw new HarnessError(`${what} has type ${t}: the layout or memory space '${extra}' is not supported (identity or strided layouts in the default memory space)`);
  }
  return { kind: 'memref', text: t, elem: dm[2] as ElemType, shape };
}

/** Parse a function type `(A, B) -> R` / `(A) -> (R, S)`. */
export function parseFunctionType(text: string, name: string): { args: ArgType[]; results: ScalarType[] } {
  const t = text.trim();
  if (!t.startsWith('(')) throw new HarnessError(`@${name}: cannot read the function type '${t}'`);
  const close = closeOf(t, 0);
  const rest = t.slice(close).trim();
  if (close < 0 || !rest.startsWith('->')) throw new HarnessError(`@${name}: cannot read the function type '${t}'`);
  const args = splitTopLevel(t.slice(1, close - 1)).map((a, k) => parseArgType(a, `@${name} argument ${k}`));
  let res = rest.slice(2).trim();
  if (res.startsWith('(') && closeOf(res, 0) === res.length) res = res.slice(1, -1);
  const results = splitTopLevel(res).map((r, k) => {
    const a = parseArgType(r, `@${name} result ${k}`);
    if (a.kind !== 'scalar') throw new HarnessError(`@${name} result ${k} has type ${a.text}: memref results are not supported (write results into memref arguments)`);
    return a;
  });
  return { args, results };
}

/** The kernel's signature in mlir-opt's generic printing of a module (a top-level func.func with a body). */
export function kernelSignature(generic: string, name: string): Signature {
  if (!/^[A-Za-z_][A-Za-z0-9_$.]*$/.test(name)) throw new HarnessError(`'${name}' is not a function name the harness can call`);
  const lines = generic.split('\n');
  const key = `sym_name = "${name}"`;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    // The closing line of a top-level op of the module is indented by two spaces.
    if (!line.startsWith('  }) {') || !line.includes(key)) continue;
    let open = k - 1;
    while (open >= 0 && !/^ {2}[^\s^]/.test(lines[open]!)) open--;
    if (open < 0 || !lines[open]!.startsWith('  "func.func"() ({')) continue;
    if (open === k - 1) throw new HarnessError(`@${name} is a declaration without a body: nothing to run`);
    const at = line.indexOf('function_type = ');
    if (at < 0) break;
    const from = at + 'function_type = '.length;
    const argsEnd = closeOf(line, from);
    let end = line.indexOf('->', argsEnd) + 2;
    while (line[end] === ' ') end++;
    end = line[end] === '(' ? closeOf(line, end) : Math.min(...[line.indexOf(',', end), line.indexOf('}', end)].filter((i) => i >= 0));
    return { name, ...parseFunctionType(line.slice(from, end), name) };
  }
  throw new HarnessError(`no function @${name} with a body at the top level of the module`);
}

/** What the harness gives the kernel: per argument, a scalar's cell or a memref's shape and cells. */
export type ArgValue =
  | { readonly kind: 'scalar'; readonly cell: bigint }
  | { readonly kind: 'memref'; readonly shape: readonly number[]; readonly cells: readonly bigint[] };

/** The canary byte of the arguments' guard zones (0xA5). */
export const CANARY = 0xa5;
/** The byte the heap is filled with, guard zones included (0x5A): another value than the arguments'
 * canary, so that copying an argument's guard byte into a heap guard (or back) is still seen. */
export const HEAP_CANARY = 0x5a;
/** The first line the harness prints after the call (the kernel may print before). */
export const MARKER = 6148914691236517205n; // 0x5555555555555555
export const HARNESS_MAIN = '__sched_main';

/** Guard bytes on each side of an argument of BYTES bytes: a whole copy of it, at least 64, 64-aligned. */
export function guardBytes(bytes: number): number {
  return Math.max(64, Math.ceil(bytes / 64) * 64);
}

/** One kernel call of a harness: the kernel's signature and its arguments' values. */
export interface HarnessKernel {
  readonly sig: Signature;
  readonly values: readonly ArgValue[];
}

/**
 * The harness (globals and @__sched_main) calling each of KERNELS once in order, in MLIR's custom
 * syntax. After each call it prints MARKER, the kernel's position, every memref argument's cells
 * (row-major) and its changed guard bytes, every scalar result, and the heap's changed guard bytes
 * so far (cumulative: the next kernel's are the difference).
 */
export function harnessText(kernels: readonly HarnessKernel[]): string {
  const out: string[] = [];
  const body: string[] = [];
  let fresh = 0;
  const v = (p: string): string => `%${p}${fresh++}`;
  body.push('    %c0 = arith.constant 0 : index', '    %c1 = arith.constant 1 : index', `    %canary = arith.constant ${CANARY - 256} : i8`, '    %zero64 = arith.constant 0 : i64', `    %marker = arith.constant ${MARKER} : i64`);
  const toI64 = (elem: ElemType, x: string, lines: string[], indent: string): string => {
    const r = v('p');
    switch (elem) {
      case 'f32': {
        const b = v('b');
        lines.push(`${indent}${b} = arith.bitcast ${x} : f32 to i32`, `${indent}${r} = arith.extui ${b} : i32 to i64`);
        return r;
      }
      case 'f64': lines.push(`${indent}${r} = arith.bitcast ${x} : f64 to i64`); return r;
      case 'i64': return x;
      case 'index': lines.push(`${indent}${r} = arith.index_cast ${x} : index to i64`); return r;
      default: lines.push(`${indent}${r} = arith.extsi ${x} : ${elem} to i64`); return r;
    }
  };
  kernels.forEach(({ sig, values }, kk) => {
    const callArgs: string[] = [];
    const prints: string[] = [];
    sig.args.forEach((a, k) => {
      const val = values[k]!;
      if (a.kind === 'scalar') {
        if (val.kind !== 'scalar') throw new HarnessError(`@${sig.name} argument ${k}: a scalar value is needed`);
        const x = v('s');
        const lit = a.elem === 'f32' || a.elem === 'f64' ? `0x${val.cell.toString(16).toUpperCase()}` : val.cell.toString();
        body.push(`    ${x} = arith.constant ${lit} : ${a.elem}`);
        callArgs.push(x);
        return;
      }
      if (val.kind !== 'memref') throw new HarnessError(`@${sig.name} argument ${k}: a memref value is needed`);
      const shape = val.shape;
      const count = shape.reduce((p, d) => p * d, 1);
      const bytes = (count * bitWidth(a.elem)) / 8;
      const guard = guardBytes(bytes);
      const total = 2 * guard + Math.ceil(bytes / 64) * 64;
      const staticType = `memref<${shape.map((d) => `${d}x`).join('')}${a.elem}>`;
      const buf = v('buf');
      const view = v('view');
      const n = v('n');
      const g = v('g');
      const i = v('i');
      body.push(
        `    ${buf} = memref.alloc() {alignment = 64 : i64} : memref<${total}xi8>`,
        `    ${n} = arith.constant ${total} : index`,
        `    scf.for ${i} = %c0 to ${n} step %c1 {`,
        `      memref.store %canary, ${buf}[${i}] : memref<${total}xi8>`,
        '    }',
        `    ${g} = arith.constant ${guard} : index`,
        `    ${view} = memref.view ${buf}[${g}][] : memref<${total}xi8> to ${staticType}`,
      );
      if (count > 0) {
        const glob = `__sched_in${kk}_${k}`;
        out.push(`  memref.global "private" @${glob} : ${staticType} = dense<"${denseHex(a.elem, val.cells)}">`);
        const gv = v('init');
        body.push(`    ${gv} = memref.get_global @${glob} : ${staticType}`, `    memref.copy ${gv}, ${view} : ${staticType} to ${staticType}`);
      }
      if (staticType === a.text) callArgs.push(view);
      else {
        const c = v('arg');
        body.push(`    ${c} = memref.cast ${view} : ${staticType} to ${a.text}`);
        callArgs.push(c);
      }
      // Print the cells in row-major order, then the number of guard bytes that changed.
      const ivs: string[] = [];
      let indent = '    ';
      for (const d of shape) {
        const ub = v('ub');
        const iv = v('iv');
        prints.push(`${indent}${ub} = arith.constant ${d} : index`, `${indent}scf.for ${iv} = %c0 to ${ub} step %c1 {`);
        ivs.push(iv);
        indent += '  ';
      }
      const x = v('x');
      prints.push(`${indent}${x} = memref.load ${view}[${ivs.join(', ')}] : ${staticType}`);
      prints.push(`${indent}vector.print ${toI64(a.elem, x, prints, indent)} : i64`);
      for (let d = shape.length; d > 0; d--) {
        indent = indent.slice(2);
        prints.push(`${indent}}`);
      }
      const countGuard = (from: string, to: string, init: string): string => {
        const r = v('bad');
        const j = v('j');
        const acc = v('acc');
        const byte = v('byte');
        const ne = v('ne');
        const e = v('e');
        const sum = v('sum');
        prints.push(
          `    ${r} = scf.for ${j} = ${from} to ${to} step %c1 iter_args(${acc} = ${init}) -> (i64) {`,
          `      ${byte} = memref.load ${buf}[${j}] : memref<${total}xi8>`,
          `      ${ne} = arith.cmpi ne, ${byte}, %canary : i8`,
          `      ${e} = arith.extui ${ne} : i1 to i64`,
          `      ${sum} = arith.addi ${acc}, ${e} : i64`,
          `      scf.yield ${sum} : i64`,
          '    }',
        );
        return r;
      };
      const after = v('after');
      prints.push(`    ${after} = arith.constant ${guard + bytes} : index`);
      const low = countGuard('%c0', g, '%zero64');
      const both = countGuard(after, n, low);
      prints.push(`    vector.print ${both} : i64`);
    });
    const argTypes = sig.args.map((a) => a.text).join(', ');
    const resTypes = sig.results.map((r) => r.text);
    const res = v('res');
    const call = `func.call @${sig.name}(${callArgs.join(', ')}) : (${argTypes}) -> (${resTypes.join(', ')})`;
    body.push(resTypes.length > 0 ? `    ${res}:${resTypes.length} = ${call}` : `    ${call}`);
    const pos = v('k');
    body.push('    vector.print %marker : i64', `    ${pos} = arith.constant ${kk} : i64`, `    vector.print ${pos} : i64`);
    body.push(...prints);
    sig.results.forEach((r, k) => {
      body.push(`    vector.print ${toI64(r.elem, `${res}#${k}`, body, '    ')} : i64`);
    });
    const heap = v('heap');
    body.push(`    ${heap} = llvm.call @__sched_heap_check() : () -> i64`, `    vector.print ${heap} : i64`);
  });
  out.push(`  func.func @${HARNESS_MAIN}() {`, ...body, '    return', '  }');
  out.push(...ALLOCATOR);
  return out.join('\n');
}

/**
 * The heap of the lowered program (memref.alloc lowered with `use-generic-functions`). Each block
 * is malloc'ed with a 64-byte header (its size) and 64-byte guard zones on both sides, every byte
 * set to HEAP_CANARY: a read of memory nobody wrote (a private buffer a pass forgot to fill) gives
 * the same value on every run, and a write past a buffer a pass allocated is counted by
 * @__sched_heap_check at the end (blocks are registered, up to 1024, and never freed: a free does
 * nothing, so a use after it reads stale but deterministic data).
 */
const ALLOCATOR = [
  '  llvm.func @malloc(i64) -> !llvm.ptr<i8>',
  '  llvm.mlir.global internal @__sched_heap_ptrs(dense<0> : tensor<1024xi64>) : !llvm.array<1024 x i64>',
  '  llvm.mlir.global internal @__sched_heap_count(0 : i64) : i64',
  '  llvm.func @_mlir_memref_to_llvm_alloc(%n: i64) -> !llvm.ptr<i8> {',
  '    %hdr = llvm.mlir.constant(128 : i64) : i64',
  '    %g = llvm.mlir.constant(64 : i64) : i64',
  '    %t0 = llvm.add %n, %hdr : i64',
  '    %total = llvm.add %t0, %g : i64',
  '    %base = llvm.call @malloc(%total) : (i64) -> !llvm.ptr<i8>',
  `    %v = llvm.mlir.constant(${HEAP_CANARY} : i8) : i8`,
  '    %f = llvm.mlir.constant(false) : i1',
  '    "llvm.intr.memset"(%base, %v, %total, %f) : (!llvm.ptr<i8>, i8, i64, i1) -> ()',
  '    %sp = llvm.bitcast %base : !llvm.ptr<i8> to !llvm.ptr<i64>',
  '    llvm.store %n, %sp : !llvm.ptr<i64>',
  '    %cp = llvm.mlir.addressof @__sched_heap_count : !llvm.ptr<i64>',
  '    %c = llvm.load %cp : !llvm.ptr<i64>',
  '    %cap = llvm.mlir.constant(1024 : i64) : i64',
  '    %room = llvm.icmp "slt" %c, %cap : i64',
  '    llvm.cond_br %room, ^reg, ^done',
  '  ^reg:',
  '    %tab = llvm.mlir.addressof @__sched_heap_ptrs : !llvm.ptr<array<1024 x i64>>',
  '    %z = llvm.mlir.constant(0 : i64) : i64',
  '    %slot = llvm.getelementptr %tab[%z, %c] : (!llvm.ptr<array<1024 x i64>>, i64, i64) -> !llvm.ptr<i64>',
  '    %bi = llvm.ptrtoint %base : !llvm.ptr<i8> to i64',
  '    llvm.store %bi, %slot : !llvm.ptr<i64>',
  '    %one = llvm.mlir.constant(1 : i64) : i64',
  '    %c1 = llvm.add %c, %one : i64',
  '    llvm.store %c1, %cp : !llvm.ptr<i64>',
  '    llvm.br ^done',
  '  ^done:',
  '    %p = llvm.getelementptr %base[%hdr] : (!llvm.ptr<i8>, i64) -> !llvm.ptr<i8>',
  '    llvm.return %p : !llvm.ptr<i8>',
  '  }',
  '  llvm.func @_mlir_memref_to_llvm_free(%p: !llvm.ptr<i8>) {',
  '    llvm.return',
  '  }',
  '  llvm.func @__sched_heap_check() -> i64 {',
  '    %z = llvm.mlir.constant(0 : i64) : i64',
  '    %one = llvm.mlir.constant(1 : i64) : i64',
  '    %g = llvm.mlir.constant(64 : i64) : i64',
  '    %hdr = llvm.mlir.constant(128 : i64) : i64',
  `    %canary = llvm.mlir.constant(${HEAP_CANARY} : i8) : i8`,
  '    %cp = llvm.mlir.addressof @__sched_heap_count : !llvm.ptr<i64>',
  '    %count = llvm.load %cp : !llvm.ptr<i64>',
  '    %tab = llvm.mlir.addressof @__sched_heap_ptrs : !llvm.ptr<array<1024 x i64>>',
  '    llvm.br ^outer(%z, %z : i64, i64)',
  '  ^outer(%a: i64, %bad: i64):',
  '    %more = llvm.icmp "slt" %a, %count : i64',
  '    llvm.cond_br %more, ^entry, ^exit',
  '  ^entry:',
  '    %slot = llvm.getelementptr %tab[%z, %a] : (!llvm.ptr<array<1024 x i64>>, i64, i64) -> !llvm.ptr<i64>',
  '    %bi = llvm.load %slot : !llvm.ptr<i64>',
  '    %base = llvm.inttoptr %bi : i64 to !llvm.ptr<i8>',
  '    %sp = llvm.bitcast %base : !llvm.ptr<i8> to !llvm.ptr<i64>',
  '    %n = llvm.load %sp : !llvm.ptr<i64>',
  '    %after = llvm.add %n, %hdr : i64',
  '    llvm.br ^inner(%z, %bad : i64, i64)',
  '  ^inner(%k: i64, %acc: i64):',
  '    %go = llvm.icmp "slt" %k, %g : i64',
  '    llvm.cond_br %go, ^body, ^next',
  '  ^body:',
  '    %i1 = llvm.add %k, %g : i64',
  '    %p1 = llvm.getelementptr %base[%i1] : (!llvm.ptr<i8>, i64) -> !llvm.ptr<i8>',
  '    %b1 = llvm.load %p1 : !llvm.ptr<i8>',
  '    %i2 = llvm.add %k, %after : i64',
  '    %p2 = llvm.getelementptr %base[%i2] : (!llvm.ptr<i8>, i64) -> !llvm.ptr<i8>',
  '    %b2 = llvm.load %p2 : !llvm.ptr<i8>',
  '    %ne1 = llvm.icmp "ne" %b1, %canary : i8',
  '    %ne2 = llvm.icmp "ne" %b2, %canary : i8',
  '    %x1 = llvm.zext %ne1 : i1 to i64',
  '    %x2 = llvm.zext %ne2 : i1 to i64',
  '    %s1 = llvm.add %acc, %x1 : i64',
  '    %s2 = llvm.add %s1, %x2 : i64',
  '    %k1 = llvm.add %k, %one : i64',
  '    llvm.br ^inner(%k1, %s2 : i64, i64)',
  '  ^next:',
  '    %a1 = llvm.add %a, %one : i64',
  '    llvm.br ^outer(%a1, %acc : i64, i64)',
  '  ^exit:',
  '    llvm.return %bad : i64',
  '  }',
];

/** GENERIC (mlir-opt's generic printing of a module) with the harness inserted before the module's end. */
export function withHarness(generic: string, harness: string): string {
  const lines = generic.split('\n');
  let k = lines.length - 1;
  while (k >= 0 && !lines[k]!.startsWith('})')) k--;
  if (k < 0) throw new HarnessError('internal: the module printed by mlir-opt has no closing line');
  // The harness's symbols: @__sched_main, @__sched_in<k>, the allocator and what it calls.
  const taken = /sym_name = "(__sched_[^"]*|malloc|free|_mlir_memref_to_llvm_[^"]*)"/.exec(generic);
  if (taken) throw new HarnessError(`the module defines @${taken[1]}, a symbol the harness needs (@__sched_…, @malloc, @free, @_mlir_memref_to_llvm_…)`);
  return [...lines.slice(0, k), harness, ...lines.slice(k)].join('\n');
}
