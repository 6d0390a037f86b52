// `sched verify FILE…`: prophetic + symbolic evaluation, obligations discharged by Z3, a verdict
// per implementation (docs/commands.md).

import { type Diagnostic, diag, SchedInputError, formatDiagnostic } from '../../core/language/diagnostics.ts';
import { FLOAT_MODES, type FloatMode } from '../../proofs/verifier/smt-values.ts';
import { verdictAt, verifyImpl, type VerifyOptions, type VerifyResult } from '../../proofs/verifier/verify.ts';
import { replayCommand, type ReplaySource } from '../replay-command.ts';
import { expandFiles, intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_INPUT, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { displayName, loadChecked, loadProgram, noImplError } from '../../core/language/load.ts';
import { errorDocument, SPEC_OPTION, toJson } from '../io.ts';
import { Progress } from '../progress.ts';
import { FORMATS, type Format, junit, type ReportItem, sarif } from '../report.ts';
import { didYouMean } from '../suggest.ts';
import { isAbsolute, relative } from 'node:path';
import { bundleDir, writeBundle } from '../../proofs/certificates/certificates.ts';
import { eliminationLog } from '../../core/presburger/elimlog.ts';
import { startFromScratch } from '../../proofs/verifier/fresh-state.ts';
import { type RemoteResult, VerifyPool } from '../../proofs/batch/parallel.ts';
import { DEFAULT_TIMEOUT_MS, setSolverJobs, solverJobs } from '../../smt/z3.ts';
import { budgetRecord } from '../../smt/identity.ts';
import { budgetOption, budgetOptions } from '../budget.ts';
import type { CheckedImpl, CheckedProgram } from '../../core/language/typecheck.ts';

/** `--jobs N`: how many processes work at once (default: SCHED_JOBS or the cores). */
export const JOBS_OPTION = { name: 'jobs', value: true, metavar: 'N', help: 'work on N implementations (or, for one, N solver queries) at once; default SCHED_JOBS or the number of cores. Verdicts, output order and certificate bundles do not depend on N' } as const;

export function jobsOption(args: ParsedArgs): number {
  return intOption(args, 'jobs', solverJobs(), 1);
}

/** A path as the manifest records it: relative to the working directory when inside it. */
function relativeName(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** Integer values as JSON numbers where they are exact (others stay strings: 2^64 - 1, `(fp …)`). */
export function jsonValues(values: Record<string, string>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : v]));
}

/** The one-line summary of a run over several implementations (as alive-tv prints one). */
export function summaryLine(results: readonly { verdict: string }[], inputErrors: number, ms: number): string {
  const n = (v: string): number => results.filter((r) => r.verdict === v).length;
  return `Summary: ${results.length} implementation${results.length === 1 ? '' : 's'}: ${n('valid')} valid, ${n('invalid')} invalid, ${n('unknown')} unknown; ${inputErrors} input error${inputErrors === 1 ? '' : 's'} · ${(ms / 1000).toFixed(1)} s`;
}

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'Prove that each implementation implements its spec (prophetic + symbolic evaluation, Z3).',
  usage: 'sched verify FILE|DIR|-… [--impl NAME] [--spec FILE] [--certs DIR] [--budget B | --timeout-ms T] [--float ieee|real|uf] [--jobs N] [--log] [--format text|json|sarif|junit]',
  options: [
    { name: 'impl', value: true, metavar: 'NAME', help: 'verify only this implementation' },
    SPEC_OPTION,
    ...budgetOptions(DEFAULT_TIMEOUT_MS),
    { name: 'float', value: true, metavar: 'MODE', help: 'float encoding: ieee (default: exact, exp/log/pow uninterpreted), uf (every operation uninterpreted), real (fast-math: floats as reals, not sound for IEEE programs)' },
    { name: 'certs', value: true, metavar: 'DIR', help: "write a certificate bundle per implementation under DIR (DIR/<file's path>/<impl>/; see sched recheck)" },
    JOBS_OPTION,
    { name: 'log', value: false, help: 'print the symbolic evaluation (=> context changes, <= results), as thesis Fig. 5.5' },
    { name: 'format', value: true, metavar: 'F', help: 'text (default), json, sarif (SARIF 2.1.0 for code scanning) or junit (JUnit XML for CI test reports)' },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const files = expandFiles(args.positional);
    if (files.length === 0) throw new UsageError('no .sched files given');
    return verifyFiles(args, files);
  },
};

/**
 * Verify the implementations of `files` with verify's options in `args` and print the verdicts as
 * `sched verify` does (also for `sched halide`, whose JSON adds `extraJson`); the exit code.
 */
/** `adjust` rewrites each result before it is reported (a front end that knows more than the
 *  .sched it verified: proofs/validate/halide-guarded.ts). */
