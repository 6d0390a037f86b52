// The cross-check of one compiled case (`sched fuzz`): three oracles on the same `.sched` program,
// and a judgement of whether they agree.
//
// - verify: the translation validator's verdict (proofs/verifier/verify.ts);
// - run: big-step runs on random small parameters and seeded inputs, outputs compared with the
//   spec's model and every annotation checked against the value written (proofs/verifier/replay.ts);
// - explore: exhaustive small-step exploration on the smallest parameters, whose final memory
//   must be unique and equal to the big-step one (Thm 4.3.7);
// - jit (compilers that run their own output, e.g. Halide's JIT): the compiled code's outputs on
//   seeded inputs against our big-step run of the program on the same inputs (a NativeOracle
//   the compiler hands over with its output; proofs/ does not know which compiler it is).
//
// The oracles *disagree* when: verify says valid but a run or the exploration finds a wrong
// program (the worst case: a soundness bug of ours); verify says invalid but no concrete run
// confirms it at its counterexample (nor anywhere else we ran); the big-step run succeeds but the
// exploration is nondeterministic, stuck, or ends elsewhere. When they agree that something is
// wrong, the compiler under test has a bug.

import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { evalFormula } from '../../core/presburger/eval.ts';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { formulaOf } from '../../core/language/affine.ts';
import { REPLAY_INPUTS, replay, type ReplayFinding } from '../verifier/replay.ts';
import { verifyImpl } from '../verifier/verify.ts';
import { verifyInWorker, type WorkerVerdict } from './verifier.ts';
import { explore, namedMemoryKey, smallSetup } from '../../semantics/explore.ts';
import { compareOutputs, runImpl, specModel } from '../../semantics/run.ts';
import { fromBig } from '../../semantics/int.ts';

export type Oracle = 'verify' | 'run' | 'explore' | 'compile' | 'jit';

export type DisagreementKind =
  /** verify said valid, a concrete run found an error, a wrong output or a wrong annotation. */
  | 'valid-but-run-fails'
  /** verify said valid, the small-step exploration is nondeterministic, stuck or wrong. */
  | 'valid-but-explore-fails'
  /** verify said invalid, no concrete run (at its counterexample or elsewhere) confirms it. */
  | 'invalid-unconfirmed'
  /** the big-step run succeeded, the exploration from the same state disagrees with it. */
  | 'bigstep-vs-smallstep'
  /** the compiler's own executable (Halide's JIT) and our big-step run give different outputs. */
  | 'jit-vs-bigstep';

/** What a compiler's own run of its output gave, against our big-step run on the same inputs. */
export interface NativeReport {
  readonly params: Record<string, string>;
  /** Our big-step run against the spec: match, mismatch, error. */
  readonly bigstep: string;
  /**
   * Our big-step run finished, so there are outputs to compare. When it stops on a run-time error
   * (an uninitialized read, an out-of-bounds access) the run oracle reports it; the native
   * values are then not compared, and their difference is no disagreement.
   */
  readonly compared: boolean;
  readonly cells: number;
  /** Output cells that differ bit for bit, and beyond the float tolerance. */
  readonly differences: number;
  readonly beyondTolerance: number;
  /** The compiler's run failed (its message). */
  readonly error: string | null;
  readonly examples: readonly { readonly index: readonly number[]; readonly native: unknown; readonly bigstep: unknown }[];
  readonly ms: number;
}

/** Run the compiled code natively at these parameters of `ci` and compare with our big-step run. */
export type NativeOracle = (ci: CheckedImpl, params: ReadonlyMap<string, bigint>, seed: number) => Promise<NativeReport>;

