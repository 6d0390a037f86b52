// A runner-only differential campaign on MLIR 16's affine passes: random static-control functions
// (mlir-gen.ts) through random pass pipelines, the source and the output run under mlir-cpu-runner
// on the same seeded inputs (compilers/mlir/runner.ts). A difference, a crash of mlir-opt, an output
// that faults or never ends is a finding: the pipeline and then the program are shrunk while the
// finding stays the same kind, and a bundle is written (the shrunk case in the corpus format, the
// original, the pass output, a report in the form an upstream bug report takes).
//
//   npx tsx proofs/fuzz/mlir-campaign.ts [--iterations K] [--seed S] [--start I] [--pipelines P]
//        [--out DIR] [--log FILE] [--shrink-budget B] [--per-signature K] [--json]
//
// The verifier oracles of `sched fuzz --compiler mlir` are added on top of this by the front end.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Comparison, compare, execute, executeBatch, type Execution, executeLike, MlirInputError, MlirRunError, type PassResult, runPasses, sameInputs } from '../../compilers/mlir/runner.ts';
import { renderCell } from '../../compilers/mlir/cells.ts';
import { mlirMissing } from '../../compilers/mlir/tools.ts';
import { caseSeed, countStmts, genPipeline, genProgram, KERNEL, type Pipeline, pipelineReassociates, pipelineText, type Program, programText, Rng, shrinkPipeline, shrinkProgram } from './mlir-gen.ts';

/** What one program under one pipeline gave. */
export type Outcome =
  | { readonly kind: 'agrees' }
  | { readonly kind: 'differs'; readonly comparison: Comparison }
  /** mlir-opt crashed on the source: a compiler bug. */
  | { readonly kind: 'crash'; readonly detail: string }
  /** The output faulted (the source did not): an out-of-bounds access or a division the pass introduced. */
  | { readonly kind: 'runtime'; readonly detail: string }
  /** mlir-opt or the output ran past the CPU limit (the source did not). */
  | { readonly kind: 'limit'; readonly detail: string }
  /** Not findings: a pass that reported an error, an output the runner cannot lower (DMA ops). */
  | { readonly kind: 'pass-failed' | 'lowering'; readonly detail: string }
  /** The generator produced a source mlir-opt or the runner rejects: a bug of the generator. */
  | { readonly kind: 'bad-source'; readonly detail: string };

export const FINDINGS: ReadonlySet<Outcome['kind']> = new Set(['differs', 'crash', 'runtime', 'limit']);

export interface CaseRun {
  readonly outcome: Outcome;
  readonly pass: PassResult | null;
  readonly before: Execution | null;
  readonly after: Execution | null;
  /** With CampaignOptions.locations: the source and the output printed with locations, as `sched mlir` reads them. */
  readonly modules?: { readonly source: string; readonly target: string };
}

export interface CampaignOptions {
  readonly limitMs?: number;
  /**
   * Print the source and the pass output with locations naming this file (CaseRun.modules): the
   * very modules prepareMlir makes for the verifier, so that a fuzz case runs mlir-opt on them once.
   */
  readonly locations?: string;
}

function failure(e: unknown, stage: 'pass' | 'source' | 'target'): Outcome {
  if (!(e instanceof MlirInputError) && !(e instanceof MlirRunError) && e instanceof Error) return { kind: 'bad-source', detail: e.message };
  const first = (m: string): string => m.split('\n').slice(0, 3).join(' | ');
  if (e instanceof MlirInputError) return stage === 'pass' ? { kind: 'bad-source', detail: first(e.message) } : { kind: 'bad-source', detail: `${stage}: ${first(e.message)}` };
  if (e instanceof MlirRunError) {
    if (stage === 'source') return { kind: 'bad-source', detail: `${e.kind}: ${first(e.message)}` };
    if (e.kind === 'crash') return { kind: 'crash', detail: first(e.message) };
    if (e.kind === 'runtime') return { kind: 'runtime', detail: first(e.message) };
    if (e.kind === 'limit') return { kind: 'limit', detail: first(e.message) };
    if (e.kind === 'pass-failed') return { kind: 'pass-failed', detail: first(e.message) };
    if (e.kind === 'lowering') return { kind: 'lowering', detail: first(e.message) };
  }
  throw e;
}

