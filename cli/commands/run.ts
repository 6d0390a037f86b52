// `sched run FILE --param N=4 … [--impl NAME] [--seed S]`: big-step execution on seeded random
// inputs, compared with the spec evaluated on the same inputs (SCHED-LANGUAGE.md §2). Also the
// helpers `step` and `explore` share: parameters, loading and selecting implementations.

import { writeFileSync } from 'node:fs';
import { diag, formatDiagnostic, SchedInputError } from '../../core/diagnostics.ts';
import { type CheckedImpl, type CheckedProgram, typecheckProgram } from '../../core/typecheck.ts';
import { formatRunError } from '../../semantics/errors.ts';
import { checkParams, runImpl, type RunReport, specModel } from '../../semantics/run.ts';
import type { SpecModel } from '../../semantics/model.ts';
import { expandFiles, type OptionSpec, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { loadProgram, toJson } from '../io.ts';

// ---------------------------------------------------------------------------------------------
// Shared by run, step and explore

export const PARAM_OPTION: OptionSpec = { name: 'param', value: true, repeat: true, metavar: 'NAME=VALUE', help: 'value of a spec parameter (repeat for each; all are required)' };
export const IMPL_OPTION: OptionSpec = { name: 'impl', value: true, metavar: 'NAME', help: 'run only this implementation (default: every impl of the file)' };
export const SEED_OPTION: OptionSpec = { name: 'seed', value: true, metavar: 'S', help: 'seed of the input generator (an integer; default 0): input tensors are a pure function of (seed, tensor, point), and each input array cell holds the value of its declared expression' };

/** `--param N=4 --param M=3` as exact integers; malformed ones are usage errors (exit 3). */
export function paramsOption(args: ParsedArgs): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const p of args.values.get('param') ?? []) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(-?\d+)$/.exec(p.trim());
    if (!m) throw new UsageError(`--param needs NAME=INTEGER, got '${p}'`);
    if (out.has(m[1]!)) throw new UsageError(`--param ${m[1]} given twice`);
    out.set(m[1]!, BigInt(m[2]!));
  }
  return out;
}

export function seedOption(args: ParsedArgs): bigint {
  const s = single(args, 'seed');
  if (s === undefined) return 0n;
  if (!/^-?\d+$/.test(s.trim())) throw new UsageError(`--seed needs an integer, got '${s}'`);
  return BigInt(s.trim());
}

export function numberOption(args: ParsedArgs, name: string, min: number): number | undefined {
  const s = single(args, name);
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} needs a number ≥ ${min}, got '${s}'`);
  return n;
}

/** The seed as it appears in JSON: a number when safe. */
export function seedJson(seed: bigint): number | string {
  return seed >= BigInt(Number.MIN_SAFE_INTEGER) && seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : seed.toString();
}

export interface Loaded {
  readonly file: string;
  readonly checked: CheckedProgram;
  readonly impls: readonly CheckedImpl[];
}

/** Parse and type-check every file; select implementations (`--impl`). */
export function loadImpls(args: ParsedArgs, command: string): Loaded[] {
  const files = expandFiles(args.positional);
  if (files.length === 0) throw new UsageError(`no .sched file given (usage: sched ${command} FILE --param N=…)`);
  const want = single(args, 'impl');
  const out: Loaded[] = [];
  for (const file of files) {
    const prog = loadProgram(file);
    const checked = typecheckProgram(prog);
    const impls = want === undefined ? checked.impls : checked.impls.filter((i) => i.impl.name === want);
    out.push({ file, checked, impls });
  }
  if (want !== undefined && out.every((l) => l.impls.length === 0)) {
    const names = out.flatMap((l) => l.checked.impls.map((i) => i.impl.name));
    throw new SchedInputError([diag(files[0]!, { line: 1, col: 1 }, 'io', `no impl named '${want}'`, names.length ? `one of ${names.join(', ')}` : 'a file with an impl', `'${want}'`)]);
  }
  if (out.every((l) => l.impls.length === 0)) throw new SchedInputError([diag(files[0]!, { line: 1, col: 1 }, 'io', 'no impl to run in this file', 'an impl block', 'none')]);
  return out;
}

/** `--json` for run/step/explore: one document, the object for one impl, a list for several. */
export function jsonOption(what: string): OptionSpec {
  return { ...JSON_OPTION, help: `print one JSON document on stdout, nothing else: the ${what} object of one impl, or {"results": [...]} for several impls or files` };
}

/** One JSON document: the object itself for one result, `{ "results": [...] }` for several. */
export function emitJson(results: readonly object[]): void {
  process.stdout.write(toJson(results.length === 1 ? results[0] : { results }) + '\n');
}

/** Models shared by the implementations of one spec in one file (same parameters and seed). */
export class ModelCache {
  private readonly models = new Map<string, SpecModel>();
  get(file: string, ci: CheckedImpl, params: ReadonlyMap<string, bigint>, seed: bigint): SpecModel {
    const key = `${file}\u0000${ci.spec.spec.name}`;
    let m = this.models.get(key);
    if (m === undefined) {
      m = specModel(ci, checkParams(ci.spec, params, file), { seed, file });
      this.models.set(key, m);
    }
    return m;
  }
}

function showParams(p: Record<string, number | string>): string {
  const s = Object.entries(p)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');
  return s ? `${s}, ` : '';
}

// ---------------------------------------------------------------------------------------------
// run

function printReport(file: string, r: RunReport): void {
  const head = `${file}: impl ${r.impl} (${showParams(r.params)}seed ${r.seed})${r.omega ? ' [ω]' : ''}`;
  const stats = `${r.writes} writes, ${r.reads} reads, ${r.ms} ms`;
  if (r.outcome === 'error' && r.error) {
    process.stdout.write(`${head}: error (${r.error.kind}) — ${stats}\n`);
    process.stdout.write(`  ${formatRunError(file, r.error)}\n`);
    if (r.error.iterations) process.stdout.write(`  par ${r.error.iterations.loop} (line ${r.error.iterations.line}): iterations ${r.error.iterations.first} and ${r.error.iterations.second}\n`);
  } else if (r.outcome === 'mismatch') {
    process.stdout.write(`${head}: mismatch — ${r.mismatchCount} of ${r.checked} output cells differ from the spec${r.comparison.startsWith('exact') ? '' : ` (${r.comparison})`}; ${stats}\n`);
    for (const m of r.mismatches) process.stdout.write(`  ${m.array}[${m.index.join(', ')}]: expected ${m.expected}, got ${m.actual === null ? '⊥ (never written)' : m.actual}\n`);
    if (r.mismatchCount > r.mismatches.length) process.stdout.write(`  … and ${r.mismatchCount - r.mismatches.length} more\n`);
  } else {
    process.stdout.write(`${head}: match — ${r.checked} output cells equal the spec${r.comparison.startsWith('exact') ? '' : ` (${r.comparison})`}; ${stats}\n`);
  }
  if (r.unconstrained.count > 0) {
    const ex = r.unconstrained.examples.slice(0, 3).map((u) => `${u.tensor}(${u.point})`).join(', ');
    process.stdout.write(`  note: ${r.unconstrained.count} spec point(s) read outside every equation's domain (${ex}${r.unconstrained.count > 3 ? ', …' : ''}); their value is unconstrained and was chosen from the seed, so this verdict holds for one model only\n`);
  }
}

