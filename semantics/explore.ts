// Running the small-step semantics (Fig. 4.6): one run under a seeded random interleaving, and an
// exhaustive explorer of all interleavings with state hashing and partial-order reduction.
//
// Partial-order reduction (ample sets): from a state, if some enabled step touches no memory
// (everything but ASSIGN: IF, LET, SEQLOOP, PARLOOP, ALLOCATE, and the structural rules), it
// commutes with every step of every other thread, so exploring it alone loses no final state and
// no stuck state. Otherwise an enabled ASSIGN is explored alone when it is independent of
// everything the threads running in parallel with it may still do: its write is not read or
// written there, and what it reads is not written there (steps touching disjoint locations
// commute). What those threads may still do is computed exactly, because control flow and
// indices are affine and so do not depend on memory: their future footprint is a dry run of their
// remaining code. Terms are acyclic (every step consumes code), so no cycle proviso is needed.
// With no such step, every enabled step is explored.

import type { CheckedImpl } from '../core/language/typecheck.ts';
import type { Cmd } from '../core/language/ast.ts';
import { runError, type RunError } from './errors.ts';
import { type NamedMemory } from './eval.ts';
import { type Frame, Layout, Scope } from './scope.ts';
import type { SpecModel } from './model.ts';
import { checkParams, initialMemory } from './run.ts';
import type { Int } from './int.ts';
import { asCount } from './int.ts';
import { ArrayRef, type Cells, getCell, type Space } from './memory.ts';
import { type Blocked, describeStep, type Redex, SKIP, SmallLimit, SmallProgram, type SmallState, SmallStep, type Step, Store, type Term } from './smallstep.ts';
import { type Value } from './values.ts';

// ---------------------------------------------------------------------------------------------
// Setting up a program and its initial state

const smallPrograms = new WeakMap<CheckedImpl, SmallProgram>();

/** The small-step compilation of an implementation (slots: parameters, global arrays, body). */
export function smallProgram(ci: CheckedImpl): SmallProgram {
  let p = smallPrograms.get(ci);
  if (p !== undefined) return p;
  const layout = new Layout();
  let sc = Scope.root(layout);
  const paramSlots = new Set<number>();
  for (const name of ci.spec.params) {
    const b = sc.bindVar(name);
    sc = b.scope;
    paramSlots.add(b.slot);
  }
  const globals: { name: string; slot: number }[] = [];
  for (const name of ci.arrays.keys()) {
    const b = sc.bindArray(name);
    sc = b.scope;
    globals.push({ name, slot: b.slot });
  }
  p = new SmallProgram(layout, ci.impl.body, sc, globals, paramSlots);
  smallPrograms.set(ci, p);
  return p;
}

/** The initial state ⟨c[E] | μ⟩ from parameter values and the global arrays (cells copied). */
export function initialState(prog: SmallProgram, params: ReadonlyMap<string, Int>, arrays: ReadonlyMap<string, ArrayRef>, mutable: boolean): SmallState {
  const env = prog.layout.newFrame();
  for (const [name, s] of prog.scope.bindings().vars) if (params.has(name)) env[s] = params.get(name)!;
  const entries: [ArrayRef, Cells][] = [];
  for (const g of prog.globals) {
    const ref = arrays.get(g.name)!;
    env[g.slot] = ref;
    entries.push([ref, ref.cells!]);
  }
  return { term: prog.code(prog.body, env), store: Store.of(entries, mutable) };
}

// ---------------------------------------------------------------------------------------------
// Canonical forms of states (for hashing) and of final memories

function slotText(v: unknown): string {
  // Local instances are written #id and renamed canonically once the whole key is built.
  if (v instanceof ArrayRef) return v.global ? `g${v.id}` : `#${v.id}`;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  return String(v);
}

function valueText(v: Value | undefined): string {
  if (v === undefined) return '_';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') return `${v}n`;
  return v ? 'T' : 'F';
}

/** Serialisations of array contents in persistent stores (they copy an array on write). */
const cellText = new WeakMap<Cells, string>();

export function cellsText(ref: ArrayRef, c: Cells, immutable = false): string {
  const hit = immutable ? cellText.get(c) : undefined;
  if (hit !== undefined) return hit;
  const parts: string[] = new Array(ref.size);
  for (let k = 0; k < ref.size; k++) parts[k] = valueText(getCell(c, ref.elem, k));
  const text = parts.join(',');
  if (immutable) cellText.set(c, text);
  return text;
}

/**
 * Canonical keys of states: equal for two states iff they are the same up to the naming of fresh
 * array instances (numbered in order of appearance) — only the variables a command depends on
 * are included. Subterms without `inalloc` are serialised once (terms are immutable and shared
 * between states); an `inalloc` includes the current contents of its local array.
 */
