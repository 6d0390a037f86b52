// The SPEC of a source program: a static-control function as a system of recurrence equations, by
// exact array dataflow analysis (compilers/mlir/dataflow.ts).
//
// - Every store (affine.store, memref.store, the lanes of vector writes, the elements of copies,
//   the writes of cells) is a statement S with a tensor S(iv…) over its loop counters, defined on
//   its iteration domain (loop bounds and `if` conditions) by the stored value, in which each read
//   is replaced by its last writer: select(c1, S1(at1), select(c2, S2(at2), initial)).
// - The initial contents of memref and scalar arguments are the input tensors Arg<k>; a read of an
//   allocated buffer or a cell that may see no write reads uninitialised memory: the source is
//   refused (its meaning is undefined).
// - The final contents of every memref argument are an output Arg<k>_out over the argument's box:
//   the last write of each cell, or its input where none wrote it.

import { type Expr, NO_POS } from '../../core/language/ast.ts';
import { addConst, and, andAll, constant, eliminate, exists, geT, hasQuantifier, ltT, min, not, or, orAll, satisfiable, select as selectT, simplify, variable, type Formula, type Term } from '../../core/presburger/index.ts';
import { type Access, gist, initialRegion, lastWriters, NoClosedForm, type WriterPiece } from './dataflow.ts';
import { showLoc } from './ir.ts';
import { type KArray, type Kernel, type KStore, type KVal, loadsOf, storesOf } from './kernel.ts';
import { Unsupported } from './ops.ts';
import { condExpr, selectExpr, showExpr, tensorRead, termExpr, valueExpr } from './sched-expr.ts';

/** A source the front end does not give a meaning to, with the reason (not static control, UB). */
export class SourceRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceRefused';
  }
}

export interface KernelSpec {
  readonly name: string;
  readonly text: string;
  /** Tensor of each store (by store id). */
  readonly tensorOf: ReadonlyMap<number, string>;
  /** Input tensor of each argument array. */
  readonly inputOf: ReadonlyMap<string, string>;
  /** Output tensor of each memref argument array. */
  readonly outputOf: ReadonlyMap<string, string>;
  readonly stores: readonly KStore[];
  /** A tensor's arguments for an instance (a statement's: its schedule vector; an input's: as is). */
  readonly args: (tensor: string, at: readonly Term[]) => Term[];
  /**
   * The parameters where every access of the source is in bounds (an out-of-bounds access is
   * undefined behaviour, so the source means something only there), as the spec assumes it; null
   * when that holds for every parameter value.
   */
  readonly defined: string | null;
  readonly notes: readonly string[];
}

/**
 * The parameter values for which every access of the source is inside its memref (a store's
 * cell, and every read of its value, at every instance): ¬∃ instance out of bounds, the
 * quantifiers eliminated exactly. An access whose condition keeps a quantifier is left out, with
 * a note (the verdict may then report an out-of-bounds access the source makes too).
 */
function inBounds(k: Kernel, stores: readonly KStore[]): { formula: Formula; notes: string[] } {
  const dims = new Map(k.arrays.map((a) => [a.name, a.dims] as const));
  const accesses: { array: string; index: readonly Term[]; site: KStore['site']; what: string }[] = [];
  for (const s of stores) {
    accesses.push({ array: s.array, index: s.index, site: s.site, what: `${s.op} at ${showLoc(s.loc)}` });
    for (const l of loadsOf(s.value)) accesses.push({ array: l.array, index: l.index, site: l.site, what: `${l.op} at ${showLoc(l.loc)}` });
  }
  const out: Formula[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const a of accesses) {
    const ds = dims.get(a.array)!;
    if (ds.length === 0) continue;
    const outside = orAll(a.index.map((t, d) => or(ltT(t, constant(0n)), geT(t, ds[d]!))));
    const ivs = a.site.loops.map((l) => l.iv);
    const bad = simplify(eliminate(ivs.length > 0 ? exists(ivs, and(a.site.domain, outside)) : and(a.site.domain, outside)));
    if (bad.kind === 'false' || seen.has(bad.key)) continue;
    seen.add(bad.key);
    if (hasQuantifier(bad)) {
      notes.push(`whether ${a.what} stays in bounds was not put in closed form; the verdict does not exclude the parameters where it does not`);
      continue;
    }
    out.push(not(bad));
  }
  return { formula: simplify(andAll(out)), notes };
}

