// The small-step interleaving semantics ⟨c | μ⟩ ⇝ ⟨c' | μ'⟩ of thesis Fig. 4.6, one function per
// rule, with the intermediate constructs c1 ‖ c2 and `inalloc μ_a do c`.
//
// Representation:
// - A term is c[E]: the thesis substitutes values for variables (LET, SEQLOOP, PARLOOP); we keep
//   the source command with an environment (Lemma 4.3.2: c[E] evaluates as c in E). A source
//   sequence c1; …; cn under E is the term c1[E]; (c2[E]; (…)), built when the term is built, so
//   terms are canonical. The unrolled loop c[x←i]; …; c[x←n−1] of SEQLOOP is kept compact as
//   `loop(i, n)` and unfolded one iteration at a time (it is the same term).
// - `inalloc μ_a do c` holds a fresh array instance; its cells live in the store next to the
//   global arrays, under the instance's own key, which is the disjoint union μ ⊎ μ_a of
//   INALLOC-CTX. Fresh instances are the Barendregt renaming the thesis assumes, so ALLOCATE's side
//   condition a ∉ arrays(μ) always holds (an inner `allocate a` shadows an outer one).
// - The store is persistent for the explorer (a write copies one array) and mutable for a single
//   run (`sched step`).
//
// SEQ-SKIP (skip; c ⇝ c) is not drawn in Fig. 4.6 but is used by the proofs of §4.3 (Thm 4.3.4,
// Lemma 4.3.8); it is included.

import type { Allocate, Assign, Cmd, Expr, If, LetCmd, Loop } from '../core/language/ast.ts';
import { printCmd, printExpr } from '../core/language/printer.ts';
import { runError, type RunError } from './errors.ts';
import { BotSignal, compileReadSet, ExprCompiler, type Port, type ReadSetFn } from './eval.ts';
import { type Frame, Layout, Scope, type Slot } from './scope.ts';
import type { Int } from './int.ts';
import { asCount } from './int.ts';
import { ArrayRef, Cells, getCell, setCell, showAccess, type Space } from './memory.ts';
import { PoisonSignal, showValue, type Value } from './values.ts';

// ---------------------------------------------------------------------------------------------
// Terms

export type Term =
  | { readonly k: 'skip' }
  | { readonly k: 'code'; readonly cmd: Cmd; readonly env: Frame }
  | { readonly k: 'seq'; readonly first: Term; readonly second: Term }
  /** c[x←from]; …; c[x←n−1] for the body c of `loop` (n − from ≥ 2). */
  | { readonly k: 'loop'; readonly cmd: Loop; readonly env: Frame; readonly from: number; readonly n: number }
  | { readonly k: 'par'; readonly left: Term; readonly right: Term }
  | { readonly k: 'inalloc'; readonly ref: ArrayRef; readonly body: Term };

export const SKIP: Term = { k: 'skip' };

// ---------------------------------------------------------------------------------------------
// Stores: μ ⊎ every μ_a, keyed by instance id

export class Store {
  private constructor(
    readonly cells: Map<number, Cells>,
    readonly mutable: boolean,
  ) {}
  static of(entries: Iterable<[ArrayRef, Cells]>, mutable: boolean): Store {
    const m = new Map<number, Cells>();
    for (const [ref, c] of entries) m.set(ref.id, mutable ? c : c.clone());
    return new Store(m, mutable);
  }
  get(ref: ArrayRef): Cells {
    const c = this.cells.get(ref.id);
    if (c === undefined) throw new Error(`internal: no cells for ${ref.label()}`);
    return c;
  }
  write(ref: ArrayRef, k: number, v: Value): Store {
    if (this.mutable) {
      setCell(this.get(ref), ref.elem, k, v);
      return this;
    }
    const c = this.get(ref).clone();
    setCell(c, ref.elem, k, v);
    const m = new Map(this.cells);
    m.set(ref.id, c);
    return new Store(m, false);
  }
  add(ref: ArrayRef, c: Cells): Store {
    if (this.mutable) {
      this.cells.set(ref.id, c);
      return this;
    }
    const m = new Map(this.cells);
    m.set(ref.id, c);
    return new Store(m, false);
  }
  remove(ref: ArrayRef): Store {
    if (this.mutable) {
      this.cells.delete(ref.id);
      return this;
    }
    const m = new Map(this.cells);
    m.delete(ref.id);
    return new Store(m, false);
  }
}

