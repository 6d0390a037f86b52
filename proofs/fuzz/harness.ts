// The fuzzing loop of `sched fuzz`: draw a case (random algorithm + legal schedule), compile it with
// the compiler under test, cross-check the result with the three oracles (oracles.ts), count, and
// write every disagreement (and every bug of a compiler that is supposed to be correct) as a
// replayable bundle `repro/<hash>/`, shrunk first with fast-check's shrinker.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkSource } from '../../core/language/check.ts';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import { printAlgorithmText } from '../../compilers/algorithm/algorithm.ts';
import type { BugName } from '../../compilers/reference/bugs.ts';
import { printScheduleText } from '../../compilers/algorithm/schedule.ts';
import { type Compiler, legal } from './compilers.ts';
import { buildCase, type FuzzCase, type Profile, type Recipe, recipeArb } from './gen.ts';
import { type CaseReport, crossCheck, type DisagreementKind, type Oracle, type OracleOptions } from './oracles.ts';
import { closeVerifier } from './verifier.ts';
import { thrownText } from './internal-error.ts';

export interface FuzzOptions {
  readonly iterations: number;
  /** Index of the first case: `--start 5000 --iterations 5000` is the second half of a 10,000-case run. */
  readonly start?: number;
  readonly seed: number;
  /**
   * Shard k of n (1 ≤ k ≤ n): only the cases whose index i has i mod n = k - 1. Case i is drawn
   * from (seed, i) alone, so the shards of a run are its cases, split without overlap, and their
   * logs merge into the run's summary (mergeLogs).
   */
  readonly shard?: { readonly k: number; readonly n: number };
  readonly profile: Profile;
  readonly compiler: Compiler;
  /** The bug injected into the reference compiler, if any (bugs are then expected). */
  readonly injected: BugName | null;
  readonly oracles: Omit<OracleOptions, 'seed'>;
  /** Where bundles go (`repro/`); null: write none. */
  readonly reproDir: string | null;
  readonly shrink: boolean;
  readonly shrinkBudgetMs: number;
  /** Stop at the first bug or disagreement. */
  readonly stopOnFirst: boolean;
  readonly onCase?: (r: CaseRecord, s: FuzzSummary) => void;
}

export type Outcome = CaseReport['judgement'] | 'rejected' | 'compile-failure';

export interface CaseRecord {
  readonly index: number;
  readonly seed: number;
  readonly outcome: Outcome;
  readonly detectedBy: readonly Oracle[];
  readonly disagreements: readonly DisagreementKind[];
  readonly verdict: string | null;
  /** The verifier's class and reason (why `unknown`, which invalid class), for long-run logs. */
  readonly verifyClass: string | null;
  readonly verifyReason: string | null;
  readonly verifyMs: number | null;
  /** Solver work of the verification in ms of budget (resource limits): the same in every run. */
  readonly verifyWorkMs?: number | null;
  /** Why the output was not cross-checked (compiler failure, undecided well-formedness check). */
  readonly compileError: string | null;
  readonly ms: number;
  /** Wall-clock ms by phase (compile, runs, native, explore, verify): a measurement for profiles. */
  readonly phases?: Readonly<Record<string, number>>;
  readonly bundle: string | null;
  /** Illegal draws replaced before this case (the run's `redraws` is their sum). */
  readonly redraws?: number;
  /** The jit oracle: null when it did not run; else whether the native run agreed with big-step. */
  readonly native?: { readonly compared: boolean; readonly agreed: boolean; readonly cells: number; readonly differences: number; readonly error: string | null } | null;
}