export interface OracleOptions {
  /** Per-query solver budget of the verifier. */
  readonly timeoutMs: number;
  /** Parameter sets for big-step runs (each with two input seeds). */
  readonly runs: number;
  /** Parameters are drawn from [0, maxParam]. */
  readonly maxParam: number;
  /** State budget of the exploration. */
  readonly exploreStates: number;
  /** Seeds the parameter draws. */
  readonly seed: number;
  /** Skip the verifier (only concrete oracles). */
  readonly noVerify?: boolean;
  /** Wall-clock budget of one verification, run in a worker process (default 180 s). */
  readonly verifyBudgetMs?: number;
  /** Verify in this process instead of a worker (no budget, no protection from a crash). */
  readonly verifyInProcess?: boolean;
  /** Budget of the verifier's feasibility queries (VerifyOptions.pruneMs; proofs/fuzz/budgets.ts). */
  readonly pruneMs?: number;
}

export const DEFAULT_ORACLES: OracleOptions = { timeoutMs: 5000, runs: 3, maxParam: 9, exploreStates: 20_000, seed: 0 };

export interface VerifyReport {
  readonly verdict: 'valid' | 'invalid' | 'unknown';
  readonly class: string | null;
  readonly reason: string | null;
  readonly params: Record<string, string> | null;
  readonly ms: number;
  /** Solver work in ms of budget (in the worker under resource limits), else null. */
  readonly workMs: number | null;
}

export interface RunReport {
  readonly params: Record<string, string>;
  readonly finding: ReplayFinding | null;
}

export interface ExploreReport {
  readonly params: Record<string, string>;
  readonly outcome: 'deterministic' | 'nondeterministic' | 'stuck' | 'limit';
  readonly states: number;
  /** The big-step run from the same memory: ok, or the class of its error. */
  readonly bigStep: string;
  /** Deterministic and a big-step derivation exists: do their final memories agree? */
  readonly agrees: boolean | null;
  /** The explored final memory's outputs equal the spec's (when it is the big-step one). */
  readonly outputsMatch: boolean | null;
  readonly ms: number;
}

export interface CaseReport {
  readonly verify: VerifyReport | null;
  readonly runs: readonly RunReport[];
  readonly explore: ExploreReport | null;
  /** The compiler's native run (only compilers that have one). */
  readonly native?: NativeReport | null;
  /** Re-running at the verifier's counterexample (invalid verdicts only). */
  readonly confirmation: ReplayFinding | null;
  readonly detectedBy: readonly Oracle[];
  readonly disagreements: readonly DisagreementKind[];
  readonly judgement: 'ok' | 'bug' | 'unknown' | 'disagreement';
  readonly ms: number;
  /** Wall-clock ms of each oracle (runs, native, explore, verify): a measurement for profiles. */
  readonly phases?: Readonly<Record<string, number>>;
}

const sum = (m: ReadonlyMap<string, bigint>): bigint => [...m.values()].reduce((a, b) => a + b, 0n);
const show = (m: ReadonlyMap<string, bigint>): Record<string, string> => Object.fromEntries([...m].map(([k, v]) => [k, v.toString()]));

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Do the parameter values satisfy every assumption of the spec and the implementation? */
export function satisfies(ci: CheckedImpl, params: ReadonlyMap<string, bigint>): boolean {
  for (const a of [...ci.spec.spec.assumes, ...ci.impl.assumes]) if (!evalFormula(formulaOf(a), params)) return false;
  return true;
}

/** Up to `count` distinct random parameter sets in [0, max] satisfying the assumptions. */
export function sampleParams(ci: CheckedImpl, next: () => number, count: number, max: number): Map<string, bigint>[] {
  const out: Map<string, bigint>[] = [];
  const seen = new Set<string>();
  for (let tries = 0; tries < 400 && out.length < count; tries++) {
    // Half of the draws favour the upper half, where tails and overlaps appear.
    const hi = tries % 2 === 0 ? max : Math.max(2, Math.floor(max / 2));
    const m = new Map(ci.spec.params.map((p) => [p, BigInt(Math.floor(next() * (hi + 1)))] as const));
    const k = [...m.values()].join(',');
    if (seen.has(k) || !satisfies(ci, m)) continue;
    seen.add(k);
    out.push(m);
  }
  return out;
}

/**
 * The parameter set of least sum (then lexicographically least) satisfying the assumptions, with
 * every parameter at least `floor` (so that loops run at least once).
 */
