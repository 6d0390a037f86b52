// `verify`: symbolic evaluation of an implementation (proofs/verifier/symbolic.ts), then every proof
// obligation discharged by Z3. `valid` only when every obligation was proved (unsat); `invalid`
// when one is refuted (sat, with a model giving the parameters and loop variables); `unknown`
// otherwise, with the reason. Value obligations under the default `--float ieee` are first tried
// in the uninterpreted encoding (a proof there holds for IEEE too, and is much cheaper).

import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { parseSExprs, type SExpr } from '../../smt/sexpr.ts';
import type { FloatMode } from './smt-values.ts';
import { checkSat, checkSatBatch, DEFAULT_TIMEOUT_MS, type SolverAnswer, withSecondSolver, z3Stats } from '../../smt/z3.ts';
import { presburgerClock } from './heap.ts';
import { simplify } from '../../core/presburger/simplify.ts';
import { failureClass, type Obligation, type ObligationKind, type ObligationOutcome } from './obligation.ts';
import { type EvaluationLog, type Feasibility, type PendingObligation, SymbolicEvaluator, UnsupportedConstruct } from './symbolic.ts';
import { declarations, formulaToSmt } from '../../core/presburger/smtlib.ts';
import { eqT } from '../../core/presburger/formula.ts';
import { constant, variable } from '../../core/presburger/term.ts';
import { boundaryParameters, EARLY_INPUTS, REPLAY_INPUTS, replay, type ReplayFinding, replayRun, SMALL_RUN, smallParameters } from './replay.ts';
import { type InputFamily, overrideText } from '../../semantics/inputs.ts';
import { type InputSource, seededInputs } from '../../semantics/model.ts';
import { type Value, wrapInt } from '../../semantics/values.ts';
import { globalCells, stepCount } from '../../semantics/steps.ts';
import { commandAt, type Slice, SliceError, sliceImpl } from '../../semantics/slice.ts';
import { type ModelValue, SolverModel } from '../../smt/model.ts';
import { type Cmd, type Expr, type IntType, isFloatType, type ValueType } from '../../core/language/ast.ts';
import { visit } from '../../core/language/walk.ts';
import { inexactReductions, reassociationVerdict, REASSOCIATION_CLASS } from './reduction-verdict.ts';
import { type Ask, askNow, inWaves } from './waves.ts';
import { checkAssumptions, checkInterface, contradictionScript, implAssumptionText, INTERFACE_CLASS, interfaceViolations, witnessScript } from './interface.ts';

export type Verdict = 'valid' | 'invalid' | 'unknown';

/** The class of an `unknown` whose only counterexample is a model of an inexact encoding. */
export const UNCONFIRMED_CLASS = 'unconfirmed';

export interface Counterexample {
  /** Parameters and loop variables (source names) of the refuted obligation. */
  readonly values: Record<string, string>;
  readonly line: number;
  readonly col: number;
  readonly obligation: string;
  readonly description: string;
}

/**
 * A concrete run that shows the counterexample: `sched run FILE --impl I --param … --seed S
 * --inputs F [--check-annotations]` reproduces it exactly.
 */
export interface Replay {
  readonly params: Record<string, string>;
  readonly seed: number;
  readonly inputs: InputFamily;
  /** The run is right on its outputs; what it shows is an annotation that does not hold. */
  readonly annotations: boolean;
  /** Input values given explicitly (`--input 'A(0)=…'`), from the solver's model; the others
   *  come from the family and seed. */
  readonly inputValues: readonly { readonly tensor: string; readonly point: readonly string[]; readonly value: string }[];
  /** What the run shows: its class (`output-mismatch`, `race`, …) and the detail. */
  readonly class: string;
  readonly shows: string;
  /** The run reads conditional stores as `if (c) store` (`sched run --conditional-stores`). */
  readonly conditionalStores?: boolean;
  /** The run is one instance of the loops around an assignment (`sched run --slice`), as its text. */
  readonly slice?: string;
}

export interface VerifyResult {
  readonly impl: string;
  readonly spec: string;
  readonly verdict: Verdict;
  readonly class: string | null;
  readonly reason: string | null;
  readonly counterexample: Counterexample | null;
  /** For `invalid`: the concrete run that reproduces it, or null when none was found (an exact
   *  refutation whose parameters are too large to run, e.g. a kernel of fixed size 1024³). */
  readonly replay: Replay | null;
  readonly vcs: number;
  readonly ms: number;
  readonly float: FloatMode;
  /**
   * The implementation's own assumptions on the parameters (`assume` in the impl), as text, or
   * null: a verdict holds only for the parameter values they allow ("valid for W >= 16").
   */
  readonly assumptions: string | null;
  /** Every obligation with its outcome (certificates are written from these). */
  readonly outcomes: readonly ObligationOutcome[];
  /**
   * What a `valid` holds up to, or null: "up to reassociation" when a reduction on floats is
   * reordered and `--float real` allows it (proofs/verifier/reduction-verdict.ts).
   */
  readonly qualifier?: string | null;
  /**
   * Where a verdict without a counterexample points, when it is about one place: the unsupported
   * construct, the obligation that does not hold or was left undecided (verdictAt).
   */
  readonly at?: { readonly line: number; readonly col: number };
  /** Where the time went (ms): symbolic evaluation (of which Presburger work), solver, replay. */
  readonly timings: { readonly symbolic: number; readonly presburger: number; readonly smt: number; readonly replay: number };
  /**
   * Solver queries a safety net stopped (CPU time or wall clock, under resource limits: their
   * resource limit did not stop them, smt/limits.ts), when there were any: an answer such a stop
   * gave may differ on another machine. Absent when none.
   */
  readonly netStops?: number;
}

export interface VerifyOptions {
  readonly float?: FloatMode;
  readonly timeoutMs?: number;
  readonly log?: EvaluationLog;
  /**
   * Step (1½): a few concrete runs before any value query (default true). False leaves the
   * symbolic rules to decide alone: the soundness properties of chapters 5 and 7 verify so, since
   * a run at small parameters would otherwise mask a wrong rule that a kernel too large to run
   * depends on. 'small': only for a program with checked operations (whose undefined behaviour a
   * run shows) and where a run at the least parameters takes at most EARLY_SMALL_STEPS steps by
   * the static count (semantics/steps.ts; none without a count), and no runs at boundary sizes
   * either (as false).
   */
  readonly runsFirst?: boolean | 'small';
  /**
   * Budget (ms of solver budget) of each feasibility query that prunes the alternatives of a heap
   * read (default PRUNE_MS). Only a pruning: an undecided one keeps its alternative. The fuzzers
   * give less (proofs/fuzz/budgets.ts): there, every decided one measured used a small fraction
   * of it, and the undecided ones spent minutes each to stay undecided.
   */
  readonly pruneMs?: number;
}

