// `sched fuzz --compiler mlir`: real MLIR 16 as the compiler under test. Each case is a random
// static-control affine function and a random pass pipeline (proofs/fuzz/mlir-gen.ts); the four
// oracles run on it:
//
//   runner    both modules under mlir-cpu-runner on the same inputs (compilers/mlir/runner.ts);
//   verifier  `sched mlir`'s validation: the translation verified (proofs/validate/mlir.ts);
//   big-step  the spec model and the big-step run of the implementation on the runner's inputs,
//             against the real runs of the source and the target (is each translation the
//             program's meaning?);
//   replay    every invalid verdict's counterexample run again under mlir-cpu-runner.
//
// A *bug* is MLIR's: the runner shows source and target differ (or the output crashes, faults or
// never ends) and the verifier does not say valid. A *disagreement* is ours: a valid verdict where
// the runner shows a difference, an output mismatch the real execution does not show at the
// counterexample, a translation whose run differs from the program's real run. Bugs are shrunk by
// the runner alone (mlir-campaign.ts); disagreements by all the oracles; both are written as
// bundles (case.mlir in the corpus format, the translation, a report).

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { seededInputs } from '../../semantics/model.ts';
import { MlirRunError } from '../../compilers/mlir/runner.ts';
import { caseFile, FINDINGS, knownSignature, report, runCase, shrink as shrinkByRunner, signatureOf } from './mlir-campaign.ts';
import { caseSeed, countStmts, genPipeline, genProgram, type Pipeline, pipelineText, type Program, programText, Rng, shrinkPipeline, shrinkProgram } from './mlir-gen.ts';
import { CPU_GUARD_FACTOR, CPU_GUARD_FLOOR_MS, FUZZ_PRUNE_MS } from './budgets.ts';
import { executionOracle, inputsOfRun, type OracleReport, type TranslationVerifier, validateMlir } from '../validate/mlir.ts';
import { closeVerifier, verifyInWorker } from './verifier.ts';
import type { VerifyResult } from '../verifier/verify.ts';
import { thrownText } from './internal-error.ts';

export type MlirOutcome = 'ok' | 'bug' | 'disagreement' | 'unknown' | 'rejected';

export interface MlirCase {
  readonly index: number;
  readonly seed: number;
  readonly pipeline: string;
  readonly stmts: number;
  readonly outcome: MlirOutcome;
  /** What the runner saw: agrees, differs, crash, runtime, limit, pass-failed, lowering, bad-source. */
  readonly runner: string;
  /** The verifier's verdict (`valid`, `invalid <class>`, `unknown <class>`), or null when not run. */
  readonly verdict: string | null;
  readonly disagreement: string | null;
  readonly detail: string | null;
  readonly bundle: string | null;
  readonly ms: number;
  /** The verifier's solver work in ms of budget (Z3 resource units; in the worker under resource limits), else absent. */
  readonly verifyWorkMs?: number;
  /** The budget of the case's verification (MlirFuzzOptions.verifyBudgetMs), absent when verified in process. */
  readonly verifyBudgetMs?: number;
  /** Where the case's wall-clock time went, in ms (a measurement for profiles, never part of a result). */
  readonly phases?: Readonly<Record<string, number>>;
}

export interface MlirFuzzOptions {
  readonly seed: number;
  readonly start: number;
  readonly iterations: number;
  readonly shard?: { readonly k: number; readonly n: number };
  readonly timeoutMs: number;
  readonly limitMs?: number;
  readonly verify: boolean;
  /**
   * Budget of each case's verification, in a worker process (proofs/fuzz/verifier.ts): under
   * resource limits, its solver work in Z3 resource units (as ms of solver budget), and, as a
   * runaway guard, the CPU time of the worker and its solvers (CPU_GUARD_FACTOR times it). A case
   * past it is `unknown (budget)`. Undefined: verified in this process without a budget.
   */
  readonly verifyBudgetMs?: number;
  readonly repro: string | null;
  readonly shrink: boolean;
  readonly onCase?: (c: MlirCase) => void;
}