/** Tensor names: `S<line>` after the store's source line where it has one. */
function statementNames(stores: readonly KStore[], taken: Iterable<string>): Map<number, string> {
  const out = new Map<number, string>();
  const used = new Set<string>(taken);
  for (const s of stores) {
    const l = innermostFile(s.loc);
    const base = `${s.op.endsWith('yield') || s.array.startsWith('cell') ? 'V' : 'S'}${l ?? ''}`;
    let n = base === 'S' || base === 'V' ? `${base}${out.size}` : base;
    for (let k = 2; used.has(n); k++) n = `${base}_${k}`;
    used.add(n);
    out.set(s.id, n);
  }
  return out;
}

function innermostFile(l: KStore['loc']): number | null {
  switch (l.kind) {
    case 'file': return l.line;
    case 'name': return l.child ? innermostFile(l.child) : null;
    case 'callsite': return innermostFile(l.caller);
    case 'fused': return l.locs.length > 0 ? innermostFile(l.locs[0]!) : null;
    default: return null;
  }
}

export const inputName = (a: KArray): string => a.tensor ?? a.name;

/** The spec of a source kernel. Async: a read that may see uninitialised memory is decided by Z3. */
export async function kernelSpec(k: Kernel, specName: string, outputs: ReadonlySet<string> = writtenArgs(k)): Promise<KernelSpec> {
  const stores = storesOf(k.body);
  const tensorOf = statementNames(stores, [...k.params.map((p) => p.name), ...k.arrays.flatMap((a) => [a.name, ...(a.tensor ? [a.tensor, `${a.tensor}_out`] : [])]), ...stores.flatMap((s) => s.site.loops.map((l) => l.iv))]);
  const arrays = new Map(k.arrays.map((a) => [a.name, a] as const));
  const inputOf = new Map<string, string>();
  const outputOf = new Map<string, string>();
  for (const a of k.arrays) {
    if (a.origin.kind !== 'arg' && a.origin.kind !== 'scalar') continue;
    const t = inputName(a);
    inputOf.set(a.name, t);
    if (a.origin.kind === 'arg' && outputs.has(a.name)) outputOf.set(a.name, `${t}_out`);
  }
  // Each statement tensor's arguments are its schedule vector (β0, x1, β1, …, xd, βd), padded to
  // one length with zeros: β_k orders the ops of one loop body (their op numbers), x_k are the loop
  // counters. Every read of the dataflow is of a lexicographically earlier vector, so the spec is
  // well founded by the ranking "coordinate 0, then 1, …" that the checker finds first.
  const depth = Math.max(0, ...stores.map((st) => st.site.loops.length));
  const raw = new Map(stores.map((st) => [st.id, [...st.site.loops.map((l) => l.seq), st.site.seq]] as const));
  // Op numbers renumbered per level (the order is all that matters): 0, 1, 2, …
  const ranks = Array.from({ length: depth + 1 }, (_, k) => [...new Set([...raw.values()].filter((b) => b.length > k).map((b) => b[k]!))].sort((a, b) => a - b));
  const betas = new Map([...raw].map(([id, b]) => [id, b.map((x, k) => ranks[k]!.indexOf(x))] as const));
  const vector = (id: number, at: readonly Term[]): Term[] => {
    const b = betas.get(id)!;
    const out: Term[] = [constant(BigInt(b[0]!))];
    at.forEach((x, k) => out.push(x, constant(BigInt(b[k + 1]!))));
    while (out.length < 2 * depth + 1) out.push(constant(0n));
    return out;
  };
  // Within a recursive group, a position that holds the same constant for every statement ranks
  // nothing: it is left out (each useless position costs the checker a round of queries per read).
  // A statement outside any recursion keeps its loop counters only.
  const storeById = new Map(stores.map((st) => [st.id, st] as const));
  let kept = new Map<number, boolean[]>();
  const fullArgs = (id: number, at: readonly Term[]): Term[] => {
    const v = vector(id, at);
    const k = kept.get(id);
    return k === undefined ? v : v.filter((_, p) => k[p]);
  };
  const firstOutside = (id: number, at0: Term): Term => {
    // The first argument kept: a position constant on the left-hand side (any other value is
    // outside the domain), or the outermost counter (below its loop's lower bounds).
    const k = kept.get(id);
    const p = k === undefined ? 0 : k.indexOf(true);
    if (p % 2 === 0) return addConst(at0, -1n);
    return addConst(min(...storeById.get(id)!.site.loops[0]!.lbs), -1n);
  };
  const statementOf = new Map(stores.map((st) => [tensorOf.get(st.id)!, st.id] as const));
  const checks: Promise<void>[] = [];
  const piecesOf = (read: Access, what: string): WriterPiece[] => {
    try {
      return lastWriters(stores, read);
    } catch (e) {
      if (e instanceof NoClosedForm) throw new SourceRefused(`${what}: ${e.message}`);
      throw e;
    }
  };
  // The last writers of every read, and the statements' recursive groups: a read in a select
  // branch not taken is still evaluated (SCHED's select is eager), so a read of the reader's own
  // group is made to point outside the writer's domain where its branch is not taken (the
  // writer's first counter below its first loop's lower bound): no point then depends on itself.
  const readPieces = new Map<number, WriterPiece[]>();
  // Statements that never run, and pieces that never hold, are left out (Z3 decides; an unknown
  // keeps them): fewer reads for the well-foundedness check and the verifier.
  const live = new Map(await Promise.all(stores.map(async (st) => [st.id, (await satisfiable(st.site.domain)).status !== 'unsat'] as const)));
  const feasible = async (ps: WriterPiece[], read: Access): Promise<WriterPiece[]> => {
    const keep = await Promise.all(ps.map(async (p) => live.get(p.store.id) !== false && (await satisfiable(and(p.cond, read.site.domain))).status !== 'unsat'));
    return ps.filter((_, k) => keep[k]);
  };
  for (const st of stores) {
    if (!live.get(st.id)) continue;
    for (const l of loadsOf(st.value)) readPieces.set(l.id, await feasible(piecesOf(l, `the read by ${l.op} at ${showLoc(l.loc)}`), l));
  }
  const group = recursiveGroups(stores, (st) => loadsOf(st.value).flatMap((l) => (readPieces.get(l.id) ?? []).map((p) => p.store)));
  {
    const members = new Map<number, KStore[]>();
    for (const st of stores) members.set(group.get(st.id)!, [...(members.get(group.get(st.id)!) ?? []), st]);
    const next = new Map<number, boolean[]>();
    for (const ms of members.values()) {
      const keep = Array.from({ length: 2 * depth + 1 }, (_, p) => {
        const counter = ms.some((st) => p % 2 === 1 && (p - 1) / 2 < st.site.loops.length);
        const values = new Set(ms.map((st) => vector(st.id, st.site.loops.map((l) => variable(l.iv)))[p]!.key));
        return counter || values.size > 1;
      });
      for (const st of ms) next.set(st.id, keep);
    }
    kept = next;
  }
  const readExpr = (read: Access, what: string, reader: KStore | null, known?: WriterPiece[]): Expr => {
    const pieces = known ?? piecesOf(read, what);
    const arr = arrays.get(read.array)!;
    let init: Expr | null = null;
    const input = inputOf.get(read.array);
    if (input !== undefined) init = tensorRead(input, read.index);
    else {
      // An allocation or a cell: the read must see a write everywhere.
      const region = initialRegion(read, pieces);
      if (region.kind !== 'false') {
        checks.push(satisfiable(region).then((s) => {
          if (s.status !== 'unsat') throw new SourceRefused(`${what} may read ${arr.origin.kind === 'cell' ? 'a value never defined' : `uninitialised memory of ${arr.name}`}${s.status === 'sat' ? ` (e.g. at ${[...s.model].map(([x, v]) => `${x} = ${v}`).join(', ')})` : ' (not decided)'}: its meaning in MLIR is undefined`);
        }));
      }
    }
    let e: Expr | null = init;
    for (let i = pieces.length - 1; i >= 0; i--) {
      const p0 = pieces[i]!;
      const p = { ...p0, cond: gist(p0.cond, read.site.domain) };
      if (p.cond.kind === 'false') continue;
      // A piece that holds on the whole domain hides everything after it.
      if (p.cond.kind === 'true') e = null;
      const guarded = e !== null;
      let at = fullArgs(p.store.id, p.at);
      if (guarded && reader !== null && group.get(reader.id) === group.get(p.store.id)) {
        // Outside the writer's domain where the branch is not taken: its first coordinate is a
        // constant of its left-hand side.
        at = [selectT(p.cond, at[0]!, firstOutside(p.store.id, at[0]!)), ...at.slice(1)];
      }
      const w = tensorRead(tensorOf.get(p.store.id)!, at);
      e = e === null ? w : selectExpr(p.cond, w, e);
    }
    if (e === null) {
      // No write reaches the read and there is no initial contents: the read must never run (the
      // initial-region check above refuses the source otherwise). Any value stands for it.
      const t = arrays.get(read.array)!.elem;
      return t === 'bool' ? { kind: 'bool', value: false, pos: NO_POS } : t === 'f32' || t === 'f64' ? { kind: 'float', value: 0, pos: NO_POS } : { kind: 'call', fn: t, args: [{ kind: 'int', value: 0n, pos: NO_POS }], pos: NO_POS };
    }
    return e;
  };
  const lines: string[] = [`spec ${specName} {`];
  if (k.params.length > 0) lines.push(`  param ${k.params.map((p) => p.name).join(', ')};`);
  for (const a of k.arrays) if (a.origin.kind === 'arg') for (const d of a.dims) if (d.parts.length > 0) lines.push(`  assume ${showExpr(condExpr(geT(d, constant(0n))))};`);
  const defined = inBounds(k, stores);
  if (defined.formula.kind !== 'true') lines.push(`  assume ${showExpr(condExpr(defined.formula))};`);
  const cvars = (a: KArray): string[] => a.dims.map((_, d) => `c${d}`);
  for (const a of k.arrays) {
    const t = inputOf.get(a.name);
    if (t !== undefined) lines.push(`  input ${t}(${cvars(a).join(', ')}): ${a.elem};`);
  }
  for (const s of stores) {
    const what = `the value stored by ${s.op} at ${showLoc(s.loc)}`;
    const name0 = tensorOf.get(s.id)!;
    if (!live.get(s.id)) {
      // Never runs: the tensor is declared (a target store may still name it), defined nowhere.
      const elem0 = arrays.get(s.array)!.elem;
      const lhs0 = fullArgs(s.id, s.site.loops.map((l) => variable(l.iv))).map((t) => showExpr(termExpr(t)));
      const zero = elem0 === 'bool' ? 'false' : elem0 === 'f32' || elem0 === 'f64' ? '0.0' : `${elem0}(0)`;
      lines.push(`  tensor ${name0}(${lhs0.map((x, j) => (/^[A-Za-z_]\w*$/.test(x) ? x : `b${j}`)).join(', ')}): ${elem0};`);
      lines.push(`  ${name0}(${lhs0.join(', ')}) = ${zero} where false;`);
      continue;
    }
    void what;
    const loads = loadsOf(s.value);
    for (const l of loads) if (l.site.loops.some((x, i) => s.site.loops[i] !== x)) throw new Unsupported('ssa', `a value read outside the loops of its use (${showLoc(l.loc)})`);
    const rhs = valueExpr(s.value, (l) => readExpr(l, `the read by ${l.op} at ${showLoc(l.loc)}`, s, readPieces.get(l.id)));
    const name = tensorOf.get(s.id)!;
    const vars = s.site.loops.map((l) => l.iv);
    const elem = arrays.get(s.array)!.elem;
    const lhs = fullArgs(s.id, vars.map(variable)).map((t) => showExpr(termExpr(t)));
    const declVars = lhs.map((x, k) => (/^[A-Za-z_]\w*$/.test(x) ? x : `b${k}`));
    lines.push(`  tensor ${name}(${declVars.join(', ')}): ${elem};`);
    lines.push(`  ${name}(${lhs.join(', ')}) = ${showExpr(rhs)}${whereText(s.site.domain)};`);
  }
  for (const a of k.arrays) {
    const out = outputOf.get(a.name);
    if (out === undefined) continue;
    const cs = cvars(a);
    const idx = cs.map(variable);
    const box = andAll(a.dims.map((d, i) => andAll([geT(idx[i]!, constant(0n)), ltT(idx[i]!, d)])));
    const end: Access = { array: a.name, index: idx, site: { loops: [], domain: box, seq: Number.POSITIVE_INFINITY } };
    const rhs = readExpr(end, `the final contents of ${a.name}`, null, await feasible(piecesOf(end, `the final contents of ${a.name}`), end));
    lines.push(`  output ${out}(${cs.join(', ')}): ${a.elem} = ${showExpr(rhs)}${whereText(box)};`);
  }
  lines.push('}');
  await Promise.all(checks);
  const args = (tensor: string, at: readonly Term[]): Term[] => {
    const id = statementOf.get(tensor);
    return id === undefined ? [...at] : fullArgs(id, at);
  };
  return { name: specName, text: lines.join('\n') + '\n', tensorOf, inputOf, outputOf, stores, args, defined: defined.formula.kind === 'true' ? null : showExpr(condExpr(defined.formula)), notes: defined.notes };
}

