// Counterexample replay (ARCHITECTURE decision 5): an obligation the solver could not prove is
// turned into a concrete counterexample by running the implementation with the big-step
// semantics on small parameter values (the solver's model first, then small models of the
// assumptions) and seeded inputs. A run error is a race, out-of-bounds or uninitialized read; a
// wrong output is an `output-mismatch`; right outputs with an assignment whose value differs from
// its annotation (evaluated in the spec's model at that instance) is an `annotation-mismatch`.
// Only a concrete run makes an `invalid` verdict out of a value obligation.

import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { formulaOf } from '../../core/language/affine.ts';
import { formulaToSmt, smtSymbol } from '../../core/presburger/smtlib.ts';
import { andAll, geT, leT } from '../../core/presburger/formula.ts';
import { constant, variable } from '../../core/presburger/term.ts';
import { formulaVars } from '../../core/presburger/vars.ts';
import type { Formula } from '../../core/presburger/types.ts';
import { checkSat } from '../../smt/z3.ts';
import { runImpl } from '../../semantics/run.ts';
import { type Slice, sliceText } from '../../semantics/slice.ts';
import type { InputFamily } from '../../semantics/inputs.ts';
import type { InputSource } from '../../semantics/model.ts';

export interface ReplayFinding {
  readonly class: string;
  readonly params: Record<string, string>;
  readonly seed: number;
  /** The input family of the run (with `seed`, what `sched run --inputs F --seed S` replays). */
  readonly inputs: InputFamily;
  readonly line: number;
  readonly col: number;
  readonly detail: string;
  /** The run was a slice (`sched run --slice`, semantics/slice.ts), as its text. */
  readonly slice?: string;
  /** For wrong outputs: the output array of the first cell that differs. */
  readonly array?: string;
}

/** The values of integer constants `names` in a model (`(define-fun N () Int 5)`), or null. */
function intValues(model: string, names: readonly string[]): Map<string, bigint> | null {
  const m = new Map<string, bigint>();
  for (const p of names) {
    const x = new RegExp(`\\(define-fun ${smtSymbol(p).replace(/[|]/g, '\\|')} \\(\\) Int\\s+(\\(- \\d+\\)|-?\\d+)\\)`).exec(model);
    if (!x) return null;
    m.set(p, BigInt(x[1]!.replace(/\(- (\d+)\)/, '-$1')));
  }
  return m;
}

/**
 * Small parameter values satisfying the assumptions (spec and impl) and `context` (the facts of
 * a failed obligation: loop bounds, branch conditions — so that the failing assignment runs),
 * smallest sums first; with `perParameter`, then one more per parameter (that one grown alone).
 * With `fits`, none but the solver's preferred values when the least ones do not fit.
 */
export async function smallParameters(ci: CheckedImpl, count: number, prefer: Map<string, bigint> | null, context: readonly Formula[] = [], perParameter = false, fits?: (m: ReadonlyMap<string, bigint>) => boolean): Promise<Map<string, bigint>[]> {
  const params = ci.spec.params;
  const facts = [...[...ci.spec.spec.assumes, ...ci.impl.assumes].map((a) => formulaOf(a)), ...context];
  const out: Map<string, bigint>[] = [];
  const seen = new Set<string>();
  const push = (m: Map<string, bigint>): void => {
    const k = params.map((p) => m.get(p)).join(',');
    if (!seen.has(k)) {
      seen.add(k);
      out.push(m);
    }
  };
  // The solver's model of the failing context comes first when it is small; a large one
  // (M = 11798) comes last, after the minimal models: cheaper runs and a counterexample a user
  // can read.
  const preferred = prefer && params.every((p) => prefer.has(p)) ? prefer : null;
  const small = preferred !== null && params.every((p) => preferred.get(p)! >= -16n && preferred.get(p)! <= 16n);
  if (preferred && small) push(preferred);
  const others = new Set<string>();
  for (const f of context) for (const v of formulaVars(f)) if (!params.includes(v)) others.add(v);
  const decl = [...params, ...others].map((p) => `(declare-const ${smtSymbol(p)} Int)`);
  const bounds = params.map((p) => andAll([geT(variable(p), constant(0n)), leT(variable(p), constant(4096n))]));
  const base = [...decl, ...[...facts, ...bounds].map((f) => `(assert ${formulaToSmt(f)})`)].join('\n');
  const sum = params.length === 0 ? '0' : params.length === 1 ? smtSymbol(params[0]!) : `(+ ${params.map(smtSymbol).join(' ')})`;
  const model = async (extra: string): Promise<Map<string, bigint> | null> => {
    // Remembered: a verification asks for the same models several times (the early runs, the
    // search after a refutation, the confirmation of a model), and so do the impls of one spec.
    const r = await checkSat(`${base}\n${extra}\n(minimize ${sum})`, { timeoutMs: 5000, model: true, remember: true });
    return r.status === 'sat' ? intValues(r.output, params) : null;
  };
  // The model of least sum; then the least with every parameter at least 2 (minimal models
  // often set a size to 0 or 1, where nothing or one iteration runs: a c written inside a k loop
  // is only wrong from P = 2 on); then models of sum at least the least plus 1, 2, 4, …: a few
  // distinct, still small, parameter values (more cells, more chances for corner-case inputs);
  // then, beyond `count`, for each parameter the least with that one above its least value (a
  // split of K by 4 that is wrong only from K = 5 on: which parameter a model of a larger sum
  // grows is the solver's choice, and two Z3 versions choose differently).
  const least = await model('');
  // `fits` says whether a run at these values could be afforded: when even the least cannot
  // (sizes fixed at 1024), the larger models are not asked for.
  if (least !== null && fits !== undefined && !fits(least)) return out;
  if (least !== null) {
    push(least);
    if (params.length > 0) {
      const wide = await model(params.map((p) => `(assert (>= ${smtSymbol(p)} 2))`).join('\n'));
      if (wide !== null) push(wide);
      const floor = params.reduce((a, p) => a + least.get(p)!, 0n);
      for (let step = 1n; out.length < count && step <= 64n; step *= 2n) {
        const m = await model(`(assert (>= ${sum} ${floor + step}))`);
        if (m === null) break;
        push(m);
      }
      if (perParameter && params.length > 1) {
        for (const p of params) {
          const m = await model(`(assert (>= ${smtSymbol(p)} ${least.get(p)! + 1n}))`);
          if (m !== null) push(m);
        }
      }
    }
  }
  if (preferred && !small) push(preferred);
  return out;
}