/** `options`: what a front end knows about verifying its output (`sched halide`: no runs first). */
export async function verifyFiles(args: ParsedArgs, files: readonly string[], extraJson: Record<string, unknown> = {}, adjust: (r: VerifyResult, ci: CheckedImpl) => VerifyResult | Promise<VerifyResult> = (r) => r, options: Pick<VerifyOptions, 'runsFirst'> = {}): Promise<number> {
  const format = formatOption(args);
  const text = format === 'text';
  const float = (single(args, 'float') ?? 'ieee') as FloatMode;
  if (!FLOAT_MODES.includes(float)) throw new UsageError(`--float must be one of ${FLOAT_MODES.join(', ')}, got '${float}'`);
  const timeoutMs = budgetOption(args, DEFAULT_TIMEOUT_MS);
  const only = single(args, 'impl');
  const certs = single(args, 'certs');
  const t0 = performance.now();
  const results: (VerifyResult & { file: string; source: ReplaySource; where: { line: number; col: number } })[] = [];
  const spec = single(args, 'spec');
  const inputErrors: Diagnostic[] = [];
  let matched = false;
  // Counted up front (parsing is cheap) for the progress line.
  const total = countImpls(files, only);
  const progress = new Progress(total, !text);
  const jobs = jobsOption(args);
  // Several implementations: one worker thread each, up to N at once (proofs/batch/parallel.ts);
  // one: its obligations to N solver processes. --log prints as the evaluation goes: in order.
  const pool = jobs > 1 && total > 1 && !files.includes('-') && spec !== '-' && !args.flags.has('log') ? new VerifyPool(Math.min(jobs, total)) : null;
  if (pool === null) setSolverJobs(jobs);
  type Step = { readonly error: SchedInputError } | { readonly path: string; readonly file: string; readonly checked: CheckedProgram & { text: string }; readonly ci: CheckedImpl; readonly remote: Promise<RemoteResult> | null };
  // The files in order, loaded as they are reached; with a pool, every implementation is
  // submitted as soon as its file is loaded, and the results are read back in this order.
  async function* steps(): AsyncGenerator<Step> {
    for (const path of files) {
      const file = displayName(path);
      let checked;
      try {
        checked = await loadChecked(path, single(args, 'spec'));
      } catch (e) {
        if (!(e instanceof SchedInputError)) throw e;
        yield { error: e };
        continue;
      }
      // A file named (or standard input) must hold something to verify; files of specs alone
      // found under a directory are libraries of specs (for --spec), not inputs.
      if (checked.impls.length === 0 && (path === '-' || args.positional.includes(path))) {
        yield { error: noImplError(file, checked.program.specs.length, 'verify') };
        continue;
      }
      for (const ci of checked.impls) {
        if (only !== undefined && ci.impl.name !== only) continue;
        const bundle = certs === undefined ? undefined : { dir: bundleDir(certs, path, ci.impl.name), input: path === '-' ? '-' : relativeName(path) };
        const remote = pool && pool.verify({ path, name: file, spec: single(args, 'spec'), impl: ci.impl.name, float, timeoutMs, bundle, ...options });
        // Read in order, so one failing early must not be reported as unhandled meanwhile.
        remote?.catch(() => undefined);
        yield { path, file, checked, ci, remote };
      }
    }
  }
  let all: AsyncIterable<Step> | Step[] = steps();
  if (pool) {
    const list: Step[] = [];
    for await (const st of all) list.push(st);
    all = list;
  }
  try {
    for await (const step of all) {
      if ('error' in step) {
        inputErrors.push(...step.error.diagnostics);
        for (const d of step.error.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
        continue;
      }
      const { path, file, checked, ci } = step;
      matched = true;
      progress.start(`${file}: ${ci.impl.name}`);
      const log = args.flags.has('log') && text ? (depth: number, line: string) => process.stdout.write(`${'  '.repeat(depth)}// ${line}\n`) : undefined;
      let r: VerifyResult;
      if (step.remote) r = await step.remote;
      else {
        // A bundle holds exactly this verification's eliminations, byte-identically.
        if (certs !== undefined) startFromScratch();
        r = await verifyImpl(ci, { float, timeoutMs, log, ...options });
      }
      r = await adjust(r, ci);
      progress.step();
      const source: ReplaySource = spec === undefined ? { file: path } : { file: path, spec };
      results.push({ ...r, file, source, where: verdictAt(r, ci) });
      if (certs !== undefined) {
        const dir = bundleDir(certs, path, ci.impl.name);
        if (!step.remote) writeBundle(dir, { name: path === '-' ? '-' : relativeName(path), text: checked.text }, r, eliminationLog(), budgetRecord(timeoutMs));
        if (text) process.stdout.write(`  certificates: ${dir}\n`);
      }
      if (text) printResult(file, source, r, verdictAt(r, ci));
    }
  } finally {
    await pool?.close();
  }
  progress.end();
  if (only !== undefined && !matched && inputErrors.length === 0) {
    const names = files.flatMap((f) => { try { return loadProgram(f).impls.map((i) => i.name); } catch { return []; } });
    throw new UsageError(`no implementation named '${only}'${didYouMean(only, names)}`);
  }
  // Files of specs alone under a directory are skipped; if that is all there was, there was nothing to verify.
  if (!matched && inputErrors.length === 0) throw new SchedInputError([diag(files[0]!, { line: 1, col: 1 }, 'io', `no impl to verify in the ${files.length} file${files.length === 1 ? '' : 's'} given`, 'an impl block (and its spec, here or with --spec)', 'specs only')]);
  const ms = performance.now() - t0;
  if (format === 'json') {
    const out = results.map((r) => ({
      file: r.file, impl: r.impl, spec: r.spec, verdict: r.verdict, class: r.class, reason: r.reason, line: r.where.line, col: r.where.col,
      assumptions: r.assumptions, counterexample: r.counterexample ? { ...r.counterexample, values: jsonValues(r.counterexample.values) } : null,
      replay: r.replay ? { ...r.replay, command: replayCommand(r.source, r.impl, r.replay) } : null, vcs: r.vcs, ms: Math.round(r.ms), float: r.float,
      timings: Object.fromEntries(Object.entries(r.timings).map(([k, v]) => [k, Math.round(v)])),
      ...(r.qualifier ? { qualifier: r.qualifier } : {}),
      ...(r.netStops ? { netStops: r.netStops } : {}),
    }));
    process.stdout.write(toJson({ results: out, summary: summaryLine(results, inputErrors.length, ms), budget: budgetRecord(timeoutMs), ...extraJson, ...(inputErrors.length > 0 ? errorDocument(inputErrors) : { diagnostics: [] }) }) + '\n');
  } else if (format === 'sarif' || format === 'junit') {
    const items: ReportItem[] = [
      ...results.map((r) => ({ file: r.file, impl: r.impl, verdict: r.verdict, class: r.class, message: r.verdict === 'valid' ? `valid${r.qualifier ? ` ${r.qualifier}` : ''}${r.assumptions ? ` for ${r.assumptions}` : ''}` : r.reason ?? '', line: r.where.line, col: r.where.col, ms: r.ms, asExpected: null, replay: r.replay ? replayCommand(r.source, r.impl, r.replay) : null })),
      ...inputErrors.map((d) => ({ file: d.file, impl: '(input)', verdict: 'input error', class: d.phase, message: d.message, line: d.line, col: d.col, ms: 0, asExpected: null, replay: null })),
    ];
    process.stdout.write((format === 'sarif' ? sarif(items) : junit(items)) + '\n');
  } else if (results.length + inputErrors.length > 1) {
    process.stdout.write(`${summaryLine(results, inputErrors.length, ms)}\n`);
  }
  if (inputErrors.length > 0) return EXIT_INPUT;
  if (results.some((r) => r.verdict === 'invalid')) return EXIT_FOUND;
  if (results.some((r) => r.verdict === 'unknown')) return EXIT_UNKNOWN;
  return EXIT_OK;
}


/** `--format`, with `--json` as `--format json`. */
export function formatOption(args: ParsedArgs): Format {
  const f = single(args, 'format') ?? (args.flags.has('json') ? 'json' : 'text');
  if (!(FORMATS as readonly string[]).includes(f)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got '${f}'${didYouMean(f, FORMATS)}`);
  if (args.flags.has('json') && f !== 'json') throw new UsageError(`--json and --format ${f} disagree`);
  return f as Format;
}

/** Implementations the files hold (unparsable files count for none): the progress total. */
function countImpls(files: readonly string[], only: string | undefined): number {
  let n = 0;
  for (const f of files) {
    if (f === '-') return 1;
    try {
      n += loadProgram(f).impls.filter((i) => only === undefined || i.name === only).length;
    } catch {
      // reported when the file is verified
    }
  }
  return n;
}

/** One verdict on the terminal: the verdict line, the reason, the counterexample, its replay. */
function printResult(file: string, source: ReplaySource, r: VerifyResult, where: { line: number; col: number }): void {
  let line = `${file}: ${r.impl}: ${r.verdict}`;
  if (r.qualifier) line += ` ${r.qualifier}`;
  if (r.class) line += ` (${r.class})`;
  if (r.assumptions && r.verdict !== 'invalid') line += ` for ${r.assumptions}`;
  line += ` — ${r.vcs} obligation${r.vcs === 1 ? '' : 's'}, ${r.ms.toFixed(0)} ms, float ${r.float}`;
  process.stdout.write(line + '\n');
  if (r.verdict !== 'valid' && r.reason) process.stdout.write(`  ${file}:${where.line}:${where.col}: ${r.reason}\n`);
  if (r.counterexample) {
    const vs = Object.entries(r.counterexample.values).map(([k, v]) => `${k} = ${v}`).join(', ');
    if (vs) process.stdout.write(`  counterexample: ${vs}\n`);
  }
  if (r.replay) {
    if (r.replay.shows && !r.reason?.includes(r.replay.shows.replace(/^[a-z-]+: /, ''))) process.stdout.write(`  the run shows: ${r.replay.shows}\n`);
    process.stdout.write(`  replay: ${replayCommand(source, r.impl, r.replay)}\n`);
  } else if (r.verdict === 'invalid' && r.counterexample?.obligation === 'I-ASSUME') process.stdout.write('  (no parameter value satisfies the assumptions: there is nothing to run)\n');
  else if (r.verdict === 'invalid' && (r.counterexample?.line ?? 0) > 0) process.stdout.write('  (the refutation is exact; no run small enough to reproduce it was found)\n');
}
