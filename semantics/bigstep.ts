// The big-step update semantics E; μ ⊢ c ⇓ ⟨δμ; ρ⟩ of thesis Fig. 4.5, one emitter per rule.
//
// An implementation is translated once into one JavaScript function (the expressions by the
// emitter of jsgen.ts, Fig. 4.3), which V8 compiles to machine code. How the translation stays
// the rules of the figure:
// - The memory is updated in place. Running c2 on the memory c1 left is running it in μ ▷ δμ1
//   (U-SEQ, U-FOR), and the effects of c1 then c2, taken in order, are δμ1 ▷ δμ2 and ρ1 ∪ ρ2;
//   nothing is rebuilt per command, and outside every `par` no δμ or ρ needs to exist at all.
// - U-PARLOOP runs its iterations one after another on the same memory but watches every access
//   made inside it (`trackRead`, `trackWrite`): the first time an iteration reads a location that
//   another iteration of the same execution of the loop wrote, or writes one that another read,
//   the side condition dom(δμ_i) # ρ_j fails and the run stops there. Until then no iteration has
//   seen another's writes, so each ran exactly as it would from the memory at loop entry, as the
//   rule requires. When several iterations write a location, each one's last value (its δμ_i) is
//   compared with the previous writer's at the end of the iteration (δμ_i ∘ δμ_j: benign races
//   are allowed). So a run succeeds iff every premise and side condition holds, and the memory
//   then holds μ ▷ ⋃ δμ_i.
// - U-ALLOCATE binds the name to a fresh instance (a slot of its own: (μ ∖ a) ▷ μ_a shadows any
//   outer `a`); dropping the instance on exit is δμ ∖ dom(μ_a), ρ ∖ dom(μ_a).
// Index arithmetic is exact (int.ts). A failure throws `Stuck` with a structured `RunError`:
// "no semantics" is the absence of a derivation. The derivation itself can be recorded (a second
// translation with recording calls, so the fast one pays nothing for it).

import type { Allocate, ArrayRead, Assign, Cmd, Expr, If, LetCmd, Loop, Pos, Seq, Skip } from '../core/language/ast.ts';
import { printExpr } from '../core/language/printer.ts';
import { type AssignWatcher, type Derivation, type DerivationNode, Recorder } from './derivation.ts';
import { type RaceIterations, runError, type RunError, type RunErrorKind, Stuck } from './errors.ts';
import { ExprCompiler, type Port } from './eval.ts';
import { type Frame, type Layout, Scope, Sites } from './scope.ts';
import type { Int } from './int.ts';
import { asCount, showInt } from './int.ts';
import { Emitter, offsetCode, type Target } from './jsgen.ts';
import { type ArrayRef, Cells, flagArray, getCell, recordArray, showAccess, type Space } from './memory.ts';
import { type Bot, literalValue, PoisonSignal, poisonRerun, sameValue, showValue, type Value, valueToJson } from './values.ts';

export interface BigStepOptions {
  /** §4.2's write-set variant ω: all values written to a location by distinct iterations agree. */
  readonly omega?: boolean;
  /** Record the derivation tree (slower; off by default). */
  readonly derivation?: boolean;
  /** Record δμ and ρ of the whole command (cheaper than a derivation). */
  readonly effects?: boolean;
  /** Hand every U-ASSIGN node to this callback instead of keeping a tree (ignored with `derivation`). */
  readonly watchAssignments?: AssignWatcher;
  /** Budget of loop iterations plus assignments before giving up with a `limit` error. */
  readonly maxSteps?: number;
  /**
   * Run every conditional store `a[ι] := select(c, v, a[ι])` as `if (c) a[ι] := v` (see
   * conditionalStore()). Not a rule of the thesis: a reading of programs translated from a
   * compiler's `if (c) store`, to confirm that an access the select adds is one the compiler's
   * code makes. Not with `derivation` or `effects` (their rules are the thesis's).
   */
  readonly conditionalStores?: boolean;
}

export const DEFAULT_MAX_STEPS = 4_000_000_000;

/** One active execution of a `par` loop: U-PARLOOP's bookkeeping for its side conditions. */
interface ParFrame {
  /** Unique per execution of a par loop (tags the race records of this execution). */
  readonly id: number;
  readonly loop: Loop;
  /** The iteration running now (the value of the loop variable). */
  iter: number;
  /** Locations the current iteration took over from an earlier writer: δμ_prev ∘ δμ_iter. */
  readonly pending: Pending[];
}

interface Pending {
  readonly ref: ArrayRef;
  readonly k: number;
  /** δμ_prevIter(ℓ): the value the earlier iteration left. */
  readonly prev: Value | Bot;
  readonly prevIter: number;
  readonly prevSite: number;
  readonly site: number;
}

// Race records: per array instance, per par level, 7 int32 per cell.
const R = 7;
const TAG = 0; // id of the par execution the record belongs to (stale otherwise)
const W1 = 1; // first iteration that wrote the cell (-1: none)
const W1S = 2; // its site
const WL = 3; // last iteration that wrote the cell
const WLS = 4; // its site
const R1 = 5; // first iteration that read the cell (-1: none)
const R1S = 6; // its site

/** A failure raised at a site; the generated code adds the environment before it leaves. */
class SiteStuck extends Error {
  constructor(
    readonly site: number,
    readonly partial: Omit<RunError, 'env'>,
  ) {
    super(partial.message);
  }
}

/**
 * The run-time half of the big-step: race bookkeeping of U-PARLOOP, failures, allocation, the
 * optional recorder. The generated code calls it; one machine serves one compiled program.
 */