export interface SmallState {
  readonly term: Term;
  readonly store: Store;
}

// ---------------------------------------------------------------------------------------------
// Compiled commands

interface CmdInfo {
  readonly id: number;
  readonly scope: Scope;
  /** Slots used inside the command and bound outside it (what c[E] depends on). */
  readonly free: readonly number[];
  // per kind
  readonly idx?: ((f: Frame) => Int)[];
  readonly rhs?: (f: Frame) => Value;
  readonly rd?: ReadSetFn;
  readonly arraySlot?: number;
  readonly cond?: (f: Frame) => boolean;
  readonly value?: (f: Frame) => Int | boolean;
  readonly bound?: (f: Frame) => Int;
  readonly dims?: ((f: Frame) => Int)[];
  /** The slot the command binds for its body (loop variable, let variable, array name). */
  readonly slot?: number;
}

/** Reads go to the store of the state being stepped. */
class StorePort implements Port {
  store: Store | null = null;
  readArray(ref: ArrayRef, k: number): Value {
    const v = getCell(this.store!.get(ref), ref.elem, k);
    if (v === undefined) throw new BotSignal('uninitialized', ref.showLoc(k));
    return v;
  }
  outOfBounds(ref: ArrayRef, idx: readonly Int[]): Value {
    throw new BotSignal('out-of-bounds', showAccess(ref.name, idx));
  }
  readTensor(name: string): Value {
    throw new Error(`internal: tensor ${name} read by an implementation`);
  }
}

function exprUses(e: Expr, sc: Scope, bound: ReadonlySet<string>, out: Set<number>): void {
  switch (e.kind) {
    case 'var':
      if (!bound.has(e.name)) out.add(sc.varSlot(e.name));
      return;
    case 'array':
      out.add(sc.arraySlot(e.name));
      for (const i of e.indices) exprUses(i, sc, bound, out);
      return;
    case 'tensor':
      for (const i of e.indices) exprUses(i, sc, bound, out);
      return;
    case 'let': {
      exprUses(e.value, sc, bound, out);
      exprUses(e.body, sc, new Set([...bound, e.name]), out);
      return;
    }
    case 'unary':
      exprUses(e.arg, sc, bound, out);
      return;
    case 'binary':
      exprUses(e.left, sc, bound, out);
      exprUses(e.right, sc, bound, out);
      return;
    case 'select':
      exprUses(e.cond, sc, bound, out);
      exprUses(e.then, sc, bound, out);
      exprUses(e.else, sc, bound, out);
      return;
    case 'call':
      for (const a of e.args) exprUses(a, sc, bound, out);
      return;
    default:
      return;
  }
}

/** An implementation body compiled for the small-step machine. */
export class SmallProgram {
  readonly port = new StorePort();
  readonly X = new ExprCompiler(this.port);
  readonly info = new Map<Cmd, CmdInfo>();
  private nextId = 0;

  constructor(
    readonly layout: Layout,
    readonly body: Cmd,
    readonly scope: Scope,
    /** Global arrays, in a fixed order (final memories are compared on them). */
    readonly globals: readonly { name: string; slot: number }[],
    /** Slots of the parameters (not shown in traces). */
    readonly paramSlots: ReadonlySet<number>,
  ) {
    this.compile(body, scope);
  }