export interface FuzzSummary {
  readonly seed: number;
  readonly start: number;
  readonly profile: Profile;
  readonly compiler: string;
  readonly inject: BugName | null;
  iterations: number;
  ok: number;
  bugsFound: number;
  disagreements: number;
  unknowns: number;
  /** Cases the compiler under test declined (not counted as bugs). */
  rejected: number;
  /** Draws the reference compiler found illegal, replaced by new draws. */
  redraws: number;
  verdicts: { valid: number; invalid: number; unknown: number };
  /**
   * Native runs of the compiler's output (the jit oracle): compared with a finished big-step run,
   * how many agreed, and runs not compared because our big-step run stopped on an error.
   */
  native: { ran: number; agreed: number; notCompared: number };
  /** Verifications that exhausted the worker's memory, or its time budget. */
  verifierCrashes: number;
  verifierBudget: number;
  /** The first case where an oracle found the compiled program wrong. */
  firstDetection: { case: number; ms: number; oracles: Oracle[] } | null;
  firstDisagreement: { case: number; kinds: DisagreementKind[] } | null;
  repros: string[];
  ms: number;
  msPerCase: number;
}

/** A deterministic seed for case i of a run. */
export function caseSeed(seed: number, i: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (i + 0x85ebca6b), 0xc2b2ae35) >>> 0;
  h ^= h >>> 15;
  return Math.imul(h, 0x27d4eb2f) >>> 0;
}

/** fast-check's Random over a splitmix32 stream (its generator interface, no extra dependency). */
function mrng(seed: number): fc.Random {
  const make = (state: number): { clone(): unknown; next(): [number, unknown]; unsafeNext(): number; getState(): number[] } => {
    let s = state >>> 0;
    const self = {
      clone: () => make(s),
      next: (): [number, unknown] => {
        const c = make(s);
        const v = c.unsafeNext();
        return [v, c];
      },
      unsafeNext: (): number => {
        s = (s + 0x9e3779b9) >>> 0;
        let z = s;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
        return (z ^ (z >>> 16)) | 0;
      },
      getState: () => [s],
    };
    return self;
  };
  return new fc.Random(make(seed) as unknown as ConstructorParameters<typeof fc.Random>[0]);
}

/** Draw a legal case: redraw (up to 50 times) while the reference compiler rejects it. */
export function drawCase(arb: fc.Arbitrary<Recipe>, seed: number): { value: fc.Value<Recipe>; c: FuzzCase; redraws: number } {
  for (let k = 0; ; k++) {
    const value = arb.generate(mrng(caseSeed(seed, k)), undefined);
    const c = buildCase(value.value);
    if (legal(c) === null || k >= 50) return { value, c, redraws: k };
  }
}

export interface Evaluation {
  readonly outcome: Outcome;
  readonly text: string | null;
  /** Extra files of the compiler for a bundle (CompileResult.artifacts). */
  readonly artifacts?: Readonly<Record<string, string>>;
  readonly compileError: string | null;
  readonly report: CaseReport | null;
  /** Wall-clock ms of compiling and checking the output (a measurement for profiles). */
  readonly compileMs?: number;
}

/** Compile and cross-check one case. */
export async function evaluate(c: FuzzCase, compiler: Compiler, oracles: OracleOptions): Promise<Evaluation> {
  try {
    return await evaluateOnce(c, compiler, oracles);
  } catch (e) {
    // A throw of ours on one case (proofs/fuzz/internal-error.ts).
    return { outcome: 'disagreement', text: null, compileError: `${INTERNAL_ERROR}: ${thrownText(e)}`, report: null };
  }
}

/** How an Evaluation's compileError starts when sched itself threw while judging the case. */
export const INTERNAL_ERROR = 'sched internal error';

const internal = (ev: Evaluation): boolean => ev.compileError?.startsWith(INTERNAL_ERROR) === true;