export class BigStepMachine {
  depth = 0;
  /**
   * Changes whenever the current iteration of some active par changes. With it, a one-entry
   * cache of the last tracked cell: repeated accesses to one cell by one iteration (an
   * accumulator) need no bookkeeping once the records say "only this iteration touched it".
   */
  epoch = 0;
  cRef: ArrayRef | null = null;
  cK = -1;
  cEpoch = -1;
  /** A read by the current iterations would change no record and cannot race. */
  cRead = false;
  /** The same for a write (never with ω, which compares every value). */
  cWrite = false;
  readonly pars: (ParFrame | undefined)[] = [];
  private nextPar = 1;
  rec: Recorder | null = null;
  omega = false;
  budget = DEFAULT_MAX_STEPS;
  reads = 0;
  writes = 0;
  space: Space | null = null;
  readonly loops: Loop[] = [];
  readonly allocs: { cmd: Allocate; depth: number }[] = [];

  constructor(readonly sites: Sites) {}

  reset(space: Space, opts: BigStepOptions): void {
    this.depth = 0;
    this.pars.length = 0;
    this.nextPar = 1;
    this.rec = opts.derivation || opts.effects ? new Recorder(opts.derivation === true, this.sites) : opts.watchAssignments ? new Recorder(false, this.sites, opts.watchAssignments) : null;
    this.omega = opts.omega === true;
    this.budget = opts.maxSteps ?? DEFAULT_MAX_STEPS;
    this.reads = 0;
    this.writes = 0;
    this.space = space;
    this.epoch = 0;
    this.cRef = null;
  }

  // -- failures -----------------------------------------------------------------------------

  private fail(site: number, kind: RunErrorKind, rule: string, location: string | null, message: string, extra: { detail?: string; iterations?: RaceIterations; other?: Pos } = {}): never {
    const pos = site >= 0 ? this.sites.info[site]!.pos : null;
    const { env: _env, ...partial } = runError(kind, rule, pos, location, message, extra);
    throw new SiteStuck(site, partial);
  }

  limit(what = 'step budget exhausted'): never {
    throw new Stuck(runError('limit', 'budget', null, null, what));
  }

  /** Called by the generated code when a failure leaves it: attach the variables in scope. */
  withEnv(e: unknown, slots: readonly unknown[]): unknown {
    if (e instanceof PoisonSignal) {
      // A checked operation out of range, or a `load` of ⊥, whose result was used (no select discarded it).
      const pos = this.sites.info[e.site]!.pos;
      e = new SiteStuck(e.site, (({ env: _env, ...p }) => p)(runError(e.kind, 'U-ASSIGN', pos, e.location, e.usedMessage())));
    }
    if (!(e instanceof SiteStuck)) return e;
    const env: Record<string, string> = {};
    const info = e.site >= 0 ? this.sites.info[e.site] : undefined;
    if (info) for (const [name, s] of info.scope.bindings().vars) if (slots[s] !== undefined) env[name] = String(slots[s]);
    return new Stuck({ ...e.partial, env });
  }

  /** Array rule, out of bounds: the location is not in dom(μ), so ⟦e⟧ = ⊥ and U-ASSIGN fails. */
  oobRead(ref: ArrayRef, idx: readonly Int[], site: number): never {
    const a = showAccess(ref.name, idx);
    this.fail(site, 'out-of-bounds', 'U-ASSIGN', a, `read of ${a} outside ${shapeText(ref)}: the location is not in dom(μ)`);
  }

  /** Array rule, ⊥: the cell was never written, so ⟦e⟧ = ⊥ and U-ASSIGN fails (writing ⊥). */
  botRead(ref: ArrayRef, k: number, site: number): never {
    this.fail(site, 'uninitialized', 'U-ASSIGN', ref.showLoc(k), `read of ${locText(ref, k)}, which holds ⊥ (never written): the right-hand side has no value`);
  }

  /** A checked read `load(a[ι])` of ⊥: POISON, an error only if no select discards it. */
  botLoad(ref: ArrayRef, k: number, site: number): Value {
    if (poisonRerun.depth > 0) return literalValue(0n, ref.elem);
    throw new PoisonSignal(site, `load of ${locText(ref, k)}, which holds ⊥ (never written)`, 'uninitialized', ref.showLoc(k));
  }

  /** U-ASSIGN's premise ℓ ∈ dom(μ) fails. */
  oobWrite(ref: ArrayRef, idx: readonly Int[], site: number): never {
    const a = showAccess(ref.name, idx);
    this.fail(site, 'out-of-bounds', 'U-ASSIGN', a, `write to ${a} outside ${shapeText(ref)}: ℓ ∉ dom(μ)`);
  }

  /** An affine value for a derivation node. */
  json(v: Int | boolean): number | string | boolean {
    return typeof v === 'bigint' ? v.toString() : v;
  }

  /** Loop bound n ∈ ℤ as an iteration count (n ≤ 0: none), within the budget. */
  trip(n: Int, budget: number): number {
    const c = asCount(n, 0x7fffffff);
    if (c === null || c > budget) this.limit(`a loop of ${showInt(n)} iterations exceeds the step budget`);
    return c;
  }

  // -- U-ALLOCATE ------------------------------------------------------------------------------

