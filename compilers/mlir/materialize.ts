// Reads kept where they stand. The kernel form reads a loaded value again where it is used (its
// value expression holds the load); that is the MLIR program only if no write between the load and
// the use may change the cell. Where one may (a value stored, then the same value stored again after
// its cell was overwritten; a read hoisted out of a loop that writes the cell), the read is kept in a
// cell of its own: `tmp[] := a[ι]` where the load stands, and the uses read `tmp[]`. The spec needs
// none of this (dataflow reads each load at its own place); the implementation does.

import { and, FALSE, not, simplify, sub, type Formula, type Term } from '../../core/presburger/index.ts';
import { initialRegion, lastWriters } from './dataflow.ts';
import type { KAlloc, KArray, Kernel, KNode, KStore, KVal } from './kernel.ts';
import { loadsOf, storesOf } from './kernel.ts';
import { showLoc } from './ir.ts';

type Load = Extract<KVal, { k: 'load' }>;

/** May a write change the cell `l` reads between `l` and its use by `t`? */
export function hazard(t: KStore, l: Load, stores: readonly KStore[]): KStore | null {
  const p = l.site.loops.length;
  for (const w of stores) {
    if (w.array !== l.array || (w === t && t.site.loops.length === p)) continue;
    const shares = w.site.loops.length >= p && w.site.loops.slice(0, p).every((x, i) => x === l.site.loops[i]);
    if (!shares) continue;
    // Same iteration, cells a nonzero constant apart (the lanes of a vector write): never the cell.
    const sameLoops = w.site.loops.length === p;
    if (sameLoops && w.index.some((e, d) => { const diff: Term = sub(e, l.index[d]!); return diff.parts.length === 0 && diff.c !== 0n; })) continue;
    const between = w.site.seq > l.site.seq && w.site.seq < t.site.seq;
    const deeper = w.site.loops.length > p && t.site.loops.length > p && w.site.loops[p] === t.site.loops[p];
    if (between || deeper) return w;
  }
  return null;
}

function replaceLoads(v: KVal, f: (l: Load) => KVal): KVal {
  switch (v.k) {
    case 'load': return f(v);
    case 'un': case 'cast': return { ...v, a: replaceLoads(v.a, f) };
    case 'bin': return { ...v, a: replaceLoads(v.a, f), b: replaceLoads(v.b, f) };
    case 'select': return { ...v, c: replaceLoads(v.c, f), a: replaceLoads(v.a, f), b: replaceLoads(v.b, f) };
    case 'call': return { ...v, args: v.args.map((x) => replaceLoads(x, f)) };
    default: return v;
  }
}

/** The least and greatest op numbers inside a node. */
function span(n: KNode): [number, number] {
  if (n.kind === 'store') return [n.site.seq, n.site.seq];
  let lo = n.seq;
  let hi = n.seq;
  const kids = n.kind === 'if' ? [...n.then, ...n.else] : n.body;
  for (const k of kids) {
    const [a, b] = span(k);
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  }
  return [lo, hi];
}

/** The kernel with every hazardous read kept in a cell; `notes` says which. */
export function materialize(k: Kernel): { kernel: Kernel; notes: string[] } {
  const stores = storesOf(k.body);
  const cells = new Map<number, { load: Load; cell: KArray }>();
  const taken = new Set(k.arrays.map((a) => a.name));
  const notes: string[] = [];
  for (const t of stores) {
    for (const l of loadsOf(t.value)) {
      if (cells.has(l.id) || hazard(t, l, stores) === null) continue;
      let name = `read${cells.size}`;
      while (taken.has(name)) name += '_';
      taken.add(name);
      cells.set(l.id, { load: l, cell: { name, elem: l.type, dims: [], origin: { kind: 'cell', loc: l.loc, what: `the value read by ${l.op}` }, mtype: { kind: 'other', text: l.type } } });
    }
  }
  if (cells.size === 0) return { kernel: k, notes };
  let nextId = Math.max(0, ...stores.map((s) => s.id), ...stores.flatMap((s) => loadsOf(s.value).map((l) => l.id))) + 1;
  // Uses read the cell, at the use.
  const rewrite = (nodes: readonly KNode[]): KNode[] => nodes.map((n): KNode => {
    switch (n.kind) {
      case 'store': return { ...n, value: replaceLoads(n.value, (l) => {
        const c = cells.get(l.id);
        if (!c) return l;
        return { k: 'load', id: nextId++, array: c.cell.name, index: [], site: { ...n.site, seq: n.site.seq - 0.25 }, loc: l.loc, type: l.type, op: l.op };
      }) };
      case 'loop': return { ...n, body: rewrite(n.body) };
      case 'if': return { ...n, then: rewrite(n.then), else: rewrite(n.else) };
      case 'alloc': return { ...n, body: rewrite(n.body) };
    }
  });
  let body = rewrite(k.body);
  // The cell written where the load stands: in the innermost list around the load's place.
  const insert = (nodes: readonly KNode[], l: Load, cell: KArray): KNode[] => {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      if (n.kind === 'store') continue;
      const [lo, hi] = span(n);
      if (!(lo <= l.site.seq && l.site.seq <= hi)) continue;
      const inner = (xs: readonly KNode[]): boolean => xs.some((x) => { const [a, b] = span(x); return a <= l.site.seq && l.site.seq <= b; });
      const out = [...nodes];
      if (n.kind === 'loop') out[i] = { ...n, body: insert(n.body, l, cell) };
      else if (n.kind === 'alloc') out[i] = { ...n, body: insert(n.body, l, cell) };
      else if (inner(n.then) || !inner(n.else)) out[i] = { ...n, then: insert(n.then, l, cell) };
      else out[i] = { ...n, else: insert(n.else, l, cell) };
      return out;
    }
    const at = nodes.findIndex((n) => span(n)[0] > l.site.seq);
    const before = at < 0 ? [...nodes] : nodes.slice(0, at);
    const after = at < 0 ? [] : nodes.slice(at);
    const write: KStore = { kind: 'store', id: nextId++, array: cell.name, index: [], value: l, site: { ...l.site, seq: l.site.seq + 0.5 }, loc: l.loc, op: l.op, part: 'the value read' };
    const scope: KAlloc = { kind: 'alloc', array: cell.name, body: [write, ...after], seq: l.site.seq };
    return [...before, scope];
  };
  for (const { load, cell } of cells.values()) {
    body = insert(body, load, cell);
    notes.push(`the value read by ${load.op} at ${showLoc(load.loc)} is kept in the cell ${cell.name} (a write between the read and its use may change what it read)`);
  }
  return { kernel: { ...k, arrays: [...k.arrays, ...[...cells.values()].map((c) => c.cell)], body }, notes };
}