async function evaluateOnce(c: FuzzCase, compiler: Compiler, oracles: OracleOptions): Promise<Evaluation> {
  const t0 = performance.now();
  const r = await compiler.compile(c);
  const compileMs = Math.round(performance.now() - t0);
  if (!r.ok) return { outcome: r.rejected ? 'rejected' : 'compile-failure', text: null, compileError: r.error, report: null };
  const artifacts = r.artifacts;
  let ci;
  try {
    const checked = await checkSource('case.sched', r.text);
    ci = checked.impls[0];
    if (ci === undefined) return { outcome: 'compile-failure', text: r.text, artifacts, compileError: 'no implementation in the output', report: null };
  } catch (e) {
    if (!(e instanceof SchedInputError)) throw e;
    const found = e.diagnostics.map((d) => `${d.line}:${d.col}: ${d.message}`).join('; ');
    // The output's well-formedness check itself timed out (a loaded machine): nothing is known
    // about the compiler, so the case is `unknown`, not a compiler failure.
    if (e.diagnostics.length > 0 && e.diagnostics.every((d) => d.found === 'solver answer unknown')) {
      return { outcome: 'unknown', text: r.text, artifacts, compileError: `the well-formedness check of the output was undecided: ${found}`, report: null };
    }
    return { outcome: 'compile-failure', text: r.text, artifacts, compileError: `the output is not a valid .sched file: ${found}`, report: null };
  }
  const report = await crossCheck(ci, r.text, oracles, r.native);
  return { outcome: report.judgement, text: r.text, artifacts, compileError: null, report, compileMs };
}

/** Work to the millisecond in the log (a fraction of a resource unit's worth says nothing). */
function workOf(ms: number | null | undefined): number | null {
  return ms === null || ms === undefined ? null : Math.round(ms);
}

function detected(e: Evaluation): Oracle[] {
  if (e.outcome === 'compile-failure') return ['compile'];
  return [...(e.report?.detectedBy ?? [])];
}

/**
 * Candidates a shrink tries at most: the bound that decides where it stops, so that the bundle a
 * case leaves is the same on any machine at any load. Its time budget is only a safety net.
 */
export const SHRINK_CANDIDATES = 200;

/** Shrink while `keep` still holds (fast-check's shrink trees), trying at most `maxTried` candidates. */
export async function shrink(
  arb: fc.Arbitrary<Recipe>,
  start: fc.Value<Recipe>,
  keep: (c: FuzzCase) => Promise<boolean>,
  budgetMs: number,
  maxTried = SHRINK_CANDIDATES,
): Promise<{ value: fc.Value<Recipe>; steps: number; tried: number }> {
  const t0 = performance.now();
  let cur = start;
  let steps = 0;
  let tried = 0;
  let improved = true;
  while (improved && tried < maxTried && performance.now() - t0 < budgetMs) {
    improved = false;
    for (const cand of arb.shrink(cur.value_, cur.context)) {
      if (tried >= maxTried || performance.now() - t0 >= budgetMs) break;
      const c = buildCase(cand.value_);
      if (legal(c) !== null) continue;
      tried++;
      if (await keep(c)) {
        cur = cand;
        steps++;
        improved = true;
        break;
      }
    }
  }
  return { value: cur, steps, tried };
}

export interface BundleMeta {
  readonly seed: number;
  readonly caseIndex: number;
  readonly compiler: string;
  readonly inject: BugName | null;
  readonly profile: Profile;
  readonly oracles: OracleOptions;
  readonly shrinkSteps: number;
  readonly why: string;
}