export class Canon {
  private readonly text = new WeakMap<Term, string>();
  constructor(readonly prog: SmallProgram) {}

  key(s: SmallState, globals: readonly ArrayRef[]): string {
    const raw = `${this.term(s.term, s.store)}§${memoryKey(s.store, globals)}`;
    if (raw.indexOf('#') < 0) return raw;
    const ids = new Map<string, number>();
    return raw.replace(/#(\d+)/g, (_m: string, id: string) => {
      let c = ids.get(id);
      if (c === undefined) {
        c = ids.size;
        ids.set(id, c);
      }
      return `#${c}`;
    });
  }

  private env(cmd: Cmd, e: Frame): string {
    const free = this.prog.cmdInfo(cmd).free;
    let out = '';
    for (let i = 0; i < free.length; i++) out += (i > 0 ? ',' : '') + slotText(e[free[i]!]);
    return out;
  }

  private term(t: Term, store: Store): string {
    if (t.k === 'inalloc') return `a#${t.ref.id}[${t.ref.dims.join('x')}]{${cellsText(t.ref, store.get(t.ref), !store.mutable)}}[${this.term(t.body, store)}]`;
    const hit = this.text.get(t);
    if (hit !== undefined) return hit;
    let out: string;
    let closed = true;
    switch (t.k) {
      case 'skip':
        return 's';
      case 'code':
        out = `c${this.prog.cmdInfo(t.cmd).id}(${this.env(t.cmd, t.env)})`;
        break;
      case 'loop':
        out = `l${this.prog.cmdInfo(t.cmd).id}(${this.env(t.cmd, t.env)})${t.from}/${t.n}`;
        break;
      case 'seq':
      case 'par': {
        const a = t.k === 'seq' ? t.first : t.left;
        const b = t.k === 'seq' ? t.second : t.right;
        out = `(${this.term(a, store)}${t.k === 'seq' ? ';' : '|'}${this.term(b, store)})`;
        closed = !this.hasInalloc(a) && !this.hasInalloc(b);
        break;
      }
    }
    if (closed) this.text.set(t, out);
    return out;
  }

  private hasInalloc(t: Term): boolean {
    if (t.k === 'inalloc') return true;
    if (t.k === 'seq' || t.k === 'par') return !this.text.has(t);
    return false;
  }
}

/** The canonical key of a state (see `Canon`). */
export function stateKey(prog: SmallProgram, s: SmallState, globals: readonly ArrayRef[]): string {
  return new Canon(prog).key(s, globals);
}

/** The global arrays' contents (what a final memory is compared on). */
export function memoryKey(store: Store, globals: readonly ArrayRef[]): string {
  return globals.map((g) => cellsText(g, store.get(g), !store.mutable)).join('|');
}

// ---------------------------------------------------------------------------------------------
// Footprints (future accesses) for partial-order reduction

interface Footprint {
  readonly r: ReadonlySet<number>;
  readonly w: ReadonlySet<number>;
}
const TOP = 'top' as const;
type FP = Footprint | typeof TOP;
const EMPTY: Footprint = { r: new Set(), w: new Set() };
const FP_CAP = 100_000;

class TooBig extends Error {}

class Footprints {
  private readonly memo = new WeakMap<object, FP>();
  constructor(readonly prog: SmallProgram) {}

  of(t: Term): FP {
    if (t.k === 'skip') return EMPTY;
    const hit = this.memo.get(t);
    if (hit !== undefined) return hit;
    let fp: FP;
    try {
      fp = this.compute(t);
    } catch (e) {
      if (!(e instanceof TooBig)) throw e;
      fp = TOP;
    }
    this.memo.set(t, fp);
    return fp;
  }

  private compute(t: Exclude<Term, { k: 'skip' }>): FP {
    switch (t.k) {
      case 'seq':
        return union(this.of(t.first), this.of(t.second));
      case 'par':
        return union(this.of(t.left), this.of(t.right));
      case 'inalloc':
        return this.of(t.body);
      case 'code':
      case 'loop': {
        const acc = { r: new Set<number>(), w: new Set<number>(), n: 0 };
        if (t.k === 'code') this.dry(t.cmd, t.env, acc);
        else {
          const slot = this.prog.cmdInfo(t.cmd).slot!;
          for (let i = t.from; i < t.n; i++) this.dry(t.cmd.body, this.prog.bind(t.env, slot, i), acc);
        }
        return acc;
      }
    }
  }