  alloc(id: number, dims: readonly Int[]): ArrayRef {
    const { cmd, depth } = this.allocs[id]!;
    const ns = dims.map((d) => {
      const n = asCount(d, this.space!.maxExtent);
      if (n === null) this.limit(`allocation of ${cmd.name} is too large`);
      return n;
    });
    const ref = this.space!.alloc(cmd.name, cmd.elem, ns, false, cmd.pos, depth);
    if (ref === null) this.limit(`allocation of ${cmd.name}[${ns.join(', ')}] exceeds the memory cap`);
    ref.cells = this.space!.emptyCells(ref);
    return ref;
  }

  free(ref: ArrayRef): void {
    ref.cells = null; // its locations are no longer in the memory
    ref.track = null;
    ref.omega = null;
    this.space!.free(ref);
  }

  // -- U-PARLOOP's side conditions, checked access by access -----------------------------------

  enterPar(loopId: number): ParFrame {
    if (this.nextPar >= 0x7fffffff) this.limit('too many parallel loop executions');
    const P: ParFrame = { id: this.nextPar++, loop: this.loops[loopId]!, iter: 0, pending: [] };
    this.depth++;
    this.pars[this.depth] = P;
    this.epoch++;
    return P;
  }

  /** Start iteration i of P (the generated loop calls this for every iteration). */
  iterate(P: ParFrame, i: number): void {
    P.iter = i;
    this.epoch++;
  }

  leavePar(): void {
    this.pars[this.depth] = undefined;
    this.depth--;
    this.epoch++;
  }

  /** After tracking an access: can the next access to this cell by these iterations skip it? */
  private remember(ref: ArrayRef, k: number): void {
    let read = true;
    let write = !this.omega;
    for (let d = ref.parDepth + 1; d <= this.depth; d++) {
      const it = this.pars[d]!.iter;
      const t = ref.track![d]!;
      const o = k * R;
      const w1 = t[o + W1]!;
      const r1 = t[o + R1]!;
      if (r1 !== it || (w1 !== -1 && w1 !== it)) read = false;
      if (w1 !== it || t[o + WL] !== it || (r1 !== -1 && r1 !== it)) write = false;
    }
    this.cRef = ref;
    this.cK = k;
    this.cEpoch = this.epoch;
    this.cRead = read;
    this.cWrite = write;
  }

  private records(ref: ArrayRef, d: number): Int32Array {
    const t = (ref.track ??= []);
    let a = t[d];
    if (a === undefined) {
      a = recordArray(ref.size * R, ref.sparse);
      t[d] = a;
    }
    return a;
  }

  private raceIter(P: ParFrame, a: number, b: number): RaceIterations {
    return { loop: P.loop.var, line: P.loop.pos.line, col: P.loop.pos.col, first: Math.min(a, b), second: Math.max(a, b) };
  }

  /** A read by the current iteration of every enclosing par: dom(δμ_j) # ρ_i for j ≠ i. */
  trackRead(ref: ArrayRef, k: number, site: number): void {
    if (this.cRead && this.cK === k && this.cRef === ref && this.cEpoch === this.epoch) return;
    for (let d = ref.parDepth + 1; d <= this.depth; d++) {
      const P = this.pars[d]!;
      const t = this.records(ref, d);
      const o = k * R;
      const it = P.iter;
      if (t[o + TAG] !== P.id) {
        t[o + TAG] = P.id;
        t[o + W1] = -1;
        t[o + WL] = -1;
        t[o + R1] = it;
        t[o + R1S] = site;
        continue;
      }
      // Iterations run in increasing order, so a writer other than the current iteration is an
      // earlier one: ℓ ∈ dom(δμ_w) and ℓ ∈ ρ_it.
      const w = t[o + W1]!;
      if (w !== -1 && w !== it) {
        const other = this.sites.info[t[o + W1S]!]!.pos;
        const line = this.sites.info[site]!.pos.line;
        this.fail(site, 'race', 'U-PARLOOP', ref.showLoc(k), `read-write race in 'par ${P.loop.var}' (line ${P.loop.pos.line}): iteration ${w} writes ${locText(ref, k)} (line ${other.line}) and iteration ${it} reads it (line ${line}): dom(δμ_${w}) # ρ_${it} fails`, {
          detail: 'read-write',
          iterations: this.raceIter(P, w, it),
          other,
        });
      }
      if (t[o + R1] === -1) {
        t[o + R1] = it;
        t[o + R1S] = site;
      }
    }
    this.remember(ref, k);
  }

  /** A write by the current iteration of every enclosing par. */
  trackWrite(ref: ArrayRef, k: number, site: number, v: Value): void {
    if (this.cWrite && this.cK === k && this.cRef === ref && this.cEpoch === this.epoch) return;
    for (let d = ref.parDepth + 1; d <= this.depth; d++) {
      const P = this.pars[d]!;
      const t = this.records(ref, d);
      const o = k * R;
      const it = P.iter;
      if (t[o + TAG] !== P.id) {
        t[o + TAG] = P.id;
        t[o + W1] = it;
        t[o + W1S] = site;
        t[o + WL] = it;
        t[o + WLS] = site;
        t[o + R1] = -1;
        if (this.omega) this.omegaReset(ref, d, k, v);
        continue;
      }
      const r = t[o + R1]!;
      if (r !== -1 && r !== it) {
        const other = this.sites.info[t[o + R1S]!]!.pos;
        const line = this.sites.info[site]!.pos.line;
        this.fail(site, 'race', 'U-PARLOOP', ref.showLoc(k), `read-write race in 'par ${P.loop.var}' (line ${P.loop.pos.line}): iteration ${r} reads ${locText(ref, k)} (line ${other.line}) and iteration ${it} writes it (line ${line}): dom(δμ_${it}) # ρ_${r} fails`, {
          detail: 'read-write',
          iterations: this.raceIter(P, r, it),
          other,
        });
      }
      const w1 = t[o + W1]!;
      if (w1 === -1) {
        t[o + W1] = it;
        t[o + W1S] = site;
      } else if (t[o + WL] !== it) {
        // The current iteration takes ℓ over from the last writer, which has finished: the value
        // now in memory is δμ_prev(ℓ). Compared with δμ_it(ℓ) when this iteration ends.
        P.pending.push({ ref, k, prev: getCell(ref.cells!, ref.elem, k), prevIter: t[o + WL]!, prevSite: t[o + WLS]!, site });
      }
      t[o + WL] = it;
      t[o + WLS] = site;
      if (this.omega) {
        if (w1 === -1) this.omegaReset(ref, d, k, v);
        else this.omegaWrite(ref, d, k, v, P, w1, site);
      }
    }
    this.remember(ref, k);
  }