export interface MlirFuzzSummary {
  readonly iterations: number;
  readonly byOutcome: Readonly<Record<MlirOutcome, number>>;
  readonly verdicts: Readonly<Record<string, number>>;
  readonly runner: Readonly<Record<string, number>>;
  readonly bundles: readonly string[];
  readonly ms: number;
}

interface Judged {
  readonly outcome: MlirOutcome;
  readonly runner: string;
  readonly verdict: string | null;
  readonly disagreement: string | null;
  readonly detail: string | null;
  readonly sched: string | null;
  /**
   * For a bug the verifier found: the counterexample's parameters, whether mlir-cpu-runner showed
   * source and target differ there (a race or a read of memory never written may not show in the
   * outputs), and the cells that differ.
   */
  readonly confirmation?: { readonly params: Readonly<Record<string, string>>; readonly replay: string; readonly confirmed: boolean; readonly shows: readonly string[] };
  /** Wall-clock ms by phase (runner, mlir-opt, translate, verify of which smt, oracle): a measurement. */
  readonly phases?: Readonly<Record<string, number>>;
  /** The verifier's solver work in ms of budget, when it was counted (in the worker). */
  readonly workMs?: number;
}

/** Heap of the verifier worker (MB): at least what `sched` itself gets (cli/sched.js), where these cases were verified before they had a budget. */
const MLIR_HEAP_MB = 4096;

/** The verifier of a case in the worker, against `budgetMs`; `seen` gets the work it reported. */
function workerVerifier(timeoutMs: number, budgetMs: number, seen: (workMs: number | null, cpuMs: number | undefined) => void): TranslationVerifier {
  return async (text, file, impl) => {
    const w = await verifyInWorker(text, timeoutMs, { budgetMs, heapMb: MLIR_HEAP_MB, cpuBudgetMs: Math.max(budgetMs * CPU_GUARD_FACTOR, CPU_GUARD_FLOOR_MS), countSolvers: true, pruneMs: FUZZ_PRUNE_MS, file, impl, full: true });
    seen(w.workMs, w.cpuMs);
    if (w.full !== undefined) return w.full;
    // Over its budget, or the worker died: no verdict, an honest unknown of the worker's class.
    const none: VerifyResult = { impl, spec: file.replace(/\.sched$/, ''), verdict: 'unknown', class: w.class, reason: w.reason, counterexample: null, replay: null, vcs: 0, ms: w.ms, float: 'ieee', assumptions: null, outcomes: [], timings: { symbolic: 0, presburger: 0, smt: 0, replay: 0 } };
    return w.verdict === 'unknown' ? none : { ...none, verdict: 'unknown', class: 'crash', reason: 'the verifier worker gave a verdict without its result' };
  };
}

/** The name a case's module goes by in locations and diagnostics. */
const CASE_FILE = 'case.mlir';

function differs(a: OracleReport['source']): boolean {
  return a !== null && a.differences > 0;
}

function firstDiff(a: NonNullable<OracleReport['source']>): string {
  const x = a.examples[0];
  return x ? `${x.array}[${x.index.join(', ')}]: ${x.expected} vs ${x.actual}` : '';
}

/** One program under one pipeline through every oracle; `validate` is the front end (a test's stand-in may replace it). */
export async function judgeCase(program: Program, pipeline: Pipeline, seed: number, o: Pick<MlirFuzzOptions, 'timeoutMs' | 'limitMs' | 'verify' | 'verifyBudgetMs'>, validate: typeof validateMlir = validateMlir): Promise<Judged> {
  const ph: Record<string, number> = {};
  let workMs: number | null = null;
  const verifier = o.verifyBudgetMs === undefined ? undefined : workerVerifier(o.timeoutMs, o.verifyBudgetMs, (w, cpu) => {
    workMs = w;
    // The CPU time of the worker and its solvers, as the runaway guard counts it (a measurement).
    if (cpu !== undefined) ph.verifyCpu = cpu;
  });
  let j: Judged;
  try {
    j = await judgeTimed(program, pipeline, seed, o, ph, verifier, validate);
  } catch (e) {
    // A throw of ours on one case (proofs/fuzz/internal-error.ts), shrunk and bundled like any
    // disagreement (case 532 of seed 0 once ended shard 5).
    j = { outcome: 'disagreement', runner: 'not-judged', verdict: null, disagreement: 'sched-internal-error', detail: thrownText(e), sched: null };
  }
  return { ...j, phases: Object.fromEntries(Object.entries(ph).map(([k, v]) => [k, Math.round(v)])), ...(workMs !== null ? { workMs: Math.round(workMs) } : {}) };
}