  /** A dry run of c[E]: every location it would access (locations of fresh arrays excluded). */
  private dry(c: Cmd, env: Frame, acc: { r: Set<number>; w: Set<number>; n: number }): void {
    const info = this.prog.cmdInfo(c);
    switch (c.kind) {
      case 'skip':
        return;
      case 'seq':
        for (const x of c.cmds) this.dry(x, env, acc);
        return;
      case 'assign': {
        if ((acc.n += 1) > FP_CAP) throw new TooBig();
        const ref = env[info.arraySlot!] as ArrayRef;
        const k = ref.offset(info.idx!.map((g) => g(env)));
        if (k >= 0 && ref.id >= 0) acc.w.add(ref.base + k);
        info.rd!(env, (r, kk) => {
          if (r.id >= 0) acc.r.add(r.base + kk);
        });
        return;
      }
      case 'if':
        // Conditions are affine: the branch taken does not depend on memory.
        if (info.cond!(env)) this.dry(c.then, env, acc);
        else if (c.else) this.dry(c.else, env, acc);
        return;
      case 'let':
        this.dry(c.body, this.prog.bind(env, info.slot!, info.value!(env)), acc);
        return;
      case 'for':
      case 'par': {
        const n = asCount(info.bound!(env), FP_CAP);
        if (n === null) throw new TooBig();
        for (let i = 0; i < n; i++) this.dry(c.body, this.prog.bind(env, info.slot!, i), acc);
        return;
      }
      case 'allocate': {
        // A fresh instance, private to this thread: an id < 0 marks its accesses as irrelevant.
        const dims = info.dims!.map((d) => asCount(d(env), 1 << 24) ?? 0);
        const ref = new ArrayRef(-1, c.name, c.elem, dims, -1, false, c.pos, 0);
        this.dry(c.body, this.prog.bind(env, info.slot!, ref), acc);
        return;
      }
    }
  }
}

function union(a: FP, b: FP): FP {
  if (a === TOP || b === TOP) return TOP;
  if (a.r.size + a.w.size === 0) return b;
  if (b.r.size + b.w.size === 0) return a;
  return { r: new Set([...a.r, ...b.r]), w: new Set([...a.w, ...b.w]) };
}