/** Run PIPELINE on the program's text and both under mlir-cpu-runner (BEFORE: the source's run, if known). */
export function runCase(text: string, pipeline: Pipeline, program: Program, seed: number, o: CampaignOptions = {}, known?: Execution): CaseRun {
  const specs = program.param ? [...programArgs(program)] : programArgs(program);
  const printing = o.locations !== undefined ? { debugInfo: true, fileName: o.locations } : {};
  let before = known ?? null;
  let source: string | null = null;
  if (!before || o.locations !== undefined) {
    try {
      // With locations, the module read once serves the run (in generic form) and the verifier.
      if (o.locations !== undefined) source = runPasses(text, [], { limitMs: o.limitMs, ...printing }).output;
      before ??= source !== null ? execute(source, KERNEL, specs, seed, { limitMs: o.limitMs, generic: true }) : execute(text, KERNEL, specs, seed, { limitMs: o.limitMs });
    } catch (e) {
      return { outcome: failure(e, 'source'), pass: null, before: null, after: null };
    }
  }
  let pass: PassResult;
  try {
    pass = runPasses(text, pipelineText(pipeline), { limitMs: o.limitMs, ...printing });
  } catch (e) {
    return { outcome: failure(e, 'pass'), pass: null, before, after: null };
  }
  const modules = source !== null ? { modules: { source, target: pass.output } } : {};
  let after: Execution;
  try {
    after = executeLike(before, pass.output, specs, { limitMs: o.limitMs });
  } catch (e) {
    return { outcome: failure(e, 'target'), pass, before, after: null, ...modules };
  }
  const comparison = compare(before, after);
  return { outcome: comparison.equal ? { kind: 'agrees' } : { kind: 'differs', comparison }, pass, before, after, ...modules };
}

/**
 * Run PIPELINE on ITEMS as one module (kernels @fuzz_0, @fuzz_1, …: the passes work function by
 * function) and both sides of every item in one batch each. Whatever fails as a batch is run item
 * by item (runCase), so each item gets the outcome it has alone. A run's pass output is the batch's.
 */
export function runCases(items: readonly { readonly program: Program; readonly seed: number }[], pipeline: Pipeline, o: CampaignOptions = {}, known?: readonly (Execution | Error)[]): CaseRun[] {
  if (items.length === 1 && !known) return [runCase(programText(items[0]!.program), pipeline, items[0]!.program, items[0]!.seed, o)];
  const alone = (k: number, before?: Execution): CaseRun => runCase(programText(items[k]!.program), pipeline, items[k]!.program, items[k]!.seed, o, before ? rename(before) : undefined);
  const module = items.map((it, k) => programText(it.program, `${KERNEL}_${k}`)).join('\n');
  const calls = items.map((it, k) => ({ kernel: `${KERNEL}_${k}`, specs: programArgs(it.program), seed: it.seed }));
  let befores: readonly (Execution | Error)[];
  try {
    befores = known ?? sourceRuns(items, o);
  } catch {
    return items.map((_, k) => alone(k));
  }
  const sourceFailed = (k: number): CaseRun => ({ outcome: failure(befores[k], 'source'), pass: null, before: null, after: null });
  let pass: PassResult;
  try {
    pass = runPasses(module, pipelineText(pipeline), { limitMs: o.limitMs });
  } catch {
    return items.map((_, k) => (befores[k] instanceof Error ? sourceFailed(k) : alone(k, befores[k] as Execution)));
  }
  const ok = befores.flatMap((x, k) => (x instanceof Error ? [] : [{ x, k }]));
  let res: (Execution | Error)[];
  try {
    res = executeBatch(pass.output, ok.map(({ x, k }) => sameInputs(rename(x, calls[k]!.kernel), calls[k]!.specs)), { limitMs: o.limitMs, generic: true });
  } catch {
    return items.map((_, k) => (befores[k] instanceof Error ? sourceFailed(k) : alone(k, befores[k] as Execution)));
  }
  const out = items.map((_, k): CaseRun | null => (befores[k] instanceof Error ? sourceFailed(k) : null));
  ok.forEach(({ x, k }, j) => {
    const after = res[j]!;
    // A batch's output failed to lower or run: alone, the item says whether it is its own fault.
    if (after instanceof Error) out[k] = alone(k, x);
    else {
      const comparison = compare(rename(x, calls[k]!.kernel), after);
      out[k] = { outcome: comparison.equal ? { kind: 'agrees' } : { kind: 'differs', comparison }, pass, before: x, after };
    }
  });
  return out as CaseRun[];
}