/**
 * Parameter values where machine arithmetic changes behaviour: binary32 stops holding every
 * integer after 2^24, binary64 after 2^53 (and from 2^53 + 2^29 + 1 on, an integer rounded to
 * binary64 and then to binary32 rounds twice: f32(f64(N)) is not f32(N)), and 32- and 64-bit
 * integers wrap at 2^31, 2^32, 2^63, 2^64. A refutation that needs such a size (N = 16,777,218, where a float count stops growing;
 * N = 2^31, where a division follows a wrap) shows at none of the small parameters.
 */
export const BOUNDARY_VALUES: readonly bigint[] = [
  // The first values past each boundary first (a run there is the one most likely to show it),
  // then the values around them.
  ...[2n, 1n].map((d) => (1n << 24n) + d),
  1n << 31n,
  1n << 32n,
  (1n << 53n) + 1n,
  (1n << 53n) + (1n << 29n) + 1n,
  1n << 63n,
  1n << 64n,
  ...[0n, 3n, -1n].map((d) => (1n << 24n) + d),
  ...[1n, -1n].map((d) => (1n << 31n) + d),
  ...[1n, -1n].map((d) => (1n << 32n) + d),
  (1n << 63n) - 1n,
];

/**
 * Parameter tuples with one parameter at a boundary value (BOUNDARY_VALUES) and the others as
 * small as the assumptions allow (at most 4096), that `fits` accepts (a run that can be afforded):
 * in the order of BOUNDARY_VALUES, each parameter in turn.
 */
export async function boundaryParameters(ci: CheckedImpl, fits: (m: ReadonlyMap<string, bigint>) => boolean): Promise<Map<string, bigint>[]> {
  const params = ci.spec.params;
  const facts = [...ci.spec.spec.assumes, ...ci.impl.assumes].map((a) => formulaOf(a));
  const decl = params.map((p) => `(declare-const ${smtSymbol(p)} Int)`);
  const base = [...decl, ...facts.map((f) => `(assert ${formulaToSmt(f)})`)].join('\n');
  const out: Map<string, bigint>[] = [];
  // The least parameters first: a tuple that does not fit with the others at their least values
  // is not asked of the solver (most do not fit: the loops of a kernel grow with its sizes).
  const least = (await smallParameters(ci, 1, null))[0];
  if (least === undefined) return out;
  for (const v of BOUNDARY_VALUES) {
    for (const p of params) {
      if (!fits(new Map([...least, [p, v]]))) continue;
      const others = params.filter((q) => q !== p);
      const sum = others.length === 0 ? '0' : others.length === 1 ? smtSymbol(others[0]!) : `(+ ${others.map(smtSymbol).join(' ')})`;
      const bounds = others.map((q) => `(assert (and (<= 0 ${smtSymbol(q)}) (<= ${smtSymbol(q)} 4096)))`).join('\n');
      const r = await checkSat(`${base}\n${bounds}\n(assert (= ${smtSymbol(p)} ${v}))\n(minimize ${sum})`, { timeoutMs: 5000, model: true, remember: true });
      const m = r.status === 'sat' ? intValues(r.output, others) : null;
      if (m === null) continue;
      m.set(p, v);
      if (fits(m)) out.push(m);
    }
  }
  return out;
}

/** One concrete run of a replay: an input family and its seed (`sched run --inputs F --seed S`). */
export interface ReplayInput {
  readonly family: InputFamily;
  readonly seed: number;
}

