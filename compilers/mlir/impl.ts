// The IMPLEMENTATION from a target program: annotated SCHED whose annotations are INFERRED, never
// taken on trust (the verifier checks every one of them).
//
// - A store whose location is a source store's (locations survive the passes; cloned ops keep
//   them) computes that statement: its annotation is S(x) with the instance x solved from the
//   accesses (compilers/mlir/instance.ts): the store's index where both write the same array, and
//   the reads they share by location.
// - A store that copies a value (its value is one read) and matches no source store is annotated
//   with what the cell it reads holds, found by dataflow on the target itself: the annotation of
//   the last target write of that cell (piece by piece, as `if` branches), or the input where
//   none wrote it. Copies made by passes (data copies, DMA, private buffers) are annotated so.
// - Where neither applies, the store is left unannotated and the verifier answers unknown.
//
// Memref arguments that the source or the target writes are in/out: an input array holding the
// argument's initial contents is copied into the output array at entry (annotated with the input
// tensor), and the output array must end with the spec's output.

import {
  add, addConst, and, floor, max, min, scale, simplify, sub, substFormula, substTerm, termVars, TRUE, variable, type Formula, type Term,
} from '../../core/presburger/index.ts';
import { type Expr } from '../../core/language/ast.ts';
import { type Access, lastWriters } from './dataflow.ts';
import { locKey, showLoc } from './ir.ts';
import { type Equation, solveInstance } from './instance.ts';
import { type KArray, type Kernel, type KLoop, type KNode, type KStore, type KVal, loadsOf, storesOf } from './kernel.ts';
import type { KernelSpec } from './spec.ts';
import { arrayRead, condExpr, showExpr, termExpr, valueExpr } from './sched-expr.ts';
import { Unsupported } from './ops.ts';
import { hazard, materialize, skipUndefinedCopies } from './materialize.ts';

/** An annotation: pieces over the store's loop counters (the first whose condition holds). */
interface Ann {
  readonly pieces: readonly Piece[];
}

/** A tensor read T(args), or (tensor '') a value that reads no memory (a constant, an index). */
interface Piece {
  readonly cond: Formula;
  readonly tensor: string;
  readonly args: readonly Term[];
  readonly lit?: KVal;
}

/** A loop's lower bound when it is one constant. */
function constLb(l: KLoop): bigint | null {
  return l.lbs.length === 1 && l.lbs[0]!.parts.length === 0 ? l.lbs[0]!.c : null;
}

/** A load-free value with loop counters substituted. */
function substVal(v: KVal, sub: ReadonlyMap<string, Term>): KVal {
  switch (v.k) {
    case 'load': return v;
    case 'const': return v;
    case 'index': return { ...v, term: substTerm(v.term, sub) };
    case 'cond': return { ...v, cond: substFormula(v.cond, sub) };
    case 'un': case 'cast': return { ...v, a: substVal(v.a, sub) };
    case 'bin': return { ...v, a: substVal(v.a, sub), b: substVal(v.b, sub) };
    case 'select': return { ...v, c: substVal(v.c, sub), a: substVal(v.a, sub), b: substVal(v.b, sub) };
    case 'call': return { ...v, args: v.args.map((x) => substVal(x, sub)) };
  }
}

export interface KernelImpl {
  readonly name: string;
  readonly text: string;
  readonly stores: number;
  readonly annotated: number;
  /** Why stores were left unannotated, and other inference remarks. */
  readonly notes: readonly string[];
  /**
   * Copies that may copy a cell no write defined over one that holds a value: in MLIR an undefined
   * value is copied, in SCHED the read of ⊥ is an error (an uninitialised read reported then is not
   * shown to be MLIR's).
   */
  readonly undefinedCopies: readonly string[];
}

type Load = Extract<KVal, { k: 'load' }>;

export interface ImplInput {
  readonly source: Kernel;
  readonly target: Kernel;
  readonly spec: KernelSpec;
  readonly implName: string;
  /** Memref argument arrays whose contents are outputs (written by the source or the target). */
  readonly outputs: ReadonlySet<string>;
  /** Conditions on the parameters the verdict is to hold under (SCHED syntax): `assume`s of the impl. */
  readonly assumes?: readonly string[];
}