/** The sources of ITEMS run as kernels @fuzz_0, @fuzz_1, … of one module (what runCases compares with). */
export function sourceRuns(items: readonly { readonly program: Program; readonly seed: number }[], o: CampaignOptions = {}): (Execution | Error)[] {
  const module = items.map((it, k) => programText(it.program, `${KERNEL}_${k}`)).join('\n');
  return executeBatch(module, items.map((it, k) => ({ kernel: `${KERNEL}_${k}`, specs: programArgs(it.program), seed: it.seed })), { limitMs: o.limitMs });
}

/** An execution of one kernel as that of another of the same signature (@fuzz_k of a batch as @fuzz alone, and back). */
function rename(e: Execution, name = KERNEL): Execution {
  return { ...e, kernel: name, signature: { ...e.signature, name } };
}

/** The runner's argument specs of a generated program: the parameter's value; arrays are static, the scalar seeded. */
export function programArgs(p: Program): (bigint | undefined)[] {
  const n = p.arrays.filter((a) => !a.local).length;
  const out: (bigint | undefined)[] = Array.from({ length: n }, () => undefined);
  if (p.param) out.push(BigInt(p.param.value));
  if (p.scalar) out.push(undefined);
  return out;
}

/** The case in the corpus format (docs/mlir.md § Corpus files). */
export function caseFile(p: Program, pipeline: Pipeline, seed: number, outcome: Outcome['kind'], note: string[] = [], expect?: string): string {
  const head = [`// KERNEL: @${KERNEL}`];
  if (p.param) head.push(`// SIZES: ${p.param.name}=${p.param.value}`);
  head.push(`// SEED: ${seed}`, `// PIPELINE fuzz: ${pipelineText(pipeline)}`);
  // The verdict expected: `expect` when the verifier's is known (a race the runner cannot show).
  head.push(`// EXPECT fuzz: ${expect ?? (outcome === 'agrees' ? 'valid' : outcome === 'differs' ? 'invalid output-mismatch' : `unknown ${outcome}`)}`);
  head.push(`// RUNNER fuzz: ${outcome === 'agrees' ? 'agrees' : 'differs'}`);
  return `${[...head, ...note.map((l) => `// ${l}`)].join('\n')}\n${programText(p)}`;
}

/** Shrinking candidates run together. */
export const SHRINK_CHUNK = 8;

export interface Shrunk {
  readonly program: Program;
  readonly pipeline: Pipeline;
  readonly runs: number;
  readonly run: CaseRun;
}