async function judgeTimed(program: Program, pipeline: Pipeline, seed: number, o: Pick<MlirFuzzOptions, 'timeoutMs' | 'limitMs' | 'verify'>, ph: Record<string, number>, verifier: TranslationVerifier | undefined, validate: typeof validateMlir): Promise<Judged> {
  const text = programText(program);
  let t = performance.now();
  // Printed with locations: the verifier translates the very modules that ran (no second mlir-opt).
  const run = runCase(text, pipeline, program, seed, { locations: CASE_FILE, ...(o.limitMs !== undefined ? { limitMs: o.limitMs } : {}) });
  ph.runner = performance.now() - t;
  for (const e of [run.before, run.after]) if (e) for (const [k, v] of Object.entries(e.ms)) ph[`runner.${k}`] = (ph[`runner.${k}`] ?? 0) + v;
  if (run.pass) ph['runner.passes'] = run.pass.ms;
  const kind = run.outcome.kind;
  const runnerDetail = 'detail' in run.outcome ? run.outcome.detail : null;
  if (kind === 'bad-source') return { outcome: 'rejected', runner: kind, verdict: null, disagreement: null, detail: `the generator's program: ${runnerDetail}`, sched: null };
  if (kind === 'pass-failed' || kind === 'lowering') return { outcome: 'rejected', runner: kind, verdict: null, disagreement: null, detail: runnerDetail, sched: null };
  if (kind === 'crash' || kind === 'limit') return { outcome: 'bug', runner: kind, verdict: null, disagreement: null, detail: runnerDetail, sched: null };
  if (!o.verify) return { outcome: FINDINGS.has(kind) ? 'bug' : 'ok', runner: kind, verdict: null, disagreement: null, detail: runnerDetail, sched: null };
  let v;
  try {
    v = await validate({ source: text, passes: pipelineText(pipeline), ...(run.modules ? { modules: run.modules } : {}), sourceFile: CASE_FILE, verify: { timeoutMs: o.timeoutMs, pruneMs: FUZZ_PRUNE_MS }, ...(verifier ? { verifier } : {}), ...(o.limitMs !== undefined ? { limitMs: o.limitMs } : {}), ...(program.param ? { params: new Map([[program.param.name, BigInt(program.param.value)]]) } : {}) });
  } catch (e) {
    if (e instanceof SchedInputError || e instanceof MlirRunError) return { outcome: 'rejected', runner: kind, verdict: null, disagreement: null, detail: e.message.split('\n')[0]!, sched: null };
    throw e;
  }
  ph.validate = performance.now() - t - ph.runner;
  if (v.prepared) Object.assign(ph, v.prepared.ms);
  if (v.result) {
    ph.verify = v.result.ms;
    ph.smt = v.result.timings.smt;
    ph.symbolic = v.result.timings.symbolic;
    ph.presburger = v.result.timings.presburger;
  }
  t = performance.now();
  const bugByRunner = FINDINGS.has(kind);
  if (v.unsupported !== null) return { outcome: bugByRunner ? 'bug' : 'unknown', runner: kind, verdict: 'unknown unsupported', disagreement: null, detail: v.unsupported, sched: null };
  const r = v.result!;
  const tr = v.prepared!.translation;
  const verdict = r.verdict === 'valid' ? 'valid' : `${r.verdict} ${r.class ?? ''}`.trim();
  const judged = (outcome: MlirOutcome, disagreement: string | null, detail: string | null): Judged => ({ outcome, runner: kind, verdict, disagreement, detail, sched: tr.text });
  // The translations against the real runs, on the runner's own case (the program's parameter).
  const ci = v.checked!;
  const params = new Map(tr.source.params.map((p) => [p.name, BigInt(program.param && p.name === program.param.name ? program.param.value : 6)] as const));
  // On the very runs the runner oracle made (their inputs, their outputs): no second run.
  const rep = run.before && run.after ? executionOracle(tr, ci, v.prepared!.modules, params, inputsOfRun(tr, run.before), { source: run.before, target: run.after }) : executionOracle(tr, ci, v.prepared!.modules, params, seededInputs(seed));
  ph.oracle = performance.now() - t;
  if (rep.skipped === null) {
    if (differs(rep.source)) return judged('disagreement', 'spec-vs-source-run', `the spec model and mlir-cpu-runner on the source differ: ${firstDiff(rep.source!)}`);
    const bigstepRan = rep.bigstep === 'match' || rep.bigstep === 'mismatch';
    if (bigstepRan && differs(rep.target)) return judged('disagreement', 'translation-vs-target-run', `the big-step run of the translation and mlir-cpu-runner on the target differ: ${firstDiff(rep.target!)}`);
    if (r.verdict === 'valid' && differs(rep.compiler)) return judged('disagreement', 'valid-but-runner-differs', `valid, but mlir-cpu-runner shows source and target differ: ${firstDiff(rep.compiler!)}`);
  }
  if (r.verdict === 'valid' && kind === 'differs') return judged('disagreement', 'valid-but-runner-differs', 'valid, but mlir-cpu-runner shows source and target differ on the campaign inputs');
  if (r.verdict === 'valid' && (kind === 'runtime')) return judged('disagreement', 'valid-but-target-faults', `valid, but the target faults under mlir-cpu-runner: ${runnerDetail}`);
  if (r.verdict === 'invalid') {
    const c = v.confirmation;
    const confirmed = c !== null && c.skipped === null && differs(c.compiler);
    if (r.class === 'output-mismatch' && c !== null && c.skipped === null && !confirmed) {
      return judged('disagreement', 'invalid-not-confirmed', `an output mismatch of the translation that mlir-cpu-runner does not show at the counterexample: ${r.reason ?? ''}`);
    }
    const shows = confirmed ? c!.compiler!.examples.map((x) => `${x.array}[${x.index.join(', ')}]: source ${x.expected}, target ${x.actual}`) : [];
    return { ...judged('bug', null, r.reason), ...(r.replay ? { confirmation: { params: r.replay.params, replay: r.replay.shows, confirmed, shows } } : {}) };
  }
  if (bugByRunner) return judged('bug', null, `mlir-cpu-runner: ${kind}${runnerDetail ? `: ${runnerDetail}` : ''}; verdict ${verdict}`);
  return judged(r.verdict === 'valid' ? 'ok' : 'unknown', null, r.verdict === 'valid' ? null : r.reason);
}