export function kernelImpl(inp: ImplInput): KernelImpl {
  const { source, spec } = inp;
  const skipped = skipUndefinedCopies(inp.target);
  const kept = materialize(skipped.kernel);
  const target = kept.kernel;
  const notes: string[] = [...target.notes.map((n) => `target: ${n}`), ...skipped.notes.map((n) => `target: ${n}`), ...kept.notes.map((n) => `target: ${n}`)];
  const tStores = storesOf(target.body);
  const sArrays = new Map(source.arrays.map((a) => [a.name, a] as const));
  const tArrays = new Map(target.arrays.map((a) => [a.name, a] as const));
  // Source statements by location.
  const byLoc = new Map<string, KStore[]>();
  for (const s of spec.stores) byLoc.set(locKey(s.loc), [...(byLoc.get(locKey(s.loc)) ?? []), s]);
  // Target array → the source array it is (arguments by position, allocations and cells by location).
  const sameArray = (t: string): string | null => {
    const a = tArrays.get(t);
    if (!a) return null;
    if (a.origin.kind === 'arg' || a.origin.kind === 'scalar') return sArrays.has(t) ? t : null;
    const o = a.origin;
    const key = locKey(o.loc);
    const ms = source.arrays.filter((s) => {
      const so = s.origin;
      if (so.kind === 'cell') return o.kind === 'cell' && locKey(so.loc) === key && so.what === o.what;
      return so.kind === 'alloc' && o.kind === 'alloc' && locKey(so.loc) === key;
    });
    return ms.length === 1 ? ms[0]!.name : null;
  };

  // ---- annotations ---------------------------------------------------------------------------
  const anns = new Map<number, Ann | null>();
  const busy = new Set<number>();
  const why = new Map<number, string>();

  // Annotations depend on each other (a copy on its source's writer, a store's instance on what its
  // reads hold); a result found while a store it needed was still being worked out is not kept
  // when it failed (the store is tried again when it is met again, in program order).
  let cycles = 0;
  const annOf = (t: KStore): Ann | null => {
    if (anns.has(t.id)) return anns.get(t.id)!;
    if (busy.has(t.id)) {
      cycles++;
      return null;
    }
    const before = cycles;
    busy.add(t.id);
    // A store that computes is the source statement of its location, and so is a copy whose
    // location is a source copy's; a copy a pass made (no source store of its location copies)
    // is annotated with what it copies.
    const sourceCopy = (byLoc.get(locKey(t.loc)) ?? []).some((s) => s.value.k === 'load');
    let a = t.value.k === 'load' && !sourceCopy ? asCopy(t, t.value) : null;
    if (a === null) a = byLocation(t);
    if (a === null && t.value.k === 'load' && sourceCopy) a = asCopy(t, t.value);
    // A value that reads no memory (a constant, a padding) is its own annotation.
    if (a === null && loadsOf(t.value).length === 0) a = { pieces: [{ cond: TRUE, tensor: '', args: [], lit: t.value }] };
    busy.delete(t.id);
    if (a !== null || cycles === before) anns.set(t.id, a);
    return a;
  };

  /** What a target read sees: pieces of (tensor, args over the target's ivs), from the annotations. */
  const targetReadValue = (l: Load): { tensor: string; args: readonly Term[] }[] | null => {
    let pieces;
    try {
      pieces = lastWriters(tStores, { array: l.array, index: l.index, site: l.site });
    } catch {
      return null;
    }
    const out: { tensor: string; args: readonly Term[] }[] = [];
    for (const p of pieces) {
      const w = annOf(p.store);
      if (w === null) return null;
      const sub = new Map(p.store.site.loops.map((lp, k) => [lp.iv, p.at[k]!] as const));
      for (const wp of w.pieces) out.push({ tensor: wp.tensor, args: wp.args.map((x) => substTerm(x, sub)) });
      if (w.pieces.some((wp) => wp.lit)) return null;
    }
    const input = spec.inputOf.get(l.array);
    if (input !== undefined) out.push({ tensor: input, args: l.index });
    return out;
  };

  /** What a source read sees: pieces of (tensor, args over the source's ivs). */
  const sourceReadValue = (l: Load): { tensor: string; args: readonly Term[] }[] => {
    let pieces;
    try {
      pieces = lastWriters(spec.stores, { array: l.array, index: l.index, site: l.site });
    } catch {
      return [];
    }
    const out = pieces.map((p) => ({ tensor: spec.tensorOf.get(p.store.id)!, args: p.at }));
    const input = spec.inputOf.get(l.array);
    if (input !== undefined) out.push({ tensor: input, args: l.index });
    return out;
  };

  const byLocation = (t: KStore): Ann | null => {
    let cands = byLoc.get(locKey(t.loc)) ?? [];
    if (cands.length > 1) cands = cands.filter((s) => s.part === t.part);
    if (cands.length > 1) cands = cands.filter((s) => s.op === t.op);
    if (cands.length === 0) {
      why.set(t.id, `no source store has its location (${showLoc(t.loc)})`);
      return null;
    }
    if (cands.length > 1) {
      why.set(t.id, `several source stores have its location (${showLoc(t.loc)})`);
      return null;
    }
    const s = cands[0]!;
    const xs = s.site.loops.map((_, k) => `x${k}$inst`);
    const ren = new Map(s.site.loops.map((l, k) => [l.iv, variable(xs[k]!)] as const));
    const eqs: Equation[] = [];
    const pair = (src: readonly Term[], tgt: readonly Term[]): void => src.forEach((e, d) => eqs.push({ lhs: substTerm(e, ren), rhs: tgt[d]! }));
    if (sameArray(t.array) === s.array) pair(s.index, t.index);
    const sLoads = loadsOf(s.value);
    for (const tl of loadsOf(t.value)) {
      const ms = sLoads.filter((sl) => locKey(sl.loc) === locKey(tl.loc));
      if (ms.length !== 1) continue;
      const sl = ms[0]!;
      if (sameArray(tl.array) === sl.array) {
        pair(sl.index, tl.index);
        continue;
      }
      // Different arrays (a copy, a private buffer): pair the values they hold, when each side
      // holds one statement's instances.
      const tv = targetReadValue(tl);
      if (tv === null) continue;
      const tensors = new Set(tv.map((p) => p.tensor));
      if (tensors.size !== 1 || tv.length !== 1) continue;
      const sv = sourceReadValue(sl).filter((p) => p.tensor === tv[0]!.tensor);
      if (sv.length === 1) pair(sv[0]!.args, tv[0]!.args);
    }
    let r = solveInstance(xs, eqs);
    if (!r.ok) {
      // Coordinates no access determines (a repetition loop): a target loop around the store that
      // runs over the same values. Candidates have the source loop's location (tiling gives a
      // whole band the location of its outermost loop) and are not used by the coordinates
      // already determined; a unit-step loop is preferred, the innermost one (the point loop of a
      // tiled band, not its tile loop).
      const used = new Set(r.values.flatMap((v) => [...termVars(v)]));
      const loopEqs: Equation[] = [];
      // A tiled band: the source loops from one whose location the target has, followed by loops
      // whose locations it lost, are the band's point loops in order (the band's loops that no
      // other loop of the band takes a bound from; the tile loops give the point loops theirs).
      const tgtLocs = new Set(t.site.loops.map((l) => locKey(l.loc)));
      const bandPick = (k: number): KLoop | null => {
        let h = k;
        while (h > 0 && !tgtLocs.has(locKey(s.site.loops[h]!.loc))) h--;
        const headLoc = locKey(s.site.loops[h]!.loc);
        if (!tgtLocs.has(headLoc)) return null;
        let end = h + 1;
        while (end < s.site.loops.length && !tgtLocs.has(locKey(s.site.loops[end]!.loc))) end++;
        const band = t.site.loops.filter((l) => locKey(l.loc) === headLoc);
        const inBounds = (l: KLoop): boolean => band.some((o) => o !== l && [...o.lbs, ...o.ubs].some((b) => termVars(b).has(l.iv)));
        const points = band.filter((l) => !inBounds(l));
        return points.length === end - h ? points[k - h]! : null;
      };
      for (const k of r.free) {
        const sl = s.site.loops[k]!;
        const same = t.site.loops.filter((tl) => locKey(tl.loc) === locKey(sl.loc));
        const cands = same.length === 1 ? same : same.filter((tl) => !used.has(tl.iv));
        const unit = cands.filter((tl) => tl.step === 1n);
        const pick = cands.length === 1 ? cands[0]! : bandPick(k) ?? (unit.length > 0 ? unit[unit.length - 1]! : null);
        if (pick === null) continue;
        used.add(pick.iv);
        // Unrolled by m (the loop's step m times the source loop's): the c-th copy of the store in
        // the body is the source iteration z + c·step (no access tells them apart when the
        // counter is not used).
        const copies = tStores.filter((w) => locKey(w.loc) === locKey(t.loc) && w.part === t.part && w.site.loops.length === t.site.loops.length && w.site.loops.every((l, i) => l === t.site.loops[i])).sort((a, b) => a.site.seq - b.site.seq);
        const c = copies.indexOf(t);
        const offset = copies.length > 1 && pick.step === BigInt(copies.length) * sl.step ? BigInt(c) * sl.step : 0n;
        // affine-loop-normalize: a loop from 0 by 1 in place of the source's from a constant c ≠ 0
        // by s (the location kept) runs t for the source iteration c + s·t.
        const from = constLb(sl);
        const normalized = copies.length <= 1 && constLb(pick) === 0n && pick.step === 1n && from !== null && from !== 0n;
        loopEqs.push({ lhs: variable(xs[k]!), rhs: normalized ? addConst(scale(variable(pick.iv), sl.step), from) : addConst(variable(pick.iv), offset) });
      }
      const r2 = solveInstance(xs, [...eqs, ...loopEqs]);
      if (r2.ok || r2.free.length < r.free.length) r = r2;
    }
    // Not unique: the guess stands (the verifier checks it; a wrong one can make the verdict
    // invalid or unknown, never valid), and the note says so.
    const ann = { pieces: [{ cond: TRUE, tensor: spec.tensorOf.get(s.id)!, args: r.values }] };
    if (!r.ok) {
      // A copy with a guessed instance: what the copy reads is known exactly, so that wins.
      const copy = t.value.k === 'load' ? asCopy(t, t.value) : null;
      if (copy !== null) return copy;
      notes.push(`guessed: ${t.op} at ${showLoc(t.loc)}${t.part ? ` (${t.part})` : ''}: ${r.why}, for the source store at ${showLoc(s.loc)}`);
    }
    return ann;
  };

  const asCopy = (t: KStore, l: Load): Ann | null => {
    const read: Access = { array: l.array, index: l.index, site: l.site };
    let pieces;
    try {
      pieces = lastWriters(tStores, read);
    } catch {
      why.set(t.id, "the copy's source has no closed-form last writer");
      return null;
    }
    const out: Piece[] = [];
    for (const p of pieces) {
      const w = annOf(p.store);
      if (w === null) {
        why.set(t.id, `it copies a cell whose last write (at ${showLoc(p.store.loc)}) has no annotation`);
        return null;
      }
      const sub = new Map(p.store.site.loops.map((lp, k) => [lp.iv, p.at[k]!] as const));
      for (const wp of w.pieces) {
        const cond = simplify(and(p.cond, substFormula(wp.cond, sub)));
        if (cond.kind !== 'false') out.push({ cond, tensor: wp.tensor, args: wp.args.map((x) => substTerm(x, sub)), ...(wp.lit ? { lit: substVal(wp.lit, sub) } : {}) });
      }
    }
    const input = spec.inputOf.get(l.array);
    if (input !== undefined) out.push({ cond: TRUE, tensor: input, args: l.index });
    if (out.length === 0) {
      why.set(t.id, 'it copies a cell no write defines');
      return null;
    }
    return { pieces: out };
  };

  // ---- hazards: a read inlined at its use must see the value it saw where it stood (the reads
  // for which that may fail were kept in cells by materialize(); this is the check) ---------------
  const checkHazards = (t: KStore): void => {
    for (const l of loadsOf(t.value)) {
      const w = hazard(t, l, tStores);
      if (w !== null) throw new Unsupported('ssa', `the value read at ${showLoc(l.loc)} is used at ${showLoc(t.loc)} after a write that may change the cell (${showLoc(w.loc)})`);
    }
  };

  // ---- the program --------------------------------------------------------------------------
  let annotated = 0;
  const annExpr = (a: Piece): string => `{${showExpr(a.lit ? valueExpr(a.lit, () => { throw new Error('a load in a literal annotation'); }) : { kind: 'tensor', name: a.tensor, indices: spec.args(a.tensor, a.args).map(termExpr), pos: { line: 0, col: 0 } })}}`;
  const loadExpr = (l: Load): Expr => arrayRead(l.array, l.index);
  const ind = (d: number): string => '  '.repeat(d);

  const cmds = (nodes: readonly KNode[], d: number): string[] => {
    const out: string[] = [];
    for (const n of nodes) out.push(cmd(n, d));
    return out;
  };
  const block = (nodes: readonly KNode[], d: number): string => {
    const cs = cmds(nodes, d + 1);
    if (cs.length === 0) return 'skip';
    if (cs.length === 1) return cs[0]!.trimStart();
    return `{\n${cs.join(';\n')}\n${ind(d)}}`;
  };
  const braced = (nodes: readonly KNode[], d: number): string => {
    const b = block(nodes, d);
    return b.startsWith('{') ? b : `{ ${b} }`;
  };
  const cmd = (n: KNode, d: number): string => {
    switch (n.kind) {
      case 'loop': return ind(d) + loopHead(n) + block(n.body, d);
      // With an else, the then branch is braced: unbraced, an `if` without else at its end
      // (inside a loop) would take the else (sched fuzz, case 44 of seed 0).
      case 'if': return `${ind(d)}if ${showExpr(condExpr(n.cond))} then ${n.else.length > 0 ? braced(n.then, d) : block(n.then, d)}${n.else.length > 0 ? ` else ${block(n.else, d)}` : ''}`;
      case 'alloc': {
        const a = tArrays.get(n.array)!;
        return `${ind(d)}allocate ${a.name}: ${a.elem}[${a.dims.map((x) => showExpr(termExpr(x))).join(', ')}] in ${block(n.body, d)}`;
      }
      case 'store': {
        checkHazards(n);
        const lhs = showExpr(arrayRead(n.array, n.index));
        const rhs = showExpr(valueExpr(n.value, loadExpr));
        const a = annOf(n);
        if (a === null) {
          notes.push(`unannotated: ${n.op} at ${showLoc(n.loc)}${n.part ? ` (${n.part})` : ''}: ${why.get(n.id) ?? 'no inference applies'}`);
          return `${ind(d)}${lhs} := ${rhs}`;
        }
        annotated++;
        if (a.pieces.length === 1) return `${ind(d)}${lhs} ${annExpr(a.pieces[0]!)} := ${rhs}`;
        // Pieces as branches: the first whose condition holds.
        let s = `${lhs} ${annExpr(a.pieces[a.pieces.length - 1]!)} := ${rhs}`;
        for (let i = a.pieces.length - 2; i >= 0; i--) s = `if ${showExpr(condExpr(a.pieces[i]!.cond))} then ${lhs} ${annExpr(a.pieces[i]!)} := ${rhs} else ${i === a.pieces.length - 2 ? s : `{ ${s} }`}`;
        return ind(d) + s;
      }
    }
  };

  const loopHead = (l: KLoop): string => {
    const kw = l.parallel ? 'par' : 'for';
    const lb = l.lbs.length === 1 ? l.lbs[0]! : max(...l.lbs);
    const ub = l.ubs.length === 1 ? l.ubs[0]! : min(...l.ubs);
    if (l.step === 1n && lb.parts.length === 0 && lb.c === 0n) return `${kw} ${l.iv} < ${showExpr(termExpr(ub))} do `;
    const count = l.step === 1n ? sub(ub, lb) : floor(addConst(sub(ub, lb), l.step - 1n), l.step);
    const t = `${l.iv}_t`;
    const iv = add(lb, scale(variable(t), l.step));
    return `${kw} ${t} < ${showExpr(termExpr(count))} do let ${l.iv} = ${showExpr(termExpr(iv))} in `;
  };

  // ---- declarations ---------------------------------------------------------------------------
  const decls: string[] = [];
  const entry: string[] = [];
  const dimsText = (a: KArray): string => a.dims.map((x) => showExpr(termExpr(x))).join(', ');
  for (const a of target.arrays) {
    if (a.origin.kind === 'scalar') decls.push(`  input ${a.name}: ${a.elem}[] = ${spec.inputOf.get(a.name)!};`);
    if (a.origin.kind !== 'arg') continue;
    const input = spec.inputOf.get(a.name)!;
    const output = spec.outputOf.get(a.name);
    if (output === undefined) {
      decls.push(`  input ${a.name}: ${a.elem}[${dimsText(a)}] = ${input};`);
      continue;
    }
    const cs = a.dims.map((_, k) => `c${k}`);
    decls.push(`  input ${a.name}_in: ${a.elem}[${dimsText(a)}] = ${input};`);
    decls.push(`  output ${a.name}: ${a.elem}[${dimsText(a)}] = ${output};`);
    let copy = `${a.name}[${cs.join(', ')}] {${input}(${cs.join(', ')})} := ${a.name}_in[${cs.join(', ')}]`;
    for (let k = cs.length - 1; k >= 0; k--) copy = `for ${cs[k]} < ${showExpr(termExpr(a.dims[k]!))} do ${copy}`;
    entry.push(`  ${copy}`);
  }
  const body = [...entry, ...cmds(target.body, 1)];
  const text = [
    `impl ${inp.implName} of ${spec.name} {`,
    ...(inp.assumes ?? []).map((a) => `  assume ${a};`),
    ...decls,
    body.length === 0 ? '  skip' : body.join(';\n'),
    '}',
  ].join('\n') + '\n';
  return { name: inp.implName, text, stores: tStores.length, annotated, notes, undefinedCopies: skipped.undefinedCopies };
}