/** The runs a verdict's replay tries: three default seeds, two of corner cases, two spread. */
export const REPLAY_INPUTS: readonly ReplayInput[] = [
  { family: 'default', seed: 0 },
  { family: 'default', seed: 1 },
  { family: 'default', seed: 2 },
  { family: 'corner', seed: 3 },
  { family: 'corner', seed: 4 },
  { family: 'spread', seed: 5 },
  { family: 'spread', seed: 6 },
];

/** The runs tried before any value query (proofs/verifier/verify.ts step 1½): one input of each family. */
export const EARLY_INPUTS: readonly ReplayInput[] = [REPLAY_INPUTS[0]!, REPLAY_INPUTS[3]!, REPLAY_INPUTS[5]!];

/** The verdict class of a run-time error kind (semantics/errors.ts). */
export const RUN_CLASS: Record<string, string> = { race: 'race', 'out-of-bounds': 'out-of-bounds', uninitialized: 'uninitialized-read', 'undefined-behaviour': 'undefined-behaviour' };

/**
 * Look for a concrete counterexample over the candidate parameters and `seeds`. Returns the
 * first run-time error or output mismatch, else the first annotation mismatch, else null.
 */
/** Budget of a replay run (annotations are checked as it runs, by the watching translation). */
const SMALL_STEPS = 300_000;

/** The limits of one replay run of replay(). */
export const SMALL_RUN = { maxCells: 1 << 20, maxSteps: SMALL_STEPS };

export async function replay(ci: CheckedImpl, candidates: readonly Map<string, bigint>[], inputs: readonly ReplayInput[], maxCells = 1 << 20): Promise<ReplayFinding | null> {
  // Kernels whose sizes the assumptions fix (N = 1024) do not fit: the spec's model alone would
  // memoise N³ points. Their value obligations stay unknown unless the solver refutes them.
  // An annotation mismatch with right outputs on one input is the weakest finding: the same
  // program may compute wrong outputs on another input, which is the class users need to see.
  // So it is kept as a fallback while the remaining runs look for an output or run-time error.
  let weakest: ReplayFinding | null = null;
  for (const params of candidates) {
    for (const input of inputs) {
      const r = replayRun(ci, params, input, { ...SMALL_RUN, maxCells });
      if (r === 'too-large') break;
      if (r === null) continue;
      if (r.class !== 'annotation-mismatch') return r;
      weakest ??= r;
    }
  }
  return weakest;
}

/**
 * One run: a finding, null (nothing wrong seen), or 'too-large' (over the budget). With `source`,
 * the inputs come from it (a solver's model over the family's values) instead of the family.
 * `conditionalStores` runs the stores that select their own cell back as `if (c) store`; annotations
 * are checked unless `checkAnnotations` is false.
 */
export function replayRun(ci: CheckedImpl, params: ReadonlyMap<string, bigint>, input: ReplayInput, budget: { maxCells: number; maxSteps: number; conditionalStores?: boolean; slice?: Slice; checkAnnotations?: boolean }, source?: InputSource): ReplayFinding | null | 'too-large' {
  let res;
  try {
    res = runImpl(ci, params, { family: input.family, seed: input.seed, inputs: source, ...budget, checkAnnotations: budget.checkAnnotations ?? true });
  } catch (e) {
    if (e instanceof SchedInputError) return 'too-large'; // arrays over the memory cap
    throw e;
  }
  const ps = Object.fromEntries([...params].map(([k, v]) => [k, v.toString()]));
  const found = { params: ps, seed: input.seed, inputs: input.family, ...(budget.slice ? { slice: sliceText(budget.slice) } : {}) };
  const rep = res.report;
  if (rep.outcome === 'error' && rep.error?.kind === 'limit') return 'too-large';
  if (rep.outcome === 'error' && rep.error) {
    return { ...found, class: RUN_CLASS[rep.error.kind] ?? rep.error.kind, line: rep.error.line, col: rep.error.col, detail: rep.error.message };
  }
  if (rep.outcome === 'mismatch') {
    const m = rep.mismatches[0]!;
    return { ...found, class: 'output-mismatch', line: 0, col: 0, array: m.array, detail: `${m.array}[${m.index.join(', ')}] = ${JSON.stringify(m.actual)}, the spec gives ${JSON.stringify(m.expected)} (${rep.mismatchCount} cell${rep.mismatchCount === 1 ? ' differs' : 's differ'})` };
  }
  // Outputs right: check every annotation against the value actually written.
  const a = res.annotations;
  if (a === null) return null;
  const outputs = budget.slice ? `in the slice ${sliceText(budget.slice)} (one iteration of the loops around it; outputs not compared)` : 'the outputs are right on every input tried';
  return { ...found, class: 'annotation-mismatch', line: a.line, col: a.col, detail: `the assignment at line ${a.line} writes ${a.written} to ${a.location} where its annotation gives ${a.annotated}${a.at ? ` (${a.at})` : ''}; ${outputs}` };
}