export function leastParams(ci: CheckedImpl, max: number, floor = 0): Map<string, bigint> | null {
  const ps = ci.spec.params;
  const shifted = (m: Map<string, bigint>): Map<string, bigint> => new Map([...m].map(([k, v]) => [k, v + BigInt(floor)] as const));
  const sat = (m: Map<string, bigint>): boolean => satisfies(ci, shifted(m));
  for (let sum = 0; sum <= max * ps.length; sum++) {
    const found = ((): Map<string, bigint> | null => {
      const vals = new Array<number>(ps.length).fill(0);
      const go = (i: number, left: number): Map<string, bigint> | null => {
        if (i === ps.length - 1 || ps.length === 0) {
          if (ps.length > 0) {
            if (left > max) return null;
            vals[i] = left;
          } else if (left !== 0) return null;
          const m = new Map(ps.map((p, k) => [p, BigInt(vals[k]!)] as const));
          return sat(m) ? shifted(m) : null;
        }
        for (let v = 0; v <= Math.min(left, max); v++) {
          vals[i] = v;
          const r = go(i + 1, left - v);
          if (r) return r;
        }
        return null;
      };
      return go(0, sum);
    })();
    if (found) return found;
  }
  return null;
}

async function runOracle(ci: CheckedImpl, sets: readonly Map<string, bigint>[]): Promise<RunReport[]> {
  const out: RunReport[] = [];
  for (const m of sets) out.push({ params: show(m), finding: await replay(ci, [m], REPLAY_INPUTS.slice(0, 2)) });
  return out;
}

function exploreOracle(ci: CheckedImpl, params: Map<string, bigint>, maxStates: number): ExploreReport {
  const t0 = performance.now();
  const ps = new Map([...params].map(([k, v]) => [k, fromBig(v)] as const));
  const model = specModel(ci, ps, { seed: 0 });
  const setup = smallSetup(ci, params, model, { mutable: false });
  const res = explore(setup.prog, setup.space, setup.init, setup.globals, { maxStates, stopAtNondeterminism: true });
  const big = runImpl(ci, params, { seed: 0, model });
  let agrees: boolean | null = null;
  let outputsMatch: boolean | null = null;
  if (big.result.ok && res.outcome === 'deterministic' && res.witnesses.length === 1) {
    agrees = namedMemoryKey(big.memory, setup.globals) === res.witnesses[0]!.key;
    if (agrees) outputsMatch = compareOutputs(ci, model, big.memory).mismatchCount === 0;
  }
  return {
    params: show(params),
    outcome: res.outcome,
    states: res.states,
    bigStep: big.result.ok ? 'ok' : big.result.error.kind,
    agrees,
    outputsMatch,
    ms: performance.now() - t0,
  };
}

/**
 * Run every oracle on one checked implementation (`text`: its source, verified in a worker
 * process; null: verify in this process) and judge their agreement.
 */