  /** Compile c and its sub-commands; returns the free slots of c. */
  private compile(c: Cmd, sc: Scope): Set<number> {
    const uses = new Set<number>();
    const own = (e: Expr): void => exprUses(e, sc, new Set(), uses);
    const sub = (x: Cmd, s: Scope, bound?: number): void => {
      for (const u of this.compile(x, s)) if (u !== bound) uses.add(u);
    };
    const base = { id: this.nextId++, scope: sc };
    let info: Omit<CmdInfo, 'free'>;
    switch (c.kind) {
      case 'skip':
        info = base;
        break;
      case 'seq':
        for (const x of c.cmds) sub(x, sc);
        info = base;
        break;
      case 'assign': {
        c.indices.forEach(own);
        own(c.rhs);
        uses.add(sc.arraySlot(c.array));
        info = { ...base, arraySlot: sc.arraySlot(c.array), idx: c.indices.map((i) => this.X.index(i, sc)), rhs: this.X.value(c.rhs, sc), rd: compileReadSet(c.rhs, sc, this.X) };
        break;
      }
      case 'if':
        own(c.cond);
        sub(c.then, sc);
        if (c.else) sub(c.else, sc);
        info = { ...base, cond: this.X.cond(c.cond, sc) };
        break;
      case 'let': {
        own(c.value);
        const value = this.X.affine(c.value, sc);
        const { scope, slot } = sc.bindVar(c.name);
        sub(c.body, scope, slot);
        info = { ...base, value, slot };
        break;
      }
      case 'for':
      case 'par': {
        own(c.bound);
        const bound = this.X.index(c.bound, sc);
        const { scope, slot } = sc.bindVar(c.var);
        sub(c.body, scope, slot);
        info = { ...base, bound, slot };
        break;
      }
      case 'allocate': {
        c.dims.forEach(own);
        const dims = c.dims.map((d) => this.X.index(d, sc));
        const { scope, slot } = sc.bindArray(c.name);
        sub(c.body, scope, slot);
        info = { ...base, dims, slot };
        break;
      }
    }
    this.info.set(c, { ...info, free: [...uses].sort((a, b) => a - b) });
    return uses;
  }

  cmdInfo(c: Cmd): CmdInfo {
    const i = this.info.get(c);
    if (i === undefined) throw new Error('internal: command not compiled');
    return i;
  }

  /** The term c[E], normalised: skip is SKIP, a sequence is a right-nested `seq`. */
  code(cmd: Cmd, env: Frame): Term {
    if (cmd.kind === 'skip') return SKIP;
    if (cmd.kind === 'seq') {
      let t = this.code(cmd.cmds[cmd.cmds.length - 1]!, env);
      for (let i = cmd.cmds.length - 2; i >= 0; i--) t = { k: 'seq', first: this.code(cmd.cmds[i]!, env), second: t };
      return t;
    }
    return { k: 'code', cmd, env };
  }

  /** c[x ← i]: the environment extended with one slot. */
  bind(env: Frame, slot: number, v: Slot): Frame {
    const e = env.slice();
    e[slot] = v;
    return e;
  }

  /** c[x←from]; …; c[x←n−1] as a term. */
  unrolled(cmd: Loop, env: Frame, from: number, n: number): Term {
    if (from >= n) return SKIP;
    const slot = this.cmdInfo(cmd).slot!;
    if (from === n - 1) return this.code(cmd.body, this.bind(env, slot, from));
    return { k: 'loop', cmd, env, from, n };
  }
}

// ---------------------------------------------------------------------------------------------
// Steps

/** What a step did to memory (for traces and partial-order reduction). */
export interface Access {
  readonly write: { readonly ref: ArrayRef; readonly k: number; readonly v: Value } | null;
  /** Location keys read (ref.base + offset). */
  readonly reads: readonly number[];
}

/**
 * The context of a redex, innermost first: one entry per context rule on the way down from the
 * root (SEQ-CTX keeps the rest of a sequence, PAR-L/PAR-R the other side of a ‖, INALLOC-CTX the
 * local array). Rebuilding the term after a step walks it up (a zipper).
 */
type Zip =
  | { readonly rule: 'SEQ-CTX'; readonly second: Term; readonly up: Zip | null }
  | { readonly rule: 'PAR-L'; readonly right: Term; readonly up: Zip | null }
  | { readonly rule: 'PAR-R'; readonly left: Term; readonly up: Zip | null }
  | { readonly rule: 'INALLOC-CTX'; readonly ref: ArrayRef; readonly up: Zip | null };

function rebuild(t: Term, z: Zip | null): Term {
  for (; z !== null; z = z.up) {
    switch (z.rule) {
      case 'SEQ-CTX':
        t = { k: 'seq', first: t, second: z.second };
        break;
      case 'PAR-L':
        t = { k: 'par', left: t, right: z.right };
        break;
      case 'PAR-R':
        t = { k: 'par', left: z.left, right: t };
        break;
      case 'INALLOC-CTX':
        t = { k: 'inalloc', ref: z.ref, body: t };
        break;
    }
  }
  return t;
}