/**
 * Step (1½) under `runsFirst: 'small'` (sched halide): Halide's kernels at the least sizes their
 * asserts allow cost seconds to run (sc1 at 512 × 512 took 14 s to show nothing), a small one
 * milliseconds (nl_means at 16 × 8: the undefined conversion of fast_exp, which its value
 * queries took minutes not to decide).
 */
const EARLY_SMALL_STEPS = 20_000;

/** Whether a value of the program (the spec's or the implementation's) is a float. */
function hasFloats(ci: CheckedImpl): boolean {
  if ([...ci.spec.tensors.values()].some((t) => isFloatType(t.type)) || [...ci.arrays.values()].some((a) => isFloatType(a.decl.elem))) return true;
  let found = false;
  const expr = (e: Expr): void => visit(e, (x) => {
    if (x.kind === 'float' || (x.kind === 'call' && (x.fn === 'f32' || x.fn === 'f64'))) found = true;
  });
  const cmd = (c: Cmd): void => {
    switch (c.kind) {
      case 'seq':
        return c.cmds.forEach(cmd);
      case 'assign':
        expr(c.rhs);
        if (c.annot) expr(c.annot);
        return;
      case 'if':
        cmd(c.then);
        if (c.else) cmd(c.else);
        return;
      case 'let':
      case 'allocate':
      case 'for':
      case 'par':
        return cmd(c.body);
      default:
        return;
    }
  };
  for (const eq of ci.spec.spec.equations) expr(eq.rhs);
  cmd(ci.impl.body);
  return found;
}

/** Z3-only options, prepended in-process (certificates stay solver-neutral). */
const FAST = '(set-option :smt.mbqi false)';

function modelValues(out: string): Map<string, string> {
  const m = new Map<string, string>();
  let parsed: SExpr[];
  try {
    parsed = parseSExprs(out);
  } catch {
    return m;
  }
  const show = (e: SExpr): string => (typeof e === 'string' ? e : `(${e.map(show).join(' ')})`);
  const visit = (e: SExpr): void => {
    if (typeof e === 'string') return;
    if (e[0] === 'define-fun' && e.length === 5 && Array.isArray(e[2]) && e[2].length === 0 && typeof e[1] === 'string') {
      const name = e[1].replace(/^\|(.*)\|$/, '$1');
      const v = e[4]!;
      const txt = show(v);
      const neg = /^\(- (\d+)\)$/.exec(txt);
      m.set(name, neg ? `-${neg[1]}` : txt);
      return;
    }
    for (const x of e) visit(x);
  };
  for (const e of parsed) visit(e);
  return m;
}

/**
 * Presburger obligations (no values) are decided with a model on refutation. Value obligations
 * quantify over the spec's equations: without model-based instantiation Z3 proves them fast, and
 * their refutations come from concrete replay instead (proofs/verifier/replay.ts).
 */
async function discharge(o: Obligation, timeoutMs: number): Promise<SolverAnswer> {
  if (o.float === null) return checkSat(o.script, { timeoutMs, model: true });
  return checkSat(`${FAST}\n${o.script}`, { timeoutMs, model: true });
}

const PROVED_BY_SIMPLIFIER: SolverAnswer = { status: 'unsat', output: 'unsat', ms: 0, reason: null };

/**
 * The Presburger obligations (no values), decided up front: by the simplifier when Γ ∧ ¬goal
 * simplifies to false (every rewrite is an equivalence; the certificate still records the
 * script), or in batches of push/pop scopes. Refuted ones are re-run with a model when they are
 * reached in order. The same obligation recurs across implementations of a spec: the batches and
 * the queries asked alone are remembered by their whole text and budget (smt/z3.ts), so that a
 * remembered answer is the one asking again would get. (A cache by obligation once fed answers
 * from one implementation's batch into another's, whose batches then held other scripts: which
 * implementations a worker had verified before, which depends on the load under `--jobs`, could
 * change the answers of the next.)
 */