  private omegaReset(ref: ArrayRef, d: number, k: number, v: Value): void {
    const om = (ref.omega ??= []);
    const e = (om[d] ??= { vals: ref.sparse ? [] : new Array(ref.size), distinct: flagArray(ref.size, ref.sparse) });
    e.vals[k] = v;
    e.distinct[k] = 0;
  }

  /** ω variant: ∀ i ≠ j, v ∈ ω_i(ℓ), v' ∈ ω_j(ℓ): v = v' — once two iterations write ℓ, one value. */
  private omegaWrite(ref: ArrayRef, d: number, k: number, v: Value, P: ParFrame, firstWriter: number, site: number): void {
    const e = ref.omega![d]!;
    if (!sameValue(e.vals[k], v)) e.distinct[k] = 1;
    if (e.distinct[k] === 1 && firstWriter !== P.iter) {
      this.fail(site, 'race', 'U-PARLOOP', ref.showLoc(k), `write-set race in 'par ${P.loop.var}' (line ${P.loop.pos.line}): iterations ${firstWriter} and ${P.iter} both write ${locText(ref, k)} and the values written differ (${showValue(e.vals[k])} and ${showValue(v)}): the ω condition fails`, {
        detail: 'write-set',
        iterations: this.raceIter(P, firstWriter, P.iter),
      });
    }
  }

  /** End of an iteration: δμ_prev ∘ δμ_it on every location both wrote. */
  checkPending(P: ParFrame): void {
    for (const p of P.pending) {
      const cur = getCell(p.ref.cells!, p.ref.elem, p.k);
      if (!sameValue(p.prev, cur)) {
        const si = this.sites.info[p.site]!;
        const other = this.sites.info[p.prevSite]!.pos;
        this.fail(p.site, 'race', 'U-PARLOOP', p.ref.showLoc(p.k), `write-write race in 'par ${P.loop.var}' (line ${P.loop.pos.line}): iterations ${p.prevIter} and ${P.iter} both write ${locText(p.ref, p.k)} (lines ${other.line} and ${si.pos.line}) and leave different values (${showValue(p.prev)} and ${showValue(cur)}): δμ_${p.prevIter} ∘ δμ_${P.iter} fails`, {
          detail: 'write-write',
          iterations: this.raceIter(P, p.prevIter, P.iter),
          other,
        });
      }
    }
    P.pending.length = 0;
  }
}

function locText(ref: ArrayRef, k: number): string {
  const s = `${ref.name}[${ref.indexOf(k).join(', ')}]`;
  return ref.global ? s : `${s} (local array of line ${ref.pos.line})`;
}

function shapeText(ref: ArrayRef): string {
  return `${ref.name}: ${ref.elem}[${ref.dims.join(', ')}]`;
}

// ---------------------------------------------------------------------------------------------
// The translation: one emitter per rule of Fig. 4.5

/**
 * Generated-code conventions: variable slot s is the local `v<s>`; array slot s is `a<s>` (the
 * instance), `c<s>` (its values) and `d<s>` (its written flags); `k` is the temporary offset of a
 * read; `nr`, `nw` count reads and writes; `bud` is the remaining step budget; `M` the machine.
 */
/** Offset of an index tuple in array slot s, using the hoisted shape locals of rank ≤ 2. */
function slotOffset(s: number, idx: readonly string[]): string {
  if (idx.length === 0) return '0';
  if (idx.length === 1) return `$q1(${idx[0]}, z${s})`;
  if (idx.length === 2) return `$q2(${idx[0]}, ${idx[1]}, z${s}, y${s}, t${s})`;
  return offsetCode(`a${s}`, idx);
}

/** Locals caching an instance's contents and shape: values, flags, first two dims, row stride. */
function loadSlot(s: number): string {
  return `c${s} = a${s}.cells.data; d${s} = a${s}.cells.def; z${s} = a${s}.dims.length > 0 ? a${s}.dims[0] : 1; y${s} = a${s}.dims.length > 1 ? a${s}.dims[1] : 1; t${s} = a${s}.strides.length > 0 ? a${s}.strides[0] : 1;`;
}

/** Array names assigned anywhere in c (a superset of the instances c can write). */
function assignedNames(c: Cmd, out: Set<string> = new Set()): Set<string> {
  switch (c.kind) {
    case 'assign':
      out.add(c.array);
      break;
    case 'seq':
      for (const x of c.cmds) assignedNames(x, out);
      break;
    case 'if':
      assignedNames(c.then, out);
      if (c.else) assignedNames(c.else, out);
      break;
    case 'let':
    case 'allocate':
    case 'for':
    case 'par':
      assignedNames(c.body, out);
      break;
    case 'skip':
      break;
  }
  return out;
}