/** Where a redex sits: the rules from the root down to it and what runs in parallel with it. */
export interface RedexInfo {
  /** Rules of the derivation, root first, ending with the axiom. */
  readonly rules: readonly string[];
  /** The command of the axiom (null for PAR-SKIP-*, SEQ-SKIP, INALLOC-SKIP). */
  readonly cmd: Cmd | null;
  readonly env: Frame | null;
  /** Terms running in parallel with the redex (the other side of every ‖ above it). */
  readonly siblings: readonly Term[];
}

/** One reduction ⟨c | μ⟩ ⇝ ⟨c' | μ'⟩. */
export interface Step extends RedexInfo {
  readonly access: Access;
  readonly next: SmallState;
}

/** A redex whose axiom does not apply (ASSIGN out of bounds or writing ⊥): no rule applies. */
export interface Blocked extends RedexInfo {
  readonly error: RunError;
}

type Fired = { readonly ok: true; readonly step: Step } | { readonly ok: false; readonly blocked: Blocked };

const NO_ACCESS: Access = { write: null, reads: [] };

type Axiom = 'ASSIGN' | 'IF' | 'LET' | 'SEQLOOP' | 'PARLOOP' | 'ALLOCATE' | 'SEQ-SKIP' | 'PAR-SKIP-L' | 'PAR-SKIP-R' | 'INALLOC-SKIP';

/** A place where a rule may apply; firing it computes the step, or why none applies. */
export class Redex implements RedexInfo {
  constructor(
    private readonly m: SmallStep,
    private readonly axiom: Axiom,
    private readonly zip: Zip | null,
    private readonly store: Store,
    /** The code term (for axioms on commands), or the term the structural rule keeps. */
    private readonly term: Term | null,
    readonly cmd: Cmd | null,
    readonly env: Frame | null,
  ) {}

  /** Does the step read or write memory (only ASSIGN does)? */
  get touchesMemory(): boolean {
    return this.axiom === 'ASSIGN';
  }

  get rules(): string[] {
    const out: string[] = [this.axiomRule()];
    for (let z = this.zip; z !== null; z = z.up) out.push(z.rule);
    return out.reverse();
  }

  get siblings(): Term[] {
    const out: Term[] = [];
    for (let z = this.zip; z !== null; z = z.up) {
      if (z.rule === 'PAR-L') out.push(z.right);
      else if (z.rule === 'PAR-R') out.push(z.left);
    }
    return out;
  }

  private axiomRule(): string {
    if (this.axiom === 'IF') return this.m.prog.cmdInfo(this.cmd!).cond!(this.env!) ? 'IF-TRUE' : 'IF-FALSE';
    return this.axiom;
  }

  fire(): Fired {
    const m = this.m;
    const store = this.store;
    switch (this.axiom) {
      case 'ASSIGN':
        return m.ASSIGN(this.cmd as Assign, this.env!, store, this);
      case 'SEQ-SKIP': // ⟨skip; c | μ⟩ ⇝ ⟨c | μ⟩
      case 'PAR-SKIP-L': // ⟨skip ‖ c | μ⟩ ⇝ ⟨c | μ⟩
      case 'PAR-SKIP-R': // ⟨c ‖ skip | μ⟩ ⇝ ⟨c | μ⟩
        return this.done(store, this.term!);
      case 'INALLOC-SKIP': // ⟨inalloc μ_a do skip | μ⟩ ⇝ ⟨skip | μ⟩: μ_a is dropped
        return this.done(store.remove((this.term as Extract<Term, { k: 'inalloc' }>).ref), SKIP);
      case 'IF':
        return this.done(store, m.IF(this.cmd as If, this.env!));
      case 'LET':
        return this.done(store, m.LET(this.cmd as LetCmd, this.env!));
      case 'SEQLOOP':
        return this.done(store, m.SEQLOOP(this.cmd as Loop, this.env!));
      case 'PARLOOP':
        return this.done(store, m.PARLOOP(this.cmd as Loop, this.env!));
      case 'ALLOCATE': {
        const r = m.ALLOCATE(this.cmd as Allocate, this.env!, store);
        return this.done(r.store, r.term);
      }
    }
  }