/** Shrink a case, pipeline first, then program, while `keep` holds of its judgement. */
async function shrinkWhile(program: Program, pipeline: Pipeline, seed: number, o: MlirFuzzOptions, keep: (j: Judged) => boolean, budget = 30): Promise<{ program: Program; pipeline: Pipeline; judged: Judged }> {
  let best = { program, pipeline, judged: await judgeCase(program, pipeline, seed, o) };
  let runs = 0;
  let progress = true;
  while (progress && runs < budget) {
    progress = false;
    const tries: [Program, Pipeline][] = [...[...shrinkPipeline(best.pipeline)].map((pl): [Program, Pipeline] => [best.program, pl]), ...[...shrinkProgram(best.program)].map((p): [Program, Pipeline] => [p, best.pipeline])];
    for (const [p, pl] of tries) {
      if (runs++ >= budget) break;
      const j = await judgeCase(p, pl, seed, o);
      if (keep(j)) {
        best = { program: p, pipeline: pl, judged: j };
        progress = true;
        break;
      }
    }
  }
  return best;
}

/** A bug the verifier found, in the form of an upstream report. */
function verifierReport(p: Program, pipeline: Pipeline, j: Judged, cf: NonNullable<Judged['confirmation']>): string {
  const sizes = Object.entries(cf.params).map(([k, v]) => `${k} = ${v}`).join(', ') || 'these sizes';
  return [
    `### Miscompilation by \`${pipeline.map((x) => x.name).join(', ')}\` (MLIR 16)`,
    '',
    'Input (`case.mlir`):',
    '',
    '```mlir',
    programText(p).trimEnd(),
    '```',
    '',
    'Command:',
    '',
    '```sh',
    `mlir-opt-16 case.mlir ${pipelineText(pipeline)}`,
    '```',
    '',
    ...(cf.confirmed
      ? [`With ${sizes}, both run under mlir-cpu-runner on the same inputs; the outputs differ (expected: the source's, actual: the output's):`, '', ...cf.shows.map((x) => `- ${x}`), '']
      : [`With ${sizes}, both run under mlir-cpu-runner on the same inputs give the same outputs: the fault is not observable there (a race, or a read of memory never written, need not change them).`, '']),
    `Found by sched's verifier: ${j.verdict}; its run of the translation shows ${cf.replay}.`,
    '',
  ].join('\n');
}