/** Write `dir/<hash>/`: the case, the program, every verdict, and how to replay it. */
export function writeBundle(dir: string, c: FuzzCase, ev: Evaluation, meta: BundleMeta): string {
  const hash = createHash('sha256').update(JSON.stringify([c, ev.text, meta.compiler])).digest('hex').slice(0, 12);
  const out = join(dir, hash);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'algorithm.json'), JSON.stringify(c.alg, null, 2) + '\n');
  writeFileSync(join(out, 'algorithm.alg'), printAlgorithmText(c.alg));
  writeFileSync(join(out, 'schedule.json'), JSON.stringify(c.sched, null, 2) + '\n');
  writeFileSync(join(out, 'schedule.txt'), printScheduleText(c.sched));
  if (ev.text) writeFileSync(join(out, 'program.sched'), ev.text);
  for (const [name, text] of Object.entries(ev.artifacts ?? {})) writeFileSync(join(out, name), text);
  const verdicts = { outcome: ev.outcome, compileError: ev.compileError, report: ev.report };
  writeFileSync(join(out, 'case.json'), JSON.stringify({ ...meta, ...verdicts }, null, 2) + '\n');
  const runParams = ev.report?.runs.map((r) => Object.entries(r.params).map(([k, v]) => `--param ${k}=${v}`).join(' ')) ?? [];
  const inject = meta.inject ? ` --inject ${meta.inject}` : '';
  writeFileSync(
    join(out, 'README.md'),
    [
      `# fuzz case ${hash}: ${meta.why}`,
      '',
      `Compiler: \`${meta.compiler}\`; fuzz seed ${meta.seed}, case ${meta.caseIndex}, profile ${meta.profile}; shrunk in ${meta.shrinkSteps} steps.`,
      `Outcome: ${ev.outcome}${ev.report ? `; verify ${ev.report.verify?.verdict ?? 'skipped'}${ev.report.verify?.class ? ` (${ev.report.verify.class})` : ''}; detected by ${ev.report.detectedBy.join(', ') || 'nothing'}; disagreements: ${ev.report.disagreements.join(', ') || 'none'}` : `; ${ev.compileError}`}.`,
      '',
      'Replay:',
      '',
      '```',
      `npx sched fuzz --replay ${out}`,
      `npx sched lower ${join(out, 'algorithm.alg')} --schedule ${join(out, 'schedule.txt')}${inject}`,
      `npx sched verify ${join(out, 'program.sched')}`,
      ...runParams.map((p) => `npx sched run ${join(out, 'program.sched')} ${p}`),
      '```',
      '',
    ].join('\n'),
  );
  return out;
}

export interface ReplayResult {
  readonly meta: BundleMeta;
  readonly evaluation: Evaluation;
}

/** Re-run a bundle's case with the compiler and oracle settings it records. */
export async function replayBundle(dir: string, compilerFor: (meta: BundleMeta) => Compiler): Promise<ReplayResult> {
  const alg = JSON.parse(readFileSync(join(dir, 'algorithm.json'), 'utf8'));
  const sched = JSON.parse(readFileSync(join(dir, 'schedule.json'), 'utf8'));
  const meta = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as BundleMeta;
  try {
    const compiler = compilerFor(meta);
    try {
      const evaluation = await evaluate({ alg, sched }, compiler, meta.oracles);
      return { meta, evaluation };
    } finally {
      compiler.close?.();
    }
  } finally {
    closeVerifier();
  }
}

