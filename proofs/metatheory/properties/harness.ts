// Running generated cases through the evaluators of semantics/: a big-step run from a given memory
// (with its ⟨δμ; ρ⟩ as location maps), small-step states from the same memory, and memories as
// maps from location text (`x[1]`, `w[0, 2]`) to values, so that the results of different
// evaluators can be compared cell by cell.

import { parseProgram } from '../../../core/language/parser.ts';
import { type CheckedImpl, typecheckProgram } from '../../../core/language/typecheck.ts';
import { execute, type BigStepOptions } from '../../../semantics/bigstep.ts';
import type { Derivation } from '../../../semantics/derivation.ts';
import type { RunError } from '../../../semantics/errors.ts';
import { finalMemory, initialState, smallProgram } from '../../../semantics/explore.ts';
import { asCount, type Int } from '../../../semantics/int.ts';
import { type ArrayRef, Cells, getCell, setCell, Space } from '../../../semantics/memory.ts';
import { implProgram } from '../../../semantics/run.ts';
import type { SmallProgram, SmallState } from '../../../semantics/smallstep.ts';
import { sameValue, showValue, type Value } from '../../../semantics/values.ts';
import type { MemCase } from '../gen/programs.ts';

/** A memory (or a differential memory) by location text; ⊥ is undefined. */
export type Mem = Map<string, Value | undefined>;

export function compile(src: string, file = 'case.sched'): CheckedImpl {
  const cp = typecheckProgram(parseProgram(file, src));
  const ci = cp.impls[0];
  if (!ci) throw new Error('internal: no implementation in a generated case');
  return ci;
}

export interface Compiled {
  readonly ci: CheckedImpl;
  readonly params: ReadonlyMap<string, Int>;
}

/** Parse and type-check a case (a fresh CheckedImpl: no compiled code is shared between cases). */
export function compileCase(c: MemCase): Compiled {
  return { ci: compile(c.src), params: new Map(Object.entries(c.params).map(([k, v]) => [k, v])) };
}

/** Fresh global array instances holding the case's initial memory, allocated in `space`. */
export function globalArrays(k: Compiled, pools: MemCase['pools'], space: Space): Map<string, ArrayRef> {
  const prog = implProgram(k.ci);
  const f = prog.frame(k.params, 'case.sched');
  const out = new Map<string, ArrayRef>();
  for (const g of prog.globals) {
    const dims = g.dims.map((d) => asCount(d(f), 1 << 20) ?? 0);
    const ref = space.alloc(g.decl.name, g.decl.elem, dims, true, g.decl.pos, 0)!;
    const cells = Cells.empty(g.decl.elem, ref.size);
    const pool = pools[g.decl.name] ?? [];
    for (let i = 0; i < ref.size; i++) {
      const v = pool[i % Math.max(pool.length, 1)];
      if (v !== null && v !== undefined) setCell(cells, g.decl.elem, i, g.decl.elem === 'bool' ? v !== 0 : v);
    }
    ref.cells = cells;
    out.set(g.decl.name, ref);
  }
  return out;
}

/** Every cell of the given arrays. */
export function memOf(arrays: Iterable<ArrayRef>, cellsOf: (r: ArrayRef) => Cells = (r) => r.cells!): Mem {
  const m: Mem = new Map();
  for (const ref of arrays) {
    const c = cellsOf(ref);
    for (let k = 0; k < ref.size; k++) m.set(ref.showLoc(k), getCell(c, ref.elem, k));
  }
  return m;
}

/** The initial memory μ of a case. */
export function initialMem(k: Compiled, pools: MemCase['pools']): Mem {
  return memOf(globalArrays(k, pools, new Space(1 << 22)).values());
}

export interface BigRun {
  readonly ok: boolean;
  readonly error: RunError | null;
  /** μ. */
  readonly initial: Mem;
  /** The memory the machine left (μ ▷ δμ when ok). */
  readonly final: Mem;
  /** δμ and ρ of the whole command (ok runs). */
  readonly dmu: Mem;
  readonly rho: ReadonlySet<string>;
  readonly derivation: Derivation | null;
}