async function decidePresburger(pending: readonly PendingObligation[], timeoutMs: number): Promise<Map<PendingObligation, SolverAnswer>> {
  const out = new Map<PendingObligation, SolverAnswer>();
  const todo: { p: PendingObligation; script: string }[] = [];
  const inexact = new Set<PendingObligation>();
  for (const p of pending) {
    if (p.usesValues || p.refutation === undefined) continue;
    if (simplify(p.refutation).kind === 'false') {
      out.set(p, PROVED_BY_SIMPLIFIER);
      continue;
    }
    const o = p.render('ieee');
    if (o.inexact) inexact.add(p);
    todo.push({ p, script: o.script });
  }
  // The refutation step (1) reports: the first exact one in order (an inexact one waits for a run).
  const firstRefuted = (): number => pending.findIndex((p) => out.get(p)?.status === 'sat' && !p.fallback && !inexact.has(p));
  // Quantified scripts (a "not overwritten" guard left quantified) are the ones Z3 may spend its
  // whole budget on without an answer; they are asked after the others, and only where their
  // answer can matter: before the first refutation among the others (verifyImpl's step (1)
  // reports the first refutation in order, whatever follows it), or races (a race refuted beside
  // a read it makes undefined is the one reported). A racy parallel accumulation of
  // red-soundness spent 22 s of its 25 s on two quantified scripts after its refuted race.
  const quantified = (t: (typeof todo)[number]): boolean => /\((?:forall|exists) /.test(t.script);
  const plain = todo.filter((t) => !quantified(t));
  await askInBatches(plain, out, timeoutMs);
  const firstPlain = firstRefuted();
  const matters = (p: PendingObligation): boolean => firstPlain < 0 || pending.indexOf(p) < firstPlain || p.kind === 'rw-race';
  const later = todo.filter((t) => quantified(t) && matters(t.p));
  await askInBatches(later, out, timeoutMs);
  for (const t of todo) {
    if (!out.has(t.p)) out.set(t.p, { status: 'unknown', output: '', ms: 0, reason: 'not asked: an obligation before it is refuted' });
  }
  // Scopes put Z3 in incremental mode, which skips the preprocessing that quantified formulas
  // need: those answered unknown are asked again alone. Not those after the first refutation
  // (as above).
  const first = firstRefuted();
  const after = new Set(first < 0 ? [] : pending.slice(first + 1));
  await Promise.all([...plain, ...later].map(async (t) => {
    if (out.get(t.p)!.status !== 'unknown' || (after.has(t.p) && t.p.kind !== 'rw-race')) return;
    out.set(t.p, await checkSat(t.script, { timeoutMs, remember: true }));
  }));
  return out;
}

/**
 * Scripts in batches of a fixed size (what a batch holds never depends on the solver pool, nor on
 * what was verified before), decided concurrently by the pool. In a batch each script gets a
 * quarter of the budget: most are answered in milliseconds, and one that is not is asked again
 * alone with the whole budget anyway.
 */
async function askInBatches(todo: readonly { p: PendingObligation; script: string }[], out: Map<PendingObligation, SolverAnswer>, timeoutMs: number): Promise<void> {
  const chunks: (typeof todo)[] = [];
  for (let i = 0; i < todo.length; i += 64) chunks.push(todo.slice(i, i + 64));
  const answers = (await Promise.all(chunks.map((chunk) => checkSatBatch(chunk.map((t) => t.script), { timeoutMs: Math.ceil(timeoutMs / 4), remember: true })))).flat();
  todo.forEach((t, k) => out.set(t.p, answers[k]!));
}

/** The budget of a feasibility query (VerifyOptions.pruneMs): ms of solver budget. */
export const PRUNE_MS = 2000;

/** Presburger satisfiability of each condition with the facts, in one batch (unknown: keep). */
const feasibility = (ask: Ask, budgetMs: number): Feasibility => async (facts, conds) => {
  const scripts = conds.map((c) => [declarations([...facts, c]), ...facts.map((f) => `(assert ${formulaToSmt(f)})`), `(assert ${formulaToSmt(c)})`].join('\n'));
  const answers = await ask.batch(scripts, budgetMs);
  return answers.map((a) => a.status !== 'unsat');
};

/**
 * A value obligation in one encoding: first with only the spec axioms its claim needs first (a
 * proof with fewer hypotheses is a proof, and unneeded recursive axioms make the solver unfold
 * for nothing), then with all of them.
 */
async function dischargeValue(s: Slot, mode: FloatMode, timeoutMs: number, ask: Ask = askNow): Promise<void> {
  // With operations uninterpreted, the range of a checked operation is a predicate of its own,
  // which no query proves: not asked (an `--float uf` verdict is then unknown).
  if (s.p.kind === 'defined' && mode === 'uf') {
    s.o = s.p.render(mode);
    s.answer = { status: 'unknown', output: '', ms: 0, reason: 'the ranges of checked operations are uninterpreted under --float uf' };
    return;
  }
  if (!s.congruenceTried) {
    // A Presburger claim that implies the value equality (same shape, equal indices): tried once,
    // in whichever encoding comes first; it holds for all of them, except that closed float terms
    // compared by their IEEE values (outside --float real) hold for the machine's semantics, which
    // ieee encodes and uf is sound for.
    s.congruenceTried = true;
    let cong: Obligation[] | null = null;
    try {
      cong = s.p.congruence?.(mode) ?? null;
    } catch (e) {
      // Only a shortcut: the whole value query below decides (and a bug here must not cost a verdict).
      if (process.env.SCHED_DEBUG) process.stderr.write(`congruence: ${(e as Error).stack}\n`);
    }
    if (cong !== null) {
      // One batch (with the wave's others), then those answered unknown alone, as decidePresburger.
      const answers = await ask.batch(cong.map((o) => o.script), timeoutMs);
      for (const [k, o] of cong.entries()) {
        if (answers[k]!.status === 'unknown') answers[k] = await ask(() => checkSat(o.script, { timeoutMs }));
      }
      if (answers.every((a) => a.status === 'unsat')) {
        s.parts = cong.map((o, k) => ({ o, answer: answers[k]! }));
        s.o = cong[0]!;
        s.answer = { status: 'unsat', output: 'unsat', ms: answers.reduce((t, a) => t + a.ms, 0), reason: null };
        return;
      }
    }
  }
  const few = s.p.render(mode, 'relevant');
  s.o = few;
  s.answer = await ask(() => discharge(few, timeoutMs));
  if (s.answer.status === 'unsat' || (s.answer.status === 'sat' && few.satExtends === true)) return;
  const all = s.p.render(mode, 'all');
  if (all.script === few.script) return;
  s.o = all;
  s.answer = await ask(() => discharge(all, timeoutMs));
}

/** "concrete run with N = 2, input seed 3" ("concrete run, input seed 0" when there is no parameter). */
function concreteRun(f: { readonly params: Readonly<Record<string, string>>; readonly seed: number }): string {
  const ps = Object.entries(f.params).map(([k, v]) => `${k} = ${v}`).join(', ');
  return `concrete run${ps ? ` with ${ps}` : ''}, input seed ${f.seed}`;
}

export function replayOf(f: ReplayFinding, inputValues: Replay['inputValues'] = []): Replay {
  return { params: f.params, seed: f.seed, inputs: f.inputs, annotations: f.class === 'annotation-mismatch', inputValues, class: f.class, shows: `${f.class}: ${f.detail}`, ...(f.slice ? { slice: f.slice } : {}) };
}

/** A value of type t from a model value, or null when it is not one. */
function modelToValue(v: ModelValue, t: ValueType): Value | null {
  if (t === 'bool') return typeof v === 'boolean' ? v : null;
  if (isFloatType(t)) return typeof v === 'number' ? (t === 'f32' ? Math.fround(v) : v) : null;
  return typeof v === 'bigint' ? wrapInt(t as IntType, v) : null;
}

/**
 * The inputs a solver's model gives (input tensors, and computed tensors where the spec leaves
 * them unconstrained: `T.undef` in the encoding), over `base` where the model says nothing; the
 * values it was asked for are recorded, for the replay command. With `mentioned`, the model is
 * asked only at the points its formula applies the tensor to (SolverModel.applications): a
 * replay command lists those few, not the million cells a 1024 × 1024 run reads.
 */
function modelInputs(sm: SolverModel, base: InputSource, mentioned = false): { source: InputSource; used: Map<string, { tensor: string; point: string[]; value: string }> } {
  const used = new Map<string, { tensor: string; point: string[]; value: string }>();
  const points = new Map<string, Set<string>>();
  const at = (symbol: string): Set<string> => {
    let s = points.get(symbol);
    if (s === undefined) points.set(symbol, (s = new Set(sm.applications(symbol).map((args) => args.map(String).join(',')))));
    return s;
  };
  const from = (symbol: string, tensor: string, t: ValueType, point: readonly (number | bigint)[]): Value | null => {
    if (!sm.has(symbol)) return null;
    if (mentioned && !at(symbol).has(point.map(String).join(','))) return null;
    const m = sm.evaluate(symbol, point.map((x) => BigInt(x)));
    const v = m === null ? null : modelToValue(m, t);
    if (v !== null) used.set(`${tensor}(${point.join(',')})`, { tensor, point: point.map(String), value: overrideText(v) });
    return v;
  };
  return {
    used,
    source: {
      input: (tensor, t, point) => from(tensor, tensor, t, point) ?? base.input(tensor, t, point),
      unconstrained: (tensor, t, point) => from(`${tensor}.undef`, tensor, t, point) ?? base.unconstrained(tensor, t, point),
    },
  };
}

/** Runs small enough to replay, and the steps one may take (a replay must answer in seconds). */
const CONFIRM_BUDGET = { maxCells: 1 << 20, maxSteps: 2_000_000 };

/**
 * Runs whose size a static count bounds (semantics/steps.ts) may be larger: the kernels whose
 * assumptions fix their sizes (W = H = 1024, N = 1100000) replay their exact refutations at those
 * sizes. A run checking values goes to its end (about 5 s per million annotated assignments); a
 * run showing a fault (bounds, ⊥, race) stops at it, so it may be allowed more. Without a static
 * count a run keeps the small budget: one that exhausts a budget has paid for all of it.
 */
const LARGE_CELLS = 1 << 23;
const LARGE_STEPS = { value: 1 << 22, fault: 1 << 25 };

/**
 * Runs at boundary sizes (boundarySearch), and the whole run of a large refutation that no slice
 * fits (confirm): steps and cells at most. The boundary runs of one verification together cost at
 * most BOUNDARY_COST steps plus cells (a few seconds): a float count to N = 2^24 + 2 fits, a
 * kernel that fills, loops over and writes arrays of that size does not (nor the spec's model of
 * a reduction over it), and an `unknown` pays nothing when no run fits.
 */
const BOUNDARY_STEPS = 1 << 26;
const BOUNDARY_CELLS = 1 << 25;
const BOUNDARY_COST = 40_000_000;

/** What a whole run at `m` costs before the spec's model: its steps and its arrays' cells. */
function boundaryCost(ci: CheckedImpl, m: ReadonlyMap<string, bigint>): number | null {
  const steps = stepCount(ci, m);
  const cells = globalCells(ci, m);
  return steps === null || cells === null ? null : Number(steps + cells);
}

/**
 * The run confirming a refutation (of a slice), within the budget its static size allows (its
 * arrays may then be large: a slice of a 1024 × 1024 kernel holds the whole arrays). A large run
 * for a fault does not check annotations (most of its time otherwise): it must show the fault.
 */
function confirmRun(ci: CheckedImpl, params: ReadonlyMap<string, bigint>, shows: 'value' | 'fault', source?: InputSource, slice?: Slice): ReplayFinding | null | 'too-large' {
  const steps = stepCount(slice ? sliceImpl(ci, slice) : ci, params);
  const large = LARGE_STEPS[shows];
  if (steps !== null && steps > BigInt(large)) return 'too-large';
  const budget = steps === null ? CONFIRM_BUDGET : { maxCells: LARGE_CELLS, maxSteps: large, checkAnnotations: shows === 'value' || steps <= BigInt(CONFIRM_BUDGET.maxSteps) };
  return replayRun(ci, params, REPLAY_INPUTS[0]!, { ...budget, slice }, source);
}

/** The obligations whose instance a slice of the loops around them shows. */
const SLICED: ReadonlySet<ObligationKind> = new Set(['value', 'defined', 'write-bounds', 'read-bounds', 'read-defined', 'rw-race', 'ww-race']);

/**
 * The slice that runs a refuted obligation's instance (semantics/slice.ts): the loops around it at
 * the model's values. An assignment's obligations (its bounds, reads and value) are about its own
 * iteration; a race is between two iterations of a par loop, which the slice runs whole inside
 * the iteration of the loops around it. Null for other obligations.
 */
function sliceOf(ci: CheckedImpl, p: PendingObligation, model: ReadonlyMap<string, string>, sourceName: (v: string) => string): Slice | null {
  if (!SLICED.has(p.kind)) return null;
  const race = p.kind === 'rw-race' || p.kind === 'ww-race';
  const at = race ? commandAt(ci, p.line, p.col) : commandAt(ci, p.line);
  const vars = p.report.slice(ci.spec.params.length);
  // The binders around the command are the obligation's variables after the parameters.
  if (at === null || at.cmd.kind !== (race ? 'par' : 'assign') || vars.length !== at.binders.length) return null;
  const iteration: [string, bigint][] = [];
  for (const [k, b] of at.binders.entries()) {
    if (sourceName(vars[k]!) !== b.name) return null;
    if (b.kind === 'let') continue;
    const v = model.get(vars[k]!);
    if (v === undefined || !/^\d+$/.test(v)) return null;
    iteration.push([b.name, BigInt(v)]);
  }
  // No loop around it (a race of a par at top level, an assignment outside every loop): the
  // program up to the end of that command, and nothing after it (`--slice LINE:`).
  const slice = { line: at.assignmentLine, iteration };
  try {
    sliceImpl(ci, slice); // the line's first assignment may be another one, elsewhere
    return slice;
  } catch (e) {
    if (e instanceof SliceError) return null;
    throw e;
  }
}

/**
 * A concrete run showing an exact refutation. Presburger refutations (bounds, definedness, races,
 * outputs never written) do not depend on values: any input shows them once the parameters are
 * right, so the least parameter values under which the refutation holds are run. A refutation of
 * a value obligation is run at the solver's parameters with its input values. A program too large
 * to run whole at those parameters runs the slice of the refuted instance. Null when no run could
 * be made or none showed it; the refutation stands (it is exact), without a replay.
 */
async function confirm(ci: CheckedImpl, p: PendingObligation, model: ReadonlyMap<string, string>, modelText: string, timeoutMs: number, sourceName: (v: string) => string, atParams?: (params: ReadonlyMap<string, bigint>) => Promise<ReadonlyMap<string, string> | null>): Promise<Replay | null> {
  const params = ci.spec.params;
  const solver = new Map<string, bigint>();
  for (const x of params) {
    const v = model.get(x);
    if (v !== undefined && /^-?\d+$/.test(v)) solver.set(x, BigInt(v));
  }
  const whole = solver.size === params.length ? solver : null;
  if (p.kind === 'interface') {
    // What `sched run` checks before running (proofs/verifier/interface.ts), at the least parameters.
    const cands = p.refutation ? await smallParameters(ci, 1, whole, [p.refutation]) : whole ? [whole] : [];
    for (const c of cands) {
      const r = await checkInterface(ci, { params: c, timeoutMs });
      const v = r.violations[0];
      if (v) return { params: Object.fromEntries([...c].map(([k, x]) => [k, x.toString()])), seed: 0, inputs: 'default', annotations: false, inputValues: [], class: INTERFACE_CLASS, shows: `interface: ${v.message}` };
    }
    return null;
  }
  if (p.usesValues) {
    // The solver's own input values at its parameters: the run must show what the model does.
    if (whole === null) return null;
    // First the model at the points its formula names, seeded inputs elsewhere, within the budget
    // the run's size allows; when the program is too large, the slice that runs the refuted
    // instance alone; when the run showed nothing, the whole model (what it says of every point).
    const sm = new SolverModel(modelText);
    const mentioned = modelInputs(sm, seededInputs(0), true);
    const f = confirmRun(ci, whole, 'value', mentioned.source);
    if (f !== 'too-large' && f !== null) return replayOf(f, [...mentioned.used.values()]);
    if (f === 'too-large') {
      const slice = sliceOf(ci, p, model, sourceName);
      const inSlice = modelInputs(sm, seededInputs(0), true);
      const g = slice ? confirmRun(ci, whole, 'value', inSlice.source, slice) : null;
      if (g !== 'too-large' && g !== null) return replayOf(g, [...inSlice.used.values()]);
      // No slice fits (the iterations before it in a `for` loop are too many): the whole run with
      // its outputs compared, annotations unchecked (most of a large run's time), when it fits.
      const steps = stepCount(ci, whole);
      if (steps === null || steps > BigInt(BOUNDARY_STEPS)) return null;
      const outputs = modelInputs(sm, seededInputs(0), true);
      const h = replayRun(ci, whole, REPLAY_INPUTS[0]!, { maxCells: BOUNDARY_CELLS, maxSteps: BOUNDARY_STEPS, checkAnnotations: false }, outputs.source);
      return h !== 'too-large' && h !== null ? replayOf(h, [...outputs.used.values()]) : null;
    }
    const all = modelInputs(sm, seededInputs(0));
    const h = replayRun(ci, whole, REPLAY_INPUTS[0]!, CONFIRM_BUDGET, all.source);
    return h !== 'too-large' && h !== null ? replayOf(h, [...all.used.values()]) : null;
  }
  // The least parameters first (a counterexample one can read), the solver's last; when even
  // those are too large to run whole, the slice that runs the refuted instance at the solver's.
  const cands = p.refutation ? await smallParameters(ci, 2, null, [p.refutation]) : [];
  if (whole) cands.push(whole);
  let large = true;
  for (const c of cands) {
    const f = confirmRun(ci, c, 'fault');
    if (f === 'too-large') continue;
    large = false;
    if (f !== null) return replayOf(f);
  }
  const slice = whole && large ? sliceOf(ci, p, model, sourceName) : null;
  const g = slice ? confirmRun(ci, whole!, 'fault', undefined, slice) : null;
  if (g !== null && g !== 'too-large') return replayOf(g);
  // The solver's parameters may be far larger than the refutation needs, too large for even the
  // slice's arrays (bigsgemm: A = 513 × 4,194,303): the refuted instance at the least parameters
  // (the solver's model of the obligation with them fixed), its slice.
  if (!large || atParams === undefined) return null;
  for (const c of cands.filter((c) => c !== whole)) {
    const m = await atParams(c);
    const s2 = m === null ? null : sliceOf(ci, p, m, sourceName);
    const g2 = s2 ? confirmRun(ci, c, 'fault', undefined, s2) : null;
    if (g2 !== null && g2 !== 'too-large') return replayOf(g2);
  }
  return null;
}

/** The state of one obligation through the phases. */
interface Slot {
  /** The obligation (or the fallback it was replaced by). */
  p: PendingObligation;
  o: Obligation;
  answer: SolverAnswer;
  /** Whether the congruence shortcut of a value obligation was tried. */
  congruenceTried?: boolean;
  /** When it proved the obligation: its parts, all proved (each one a certificate). */
  parts?: { o: Obligation; answer: SolverAnswer }[];
}

function outcomesOf(s: Slot): ObligationOutcome[] {
  const one = (o: Obligation, a: SolverAnswer): ObligationOutcome => ({ obligation: o, status: a.status === 'unsat' ? 'proved' : a.status === 'sat' ? 'refuted' : 'unknown', ms: a.ms, reason: a.reason });
  return s.parts ? s.parts.map((p) => one(p.o, p.answer)) : [one(s.o, s.answer)];
}

/**
 * Where a verdict points (SARIF, JUnit, the corpus): the counterexample's position, else the place
 * an `unknown` is about, else the first obligation left undecided, else the implementation.
 */
export function verdictAt(r: VerifyResult, ci: CheckedImpl): { line: number; col: number } {
  if (r.counterexample && r.counterexample.line > 0) return { line: r.counterexample.line, col: Math.max(r.counterexample.col, 1) };
  if (r.at && r.at.line > 0) return { line: r.at.line, col: Math.max(r.at.col, 1) };
  const open = r.verdict === 'unknown' ? r.outcomes.find((o) => o.status === 'unknown' && o.obligation.line > 0) : undefined;
  if (open) return { line: open.obligation.line, col: Math.max(open.obligation.col, 1) };
  return { line: ci.impl.pos.line, col: ci.impl.pos.col };
}

/**
 * Phases: (1) Presburger obligations (bounds, definedness, races) — their refutations are exact,
 * whatever the annotations say, so the first one is the verdict; (2) value obligations in the
 * cheap encoding (uninterpreted operations); (3) concrete replay of the first unproved one; (4) the
 * remaining ones in the full encoding (IEEE floats, bit-vectors).
 */
export async function verifyImpl(ci: CheckedImpl, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const n0 = z3Stats().netStops;
  const r = await verifyPhases(ci, opts);
  const n = z3Stats().netStops - n0;
  return n > 0 ? { ...r, netStops: n } : r;
}

async function verifyPhases(ci: CheckedImpl, opts: VerifyOptions): Promise<VerifyResult> {
  const t0 = performance.now();
  const float = opts.float ?? 'ieee';
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = { impl: ci.impl.name, spec: ci.spec.spec.name, float, assumptions: implAssumptionText(ci) };
  const early = (r: Omit<VerifyResult, 'impl' | 'spec' | 'float' | 'assumptions' | 'ms' | 'vcs' | 'timings' | 'replay'> & { replay?: Replay | null }): VerifyResult =>
    ({ ...base, replay: null, ...r, vcs: r.outcomes.length, ms: performance.now() - t0, timings: { symbolic: 0, presburger: 0, smt: 0, replay: 0 } });
  // The interface the compiler declared (proofs/verifier/interface.ts): its shape (shown by a run at any
  // parameter values the assumptions allow), then its assumptions.
  const shape = interfaceViolations(ci);
  const assumed = await checkAssumptions(ci, timeoutMs);
  if (shape.length > 0) {
    const v = shape[0]!;
    const replay: Replay | null = assumed.status === 'ok' ? { params: Object.fromEntries([...assumed.witness].map(([k, x]) => [k, x.toString()])), seed: 0, inputs: 'default', annotations: false, inputValues: [], class: INTERFACE_CLASS, shows: `interface: ${v.message}` } : null;
    return early({ verdict: 'invalid', class: INTERFACE_CLASS, reason: `${v.message} (${v.rule})`, counterexample: { values: {}, line: v.line, col: v.col, obligation: v.rule, description: v.message }, outcomes: [], replay });
  }
  if (assumed.status === 'unknown') return early({ verdict: 'unknown', class: null, reason: assumed.reason, counterexample: null, outcomes: [] });
  const at = ci.impl.assumes[0]?.pos ?? ci.impl.pos;
  const assumeObligation = (script: string, description: string): Obligation => ({ id: 'assume', kind: 'interface', rule: 'I-ASSUME', line: at.line, col: at.col, description, script, float: null });
  if (assumed.status === 'contradiction') {
    const v = assumed.violation;
    // The certificate is the contradiction itself (unsat), so the outcome is "proved".
    const o = assumeObligation(contradictionScript(ci), 'the assumptions of the spec and the impl contradict each other');
    return early({ verdict: 'invalid', class: INTERFACE_CLASS, reason: `${v.message} (${v.rule})`, counterexample: { values: {}, line: v.line, col: v.col, obligation: v.rule, description: v.message }, outcomes: [{ obligation: o, status: 'proved', ms: 0, reason: null }] });
  }
  const witness = [...assumed.witness].map(([p, x]) => `${p} = ${x}`).join(', ');
  const assumeOutcome: ObligationOutcome = { obligation: assumeObligation(witnessScript(ci, assumed.witness), `the assumptions of the spec and the impl allow a parameter value${witness ? ` (${witness})` : ''}`), status: 'proved', ms: 0, reason: null };
  const ev = new SymbolicEvaluator(ci, opts.log ?? null);
  const p0 = presburgerClock.ms;
  const z0 = z3Stats().ms;
  let replayMs = 0;
  const timings = () => ({ symbolic: symbolicMs, presburger: presburgerClock.ms - p0, smt: z3Stats().ms - z0, replay: replayMs });
  let symbolicMs = 0;
  try {
    ev.run();
    symbolicMs = performance.now() - t0;
  } catch (e) {
    if (e instanceof UnsupportedConstruct) {
      return { ...base, verdict: 'unknown', class: 'unsupported', reason: e.message, counterexample: null, at: e.pos, replay: null, vcs: 1, ms: performance.now() - t0, outcomes: [assumeOutcome], timings: timings() };
    }
    throw e;
  }
  const done = (r: Omit<VerifyResult, 'impl' | 'spec' | 'float' | 'assumptions' | 'ms' | 'vcs' | 'outcomes' | 'timings' | 'replay'> & { replay?: Replay | null }, slots: readonly Slot[]): VerifyResult => {
    const outcomes = [assumeOutcome, ...slots.flatMap(outcomesOf)];
    return { ...base, replay: null, ...r, vcs: outcomes.length, ms: performance.now() - t0, outcomes, timings: timings() };
  };
  /**
   * Runs at small parameters (the model's first, when it gives them all) on the replay inputs:
   * the invalid verdict of the first run that shows a wrong result, else null.
   */
  const searchRuns = async (s: Slot, modelOutput: string, tried = new Set<string>(), context = s.p.context, quick = false): Promise<VerifyResult | null> => {
    const model = modelValues(modelOutput);
    const prefer = new Map<string, bigint>();
    for (const p of ci.spec.params) {
      const v = model.get(p);
      if (v !== undefined && /^-?\d+$/.test(v)) prefer.set(p, BigInt(v));
    }
    const r0 = performance.now();
    // Before any value query (quick), a run known to be too large is not worth a second model.
    const small = opts.runsFirst === 'small';
    const fits = quick
      ? (m: ReadonlyMap<string, bigint>): boolean => {
          const n = stepCount(ci, m);
          return small ? n !== null && n <= BigInt(EARLY_SMALL_STEPS) : (n ?? 0n) <= BigInt(SMALL_RUN.maxSteps);
        }
      : undefined;
    const candidates = (await smallParameters(ci, quick ? 2 : 6, prefer.size === ci.spec.params.length ? prefer : null, context, !quick, fits)).filter((m) => {
      const key = ci.spec.params.map((p) => m.get(p)).join(',');
      if (tried.has(key)) return false;
      tried.add(key);
      return true;
    });
    const found = await replay(ci, candidates, quick ? EARLY_INPUTS : REPLAY_INPUTS);
    replayMs += performance.now() - r0;
    if (found === null) return null;
    // The obligation of the assignment the run shows wrong, when it is unproved; before any
    // value query (quick), for wrong outputs, the first value written to that output array; else
    // s's.
    const writes = (x: Slot): boolean => {
      const at = x.p.kind === 'value' ? commandAt(ci, x.o.line) : null;
      return at !== null && at.cmd.kind === 'assign' && at.cmd.array === found.array;
    };
    const ub = found.class === 'undefined-behaviour';
    const o = found.line ? (slots.find((x) => x.p.usesValues && x.answer.status !== 'unsat' && x.o.line === found.line && (x.p.kind === 'defined') === ub)?.o ?? s.o) : quick && found.array ? (slots.find(writes)?.o ?? s.o) : s.o;
    return done({
      verdict: 'invalid',
      class: found.class,
      reason: `${found.detail} (${concreteRun(found)}; obligation ${o.id}: ${o.description})`,
      counterexample: { values: found.params, line: found.line || o.line, col: found.line ? found.col : o.col, obligation: o.id, description: o.description },
      replay: replayOf(found),
    }, slots);
  };
  /**
   * Step (3)'s search for a slot: small parameters of its context (the solver's model first),
   * then of the assumptions alone when the context says more; each parameter tuple run once.
   */
  const wholeSearch = async (s: Slot, modelOutput: string): Promise<VerifyResult | null> => {
    const tried = new Set<string>();
    return (await searchRuns(s, modelOutput, tried)) ?? (s.p.context.length > 0 ? await searchRuns(s, '', tried, []) : null);
  };
  /**
   * Before an `unknown`: runs at boundary sizes (replay.ts, BOUNDARY_VALUES: where floats stop
   * holding integers and integers wrap) that small parameters cannot show, when a whole run there
   * is affordable (a static step count within BOUNDARY_STEPS, outputs compared, annotations not
   * checked: that is most of a large run's time). The first wrong result is the verdict.
   */
  const boundarySearch = async (s: Slot): Promise<VerifyResult | null> => {
    if (float === 'real' || opts.runsFirst === false || opts.runsFirst === 'small') return null;
    const r0 = performance.now();
    let left = BOUNDARY_COST;
    const fits = (m: ReadonlyMap<string, bigint>): boolean => (boundaryCost(ci, m) ?? BOUNDARY_COST + 1) <= BOUNDARY_COST;
    let found: ReplayFinding | null = null;
    for (const m of await boundaryParameters(ci, fits)) {
      const cost = boundaryCost(ci, m)!;
      if (cost > left) break;
      left -= cost;
      const f = replayRun(ci, m, REPLAY_INPUTS[0]!, { maxCells: BOUNDARY_CELLS, maxSteps: BOUNDARY_STEPS, checkAnnotations: false });
      if (f !== null && f !== 'too-large') {
        found = f;
        break;
      }
    }
    replayMs += performance.now() - r0;
    if (found === null) return null;
    return done({
      verdict: 'invalid', class: found.class,
      reason: `${found.detail} (${concreteRun(found)}, at a size where machine arithmetic rounds or wraps; obligation ${s.o.id}: ${s.o.description})`,
      counterexample: { values: found.params, line: found.line || s.o.line, col: found.line ? found.col : s.o.col, obligation: s.o.id, description: s.o.description },
      replay: replayOf(found),
    }, slots);
  };
  const refutedBy = async (s: Slot): Promise<VerifyResult> => {
    const withModel = await checkSat(s.o.script, { timeoutMs, model: true });
    const model = modelValues(withModel.output);
    // The reported variables' values in a model, by their source names.
    const valuesOf = (m: ReadonlyMap<string, string>): Record<string, string> => {
      const out: Record<string, string> = {};
      for (const v of s.p.report) {
        const val = m.get(v);
        if (val !== undefined) out[ev.source(v)] = val;
      }
      return out;
    };
    let values = valuesOf(model);
    const at = Object.entries(values).map(([k, v]) => `${k} = ${v}`).join(', ');
    const reason = s.o.kind === 'interface' ? `${s.o.rule}: it is not true that ${s.o.description}${at ? ` (${at})` : ''}` : `refuted: ${s.o.description}`;
    const r0 = performance.now();
    // The models asked at other parameters (confirm's least ones), by their parameters.
    const asked = new Map<string, ReadonlyMap<string, string>>();
    const key = (valueOf: (p: string) => string | undefined): string => ci.spec.params.map(valueOf).join(',');
    const atParams = async (c: ReadonlyMap<string, bigint>): Promise<ReadonlyMap<string, string> | null> => {
      const fixed = [...c].map(([x, v]) => `(assert ${formulaToSmt(eqT(variable(x), constant(v)))})`).join('\n');
      const r = await checkSat(`${s.o.script}\n${fixed}`, { timeoutMs, model: true });
      if (r.status !== 'sat') return null;
      const m = modelValues(r.output);
      asked.set(key((p) => c.get(p)?.toString()), m);
      return m;
    };
    let shown = await confirm(ci, s.p, model, withModel.output, timeoutMs, (v) => ev.source(v), atParams);
    replayMs += performance.now() - r0;
    // A replay at other parameters than the solver's: the counterexample is the model there.
    const shownAt = shown?.params;
    const there = shownAt === undefined ? undefined : asked.get(key((p) => shownAt[p]));
    if (there !== undefined) values = valuesOf(there);
    if (shown === null && s.p.usesValues) {
      // No run reproduces this model: the other Z3 (default mode) picks other values, which a
      // run may reproduce, so that the verdict names what a run shows, whichever Z3 answers.
      const second = await withSecondSolver(async () => {
        const again = await checkSat(s.o.script, { timeoutMs, model: true });
        if (again.status !== 'sat') return null;
        const r1 = performance.now();
        const seen = await confirm(ci, s.p, modelValues(again.output), again.output, timeoutMs, (v) => ev.source(v));
        replayMs += performance.now() - r1;
        return seen ?? (await searchRuns(s, again.output));
      });
      if (second && 'verdict' in second) return second;
      shown = second;
    }
    // §7: the reduction rules' conditions are sufficient, not necessary (a position accumulated
    // twice with `max` changes nothing, an element that differs from T's at its position may still
    // fold to T's value: max(a[k], a[0]), two elements swapped in a sum), and they add ghost
    // writes a run does not make (a transfer marks its source as moved). Every other obligation
    // of such a program reads accumulated cells as the reductions' values, which they hold only
    // when those conditions do. So with accumulations in the program, a refutation (interface
    // conditions aside, which are about the declarations alone) is `invalid` only with a run
    // that shows a wrong result; otherwise it decides nothing.
    const needsRun = s.o.kind === 'reduction' || (ev.usesReductions && s.o.kind !== 'interface');
    if (needsRun && shown === null) {
      // The refutation's least parameters may be too small to show it (no element accumulated
      // at all): a wider search over small parameters and the replay inputs.
      const r1 = performance.now();
      const wider = await replay(ci, await smallParameters(ci, 6, null), REPLAY_INPUTS);
      replayMs += performance.now() - r1;
      if (wider !== null) {
        return done({ verdict: 'invalid', class: wider.class, reason: `${wider.detail} (${concreteRun(wider)}; obligation ${s.o.id}: ${s.o.description})`, counterexample: { values: wider.params, line: wider.line || s.o.line, col: wider.line ? wider.col : s.o.col, obligation: s.o.id, description: s.o.description }, replay: replayOf(wider) }, slots);
      }
      const large = await boundarySearch(s);
      if (large !== null) return large;
      // A reduction side condition is sufficient, not necessary (a position accumulated twice
      // with `max` changes nothing), and the reduction rules add ghost writes a run does not make
      // (a transfer marks its source as moved): with accumulations in the program, a Presburger
      // refutation without a run showing a wrong result decides nothing.
      return done({ verdict: 'unknown', class: UNCONFIRMED_CLASS, reason: `${s.o.id} (${s.o.description}) does not hold${at ? ` (${at})` : ''}, and no concrete run showed a wrong result${s.o.rule.startsWith('RED-') || s.o.kind === 'reduction' ? ' (a condition of the reduction rules: sufficient, not necessary)' : ''}`, counterexample: null, at: { line: s.o.line, col: s.o.col } }, slots);
    }
    // A value refutation shown by a run is the class the run shows (wrong outputs, or right
    // outputs and a wrong annotation), which is what a user needs to know. A slice does not
    // compare the outputs, so a wrong value it shows stays `value-mismatch`: whether the
    // program's outputs are wrong too is not known.
    const runClass = shown && !(shown.slice && shown.class === 'annotation-mismatch') ? shown.class : failureClass(s.o.kind);
    const cls = needsRun ? runClass : s.p.usesValues && shown && !shown.slice && (shown.class === 'output-mismatch' || shown.class === 'annotation-mismatch') ? shown.class : failureClass(s.o.kind);
    return done({ verdict: 'invalid', class: cls, reason, counterexample: { values, line: s.o.line, col: s.o.col, obligation: s.o.id, description: s.o.description }, replay: shown }, slots);
  };

  // Evaluation order throughout: an obligation may rely on the annotations checked before it.
  const decided = await decidePresburger(ev.obligations, timeoutMs);
  const slots: Slot[] = [];
  const cheap: FloatMode = float === 'ieee' ? 'uf' : float;
  for (const p of ev.obligations) {
    const pre = decided.get(p);
    if (pre === undefined) slots.push({ p, o: p.render(cheap), answer: { status: 'unknown', output: '', ms: 0, reason: 'not yet decided' } });
    else if (pre.status !== 'unsat' && p.fallback) {
      const f = p.fallback(); // ww-covered: sv fails, so conflicting writes must be equal values
      slots.push({ p: f, o: f.render(cheap), answer: { status: 'unknown', output: '', ms: 0, reason: 'not yet decided' } });
    } else slots.push({ p, o: p.render('ieee'), answer: pre });
  }
  // (1) Presburger refutations are exact (but for a `load` whose guard left out a condition on
  // values: that one waits for a run, load-guard.ts).
  const firstRefuted = slots.find((s) => !s.p.usesValues && s.answer.status === 'sat' && !s.o.inexact);
  if (firstRefuted) {
    // A read that finds no value because another iteration of an enclosing `par` writes it is a
    // race (U-PARLOOP's side condition, what the big-step semantics reports), and the race is
    // refuted too: report that one. Either refutation is exact; this only picks the diagnosis.
    const race = firstRefuted.p.kind === 'read-defined' ? slots.find((s) => s.p.kind === 'rw-race' && s.answer.status === 'sat' && s.p.body?.has(firstRefuted.p.id)) : undefined;
    return refutedBy(race ?? firstRefuted);
  }
  // (1½) A few concrete runs (the two least parameter tuples of the assumptions alone, one input
  // of each family) before any value query. A wrong program usually shows there in milliseconds,
  // where each of its value obligations that neither Z3 decides costs 1.5 solver budgets:
  // sqsgemm_ab_init_annotation took 50 s before its replay, 2 s now. A right program pays a few
  // small runs. The run's finding names the value obligation of the line it shows wrong, or the
  // first output obligation for wrong outputs. Step (3) still runs its whole search. Not under
  // `--float real`: its verdicts are about reals, which a run is not.
  const firstValue = slots.find((s) => s.p.usesValues);
  // Under 'small', only for a program with checked operations (a `defined` obligation), whose
  // undefined behaviour a run shows where the solver may take minutes.
  const runsFirst = opts.runsFirst === 'small' ? slots.some((s) => s.p.kind === 'defined') : opts.runsFirst !== false;
  if (firstValue && float !== 'real' && runsFirst) {
    const early = await searchRuns(slots.find((s) => s.p.kind === 'output-value') ?? firstValue, '', new Set(), [], true);
    if (early !== null && early.class !== 'annotation-mismatch') return early;
    if (early !== null) {
      // Right outputs and a wrong annotation on these few runs: the whole search of step (3), at
      // small parameters of that assignment's context and of the assumptions, may still show
      // wrong outputs (reversed_element_f32 does at N = 4 with spread inputs), which wins.
      const at = slots.find((s) => s.p.usesValues && s.o.line === early.counterexample?.line) ?? firstValue;
      return (await wholeSearch(at, '')) ?? early;
    }
  }
  // (2) Values, cheap encoding — after pruning the heap cases that contradict their context. The
  // obligations are independent: their queries go to the solver pool together, in waves that
  // keep everything else in a fixed order (proofs/verifier/waves.ts).
  await inWaves(slots.filter((s) => s.p.usesValues), async (s, ask) => {
    if (s.p.prepare) await s.p.prepare(feasibility(ask, opts.pruneMs ?? PRUNE_MS));
    await dischargeValue(s, cheap, timeoutMs, ask);
  });
  // (3) Replay the first unproved value obligation concretely: at the small parameters of its
  // context, then at those of the assumptions alone (each parameter tuple run once). The first may
  // all be too large to run:
  // sqsgemm_ab_init_annotation's first unproved obligation is in the branch taken from N = 512 on,
  // and the same wrong annotation in the branch of small sizes shows at N = 32.
  // (4) The full encoding for what the cheap one could not prove. Without floats it comes before
  // the runs: it has no float to bit-blast, and it proves what uninterpreted integers cannot
  // (the 25 taps of sc1, which Halide reorders), where the runs at the least sizes the
  // assumptions allow (512 × 512) took 14 s to show nothing.
  const exact = async (): Promise<void> => {
    if (float === 'ieee') await inWaves(slots.filter((s) => s.p.usesValues && s.answer.status !== 'unsat'), (s, ask) => dischargeValue(s, 'ieee', timeoutMs, ask));
  };
  const exactFirst = float === 'ieee' && !hasFloats(ci);
  if (exactFirst) await exact();
  const unproved = slots.find((s) => s.p.usesValues && s.answer.status !== 'unsat');
  if (unproved) {
    const found = await wholeSearch(unproved, unproved.answer.output);
    if (found !== null) return found;
  }
  if (!exactFirst) await exact();
  // A refutation is a counterexample only in an exact encoding; in an inexact one (uninterpreted
  // exp, --float uf, floats as reals) the model is a candidate, and the concrete replay above did
  // not confirm it.
  const refuted = slots.find((s) => s.answer.status === 'sat' && !s.o.inexact);
  if (refuted) return refutedBy(refuted);
  const open = slots.find((s) => s.answer.status !== 'unsat');
  if (open) {
    const large = open.p.usesValues ? await boundarySearch(open) : null;
    if (large !== null) return large;
    if (open.answer.status === 'sat') {
      const reason = `${open.o.id} (${open.o.description}): the solver found a model, but it relies on ${open.o.inexact}, which is not the machine's semantics, and no concrete run confirmed it`;
      return done({ verdict: 'unknown', class: UNCONFIRMED_CLASS, reason, counterexample: null, at: { line: open.o.line, col: open.o.col } }, slots);
    }
    const reason = `${open.o.id} (${open.o.description}): ${open.answer.reason ?? 'unknown'}${open.p.usesValues ? '; no concrete counterexample found' : ''}`;
    return done({ verdict: 'unknown', class: /timeout/.test(open.answer.reason ?? '') ? 'timeout' : null, reason, counterexample: null, at: { line: open.o.line, col: open.o.col } }, slots);
  }
  // Every obligation is proved. A reduction whose operator does not reorder exactly (IEEE float
  // `+`, `*`, `min`, `max`) is proved up to reassociation only (proofs/verifier/reduction-verdict.ts).
  const { reordered: inexact, order } = await inexactReductions(ev, timeoutMs);
  slots.push(...order.map((o) => ({ p: ev.obligations[0]!, o: o.obligation, answer: { status: 'unsat' as const, output: 'unsat', ms: o.ms, reason: null } })));
  if (inexact.length > 0) {
    const r0 = performance.now();
    const gate = await reassociationVerdict(ci, float, inexact);
    replayMs += performance.now() - r0;
    if (gate.verdict === 'invalid') {
      const f = gate.finding;
      return done({
        verdict: 'invalid', class: f.class,
        reason: `${f.detail} (${concreteRun(f)}: the reordered ${gate.what} rounds differently from the spec's order)`,
        counterexample: { values: f.params, line: f.line || ci.impl.pos.line, col: f.line ? f.col : ci.impl.pos.col, obligation: 'reassociation', description: gate.what },
        replay: replayOf(f),
      }, slots);
    }
    if (gate.verdict === 'unknown') return done({ verdict: 'unknown', class: REASSOCIATION_CLASS, reason: gate.reason, counterexample: null }, slots);
    return { ...done({ verdict: 'valid', class: null, reason: null, counterexample: null }, slots), qualifier: gate.qualifier };
  }
  return done({ verdict: 'valid', class: null, reason: null, counterexample: null }, slots);
}