/** Greedy shrinking of the pipeline, then the program, while the outcome keeps its kind. */
export function shrink(program: Program, pipeline: Pipeline, seed: number, kind: Outcome['kind'], budget: number, o: CampaignOptions = {}): Shrunk {
  let runs = 0;
  let best = { program, pipeline, run: runCase(programText(program), pipeline, program, seed, o) };
  const keeps = (p: Program, pl: Pipeline): CaseRun | null => {
    runs++;
    const r = runCase(programText(p), pl, p, seed, o);
    return r.outcome.kind === kind ? r : null;
  };
  let progress = true;
  while (progress && runs < budget) {
    progress = false;
    for (const pl of shrinkPipeline(best.pipeline)) {
      if (runs >= budget) break;
      const r = keeps(best.program, pl);
      if (r) {
        best = { ...best, pipeline: pl, run: r };
        progress = true;
        break;
      }
    }
    if (progress) continue;
    // Program candidates share the pipeline: tried CHUNK at a time in one batch, the first that keeps the kind wins.
    const text = programText(best.program);
    const cands = [...shrinkProgram(best.program)].filter((p) => programText(p) !== text);
    for (let c0 = 0; c0 < cands.length && runs < budget; c0 += SHRINK_CHUNK) {
      const chunk = cands.slice(c0, c0 + SHRINK_CHUNK);
      runs += chunk.length;
      const rs = kind === 'differs' ? runCases(chunk.map((p) => ({ program: p, seed })), best.pipeline, o) : chunk.map((p) => runCase(programText(p), best.pipeline, p, seed, o));
      const hit = rs.findIndex((r) => r.outcome.kind === kind);
      if (hit >= 0) {
        // Again alone: the bundle's pass output and report are the shrunk program's own.
        const r = runCase(programText(chunk[hit]!), best.pipeline, chunk[hit]!, seed, o);
        if (r.outcome.kind === kind) {
          best = { ...best, program: chunk[hit]!, run: r };
          progress = true;
          break;
        }
      }
    }
  }
  return { ...best, runs };
}

/** A finding in the form of an upstream report: input, command, expected and actual output. */
export function report(s: Shrunk, seed: number): string {
  const o = s.run.outcome;
  const lines = [
    `### ${o.kind === 'differs' ? 'Miscompilation' : o.kind === 'crash' ? 'Crash' : o.kind === 'runtime' ? 'The output faults' : 'The output runs past its limit'} by \`${s.pipeline.map((p) => p.name).join(', ')}\` (MLIR 16)`,
    '',
    'Input (`case.mlir`):',
    '',
    '```mlir',
    programText(s.program).trimEnd(),
    '```',
    '',
    'Command:',
    '',
    '```sh',
    `mlir-opt-16 case.mlir ${pipelineText(s.pipeline)}`,
    '```',
    '',
  ];
  if (o.kind === 'differs' && s.run.before && s.run.after) {
    lines.push(`Both run under mlir-cpu-runner on the same inputs (seed ${seed}; the harness of compilers/mlir/harness.ts):`, '');
    for (const d of o.comparison.differences.slice(0, 8)) lines.push(`- ${d.text}`);
    if (o.comparison.differences.length > 8) lines.push(`- … ${o.comparison.differences.length - 8} more of ${o.comparison.cells} cells`);
    lines.push('', 'Inputs:', '');
    for (const m of s.run.before.memrefs) lines.push(`- argument ${m.arg} (${m.type}): ${m.initial.map((c) => renderCell(m.elem, c).replace(/ \(0x[0-9a-f]+\)/, '')).join(', ')}`);
    s.run.before.inputs.forEach((v, k) => {
      if (v.kind === 'scalar') lines.push(`- argument ${k} (${s.run.before!.signature.args[k]!.text}): ${renderCell(s.run.before!.signature.args[k]!.elem, v.cell).replace(/ \(0x[0-9a-f]+\)/, '')}`);
    });
  } else if ('detail' in o) lines.push('Result:', '', '```', o.detail, '```');
  if (s.run.pass) lines.push('', 'Output of the pipeline:', '', '```mlir', s.run.pass.output.trimEnd(), '```');
  return `${lines.join('\n')}\n`;
}

export interface CaseLog {
  readonly case: number;
  readonly seed: number;
  readonly pipeline: string;
  readonly outcome: Outcome['kind'];
  readonly stmts: number;
  readonly ms: number;
  readonly finding?: string;
}

export interface Summary {
  readonly cases: number;
  /** Findings by signature (the kind and the passes of the shrunk pipeline), instances included. */
  readonly signatures: Readonly<Record<string, number>>;
  readonly programs: number;
  readonly byOutcome: Readonly<Record<string, number>>;
  readonly findings: readonly { readonly dir: string; readonly kind: string; readonly passes: string; readonly shrinkRuns: number }[];
  readonly ms: number;
}