class BigStepTarget implements Target {
  constructor(readonly g: BigStepCompiler) {}
  slot(s: number): string {
    return `v${s}`;
  }
  bindLet(s: number, value: string, body: string): string {
    return `(v${s} = ${value}, ${body})`;
  }
  arrayRead(e: ArrayRead, slot: number, idx: readonly string[], site: number, _sc: unknown, load = false): string {
    const a = `a${slot}`;
    const elem = this.g.elemOf(slot);
    const val = elem === 'bool' ? `c${slot}[k] !== 0` : `c${slot}[k]`;
    // The cache test is inlined: an accumulator re-read by its own iteration costs no call.
    const track = this.g.readTracked(slot, e.name) ? `(M.cRead && M.cK === k && M.cRef === ${a} && M.cEpoch === M.epoch) || M.trackRead(${a}, k, ${site}), ` : '';
    const rec = this.g.recording ? `M.rec.read(${a}, k, ${val}), ` : '';
    // A `load` of ⊥ is still a read (a race on it is a race; it is in ρ, reading ⊥), then POISON.
    const bot = load ? `(${track}${this.g.recording ? `M.rec.read(${a}, k, undefined), ` : ''}M.botLoad(${a}, k, ${site}))` : `M.botRead(${a}, k, ${site})`;
    return `(k = ${slotOffset(slot, idx)}, k < 0 ? M.oobRead(${a}, [${idx.join(', ')}], ${site}) : d${slot}[k] === 0 ? ${bot} : (${track}${rec}nr++, ${val}))`;
  }
  tensorRead(): string {
    throw new Error('internal: tensor read in implementation code (not type-checked?)');
  }
}

export class BigStepCompiler {
  readonly em: Emitter;
  /** Number of `par` loops around the code being emitted. */
  private depth = 0;
  private readonly arrayDepth = new Map<number, number>();
  private readonly arrayElem = new Map<number, string>();
  /** For each enclosing par (outermost first), the array names its body assigns. */
  private readonly parWrites: Set<string>[] = [];
  private uniq = 0;

  constructor(
    readonly M: BigStepMachine,
    readonly layout: Layout,
    readonly recording: boolean,
    /** The watching translation: the fast one plus a `watched` call per assignment. */
    readonly watching = false,
    /** Conditional stores run as `if (c) store` (BigStepOptions.conditionalStores). */
    readonly conditional = false,
  ) {
    this.em = new Emitter(new BigStepTarget(this), M.sites);
  }

  /** Declare a global array slot (depth 0, element type for reads). */
  global(slot: number, elem: string): void {
    this.arrayDepth.set(slot, 0);
    this.arrayElem.set(slot, elem);
  }

  elemOf(slot: number): string {
    return this.arrayElem.get(slot)!;
  }

  /** Writes to this array need U-PARLOOP's checks: some par is inside its scope. */
  tracked(slot: number): boolean {
    return this.depth > this.arrayDepth.get(slot)!;
  }

  /**
   * Reads need them only if some enclosing par inside the array's scope also writes it: a
   * location no iteration writes is in no dom(δμ_i), so reading it can never race. The
   * outermost such par has the largest body, so it is the one to ask.
   */
  readTracked(slot: number, name: string): boolean {
    const d = this.arrayDepth.get(slot)!;
    return this.depth > d && this.parWrites[d]!.has(name);
  }

  private fresh(): number {
    return this.uniq++;
  }

  /** Recording call opening a derivation node (only in the recording translation). */
  private open(rule: string, site: number, facts = '{}'): string {
    if (!this.recording) return '';
    return `M.rec.open(${JSON.stringify(rule)}, ${site}, [${this.layout.names.map((_, s) => this.slotValue(s)).join(', ')}], ${facts});\n`;
  }
  private close(): string {
    return this.recording ? 'M.rec.close();\n' : '';
  }
  private slotValue(s: number): string {
    return this.layout.kinds[s] === 'var' ? `v${s}` : `a${s}`;
  }

  cmd(c: Cmd, sc: Scope): string {
    switch (c.kind) {
      case 'skip':
        return this.U_SKIP(c, sc);
      case 'seq':
        return this.U_SEQ(c, sc);
      case 'if':
        return this.U_IF(c, sc);
      case 'let':
        return this.U_LET(c, sc);
      case 'for':
        return this.U_FOR(c, sc);
      case 'par':
        return this.U_PARLOOP(c, sc);
      case 'assign':
        return this.U_ASSIGN(c, sc);
      case 'allocate':
        return this.U_ALLOCATE(c, sc);
    }
  }

  /** U-SKIP: E; μ ⊢ skip ⇓ ⟨∅; ∅⟩. */
  U_SKIP(c: Skip, sc: Scope): string {
    if (!this.recording) return '';
    const site = this.M.sites.add(c, c.pos, sc);
    return this.open('U-SKIP', site) + this.close();
  }

  /**
   * U-SEQ: E; μ ⊢ c1 ⇓ ⟨δμ1; ρ1⟩ and E; μ ▷ δμ1 ⊢ c2 ⇓ ⟨δμ2; ρ2⟩ give ⟨δμ1 ▷ δμ2; ρ1 ∪ ρ2⟩.
   * c1; …; cn is c1; (c2; (…; cn)): c2 runs on the memory c1 left (one U-SEQ node per `;`).
   */
  U_SEQ(c: Seq, sc: Scope): string {
    let out = '';
    const n = c.cmds.length;
    for (let i = 0; i < n; i++) {
      if (i < n - 1) out += this.open('U-SEQ', this.M.sites.add(c, i === 0 ? c.pos : c.cmds[i]!.pos, sc), `{ from: ${i} }`);
      out += this.cmd(c.cmds[i]!, sc);
    }
    for (let i = 0; i < n - 1; i++) out += this.close();
    return out;
  }