  private done(store: Store, term: Term): Fired {
    return { ok: true, step: this.step(NO_ACCESS, { term: rebuild(term, this.zip), store }) };
  }

  /** This redex's information (rules and siblings computed on demand) plus `extra`. */
  private info<T extends object>(extra: T): RedexInfo & T {
    const self = this;
    const base = {
      get rules(): string[] {
        return self.rules;
      },
      get siblings(): Term[] {
        return self.siblings;
      },
      cmd: this.cmd,
      env: this.env,
    };
    return Object.assign(base, extra);
  }

  /** The step made by firing this redex. */
  step(access: Access, next: SmallState): Step {
    return this.info({ access, next });
  }

  blocked(error: RunError): Fired {
    return { ok: false, blocked: this.info({ error }) };
  }

  /** The term after this step, for a given result of the redex itself. */
  rebuilt(t: Term): Term {
    return rebuild(t, this.zip);
  }
}

/** The small-step machine of one program. */
export class SmallStep {
  constructor(
    readonly prog: SmallProgram,
    readonly space: Space,
  ) {}

  /** Every redex of ⟨c | μ⟩, in a fixed order (left before right). */
  redexes(s: SmallState): Redex[] {
    const out: Redex[] = [];
    this.visit(s.term, s.store, null, out);
    return out;
  }

  /** Every reduction of ⟨c | μ⟩, and the redexes where no rule applies. */
  steps(s: SmallState): { steps: Step[]; blocked: Blocked[] } {
    const steps: Step[] = [];
    const blocked: Blocked[] = [];
    for (const r of this.redexes(s)) {
      const f = r.fire();
      if (f.ok) steps.push(f.step);
      else blocked.push(f.blocked);
    }
    return { steps, blocked };
  }

  private visit(t: Term, store: Store, zip: Zip | null, out: Redex[]): void {
    switch (t.k) {
      case 'skip':
        return;
      case 'code':
        return this.axiom(t.cmd, t.env, store, zip, out);
      case 'seq':
        return this.seq(t.first, t.second, store, zip, out);
      case 'loop': {
        // The same term as c[x←from]; (c[x←from+1]; …): unfold one iteration.
        const slot = this.prog.cmdInfo(t.cmd).slot!;
        const first = this.prog.code(t.cmd.body, this.prog.bind(t.env, slot, t.from));
        return this.seq(first, this.prog.unrolled(t.cmd, t.env, t.from + 1, t.n), store, zip, out);
      }
      case 'par': {
        const { left: l, right: r } = t;
        if (l.k === 'skip') out.push(new Redex(this, 'PAR-SKIP-L', zip, store, r, null, null));
        if (r.k === 'skip') out.push(new Redex(this, 'PAR-SKIP-R', zip, store, l, null, null));
        // PAR-L: ⟨c1 | μ⟩ ⇝ ⟨c1' | μ'⟩ gives ⟨c1 ‖ c2 | μ⟩ ⇝ ⟨c1' ‖ c2 | μ'⟩ (PAR-R symmetric).
        this.visit(l, store, { rule: 'PAR-L', right: r, up: zip }, out);
        this.visit(r, store, { rule: 'PAR-R', left: l, up: zip }, out);
        return;
      }
      case 'inalloc':
        if (t.body.k === 'skip') {
          out.push(new Redex(this, 'INALLOC-SKIP', zip, store, t, null, null));
          return;
        }
        // INALLOC-CTX: a step of c in μ ⊎ μ_a is a step of inalloc μ_a do c in μ (dom(μ_a) kept).
        this.visit(t.body, store, { rule: 'INALLOC-CTX', ref: t.ref, up: zip }, out);
        return;
    }
  }

  /** SEQ-SKIP, or SEQ-CTX: ⟨c1 | μ⟩ ⇝ ⟨c1' | μ'⟩ gives ⟨c1; c2 | μ⟩ ⇝ ⟨c1'; c2 | μ'⟩. */
  private seq(first: Term, second: Term, store: Store, zip: Zip | null, out: Redex[]): void {
    if (first.k === 'skip') out.push(new Redex(this, 'SEQ-SKIP', zip, store, second, null, null));
    else this.visit(first, store, { rule: 'SEQ-CTX', second, up: zip }, out);
  }