/** E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ with the production big-step, from the case's memory (or `pools`). */
export function bigStep(k: Compiled, pools: MemCase['pools'], opts: BigStepOptions = {}): BigRun {
  const prog = implProgram(k.ci);
  const f = prog.frame(k.params, 'case.sched');
  const space = new Space(1 << 22);
  const arrays = globalArrays(k, pools, space);
  for (const g of prog.globals) f[g.slot] = arrays.get(g.decl.name)!;
  const initial = memOf(arrays.values());
  const r = execute(prog.big, f, space, { effects: true, maxSteps: 1_000_000, ...opts }, () => new Map(initial));
  const final = memOf(arrays.values());
  if (!r.ok) return { ok: false, error: r.error, initial, final, dmu: new Map(), rho: new Set(), derivation: null };
  const dmu: Mem = new Map();
  const rho = new Set<string>();
  for (const e of r.effects!.dmu.values()) dmu.set(e.ref.showLoc(e.k), e.v);
  for (const e of r.effects!.rho.values()) rho.add(e.ref.showLoc(e.k));
  return { ok: true, error: null, initial, final, dmu, rho, derivation: r.derivation };
}

/** μ ▷ δμ. */
export function update(mu: Mem, dmu: ReadonlyMap<string, Value | undefined>): Mem {
  const m = new Map(mu);
  for (const [l, v] of dmu) m.set(l, v);
  return m;
}

/** The first location where two memories differ, as text, or null when they are equal. */
export function memDiff(a: ReadonlyMap<string, Value | undefined>, b: ReadonlyMap<string, Value | undefined>, names = ['expected', 'got']): string | null {
  for (const l of new Set([...a.keys(), ...b.keys()])) {
    if (!a.has(l) || !b.has(l)) return `${l} is in only one memory (${a.has(l) ? names[0] : names[1]})`;
    if (!sameValue(a.get(l), b.get(l))) return `${l}: ${names[0]} ${showValue(a.get(l))}, ${names[1]} ${showValue(b.get(l))}`;
  }
  return null;
}

export function showMem(m: ReadonlyMap<string, Value | undefined>): string {
  return `{${[...m].map(([l, v]) => `${l} ↦ ${showValue(v)}`).join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------
// Small-step

export interface SmallCase {
  readonly prog: SmallProgram;
  readonly space: Space;
  readonly init: SmallState;
  readonly globals: readonly ArrayRef[];
}

/** ⟨c[E] | μ⟩ for the case's memory; `mutable` stores are updated in place (single runs). */
export function smallCase(k: Compiled, pools: MemCase['pools'], mutable: boolean): SmallCase {
  const space = new Space(1 << 22);
  const arrays = globalArrays(k, pools, space);
  const prog = smallProgram(k.ci);
  const init = initialState(prog, k.params, arrays, mutable);
  return { prog, space, init, globals: prog.globals.map((g) => arrays.get(g.name)!) };
}

/** The global part of a small-step state's memory. */
export function stateMem(s: SmallState, globals: readonly ArrayRef[]): Mem {
  const named = finalMemory(s, globals);
  return memOf(globals, (r) => named.get(r.name)!.cells);
}


/** Initial contents in the shape of `MemCase['pools']` for a memory over the case's globals. */
export function poolsOf(k: Compiled, mem: ReadonlyMap<string, Value | undefined>): Record<string, (number | null)[]> {
  const arrays = globalArrays(k, {}, new Space(1 << 22));
  const out: Record<string, (number | null)[]> = {};
  for (const [name, ref] of arrays) {
    const cells: (number | null)[] = [];
    for (let i = 0; i < ref.size; i++) {
      const v = mem.get(ref.showLoc(i));
      cells.push(v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : Number(v));
    }
    out[name] = cells;
  }
  return out;
}