function bundle(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

export async function mlirFuzz(o: MlirFuzzOptions): Promise<MlirFuzzSummary> {
  const t0 = performance.now();
  const byOutcome: Record<MlirOutcome, number> = { ok: 0, bug: 0, disagreement: 0, unknown: 0, rejected: 0 };
  const verdicts: Record<string, number> = {};
  const runner: Record<string, number> = {};
  const bundles: string[] = [];
  /** Signatures of the runner's findings shrunk so far, with their cases (the first was shrunk). */
  const signatures = new Map<string, number[]>();
  let n = 0;
  try {
    for (let i = o.start; i < o.start + o.iterations; i++) {
      if (o.shard && i % o.shard.n !== o.shard.k - 1) continue;
      const t = performance.now();
      const seed = caseSeed(o.seed, i);
      const rng = new Rng(seed);
      const program = genProgram(rng);
      const pipeline = genPipeline(rng, program.elem);
      const j = await judgeCase(program, pipeline, seed, o);
      let dir: string | null = null;
      if (o.repro !== null && (j.outcome === 'bug' || j.outcome === 'disagreement')) {
        const d = join(o.repro, `mlir-${o.seed}-${i}`);
        if (j.outcome === 'disagreement') {
          const s = o.shrink ? await shrinkWhile(program, pipeline, seed, o, (x) => x.disagreement === j.disagreement) : { program, pipeline, judged: j };
          dir = bundle(d, {
            'case.mlir': caseFile(s.program, s.pipeline, seed, 'agrees', [`sched fuzz --compiler mlir (seed ${o.seed}, case ${i}): DISAGREEMENT ${s.judged.disagreement}: ${s.judged.detail ?? ''}`]),
            'original.mlir': caseFile(program, pipeline, seed, 'agrees'),
            ...(s.judged.sched ? { 'translation.sched': s.judged.sched } : {}),
          });
        } else if (!FINDINGS.has(j.runner as Parameters<typeof shrinkByRunner>[3]) && j.confirmation) {
          // MLIR's bug the verifier found (the runner agrees on the campaign's inputs, differs at the
          // counterexample): shrunk by all the oracles, reported at the counterexample's parameters.
          const s = o.shrink ? await shrinkWhile(program, pipeline, seed, o, (x) => x.outcome === 'bug' && x.confirmation !== undefined) : { program, pipeline, judged: j };
          const cf = s.judged.confirmation ?? j.confirmation;
          const at = s.program.param && cf.params[s.program.param.name] !== undefined ? { ...s.program, param: { ...s.program.param, value: Number(cf.params[s.program.param.name]) } } : s.program;
          const runner = cf.confirmed ? 'differs' : 'agrees';
          const seen = cf.confirmed ? 'mlir-cpu-runner differs at the counterexample' : 'mlir-cpu-runner agrees at the counterexample (the fault is not observable in the outputs)';
          const expect = s.judged.verdict ?? undefined;
          dir = bundle(d, {
            'case.mlir': caseFile(at, s.pipeline, seed, runner, [`sched fuzz --compiler mlir (seed ${o.seed}, case ${i}): found by the verifier (${s.judged.verdict}); ${seen} ${JSON.stringify(cf.params)}`], expect),
            'original.mlir': caseFile(program, pipeline, seed, runner, [], expect),
            'report.md': verifierReport(at, s.pipeline, s.judged, cf),
            ...(s.judged.sched ? { 'translation.sched': s.judged.sched } : {}),
          });
        } else {
          // MLIR's bug: shrunk by the runner alone when the runner shows it, as upstream reports it;
          // only the first finding of a signature (kind and passes) in this run is shrunk, a later
          // one that keeps its kind with those passes alone is another instance (as the campaign does).
          const kind = j.runner as Parameters<typeof shrinkByRunner>[3];
          const ro = o.limitMs !== undefined ? { limitMs: o.limitMs } : {};
          const repeat = o.shrink && FINDINGS.has(kind) ? knownSignature(signatures.keys(), program, pipeline, seed, kind, ro) : undefined;
          const s = o.shrink && FINDINGS.has(kind) && repeat === undefined ? shrinkByRunner(program, pipeline, seed, kind, 150, ro) : null;
          const sig = repeat ?? (s ? signatureOf(kind, s.pipeline) : null);
          if (sig !== null) signatures.set(sig, [...(signatures.get(sig) ?? []), i]);
          const note = repeat !== undefined ? `; another instance of ${repeat}, shrunk at case ${signatures.get(repeat)![0]}` : sig !== null ? `; signature ${sig}` : '';
          dir = bundle(d, {
            'case.mlir': caseFile(s?.program ?? program, s?.pipeline ?? pipeline, seed, FINDINGS.has(kind) ? kind : 'differs', [`sched fuzz --compiler mlir (seed ${o.seed}, case ${i}): verdict ${j.verdict ?? 'not run'}; runner ${j.runner}${note}`]),
            'original.mlir': caseFile(program, pipeline, seed, FINDINGS.has(kind) ? kind : 'differs'),
            ...(s ? { 'report.md': report(s, seed) } : {}),
            ...(j.sched ? { 'translation.sched': j.sched } : {}),
          });
        }
        bundles.push(dir);
      }
      n++;
      byOutcome[j.outcome]++;
      if (j.verdict !== null) verdicts[j.verdict] = (verdicts[j.verdict] ?? 0) + 1;
      runner[j.runner] = (runner[j.runner] ?? 0) + 1;
      o.onCase?.({ index: i, seed, pipeline: pipelineText(pipeline), stmts: countStmts(program), outcome: j.outcome, runner: j.runner, verdict: j.verdict, disagreement: j.disagreement, detail: j.detail, bundle: dir, ms: Math.round(performance.now() - t), ...(j.workMs !== undefined ? { verifyWorkMs: j.workMs } : {}), ...(o.verifyBudgetMs !== undefined && o.verify ? { verifyBudgetMs: o.verifyBudgetMs } : {}), ...(j.phases ? { phases: j.phases } : {}) });
    }
  } finally {
    closeVerifier();
  }
  return { iterations: n, byOutcome, verdicts, runner, bundles, ms: performance.now() - t0 };
}

/** Merge the --log files of the shards of one run into its summary. */
export function mergeMlirLogs(lines: readonly MlirCase[]): MlirFuzzSummary {
  const byOutcome: Record<MlirOutcome, number> = { ok: 0, bug: 0, disagreement: 0, unknown: 0, rejected: 0 };
  const verdicts: Record<string, number> = {};
  const runner: Record<string, number> = {};
  const seen = new Set<number>();
  let ms = 0;
  // Another budget is another run: a case over one budget may be decided under the other.
  const budgets = new Set(lines.map((c) => c.verifyBudgetMs ?? null));
  if (budgets.size > 1) throw new Error(`the logs are of runs with different --verify-budget-ms (${[...budgets].map((b) => b ?? 'none').join(', ')}): merge the shards of one run`);
  for (const c of lines) {
    if (seen.has(c.index)) continue;
    seen.add(c.index);
    byOutcome[c.outcome]++;
    if (c.verdict !== null) verdicts[c.verdict] = (verdicts[c.verdict] ?? 0) + 1;
    runner[c.runner] = (runner[c.runner] ?? 0) + 1;
    ms += c.ms;
  }
  return { iterations: seen.size, byOutcome, verdicts, runner, bundles: lines.flatMap((c) => (c.bundle ? [c.bundle] : [])), ms };
}

export function appendCase(log: string, c: MlirCase): void {
  appendFileSync(log, `${JSON.stringify(c)}\n`);
}