  /** `if` goes to U-IF-TRUE or U-IF-FALSE on ⟦e⟧ (rd(e) = ∅: the condition is affine). */
  U_IF(c: If, sc: Scope): string {
    const site = this.M.sites.add(c, c.pos, sc);
    const c2 = c.else ?? { kind: 'skip', pos: c.pos };
    return `if (${this.em.cond(c.cond, sc)}) {\n${this.U_IF_TRUE(site, c.then, sc)}} else {\n${this.U_IF_FALSE(site, c2, sc)}}\n`;
  }

  /** U-IF-TRUE: ⟦e⟧ = true and E; μ ⊢ c1 ⇓ ⟨δμ; ρ⟩ give ⟨δμ; rd(e) ∪ ρ⟩. */
  private U_IF_TRUE(site: number, c1: Cmd, sc: Scope): string {
    return this.open('U-IF-TRUE', site, '{ cond: true }') + this.cmd(c1, sc) + this.close();
  }

  /** U-IF-FALSE: ⟦e⟧ = false and E; μ ⊢ c2 ⇓ ⟨δμ; ρ⟩ give ⟨δμ; rd(e) ∪ ρ⟩. */
  private U_IF_FALSE(site: number, c2: Cmd, sc: Scope): string {
    return this.open('U-IF-FALSE', site, '{ cond: false }') + this.cmd(c2, sc) + this.close();
  }

  /** U-LET: ⟦e⟧_{E;μ} = v and E + x ↦ v; μ ⊢ c ⇓ ⟨δμ; ρ⟩ give ⟨δμ; rd(e) ∪ ρ⟩. */
  U_LET(c: LetCmd, sc: Scope): string {
    const site = this.M.sites.add(c, c.pos, sc);
    const v = this.em.affine(c.value, sc);
    const { scope, slot } = sc.bindVar(c.name);
    return `v${slot} = ${v};\n` + this.open('U-LET', site, `{ var: ${JSON.stringify(c.name)}, value: M.json(v${slot}) }`) + this.cmd(c.body, scope) + this.close();
  }

  /**
   * U-FOR: ⟦e⟧ = n ∈ ℤ and, for 0 ≤ i < n, E + x ↦ i; μ ▷ ▶_{j<i} δμ_j ⊢ c ⇓ ⟨δμ_i; ρ_i⟩ give
   * ⟨▶_{i<n} δμ_i; rd(e) ∪ ⋃ ρ_i⟩. In place, iteration i runs on what iterations j < i left.
   */
  U_FOR(c: Loop, sc: Scope): string {
    const site = this.M.sites.add(c, c.pos, sc);
    const n = `n${this.fresh()}`;
    const bound = this.em.index(c.bound, sc);
    const { scope, slot } = sc.bindVar(c.var);
    const x = `v${slot}`;
    return (
      `{ const ${n} = M.trip(${bound}, bud); bud -= ${n};\n` +
      this.open('U-FOR', site, `{ var: ${JSON.stringify(c.var)}, n: ${n} }`) +
      `for (${x} = 0; ${x} < ${n}; ${x}++) {\n${this.cmd(c.body, scope)}}\n` +
      this.close() +
      '}\n'
    );
  }

  /**
   * U-PARLOOP: ⟦e⟧ = n ∈ ℤ; for 0 ≤ i < n, E + x ↦ i; μ ⊢ c ⇓ ⟨δμ_i; ρ_i⟩ (each iteration from
   * the memory at loop entry); ∀ i ≠ j: δμ_i ∘ δμ_j (writes to a common location agree: benign
   * races) and dom(δμ_i) # ρ_j (no read-write race); result ⟨⋃ δμ_i; rd(e) ∪ ⋃ ρ_i⟩.
   * Iterations run in place, in order, with every access of the body checked (see the header).
   */
  U_PARLOOP(c: Loop, sc: Scope): string {
    const site = this.M.sites.add(c, c.pos, sc);
    const id = this.fresh();
    const loopId = this.M.loops.push(c) - 1;
    const bound = this.em.index(c.bound, sc);
    const { scope, slot } = sc.bindVar(c.var);
    const x = `v${slot}`;
    this.parWrites.push(assignedNames(c.body));
    this.depth++;
    const body = this.cmd(c.body, scope);
    this.depth--;
    this.parWrites.pop();
    return (
      `{ const n${id} = M.trip(${bound}, bud); bud -= n${id};\n` +
      this.open('U-PARLOOP', site, `{ var: ${JSON.stringify(c.var)}, n: n${id} }`) +
      `if (n${id} > 0) { const P${id} = M.enterPar(${loopId});\n` +
      `for (${x} = 0; ${x} < n${id}; ${x}++) { M.iterate(P${id}, ${x});\n${body}if (P${id}.pending.length !== 0) M.checkPending(P${id});\n}\n` +
      `M.leavePar(); }\n` +
      this.close() +
      '}\n'
    );
  }