export interface Campaign extends CampaignOptions {
  readonly seed: number;
  readonly start?: number;
  /** Programs generated (in batches of BATCH). */
  readonly iterations: number;
  /** Pipelines tried on each batch of programs (the sources run once). */
  readonly pipelines?: number;
  /** Fixed pipelines instead of random ones. */
  readonly pipelineList?: readonly Pipeline[];
  readonly out?: string;
  readonly log?: string;
  readonly shrinkBudget?: number;
  /** Findings shrunk per signature (passes of the shrunk pipeline and kind); later ones are logged only. */
  readonly perSignature?: number;
  readonly onCase?: (c: CaseLog) => void;
}

/** A finding's signature: its kind and the passes of its (shrunk) pipeline. */
export function signatureOf(kind: Outcome['kind'], pipeline: Pipeline): string {
  return `${kind}:${[...new Set(pipeline.map((p) => p.name))].sort().join('+')}`;
}

/**
 * The signature already seen that a finding is another instance of: its passes are among the
 * finding's, and the finding keeps its kind with those passes alone (one run). Undefined if none.
 */
export function knownSignature(signatures: Iterable<string>, program: Program, pipeline: Pipeline, seed: number, kind: Outcome['kind'], o: CampaignOptions = {}): string | undefined {
  const passes = new Set(pipeline.map((p) => p.name));
  for (const sig of signatures) {
    const [k, names] = [sig.slice(0, sig.indexOf(':')), sig.slice(sig.indexOf(':') + 1).split('+')];
    if (k !== kind || !names.every((n) => passes.has(n))) continue;
    const only = pipeline.filter((p) => names.includes(p.name));
    if (runCase(programText(program), only, program, seed, o).outcome.kind === kind) return sig;
  }
  return undefined;
}

/** Programs per batch: their sources run in one process, and under each pipeline their outputs in one more. */
export const BATCH = 12;

export function campaign(c: Campaign): Summary {
  const t0 = performance.now();
  const byOutcome: Record<string, number> = {};
  const findings: { dir: string; kind: string; passes: string; shrinkRuns: number }[] = [];
  const signatures = new Map<string, number>();
  let cases = 0;
  const start = c.start ?? 0;
  const end = start + c.iterations;
  for (let b0 = start; b0 < end; b0 += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, end - b0) }, (_, k) => b0 + k);
    const seeds = ids.map((i) => caseSeed(c.seed, i));
    const programs = seeds.map((s) => genProgram(new Rng(s)));
    // The batch's pipelines come from its first case's seed: the same campaign draws the same.
    const prng = new Rng(caseSeed(c.seed ^ 0x5bd1e995, b0));
    const pipelines = c.pipelineList ?? Array.from({ length: c.pipelines ?? 3 }, () => genPipeline(prng, 'i32'));
    let sources: (Execution | Error)[] | undefined;
    try {
      sources = sourceRuns(programs.map((program, k) => ({ program, seed: seeds[k]! })), c);
    } catch {
      sources = undefined; // every program alone, in runCases
    }
    for (const [pk, batchPipeline] of pipelines.entries()) {
      const t = performance.now();
      // A float program never sees a pipeline that reassociates its reductions.
      const members = programs.flatMap((program, k) => (program.elem === 'f64' && pipelineReassociates(batchPipeline) ? [] : [k]));
      const runs = runCases(members.map((k) => ({ program: programs[k]!, seed: seeds[k]! })), batchPipeline, c, sources ? members.map((k) => sources![k]!) : undefined);
      const ms = (performance.now() - t) / Math.max(1, members.length);
      members.forEach((k, m) => {
        const program = programs[k]!;
        const i = ids[k]!;
        const seed = seeds[k]!;
        const pipeline = batchPipeline;
        const outcome = runs[m]!.outcome;
        cases++;
        byOutcome[outcome.kind] = (byOutcome[outcome.kind] ?? 0) + 1;
        let finding: string | undefined;
        if (FINDINGS.has(outcome.kind) && c.out) {
          // A finding whose passes include those of a signature already seen is first tried with only
          // those passes (one run): if it keeps its kind it is logged as another instance, not shrunk.
          const repeat = knownSignature(signatures.keys(), program, pipeline, seed, outcome.kind, c);
          if (repeat) {
            signatures.set(repeat, signatures.get(repeat)! + 1);
            finding = `another instance of ${repeat}`;
          } else {
            // Shrink the pipeline first (cheap); the program only for the first findings of a signature.
            const quick = shrink(program, pipeline, seed, outcome.kind, 40, c);
            const sig = signatureOf(outcome.kind, quick.pipeline);
            const seen = signatures.get(sig) ?? 0;
            signatures.set(sig, seen + 1);
            const shrunk = seen < (c.perSignature ?? 2) ? shrink(quick.program, quick.pipeline, seed, outcome.kind, c.shrinkBudget ?? 150, c) : quick;
            const dir = join(c.out, `finding-${i}-${pk}`);
            mkdirSync(dir, { recursive: true });
            writeFileSync(join(dir, 'case.mlir'), caseFile(shrunk.program, shrunk.pipeline, seed, shrunk.run.outcome.kind, [`Found by proofs/fuzz/mlir-campaign.ts (campaign seed ${c.seed}, case ${i}, pipeline ${pk}); signature ${sig}.`]));
            writeFileSync(join(dir, 'original.mlir'), caseFile(program, pipeline, seed, outcome.kind));
            if (shrunk.run.pass) writeFileSync(join(dir, 'output.mlir'), shrunk.run.pass.output);
            writeFileSync(join(dir, 'report.md'), report(shrunk, seed));
            findings.push({ dir, kind: outcome.kind, passes: sig, shrinkRuns: quick.runs + (shrunk === quick ? 0 : shrunk.runs) });
            finding = dir;
          }
        }
        const entry: CaseLog = { case: i, seed, pipeline: pipelineText(pipeline), outcome: outcome.kind, stmts: countStmts(program), ms: Math.round(ms), ...(finding ? { finding } : {}) };
        if (c.log) appendFileSync(c.log, `${JSON.stringify(entry)}\n`);
        c.onCase?.(entry);
      });
    }
  }
  return { cases, programs: c.iterations, byOutcome, findings, signatures: Object.fromEntries(signatures), ms: performance.now() - t0 };
}