  private axiom(cmd: Cmd, env: Frame, store: Store, zip: Zip | null, out: Redex[]): void {
    const kind: Axiom | null =
      cmd.kind === 'assign' ? 'ASSIGN' : cmd.kind === 'if' ? 'IF' : cmd.kind === 'let' ? 'LET' : cmd.kind === 'for' ? 'SEQLOOP' : cmd.kind === 'par' ? 'PARLOOP' : cmd.kind === 'allocate' ? 'ALLOCATE' : null;
    if (kind === null) throw new Error('internal: unnormalised term');
    out.push(new Redex(this, kind, zip, store, null, cmd, env));
  }

  /**
   * ASSIGN: ⟦ι_i⟧_{∅;μ} = n_i, ⟦e⟧_{∅;μ} = v (not ⊥) and a[n̄] ∈ dom(μ) give
   * ⟨a[ι̅] {t} := e | μ⟩ ⇝ ⟨skip | μ[a[n̄] ← v]⟩. Otherwise no rule applies (a stuck redex).
   */
  ASSIGN(cmd: Assign, env: Frame, store: Store, r: Redex): Fired {
    const ci = this.prog.cmdInfo(cmd);
    const ref = env[ci.arraySlot!] as ArrayRef;
    const idx = ci.idx!.map((g) => g(env));
    const k = ref.offset(idx);
    if (k < 0) {
      const a = showAccess(ref.name, idx);
      return r.blocked(runError('out-of-bounds', 'ASSIGN', cmd.pos, a, `write to ${a} outside ${ref.name}: ${ref.elem}[${ref.dims.join(', ')}]: a[n̄] ∉ dom(μ)`, { env: envRecord(this.prog, cmd, env) }));
    }
    this.prog.port.store = store;
    let v: Value;
    try {
      v = ci.rhs!(env);
    } catch (e) {
      if (e instanceof PoisonSignal) return r.blocked(runError(e.kind, 'ASSIGN', cmd.pos, e.location, e.usedMessage(), { env: envRecord(this.prog, cmd, env) }));
      if (!(e instanceof BotSignal)) throw e;
      const kind = e.what === 'out-of-bounds' ? 'out-of-bounds' : 'uninitialized';
      return r.blocked(runError(kind, 'ASSIGN', cmd.pos, e.where, `the right-hand side is ⊥: read of ${e.where} (${e.what === 'out-of-bounds' ? 'not in dom(μ)' : 'never written'})`, { env: envRecord(this.prog, cmd, env) }));
    }
    const reads: number[] = [];
    ci.rd!(env, (a, kk) => reads.push(a.base + kk));
    return { ok: true, step: r.step({ write: { ref, k, v }, reads }, { term: r.rebuilt(SKIP), store: store.write(ref, k, v) }) };
  }

  /** IF-TRUE / IF-FALSE: ⟦ι⟧_{∅;μ} = true (false) gives ⟨if ι then c1 else c2 | μ⟩ ⇝ ⟨c1 (c2) | μ⟩. */
  IF(cmd: If, env: Frame): Term {
    const b = this.prog.cmdInfo(cmd).cond!(env);
    return b ? this.prog.code(cmd.then, env) : cmd.else === null ? SKIP : this.prog.code(cmd.else, env);
  }

  /** LET: ⟦ι⟧_{∅;μ} = v gives ⟨let x = ι in c | μ⟩ ⇝ ⟨c[x ← v] | μ⟩. */
  LET(cmd: LetCmd, env: Frame): Term {
    const info = this.prog.cmdInfo(cmd);
    return this.prog.code(cmd.body, this.prog.bind(env, info.slot!, info.value!(env)));
  }

  /** SEQLOOP: ⟦ι⟧ = n gives ⟨for x < ι do c | μ⟩ ⇝ ⟨c[x←0]; …; c[x←n−1] | μ⟩ (skip if n ≤ 0). */
  SEQLOOP(cmd: Loop, env: Frame): Term {
    const n = this.count(this.prog.cmdInfo(cmd).bound!(env));
    return this.prog.unrolled(cmd, env, 0, n);
  }