/**
 * Copies of memory no write has defined. A pass may copy a buffer in before anything is stored in
 * it (`affine-data-copy-generate` of an uninitialised alloca): in MLIR that copies an undefined
 * value, which is no error until the value is used; in SCHED reading ⊥ is one. Where the copied
 * cell holds no value (no write reaches it, and it is an allocation or a cell), the copy is made a
 * no-op: the target cell keeps ⊥ (fresh buffers) — an `if` on the other instances.
 */
export function skipUndefinedCopies(k: Kernel): { kernel: Kernel; notes: string[]; undefinedCopies: string[] } {
  const stores = storesOf(k.body);
  // Copies that may copy ⊥ over a value: SCHED reads ⊥ as an error where MLIR copies an undefined
  // value, so an uninitialised read the verifier reports may be one of these (not an MLIR error).
  const undefinedCopies: string[] = [];
  const noInitial = new Set(k.arrays.filter((a) => a.origin.kind === 'alloc' || a.origin.kind === 'cell').map((a) => a.name));
  const guards = new Map<number, Formula>();
  const notes: string[] = [];
  for (const s of stores) {
    if (s.value.k !== 'load' || !noInitial.has(s.value.array)) continue;
    let pieces;
    try {
      pieces = lastWriters(stores, s.value);
    } catch {
      continue;
    }
    const undefinedAt = initialRegion(s.value, pieces);
    if (undefinedAt.kind === 'false') continue;
    // Skipping is copying ⊥ only where the target cell holds ⊥ too.
    let dstUndefined: Formula = FALSE;
    if (noInitial.has(s.array)) {
      try {
        const dst = { array: s.array, index: s.index, site: s.site };
        dstUndefined = initialRegion(dst, lastWriters(stores, dst));
      } catch {
        dstUndefined = FALSE;
      }
    }
    const skip = simplify(and(undefinedAt, dstUndefined));
    if (skip.kind !== 'true') undefinedCopies.push(`${s.op} at ${showLoc(s.loc)}`);
    if (skip.kind === 'false') continue;
    guards.set(s.id, simplify(not(skip)));
    notes.push(`the copy by ${s.op} at ${showLoc(s.loc)} of ${s.value.array} is skipped where neither the cell it copies nor the cell it writes holds a value (${skip.kind === 'true' ? 'everywhere' : 'on some instances'})`);
  }
  if (guards.size === 0) return { kernel: k, notes, undefinedCopies };
  const rewrite = (nodes: readonly KNode[]): KNode[] => nodes.flatMap((n): KNode[] => {
    switch (n.kind) {
      case 'store': {
        const g = guards.get(n.id);
        if (g === undefined) return [n];
        if (g.kind === 'false') return [];
        return [{ kind: 'if', cond: g, then: [n], else: [], loc: n.loc, seq: n.site.seq }];
      }
      case 'loop': return [{ ...n, body: rewrite(n.body) }];
      case 'if': return [{ ...n, then: rewrite(n.then), else: rewrite(n.else) }];
      case 'alloc': return [{ ...n, body: rewrite(n.body) }];
    }
  });
  return { kernel: { ...k, body: rewrite(k.body) }, notes, undefinedCopies };
}