/** Each statement's recursive group (Tarjan's strongly connected components) of `reads`. */
function recursiveGroups(stores: readonly KStore[], reads: (s: KStore) => readonly KStore[]): Map<number, number> {
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: KStore[] = [];
  const comp = new Map<number, number>();
  let next = 0;
  let groups = 0;
  const strong = (v: KStore): void => {
    index.set(v.id, next);
    low.set(v.id, next++);
    stack.push(v);
    onStack.add(v.id);
    for (const w of reads(v)) {
      if (!index.has(w.id)) {
        strong(w);
        low.set(v.id, Math.min(low.get(v.id)!, low.get(w.id)!));
      } else if (onStack.has(w.id)) low.set(v.id, Math.min(low.get(v.id)!, index.get(w.id)!));
    }
    if (low.get(v.id) === index.get(v.id)) {
      let w: KStore;
      do {
        w = stack.pop()!;
        onStack.delete(w.id);
        comp.set(w.id, groups);
      } while (w !== v);
      groups++;
    }
  };
  for (const s of stores) if (!index.has(s.id)) strong(s);
  return comp;
}

/** The memref arguments a kernel writes. */
export function writtenArgs(k: Kernel): Set<string> {
  const args = new Set(k.arrays.filter((a) => a.origin.kind === 'arg').map((a) => a.name));
  return new Set(storesOf(k.body).map((s) => s.array).filter((a) => args.has(a)));
}

function whereText(f: Formula): string {
  return f.kind === 'true' ? '' : ` where ${showExpr(condExpr(f))}`;
}

export type { KVal, Term };