/** Does ASSIGN step s commute with everything its siblings may still do? */
function independent(fps: Footprints, s: Step): boolean {
  const w = s.access.write!;
  const wk = w.ref.base + w.k;
  for (const sib of s.siblings) {
    const fp = fps.of(sib);
    if (fp === TOP) return false;
    if (fp.w.has(wk) || fp.r.has(wk)) return false;
    for (const r of s.access.reads) if (fp.w.has(r)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The explorer

export interface ScheduleStep {
  /** The rules of the step's derivation, root first (`SEQ-CTX ▸ PAR-L ▸ ASSIGN`). */
  readonly rules: string;
  readonly line: number | null;
  /** The command and its bindings, and the write it made. */
  readonly text: string;
}

export interface FinalMemory {
  readonly key: string;
  /** Global arrays after the run, as `name = [values]` lines. */
  readonly arrays: Record<string, (string | number | boolean | null)[]>;
  readonly schedule: ScheduleStep[];
}

export interface ExploreResult {
  readonly outcome: 'deterministic' | 'nondeterministic' | 'stuck' | 'limit';
  /** Distinct states visited (after reduction), transitions taken. */
  readonly states: number;
  readonly transitions: number;
  /** Distinct final memories found. */
  readonly finals: number;
  readonly stuckStates: number;
  /** The first two distinct final memories, each with a schedule reaching it. */
  readonly witnesses: FinalMemory[];
  /** The first stuck state reached: its schedule and why no rule applies. */
  readonly stuck: { readonly schedule: ScheduleStep[]; readonly blocked: RunError[] } | null;
  readonly por: boolean;
  /** Set when a resource limit stopped the exploration (states or sizes). */
  readonly limit: string | null;
}

export interface ExploreOptions {
  /** Stop after this many distinct states (outcome `limit` unless already nondeterministic). */
  readonly maxStates?: number;
  /** Partial-order reduction (default on). */
  readonly por?: boolean;
  /** Called every `progressEvery` states. */
  readonly onProgress?: (states: number, finals: number) => void;
  readonly progressEvery?: number;
  /** Stop at the first two distinct final memories (default false: count them all). */
  readonly stopAtNondeterminism?: boolean;
  /**
   * Called for every transition taken, with the canonical keys of its source and target states
   * (the explored state graph, e.g. to draw it); the target may have been visited before.
   */
  readonly onTransition?: (from: string, to: string, step: Step) => void;
}

function scheduleStep(prog: SmallProgram, s: Step): ScheduleStep {
  return { rules: s.rules.join(' ▸ '), line: s.cmd?.pos.line ?? null, text: describeStep(prog, s) };
}

function arraysJson(store: Store, globals: readonly ArrayRef[]): FinalMemory['arrays'] {
  const out: FinalMemory['arrays'] = {};
  for (const g of globals) {
    const c = store.get(g);
    const vals: (string | number | boolean | null)[] = [];
    for (let k = 0; k < g.size; k++) {
      const v = getCell(c, g.elem, k);
      vals.push(v === undefined ? null : typeof v === 'bigint' ? v.toString() : typeof v === 'number' && (Number.isNaN(v) || !Number.isFinite(v) || Object.is(v, -0)) ? String(v) : v);
    }
    out[g.name] = vals;
  }
  return out;
}

/** Explore every interleaving of ⟨c | μ⟩ (up to partial-order reduction). */
export function explore(prog: SmallProgram, space: Space, init: SmallState, globals: readonly ArrayRef[], opts: ExploreOptions = {}): ExploreResult {
  const machine = new SmallStep(prog, space);
  const fps = new Footprints(prog);
  const canon = new Canon(prog);
  const por = opts.por !== false;
  const maxStates = opts.maxStates ?? 1_000_000;
  const every = opts.progressEvery ?? 10_000;
  const visited = new Set<string>();
  const finals = new Map<string, FinalMemory>();
  const witnesses: FinalMemory[] = [];
  let stuck: ExploreResult['stuck'] = null;
  let stuckStates = 0;
  let transitions = 0;
  let limit: string | null = null;

  /** The steps to explore from a state, and why it is stuck if there are none. */
  const expand = (s: SmallState): { steps: Step[]; blocked: Blocked[] } => {
    const redexes: Redex[] = machine.redexes(s);
    if (por) {
      // A step touching no memory is independent of everything: take it alone.
      const local = redexes.find((r) => !r.touchesMemory);
      if (local) {
        const f = local.fire();
        if (f.ok) return { steps: [f.step], blocked: [] };
      }
    }
    const steps: Step[] = [];
    const blocked: Blocked[] = [];
    for (const r of redexes) {
      const f = r.fire();
      if (f.ok) steps.push(f.step);
      else blocked.push(f.blocked);
    }
    if (por) {
      const alone = steps.find((st) => st.access.write !== null && independent(fps, st));
      if (alone) return { steps: [alone], blocked };
    }
    return { steps, blocked };
  };

  interface Frame_ {
    readonly steps: Step[];
    next: number;
    readonly via: Step | null;
    readonly key: string;
  }
  const path = (stack: readonly Frame_[], last: Step): ScheduleStep[] => [...stack.map((f) => f.via).filter((x): x is Step => x !== null), last].map((s) => scheduleStep(prog, s));

  const stack: Frame_[] = [];
  const visit = (s: SmallState, via: Step | null, key: string): void => {
    if (s.term.k === 'skip') {
      const key = memoryKey(s.store, globals);
      if (!finals.has(key)) {
        const fm: FinalMemory = { key, arrays: arraysJson(s.store, globals), schedule: via ? path(stack, via) : [] };
        finals.set(key, fm);
        if (witnesses.length < 2) witnesses.push(fm);
      }
      return;
    }
    const { steps, blocked } = expand(s);
    if (steps.length === 0) {
      stuckStates++;
      if (stuck === null) stuck = { schedule: via ? path(stack, via) : [], blocked: blocked.map((b) => b.error) };
      return;
    }
    stack.push({ steps, next: 0, via, key });
  };

  try {
    const initKey = canon.key(init, globals);
    visited.add(initKey);
    visit(init, null, initKey);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next >= top.steps.length) {
        stack.pop();
        continue;
      }
      const step = top.steps[top.next++]!;
      transitions++;
      const key = canon.key(step.next, globals);
      opts.onTransition?.(top.key, key, step);
      if (visited.has(key)) continue;
      visited.add(key);
      if (visited.size % every === 0) opts.onProgress?.(visited.size, finals.size);
      if (visited.size > maxStates) {
        limit = `more than ${maxStates} states`;
        break;
      }
      visit(step.next, step, key);
      if (opts.stopAtNondeterminism && finals.size >= 2) break;
    }
  } catch (e) {
    if (!(e instanceof SmallLimit)) throw e;
    limit = e.message;
  }
  const outcome: ExploreResult['outcome'] = finals.size >= 2 ? 'nondeterministic' : limit !== null ? 'limit' : stuckStates > 0 ? 'stuck' : 'deterministic';
  return { outcome, states: visited.size, transitions, finals: finals.size, stuckStates, witnesses, stuck, por, limit };
}

// ---------------------------------------------------------------------------------------------
// One run under a seeded random scheduler

/** A small deterministic PRNG (mulberry32) seeded from any seed text. */
export function prng(seed: bigint | number | string): () => number {
  let h = 0x811c9dc5;
  for (const ch of String(seed)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomRun {
  readonly outcome: 'final' | 'stuck' | 'limit';
  readonly steps: number;
  /** The first `traceLimit` steps. */
  readonly trace: ScheduleStep[];
  readonly state: SmallState;
  readonly blocked: RunError[];
  readonly limit: string | null;
}

/**
 * Reduce ⟨c | μ⟩ to the end, choosing each step uniformly among the enabled ones with a seeded
 * PRNG (scheduler `random`), or always the leftmost enabled one (`leftmost`: the schedule of the
 * existence proof, Thm 4.3.3).
 */
export function runSmallStep(prog: SmallProgram, space: Space, init: SmallState, opts: { seed?: bigint | number | string; scheduler?: 'random' | 'leftmost'; maxSteps?: number; traceLimit?: number } = {}): RandomRun {
  const machine = new SmallStep(prog, space);
  const rand = prng(opts.seed ?? 0);
  const maxSteps = opts.maxSteps ?? 100_000_000;
  const traceLimit = opts.traceLimit ?? Infinity;
  const trace: ScheduleStep[] = [];
  let s = init;
  let n = 0;
  try {
    while (s.term.k !== 'skip') {
      if (n >= maxSteps) return { outcome: 'limit', steps: n, trace, state: s, blocked: [], limit: `more than ${maxSteps} steps` };
      const redexes = machine.redexes(s);
      // Uniform among the enabled redexes: the first enabled one of a random order.
      if (opts.scheduler !== 'leftmost') {
        for (let i = redexes.length - 1; i > 0; i--) {
          const j = Math.floor(rand() * (i + 1));
          [redexes[i], redexes[j]] = [redexes[j]!, redexes[i]!];
        }
      }
      let step: Step | null = null;
      const blocked: Blocked[] = [];
      for (const r of redexes) {
        const f = r.fire();
        if (f.ok) {
          step = f.step;
          break;
        }
        blocked.push(f.blocked);
      }
      if (step === null) return { outcome: 'stuck', steps: n, trace, state: s, blocked: blocked.map((b) => b.error), limit: null };
      if (trace.length < traceLimit) trace.push(scheduleStep(prog, step));
      s = step.next;
      n++;
    }
  } catch (e) {
    if (!(e instanceof SmallLimit)) throw e;
    return { outcome: 'limit', steps: n, trace, state: s, blocked: [], limit: e.message };
  }
  return { outcome: 'final', steps: n, trace, state: s, blocked: [], limit: null };
}

export { SKIP, runError };

// ---------------------------------------------------------------------------------------------
// From an implementation and parameters to an initial small-step state

export interface SmallSetup {
  readonly prog: SmallProgram;
  readonly space: Space;
  readonly init: SmallState;
  /** The global arrays, in declaration order. */
  readonly globals: readonly ArrayRef[];
}

/**
 * The initial state of `ci` for these parameters: inputs filled from `model` (as for `run`), every
 * other cell ⊥. Throws SchedInputError on bad parameters or violated assumptions.
 */
export function smallSetup(ci: CheckedImpl, params: ReadonlyMap<string, bigint>, model: SpecModel, opts: { mutable: boolean; file?: string; maxCells?: number }): SmallSetup {
  const ps = checkParams(ci.spec, params, opts.file ?? ci.impl.name);
  const { space, arrays } = initialMemory(ci, ps, model, { file: opts.file, maxCells: opts.maxCells });
  const prog = smallProgram(ci);
  const init = initialState(prog, ps, arrays, opts.mutable);
  return { prog, space, init, globals: prog.globals.map((g) => arrays.get(g.name)!) };
}

/** The global arrays of a small-step state as a named memory (for comparisons with the spec). */
export function finalMemory(s: SmallState, globals: readonly ArrayRef[]): NamedMemory {
  return new Map(globals.map((g) => [g.name, { ref: g, cells: s.store.get(g) }] as const));
}

/** `memoryKey` of a named memory (e.g. a big-step result), to compare with explored finals. */
export function namedMemoryKey(mem: NamedMemory, globals: readonly ArrayRef[]): string {
  return globals.map((g) => cellsText(g, mem.get(g.name)!.cells)).join('|');
}