  /**
   * U-ASSIGN: ⟦e⟧_{E;μ} = v (not ⊥), ⟦ι_i⟧ = n_i ∈ ℤ and ℓ = a[n̄] ∈ dom(μ) give
   * ⟨{ℓ ↦ v}; rd(e) ∪ ⋃ rd(ι_i)⟩. The annotation {t} is ghost code, ignored at run time.
   */
  U_ASSIGN(c: Assign, sc: Scope): string {
    const guarded = this.conditional ? conditionalStore(c) : null;
    if (guarded !== null) return this.CONDITIONAL_STORE(c, guarded, sc);
    return this.assignOf(c, c.rhs, sc);
  }

  /** The store `a[ι] := rhs` of U-ASSIGN. */
  private assignOf(c: Assign, rhsExpr: Expr, sc: Scope): string {
    const site = this.M.sites.add(c, c.pos, sc);
    const s = sc.arraySlot(c.array);
    const a = `a${s}`;
    const idx = c.indices.map((i) => this.em.index(i, sc));
    const rhs = this.em.value(rhsExpr, sc);
    const store = this.elemOf(s) === 'bool' ? 'val ? 1 : 0' : 'val';
    const track = this.tracked(s) ? `if (!(M.cWrite && M.cK === ko && M.cRef === ${a} && M.cEpoch === M.epoch)) M.trackWrite(${a}, ko, ${site}, val);\n` : '';
    const rec = this.recording
      ? `M.rec.write(${a}, ko, val); M.rec.assigned(${a}, ko, val, ${JSON.stringify(printExpr(c.rhs))});\n`
      : this.watching
        ? `M.rec.watched(${site}, [${sc.bindings().vars.map(([, v]) => `v${v}`).join(', ')}], ${a}, ko, val);\n`
        : '';
    return (
      `{ if (--bud < 0) M.limit();\n` +
      `const ko = ${slotOffset(s, idx)};\n` +
      `if (ko < 0) M.oobWrite(${a}, [${idx.join(', ')}], ${site});\n` +
      this.open('U-ASSIGN', site) +
      `const val = ${rhs};\n` +
      track +
      `c${s}[ko] = ${store}; d${s}[ko] = 1; nw++;\n` +
      rec +
      this.close() +
      '}\n'
    );
  }

  /**
   * A conditional store under `conditionalStores`: `a[ι] := select(c1, select(c2, v, a[ι]), a[ι])`
   * runs as `if (c1) if (c2) a[ι] := v`, the code a compiler's nested `if (c) store` is. Each
   * condition is evaluated (its reads made) only when the ones around it hold; when one fails
   * nothing else happens: the cell is neither read nor written and v is not evaluated. With the
   * same sequential values, every access made is one the select makes too, so a race,
   * out-of-bounds access or uninitialized read of this run is one of the select's and of the
   * compiler's code alike.
   */
  private CONDITIONAL_STORE(c: Assign, g: ConditionalStore, sc: Scope): string {
    let out = this.assignOf(c, g.value, sc);
    for (let i = g.conds.length - 1; i >= 0; i--) out = `if (${this.em.value(g.conds[i]!, sc)}) {\n${out}}\n`;
    return out;
  }

  /**
   * U-ALLOCATE: ⟦e_i⟧ = n_i, μ_a = {a[ī] ↦ ⊥ | 0 ≤ i_k < n_k}, E; (μ ∖ a) ▷ μ_a ⊢ c ⇓ ⟨δμ; ρ⟩
   * give ⟨δμ ∖ dom(μ_a); ρ ∖ dom(μ_a)⟩. A fresh instance per execution (one per thread in a par).
   */
  U_ALLOCATE(c: Allocate, sc: Scope): string {
    const site = this.M.sites.add(c, c.pos, sc);
    const allocId = this.M.allocs.push({ cmd: c, depth: this.depth }) - 1;
    const dims = c.dims.map((d) => this.em.index(d, sc));
    const { scope, slot } = sc.bindArray(c.name);
    this.arrayDepth.set(slot, this.depth);
    this.arrayElem.set(slot, c.elem);
    const a = `a${slot}`;
    return (
      `${a} = M.alloc(${allocId}, [${dims.join(', ')}]); ${loadSlot(slot)}\n` +
      this.open('U-ALLOCATE', site, `{ array: ${JSON.stringify(c.name)}, instance: ${a}.label(), dims: [...${a}.dims] }`) +
      (this.recording ? `M.rec.noteArray(${a});\n` : '') +
      this.cmd(c.body, scope) +
      (this.recording ? `M.rec.erase(${a});\n` : '') +
      this.close() +
      `M.free(${a});\n`
    );
  }

  /** The whole program: a function of the initial frame (parameters and global arrays). */
  program(body: string): string {
    const decls: string[] = [];
    const loads: string[] = [];
    this.layout.kinds.forEach((kind, s) => {
      // Parameters come from the frame; other variables start at 0 (always numbers for V8).
      if (kind === 'var') decls.push(`let v${s} = f[${s}] === undefined ? 0 : f[${s}];`);
      else {
        decls.push(`let a${s} = f[${s}], c${s} = null, d${s} = null, z${s} = 0, y${s} = 0, t${s} = 0;`);
        loads.push(`if (a${s} !== undefined) { ${loadSlot(s)} }`);
      }
    });
    const all = this.layout.names.map((_, s) => this.slotValue(s)).join(', ');
    return [
      'let k = 0, nr = 0, nw = 0, bud = M.budget;',
      ...decls,
      ...loads,
      'try {',
      body,
      '} catch (e) {',
      `  throw M.withEnv(e, [${all}]);`,
      '} finally {',
      '  M.reads += nr; M.writes += nw; M.budget = bud;',
      '}',
    ].join('\n');
  }
}