function main(argv: string[]): number {
  const num = (name: string, d: number): number => {
    const k = argv.indexOf(`--${name}`);
    if (k < 0) return d;
    const v = Number(argv[k + 1]);
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} needs a natural number`);
    return v;
  };
  const str = (name: string): string | undefined => {
    const k = argv.indexOf(`--${name}`);
    return k < 0 ? undefined : argv[k + 1];
  };
  const missing = mlirMissing();
  if (missing !== null) {
    process.stderr.write(`${missing}\n`);
    return 2;
  }
  const json = argv.includes('--json');
  const out = str('out') ?? 'fuzz-mlir';
  mkdirSync(out, { recursive: true });
  const s = campaign({
    seed: num('seed', 1),
    start: num('start', 0),
    iterations: num('iterations', 20),
    pipelines: num('pipelines', 3),
    out,
    log: str('log') ?? join(out, 'cases.jsonl'),
    shrinkBudget: num('shrink-budget', 150),
    perSignature: num('per-signature', 2),
    onCase: json || !process.stdout.isTTY ? undefined : (c) => process.stdout.write(`case ${c.case} ${c.outcome}${c.finding ? ` -> ${c.finding}` : ''} (${c.ms} ms)\n`),
  });
  if (json) process.stdout.write(`${JSON.stringify(s, null, 1)}\n`);
  else process.stdout.write(`${s.cases} cases on ${s.programs} programs in ${Math.round(s.ms / 1000)} s: ${Object.entries(s.byOutcome).map(([k, v]) => `${v} ${k}`).join(', ')}; ${s.findings.length} shrunk findings\n${s.findings.map((f) => `  ${f.dir}: ${f.passes} (shrunk in ${f.shrinkRuns} runs)`).join('\n')}\n${Object.entries(s.signatures).map(([k, v]) => `  ${k}: ${v} instances`).join('\n')}\n`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
