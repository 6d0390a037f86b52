// The library API of sched: what the command line does, as functions. `import { check, verify }
// from 'sched'` after `npm install` (the package's `prepare` step compiles it to dist/).
//
//   const prog = await check(text, 'matmul.sched');        // parse, types, well-formedness
//   for (const impl of prog.impls) {
//     const r = await verify(impl);                        // 'valid' | 'invalid' | 'unknown'
//     if (r.verdict === 'invalid') console.log(r.reason, r.replay);
//   }
//   await shutdown();                                      // stop the solver processes
//
// Errors in the input are thrown as SchedInputError (its `diagnostics` name file:line:col). Deep
// expressions (operator chains of thousands of terms) need a thread with a large stack, as the
// `sched` command gives itself (cli/sched.js: a Worker with `resourceLimits.stackSizeMb`).

import type { Program } from '../core/language/ast.ts';
import { checkProgramFull } from '../core/language/check.ts';
import { parseProgram } from '../core/language/parser.ts';
import type { CheckedImpl, CheckedProgram } from '../core/language/typecheck.ts';
import { checkInterface, type InterfaceReport } from '../proofs/verifier/interface.ts';
import { findBundles, type RecheckRow, recheckBundle, type SolverName } from '../proofs/certificates/recheck.ts';
import { type VerifyOptions, verifyImpl, type VerifyResult } from '../proofs/verifier/verify.ts';
import { explore as exploreStates, type ExploreResult, smallSetup } from '../semantics/explore.ts';
import type { InputFamily } from '../semantics/inputs.ts';
import { runImpl, type RunReport, type RunResult, specModel } from '../semantics/run.ts';
import { parseSlice, type Slice, SliceError } from '../semantics/slice.ts';
import { shutdownZ3 } from '../smt/z3.ts';

export type { Program, CheckedProgram, CheckedImpl, VerifyResult, VerifyOptions, RunReport, RunResult, ExploreResult, InterfaceReport, RecheckRow, SolverName, InputFamily };
export type { Replay, Counterexample, Verdict } from '../proofs/verifier/verify.ts';
export { SchedInputError, type Diagnostic, formatDiagnostic } from '../core/language/diagnostics.ts';
export { SliceError } from '../semantics/slice.ts';
export { printProgram } from '../core/language/printer.ts';

/** Parameter values, by name: `{ N: 4 }` or a map of bigints. */
export type Params = Readonly<Record<string, number | bigint>> | ReadonlyMap<string, bigint>;

function paramMap(p: Params): Map<string, bigint> {
  if (p instanceof Map) return new Map(p);
  return new Map(Object.entries(p as Record<string, number | bigint>).map(([k, v]) => [k, BigInt(v)] as const));
}

/** Parse a `.sched` text (throws SchedInputError with every syntax error). */
export function parse(text: string, file = 'input.sched'): Program {
  return parseProgram(file, text);
}

/**
 * Parse (when given text), type-check and check every spec's well-formedness. Implementations are
 * returned as `CheckedImpl`s, the input of `run`, `explore` and `verify`.
 */
export async function check(source: string | Program, file = 'input.sched'): Promise<CheckedProgram> {
  return checkProgramFull(typeof source === 'string' ? parseProgram(file, source) : source);
}

/** The interface rules of an implementation against its spec (docs/language.md §5). */
export async function checkImplInterface(impl: CheckedImpl, params?: Params): Promise<InterfaceReport> {
  return checkInterface(impl, params === undefined ? {} : { params: paramMap(params) });
}

export interface RunOptions {
  readonly seed?: number;
  readonly inputs?: InputFamily;
  /** Record the big-step derivation tree (`result.derivation`). */
  readonly derivation?: boolean;
  readonly maxSteps?: number;
  /** Check every assignment against its annotation (`result.annotations`). */
  readonly checkAnnotations?: boolean;
  /**
   * `'LINE:x=v,…'`: run only that instance of the loops around the assignment at LINE, as
   * `sched run --slice` (outputs not compared: outcome `sliced`). A malformed or ill-fitting
   * slice throws a SliceError.
   */
  readonly slice?: string;
}

/** A big-step run on seeded inputs, compared with the spec on the same inputs. */
export function run(impl: CheckedImpl, params: Params, opts: RunOptions = {}): RunResult {
  let slice: Slice | undefined;
  if (opts.slice !== undefined) {
    const s = parseSlice(opts.slice);
    if (s === null) throw new SliceError(`slice: needs LINE:x=v,…, got '${opts.slice}'`);
    slice = s; // runImpl throws a SliceError when it does not fit the program
  }
  return runImpl(impl, paramMap(params), { seed: opts.seed ?? 0, family: opts.inputs, derivation: opts.derivation, maxSteps: opts.maxSteps, checkAnnotations: opts.checkAnnotations, slice });
}

/** Exhaustive small-step exploration (with partial-order reduction unless `por: false`). */
export function explore(impl: CheckedImpl, params: Params, opts: { seed?: number; por?: boolean; maxStates?: number } = {}): ExploreResult {
  const ps = paramMap(params);
  const model = specModel(impl, new Map([...ps].map(([k, v]) => [k, Number(v)])), { seed: opts.seed ?? 0 });
  const s = smallSetup(impl, ps, model, { mutable: false });
  return exploreStates(s.prog, s.space, s.init, s.globals, { por: opts.por, maxStates: opts.maxStates });
}

/** Verify an implementation against its spec: `valid`, `invalid` (with a replay) or `unknown`. */
export async function verify(impl: CheckedImpl, opts: VerifyOptions = {}): Promise<VerifyResult> {
  return verifyImpl(impl, opts);
}

/** Re-check the certificate bundles under `dir` (written by `sched verify --certs`). */
export async function recheck(dir: string, opts: { solvers?: readonly SolverName[]; timeoutMs?: number } = {}): Promise<{ agree: number; unconfirmed: number; fail: number; rows: RecheckRow[] }> {
  const rows: RecheckRow[] = [];
  for (const b of findBundles(dir)) rows.push(...(await recheckBundle(b, opts.solvers ?? ['wasm'], opts.timeoutMs ?? 60_000)));
  return {
    agree: rows.filter((r) => r.status === 'agree' && r.solver !== '-').length,
    unconfirmed: rows.filter((r) => r.status === 'unconfirmed').length,
    fail: rows.filter((r) => r.status === 'fail').length,
    rows,
  };
}

/** Stop the solver processes (a script that verified something exits once they are stopped). */
export async function shutdown(): Promise<void> {
  await shutdownZ3();
}