  /** PARLOOP: ⟦ι⟧ = n gives ⟨par x < ι do c | μ⟩ ⇝ ⟨c[x←0] ‖ (… ‖ c[x←n−1]) | μ⟩ (skip if n ≤ 0). */
  PARLOOP(cmd: Loop, env: Frame): Term {
    const info = this.prog.cmdInfo(cmd);
    const n = this.count(info.bound!(env));
    let t: Term = SKIP;
    for (let i = n - 1; i >= 0; i--) {
      const c = this.prog.code(cmd.body, this.prog.bind(env, info.slot!, i));
      t = i === n - 1 ? c : { k: 'par', left: c, right: t };
    }
    return t;
  }

  /**
   * ALLOCATE: ⟦ι_i⟧ = n_i, μ_a = {a[ī] ↦ ⊥ | 0 ≤ i_k < n_k}, a ∉ arrays(μ) (a fresh instance)
   * give ⟨allocate a: τ[ι̅] in c | μ⟩ ⇝ ⟨inalloc μ_a do c | μ⟩.
   */
  ALLOCATE(cmd: Allocate, env: Frame, store: Store): { store: Store; term: Term } {
    const info = this.prog.cmdInfo(cmd);
    const dims = info.dims!.map((d) => this.count(d(env)));
    const ref = this.space.alloc(cmd.name, cmd.elem, dims, false, cmd.pos, 0);
    if (ref === null) throw new SmallLimit(`allocation of ${cmd.name}[${dims.join(', ')}] exceeds the memory cap`);
    const body = this.prog.code(cmd.body, this.prog.bind(env, info.slot!, ref));
    return { store: store.add(ref, Cells.empty(cmd.elem, ref.size)), term: { k: 'inalloc', ref, body } };
  }

  private count(n: Int): number {
    const c = asCount(n, 1 << 24);
    if (c === null) throw new SmallLimit(`a loop or allocation of ${n} is too large for the small-step semantics`);
    return c;
  }
}

/** A resource limit of the small-step machine (huge loops or allocations). */
export class SmallLimit extends Error {}

// ---------------------------------------------------------------------------------------------
// Printing steps and terms

/** `SEQ-CTX ▸ PAR-R ▸ PAR-L ▸ ASSIGN`, with runs compressed (`PAR-R×5`). */
export function showRules(rules: readonly string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < rules.length; ) {
    let j = i;
    while (j < rules.length && rules[j] === rules[i]) j++;
    parts.push(j - i > 1 ? `${rules[i]}×${j - i}` : rules[i]!);
    i = j;
  }
  return parts.join(' ▸ ');
}

/** Variable bindings of the environment visible to a command, parameters excepted. */
export function envRecord(prog: SmallProgram, cmd: Cmd, env: Frame): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, s] of prog.cmdInfo(cmd).scope.bindings().vars) {
    if (prog.paramSlots.has(s)) continue;
    const v = env[s];
    if (v !== undefined) out[name] = String(v);
  }
  return out;
}

/** `i = 1, j = 0`. */
export function showEnv(prog: SmallProgram, cmd: Cmd, env: Frame): string {
  return Object.entries(envRecord(prog, cmd, env))
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');
}

/** A one-line description of a command (the first line of its printed form). */
export function headline(cmd: Cmd): string {
  const text = printCmd(cmd, 0);
  const nl = text.indexOf('\n');
  return nl < 0 ? text : `${text.slice(0, nl)} …`;
}

export function describeStep(prog: SmallProgram, s: RedexInfo & { access?: Access }): string {
  let what = '';
  if (s.cmd !== null && s.env !== null) {
    const env = showEnv(prog, s.cmd, s.env);
    what = ` ${headline(s.cmd)}${env ? ` [${env}]` : ''} (line ${s.cmd.pos.line})`;
    if (s.access?.write) what += ` → ${s.access.write.ref.showLoc(s.access.write.k)} = ${showValue(s.access.write.v)}`;
  }
  return `${showRules(s.rules)}${what}`;
}

export { printExpr };