export async function crossCheck(ci: CheckedImpl, text: string | null, opts: OracleOptions, native?: NativeOracle): Promise<CaseReport> {
  const t0 = performance.now();
  const next = rng(opts.seed);
  const least = leastParams(ci, Math.max(opts.maxParam, 16));
  // The exploration runs every loop at least once when the assumptions allow it.
  const tiny = leastParams(ci, Math.max(opts.maxParam, 16), 1) ?? least;
  const sets = sampleParams(ci, next, opts.runs, opts.maxParam);
  for (const m of [tiny, least]) if (m && !sets.some((x) => [...x].every(([k, v]) => m.get(k) === v))) sets.unshift(m);
  const ph: Record<string, number> = {};
  let tp = performance.now();
  const lap = (k: string): void => {
    const now = performance.now();
    ph[k] = Math.round(now - tp);
    tp = now;
  };
  const runs = await runOracle(ci, sets);
  lap('runs');
  // The native run at the largest parameter set (most output cells and loop iterations).
  let nat: NativeReport | null = null;
  const big = [...sets].sort((a, b) => Number(sum(b) - sum(a)))[0];
  if (native && big) nat = await native(ci, big, opts.seed);
  lap('native');
  let exp: ExploreReport | null = null;
  if (tiny) {
    try {
      exp = exploreOracle(ci, tiny, opts.exploreStates);
    } catch (e) {
      if (!(e instanceof SchedInputError)) throw e;
    }
  }
  lap('explore');
  let verify: VerifyReport | null = null;
  let confirmation: ReplayFinding | null = null;
  if (!opts.noVerify) {
    let r: WorkerVerdict;
    if (opts.verifyInProcess || text === null) {
      const v = await verifyImpl(ci, { timeoutMs: opts.timeoutMs, ...(opts.pruneMs !== undefined ? { pruneMs: opts.pruneMs } : {}) });
      r = { verdict: v.verdict, class: v.class, reason: v.reason, values: v.counterexample?.values ?? null, ms: v.ms, workMs: null };
    } else r = await verifyInWorker(text, opts.timeoutMs, { budgetMs: opts.verifyBudgetMs, ...(opts.pruneMs !== undefined ? { pruneMs: opts.pruneMs } : {}) });
    const params: Record<string, string> = {};
    for (const p of ci.spec.params) {
      const x = r.values?.[p];
      if (x !== undefined) params[p] = x;
    }
    verify = { verdict: r.verdict, class: r.class, reason: r.reason, params: r.values ? params : null, ms: r.ms, workMs: r.workMs };
    if (r.verdict === 'invalid') {
      // Confirm concretely: at the counterexample (when it names every parameter), else anywhere
      // a run of ours already failed.
      const cex = ci.spec.params.every((p) => params[p] !== undefined && /^-?\d+$/.test(params[p]!)) ? new Map(ci.spec.params.map((p) => [p, BigInt(params[p]!)] as const)) : null;
      if (cex && satisfies(ci, cex)) confirmation = await replay(ci, [cex], REPLAY_INPUTS);
      confirmation ??= runs.find((x) => x.finding !== null)?.finding ?? null;
      if (confirmation === null && exp && (exp.outcome === 'nondeterministic' || exp.outcome === 'stuck' || exp.bigStep !== 'ok')) {
        confirmation = { class: exp.bigStep !== 'ok' ? exp.bigStep : exp.outcome, params: exp.params, seed: 0, inputs: 'default', line: 0, col: 0, detail: `small-step exploration: ${exp.outcome}` };
      }
    }
  }
  lap('verify');
  const runFails = runs.some((x) => x.finding !== null);
  const exploreFails = exp !== null && (exp.outcome === 'nondeterministic' || exp.outcome === 'stuck' || exp.agrees === false || exp.outputsMatch === false);
  const detectedBy: Oracle[] = [];
  if (verify?.verdict === 'invalid') detectedBy.push('verify');
  if (runFails) detectedBy.push('run');
  if (exploreFails) detectedBy.push('explore');
  const disagreements: DisagreementKind[] = [];
  if (verify?.verdict === 'valid' && runFails) disagreements.push('valid-but-run-fails');
  if (verify?.verdict === 'valid' && exploreFails) disagreements.push('valid-but-explore-fails');
  if (verify?.verdict === 'invalid' && confirmation === null) disagreements.push('invalid-unconfirmed');
  if (exp !== null && exp.bigStep === 'ok' && (exp.outcome === 'nondeterministic' || exp.outcome === 'stuck' || exp.agrees === false)) disagreements.push('bigstep-vs-smallstep');
  if (nat !== null && nat.compared && (nat.error !== null || nat.beyondTolerance > 0)) disagreements.push('jit-vs-bigstep');
  const judgement = disagreements.length > 0 ? 'disagreement' : detectedBy.length > 0 ? 'bug' : verify?.verdict === 'unknown' ? 'unknown' : 'ok';
  return { verify, runs, explore: exp, ...(native ? { native: nat } : {}), confirmation, detectedBy, disagreements, judgement, ms: performance.now() - t0, phases: ph };
}