/** The fuzzing loop. */
export async function fuzz(opts: FuzzOptions): Promise<FuzzSummary> {
  const t0 = performance.now();
  const arb = recipeArb(opts.profile);
  const sum: FuzzSummary = {
    seed: opts.seed,
    start: opts.start ?? 0,
    profile: opts.profile,
    compiler: opts.compiler.name,
    inject: opts.injected,
    iterations: 0,
    ok: 0,
    bugsFound: 0,
    disagreements: 0,
    unknowns: 0,
    rejected: 0,
    redraws: 0,
    verdicts: { valid: 0, invalid: 0, unknown: 0 },
    native: { ran: 0, agreed: 0, notCompared: 0 },
    verifierCrashes: 0,
    verifierBudget: 0,
    firstDetection: null,
    firstDisagreement: null,
    repros: [],
    ms: 0,
    msPerCase: 0,
  };
  const first = opts.start ?? 0;
  for (let i = first; i < first + opts.iterations; i++) {
    if (opts.shard && i % opts.shard.n !== opts.shard.k - 1) continue;
    const ts = performance.now();
    const seed = caseSeed(opts.seed, i);
    const { value, c, redraws } = drawCase(arb, seed);
    sum.redraws += redraws;
    const oracles: OracleOptions = { ...opts.oracles, seed };
    const ev = await evaluate(c, opts.compiler, oracles);
    sum.iterations++;
    const det = detected(ev);
    const v = ev.report?.verify?.verdict;
    if (v) sum.verdicts[v]++;
    const nat = ev.report?.native;
    if (nat && !nat.compared) sum.native.notCompared++;
    else if (nat) {
      sum.native.ran++;
      if (nat.error === null && nat.beyondTolerance === 0) sum.native.agreed++;
    }
    if (ev.report?.verify?.class === 'crash') sum.verifierCrashes++;
    if (ev.report?.verify?.class === 'budget') sum.verifierBudget++;
    switch (ev.outcome) {
      case 'ok':
        sum.ok++;
        break;
      case 'unknown':
        sum.unknowns++;
        break;
      case 'rejected':
        sum.rejected++;
        break;
      case 'bug':
      case 'compile-failure':
        sum.bugsFound++;
        break;
      case 'disagreement':
        sum.disagreements++;
        break;
    }
    if (det.length > 0 && sum.firstDetection === null) sum.firstDetection = { case: i, ms: Math.round(performance.now() - t0), oracles: det };
    const kinds = ev.report?.disagreements ?? [];
    if (kinds.length > 0 && sum.firstDisagreement === null) sum.firstDisagreement = { case: i, kinds: [...kinds] };
    // Bundles: every disagreement; bugs too unless they were injected on purpose.
    let bundle: string | null = null;
    const worth = ev.outcome === 'disagreement' || ((ev.outcome === 'bug' || ev.outcome === 'compile-failure') && opts.injected === null);
    if (worth && opts.reproDir !== null) {
      let final = { c, ev, steps: 0 };
      if (opts.shrink) {
        // A bug a concrete oracle saw is shrunk with the concrete oracles only (much faster); a
        // disagreement needs every oracle.
        const concrete = ev.outcome === 'bug' && det.some((o) => o === 'run' || o === 'explore');
        const keep = async (cand: FuzzCase): Promise<boolean> => {
          const e2 = await evaluate(cand, opts.compiler, concrete ? { ...oracles, noVerify: true } : oracles);
          if (internal(ev)) return internal(e2);
          if (ev.outcome === 'disagreement') return (e2.report?.disagreements ?? []).some((k) => kinds.includes(k));
          if (concrete) return (e2.report?.detectedBy ?? []).length > 0;
          return e2.outcome === ev.outcome;
        };
        const s = await shrink(arb, value, keep, opts.shrinkBudgetMs);
        if (s.steps > 0) {
          const c2 = buildCase(s.value.value_);
          final = { c: c2, ev: await evaluate(c2, opts.compiler, oracles), steps: s.steps };
        }
      }
      const why = internal(ev) ? ev.compileError! : ev.outcome === 'disagreement' ? `disagreement (${kinds.join(', ')})` : ev.outcome === 'compile-failure' ? `compiler failure: ${ev.compileError}` : `bug found by ${det.join(', ')}`;
      bundle = writeBundle(opts.reproDir, final.c, final.ev, { seed: opts.seed, caseIndex: i, compiler: opts.compiler.name, inject: opts.injected, profile: opts.profile, oracles, shrinkSteps: final.steps, why });
      sum.repros.push(bundle);
    }
    sum.ms = Math.round(performance.now() - t0);
    sum.msPerCase = Math.round(sum.ms / sum.iterations);
    opts.onCase?.({ index: i, seed, outcome: ev.outcome, detectedBy: det, disagreements: kinds, verdict: v ?? null, verifyClass: ev.report?.verify?.class ?? null, verifyReason: ev.report?.verify?.reason ?? null, verifyMs: ev.report?.verify?.ms ?? null, verifyWorkMs: workOf(ev.report?.verify?.workMs), native: nat ? { compared: nat.compared, agreed: nat.compared && nat.error === null && nat.beyondTolerance === 0, cells: nat.cells, differences: nat.differences, error: nat.error } : null, compileError: ev.compileError, ms: Math.round(performance.now() - ts), ...(ev.report?.phases ? { phases: { compile: ev.compileMs ?? 0, ...ev.report.phases } } : {}), bundle, redraws }, sum);
    if (opts.stopOnFirst && (det.length > 0 || kinds.length > 0)) break;
  }
  closeVerifier();
  opts.compiler.close?.();
  sum.ms = Math.round(performance.now() - t0);
  sum.msPerCase = sum.iterations ? Math.round(sum.ms / sum.iterations) : 0;
  return sum;
}