// ---------------------------------------------------------------------------------------------
// Compiled programs and runs

export type ProgramFn = (f: Frame) => void;

/** A command translated for the big-step: a fast function, and a recording one on demand. */
export class BigStepProgram {
  readonly M: BigStepMachine;
  readonly fast: ProgramFn;
  /** The generated source of the fast function (for inspection). */
  readonly source: string;
  private recordingFn: ProgramFn | null = null;
  private watchingFn: ProgramFn | null = null;
  /** The conditional-store translations (BigStepOptions.conditionalStores): fast, watching. */
  private readonly conditionalFns: (ProgramFn | null)[] = [null, null];

  constructor(
    readonly layout: Layout,
    readonly body: Cmd,
    readonly scope: Scope,
    readonly globals: readonly { slot: number; elem: string }[],
    /** Compile extra expressions (dims, assumptions) with the machine's sites. */
    readonly X: ExprCompiler,
  ) {
    this.M = new BigStepMachine(X.sites);
    const { fn, source } = this.translate(false);
    this.fast = fn;
    this.source = source;
  }

  private translate(recording: boolean, watching = false, conditional = false): { fn: ProgramFn; source: string } {
    // Each translation binds fresh slots for the binders of the body (they extend the layout);
    // the generated function declares a local for every slot, so frames need only hold the
    // parameters and the global arrays.
    const g = new BigStepCompiler(this.M, this.layout, recording, watching, conditional);
    for (const x of this.globals) g.global(x.slot, x.elem);
    const built = g.em.build<ProgramFn>(['f'], g.program(g.cmd(this.body, this.scope)), { M: this.M });
    return { fn: built.fn, source: built.source };
  }

  recording(): ProgramFn {
    return (this.recordingFn ??= this.translate(true).fn);
  }

  watching(): ProgramFn {
    return (this.watchingFn ??= this.translate(false, true).fn);
  }

  /** With conditional stores run as `if (c) store`: the fast or the watching translation. */
  conditional(watching: boolean): ProgramFn {
    const k = watching ? 1 : 0;
    return (this.conditionalFns[k] ??= this.translate(false, watching, true).fn);
  }
}

/** A conditional store: the conditions, outermost first, and the value stored when all hold. */
interface ConditionalStore {
  readonly conds: readonly Expr[];
  readonly value: Expr;
}

/**
 * `a[ι] := select(c1, select(c2, v, a[ι]), a[ι])` (any depth ≥ 1): a store whose select writes
 * the cell back, unchanged, when a condition fails — how a translation writes a compiler's
 * `if (c) a[ι] = v` in a language whose conditions are affine (compilers/halide/translate.ts,
 * guarded()). Null for any other assignment (an accumulation included).
 */
export function conditionalStore(c: Assign): ConditionalStore | null {
  if (c.accum !== undefined) return null;
  const cell = c.indices.map(printExpr);
  const isCell = (r: Expr): boolean => r.kind === 'array' && r.name === c.array && r.indices.length === cell.length && r.indices.every((x, k) => printExpr(x) === cell[k]);
  const conds: Expr[] = [];
  let e = c.rhs;
  while (e.kind === 'select' && isCell(e.else)) {
    conds.push(e.cond);
    e = e.then;
  }
  return conds.length === 0 ? null : { conds, value: e };
}

export interface BigStepStats {
  /** Assignments executed (writes to memory). */
  readonly writes: number;
  /** Array reads executed. */
  readonly reads: number;
}

export type BigStepResult =
  | {
      readonly ok: true;
      readonly stats: BigStepStats;
      readonly derivation: Derivation | null;
      /** δμ and ρ of the whole command, keyed by location key (with `effects` or `derivation`). */
      readonly effects: ReturnType<Recorder['effects']> | null;
    }
  | { readonly ok: false; readonly error: RunError; readonly stats: BigStepStats };

/**
 * E; μ ⊢ c ⇓ ⟨δμ; ρ⟩: run `prog` on frame f (parameters and global array instances with their
 * cells), leaving μ ▷ δμ in the cells. `initial` lists μ for a derivation's record.
 */
export function execute(prog: BigStepProgram, f: Frame, space: Space, opts: BigStepOptions, initial?: () => { get(loc: string): Value | Bot }): BigStepResult {
  const M = prog.M;
  M.reset(space, opts);
  const rec0 = M.rec;
  const mu0 = opts.derivation && initial ? initial() : null;
  if (opts.conditionalStores && rec0 !== null && rec0.watch === null) throw new Error('internal: conditional stores have no derivation (their reading is not a rule of the thesis)');
  const fn = opts.conditionalStores ? prog.conditional(rec0 !== null) : rec0 === null ? prog.fast : rec0.watch !== null ? prog.watching() : prog.recording();
  try {
    fn(f);
  } catch (e) {
    if (e instanceof Stuck) return { ok: false, error: e.error, stats: { writes: M.writes, reads: M.reads } };
    throw e;
  }
  const stats = { writes: M.writes, reads: M.reads };
  const rec = M.rec;
  let derivation: Derivation | null = null;
  if (rec !== null && rec.nodes && rec.root !== null) {
    const root: DerivationNode = rec.root;
    derivation = { root, initial: root.rho.map((l) => [l, valueToJson(mu0?.get(l))]), arrays: rec.arrayShapes() };
  }
  return { ok: true, stats, derivation, effects: rec !== null && rec.watch === null ? rec.effects() : null };
}

export { Scope };
export type { Port };