export function exitFor(outcomes: readonly ('ok' | 'found' | 'limit')[]): number {
  if (outcomes.includes('limit')) return EXIT_UNKNOWN;
  if (outcomes.includes('found')) return EXIT_FOUND;
  return EXIT_OK;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Big-step execution on seeded random inputs, compared with the spec evaluated on the same inputs.',
  usage: 'sched run FILE --param NAME=VALUE… [--impl NAME] [--seed S] [--omega] [--tolerance R] [--json]',
  options: [
    PARAM_OPTION,
    IMPL_OPTION,
    SEED_OPTION,
    { name: 'omega', value: false, help: "the write-set variant of U-PARLOOP (thesis §4.2): every value written to a location by distinct iterations must agree, not only the last ones" },
    { name: 'tolerance', value: true, metavar: 'R', help: 'compare float outputs with relative tolerance R (default: exact, IEEE bit equality with NaN equal to NaN and +0 different from -0); outputs are compared on their box ∩ where' },
    { name: 'max-steps', value: true, metavar: 'K', help: 'give up (exit 2) after K loop iterations plus assignments (default 4e9)' },
    { name: 'max-cells', value: true, metavar: 'K', help: 'largest total number of array cells (default 33554432)' },
    { name: 'derivation', value: true, metavar: 'FILE', help: 'write the big-step derivation tree (rules, environments, δμ, ρ) as JSON to FILE (one impl only)' },
    jsonOption('run'),
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const params = paramsOption(args);
    const seed = seedOption(args);
    const tolerance = numberOption(args, 'tolerance', 0);
    const maxSteps = numberOption(args, 'max-steps', 1);
    const maxCells = numberOption(args, 'max-cells', 1);
    const derivFile = single(args, 'derivation');
    const loaded = loadImpls(args, 'run');
    if (derivFile !== undefined && loaded.reduce((n, l) => n + l.impls.length, 0) !== 1) throw new UsageError('--derivation needs exactly one impl (use --impl NAME)');
    const models = new ModelCache();
    const reports: RunReport[] = [];
    const outcomes: ('ok' | 'found' | 'limit')[] = [];
    for (const l of loaded) {
      for (const ci of l.impls) {
        const model = models.get(l.file, ci, params, seed);
        const r = runImpl(ci, params, { seed, model, file: l.file, omega: args.flags.has('omega'), tolerance, maxSteps, maxCells, derivation: derivFile !== undefined });
        reports.push(r.report);
        outcomes.push(r.report.outcome === 'match' ? 'ok' : r.report.error?.kind === 'limit' ? 'limit' : 'found');
        if (derivFile !== undefined) {
          if (r.derivation === null) process.stderr.write(`sched run: no derivation to write: ${r.report.outcome === 'error' ? 'the run has no big-step semantics' : 'none recorded'}\n`);
          else writeFileSync(derivFile, toJson({ impl: ci.impl.name, params: r.report.params, seed: r.report.seed, ...r.derivation }) + '\n');
        }
        if (!json) printReport(l.file, r.report);
      }
    }
    if (json) emitJson(reports);
    return exitFor(outcomes);
  },
};

export { formatDiagnostic };
