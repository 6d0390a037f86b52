// `sched run FILE --param N=4 … [--impl NAME] [--seed S]`: big-step execution on seeded random
// inputs, compared with the spec evaluated on the same inputs (docs/commands.md). Also the
// helpers `step` and `explore` share: parameters, loading and selecting implementations.

import { writeFileSync } from 'node:fs';
import { diag, formatDiagnostic, SchedInputError } from '../../core/language/diagnostics.ts';
import { type CheckedImpl, type CheckedProgram, typecheckProgram } from '../../core/language/typecheck.ts';
import { formatRunError, type RunError, runError } from '../../semantics/errors.ts';
import { familyInputs, INPUT_FAMILIES, type InputFamily, type InputOverride, parseOverride, parseOverrideValue, withOverrides } from '../../semantics/inputs.ts';
import { checkInterface } from '../../proofs/verifier/interface.ts';
import { didYouMean } from '../suggest.ts';
import { checkParams, runImpl, type RunReport, type RunResult, specModel } from '../../semantics/run.ts';
import { parseSlice, SliceError } from '../../semantics/slice.ts';
import type { SpecModel } from '../../semantics/model.ts';
import { expandFiles, type OptionSpec, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { displayName, loadProgram } from '../../core/language/load.ts';
import { SPEC_OPTION, toJson } from '../io.ts';

// ---------------------------------------------------------------------------------------------
// Shared by run, step and explore

export const PARAM_OPTION: OptionSpec = { name: 'param', value: true, repeat: true, metavar: 'NAME=VALUE', help: 'value of a spec parameter (repeat for each; all are required)' };
export const IMPL_OPTION: OptionSpec = { name: 'impl', value: true, metavar: 'NAME', help: 'run only this implementation (default: every impl of the file)' };
export const INPUTS_OPTION: OptionSpec = { name: 'inputs', value: true, metavar: 'FAMILY', help: `the family of seeded inputs: ${INPUT_FAMILIES.join(', ')} (default: default; corner: NaN, ±∞, ±0 and integer extremes on about half of the points; spread: floats with random significands over 2^-12…2^12; small: integers folded into [-3, 3], [0, 6] unsigned). A verdict's replay command names the family and seed of the run that shows its counterexample` };

/** `--inputs FAMILY`. */
export function familyOption(args: ParsedArgs): InputFamily {
  const f = single(args, 'inputs') ?? 'default';
  if (!(INPUT_FAMILIES as readonly string[]).includes(f)) throw new UsageError(`--inputs must be one of ${INPUT_FAMILIES.join(', ')}, got '${f}'`);
  return f as InputFamily;
}

export const INPUT_OPTION: OptionSpec = { name: 'input', value: true, repeat: true, metavar: "'T(i,…)=V'", help: "the value of tensor T at one point, over the seeded inputs (repeat for several; a verdict's replay command lists the values of the solver's counterexample this way)" };

/** `--input 'A(0,1)=0.5'` for the tensors of `ci`'s spec, typed. */
export function overridesOption(args: ParsedArgs, ci: CheckedImpl): InputOverride[] {
  const out: InputOverride[] = [];
  for (const text of args.values.get('input') ?? []) {
    const o = parseOverride(text);
    if (o === null) throw new UsageError(`--input needs T(i, …)=VALUE with integer coordinates, got '${text}'`);
    const t = ci.spec.tensors.get(o.tensor);
    if (t === undefined) throw new UsageError(`--input: spec '${ci.spec.spec.name}' has no tensor '${o.tensor}'${didYouMean(o.tensor, [...ci.spec.tensors.keys()])}`);
    if (o.point.length !== t.vars.length) throw new UsageError(`--input: '${o.tensor}' has ${t.vars.length} coordinate(s), got ${o.point.length} in '${text}'`);
    const v = parseOverrideValue(o.value, t.type);
    if (v === null) throw new UsageError(`--input: '${o.value}' is not a value of type ${t.type} (in '${text}')`);
    out.push({ tensor: o.tensor, point: o.point, value: v });
  }
  return out;
}

/**
 * The interface rules (proofs/verifier/interface.ts) at these parameter values, as a run error: a program
 * whose declarations break them is not run, since its run would be compared with the wrong thing.
 */
export async function interfaceError(ci: CheckedImpl, params: ReadonlyMap<string, bigint>): Promise<RunError | null> {
  if (ci.spec.params.some((p) => !params.has(p))) return null; // runImpl reports the missing values
  const r = await checkInterface(ci, { params });
  const v = r.violations[0];
  if (v === undefined) return null;
  return runError('interface', v.rule, { line: v.line, col: v.col }, null, v.message);
}

/** What step and explore report for an implementation they refuse (an interface error). */
export interface RefusedReport {
  readonly impl: string;
  readonly spec: string;
  readonly params: Record<string, number | string>;
  readonly seed: number | string;
  readonly outcome: 'interface';
  readonly error: RunError;
}

/** The report of a run refused before it started (an interface error). */
export function refusedReport(ci: CheckedImpl, params: ReadonlyMap<string, bigint>, seed: bigint, family: InputFamily, error: RunError): RunReport {
  return {
    impl: ci.impl.name, spec: ci.spec.spec.name, params: Object.fromEntries([...params].map(([k, v]) => [k, seedJson(v)])), seed: seedJson(seed), inputs: family,
    outcome: 'error', error, writes: 0, reads: 0, ms: 0, checked: 0, mismatchCount: 0, mismatches: [], unconstrained: { count: 0, examples: [] }, comparison: 'none (not run)', omega: false, conditionalStores: false, slice: null,
  };
}

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
export function loadImpls(args: ParsedArgs, command: string, withParams = true): Loaded[] {
  const files = expandFiles(args.positional);
  if (files.length === 0) throw new UsageError(`no .sched file given (usage: sched ${command} FILE --param N=…)`);
  const want = single(args, 'impl');
  const out: Loaded[] = [];
  for (const file of files) {
    const prog = loadProgram(file, single(args, 'spec'));
    const checked = typecheckProgram(prog);
    const impls = want === undefined ? checked.impls : checked.impls.filter((i) => i.impl.name === want);
    out.push({ file: displayName(file), checked, impls });
  }
  if (want !== undefined && out.every((l) => l.impls.length === 0)) {
    const names = out.flatMap((l) => l.checked.impls.map((i) => i.impl.name));
    throw new SchedInputError([diag(files[0]!, { line: 1, col: 1 }, 'io', `no impl named '${want}'${didYouMean(want, names)}`, names.length ? `one of ${names.join(', ')}` : 'a file with an impl', `'${want}'`)]);
  }
  if (out.every((l) => l.impls.length === 0)) throw new SchedInputError([diag(files[0]!, { line: 1, col: 1 }, 'io', 'no impl to run in this file', 'an impl block', 'none')]);
  if (withParams) checkGivenParams(out.flatMap((l) => l.impls), paramsOption(args));
  return out;
}

/**
 * `--param` names every selected implementation's spec must know: a name no spec has is a typo
 * (said with the closest name), a name a spec needs and was not given is missing.
 */
export function checkGivenParams(impls: readonly CheckedImpl[], given: ReadonlyMap<string, bigint>): void {
  const known = new Set(impls.flatMap((ci) => ci.spec.params));
  for (const p of given.keys()) {
    if (!known.has(p)) {
      const missing = [...known].filter((k) => !given.has(k));
      throw new UsageError(`--param ${p}: no spec of the selected implementations has a parameter '${p}'${didYouMean(p, missing.length > 0 ? missing : known)}${known.size > 0 ? ` (parameters: ${[...known].join(', ')})` : ''}`);
    }
  }
  for (const ci of impls) {
    const missing = ci.spec.params.filter((p) => !given.has(p));
    if (missing.length > 0) throw new UsageError(`impl '${ci.impl.name}' needs --param ${missing.map((m) => `${m}=…`).join(' --param ')} (spec '${ci.spec.spec.name}' has parameters ${ci.spec.params.join(', ')})`);
  }
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
  get(file: string, ci: CheckedImpl, params: ReadonlyMap<string, bigint>, seed: bigint, family: InputFamily = 'default'): SpecModel {
    const key = `${file}\u0000${ci.spec.spec.name}`;
    let m = this.models.get(key);
    if (m === undefined) {
      m = specModel(ci, checkParams(ci.spec, params, file), { seed, family, file });
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
  const head = `${file}: impl ${r.impl} (${showParams(r.params)}seed ${r.seed}${r.inputs !== 'default' ? `, ${r.inputs} inputs` : ''})${r.omega ? ' [ω]' : ''}${r.conditionalStores ? ' [conditional stores]' : ''}${r.slice ? ` [slice ${r.slice}]` : ''}`;
  const stats = `${r.writes} writes, ${r.reads} reads, ${r.ms} ms`;
  if (r.outcome === 'error' && r.error) {
    process.stdout.write(`${head}: error (${r.error.kind}) — ${stats}\n`);
    process.stdout.write(`  ${formatRunError(file, r.error)}\n`);
    if (r.error.iterations) process.stdout.write(`  par ${r.error.iterations.loop} (line ${r.error.iterations.line}): iterations ${r.error.iterations.first} and ${r.error.iterations.second}\n`);
  } else if (r.outcome === 'mismatch') {
    process.stdout.write(`${head}: mismatch — ${r.mismatchCount} of ${r.checked} output cells differ from the spec${r.comparison.startsWith('exact') ? '' : ` (${r.comparison})`}; ${stats}\n`);
    for (const m of r.mismatches) process.stdout.write(`  ${m.array}[${m.index.join(', ')}]: expected ${m.expected}, got ${m.actual === null ? '⊥ (never written)' : m.actual}\n`);
    if (r.mismatchCount > r.mismatches.length) process.stdout.write(`  … and ${r.mismatchCount - r.mismatches.length} more\n`);
  } else if (r.outcome === 'sliced') {
    process.stdout.write(`${head}: the slice ran without error (outputs not compared) — ${stats}\n`);
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
  usage: "sched run FILE --param NAME=VALUE… [--impl NAME] [--seed S] [--inputs FAMILY] [--input 'T(i,…)=V'…] [--check-annotations] [--omega] [--conditional-stores] [--slice 'LINE:x=v,…'] [--tolerance R] [--json]",
  options: [
    PARAM_OPTION,
    SPEC_OPTION,
    IMPL_OPTION,
    SEED_OPTION,
    INPUTS_OPTION,
    INPUT_OPTION,
    { name: 'check-annotations', value: false, help: 'also check that every assignment writes the value its prophetic annotation {…} denotes in the spec (an error of kind annotation if not, even when the outputs are right)' },
    { name: 'omega', value: false, help: "the write-set variant of U-PARLOOP (thesis §4.2): every value written to a location by distinct iterations must agree, not only the last ones" },
    { name: 'conditional-stores', value: false, help: "run every store a[ι] := select(c, v, a[ι]) as 'if (c) a[ι] := v': no access to the cell and no evaluation of v when c fails. Not the thesis's semantics: how `sched halide` confirms a race, out-of-bounds access or uninitialized read on a translation of Halide's `if (c) f(ι) = v` (docs/halide.md); a verdict's replay command adds it when it was used (not with --derivation)" },
    { name: 'tolerance', value: true, metavar: 'R', help: 'compare float outputs with relative tolerance R (default: exact, IEEE bit equality with NaN equal to NaN and +0 different from -0); outputs are compared on their box ∩ where' },
    { name: 'slice', value: true, metavar: "'LINE:x=v,…'", help: "run one instance of the loops around the assignment at LINE, named outermost first: a par loop only its iteration v (U-PARLOOP runs each from the memory at the loop's entry), a for loop its iterations before v whole, then v; nothing after it. What the whole program does there. Outputs are not compared; with --check-annotations the assignments are. A verdict's replay command uses it when the whole program is too large to run" },
    { name: 'max-steps', value: true, metavar: 'K', help: 'give up (exit 2) after K loop iterations plus assignments (default 4e9)' },
    { name: 'max-cells', value: true, metavar: 'K', help: 'largest total number of array cells (default 33554432)' },
    { name: 'derivation', value: true, metavar: 'FILE', help: 'write the big-step derivation tree (rules, environments, δμ, ρ) as JSON to FILE (one impl only)' },
    jsonOption('run'),
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const params = paramsOption(args);
    const seed = seedOption(args);
    const family = familyOption(args);
    const annotations = args.flags.has('check-annotations');
    const tolerance = numberOption(args, 'tolerance', 0);
    const maxSteps = numberOption(args, 'max-steps', 1);
    const maxCells = numberOption(args, 'max-cells', 1);
    const derivFile = single(args, 'derivation');
    const conditionalStores = args.flags.has('conditional-stores');
    if (conditionalStores && derivFile !== undefined) throw new UsageError('--conditional-stores has no derivation: it is not a rule of the thesis (drop one of them)');
    const sliceArg = single(args, 'slice');
    const slice = sliceArg === undefined ? undefined : parseSlice(sliceArg);
    if (slice === null) throw new UsageError(`--slice needs LINE:x=v,… (a line, then the loop variables of the par loops around it with their values), got '${sliceArg}'`);
    if (slice !== undefined && derivFile !== undefined) throw new UsageError('--slice has no derivation of the whole program (drop one of them)');
    const loaded = loadImpls(args, 'run');
    if (derivFile !== undefined && loaded.reduce((n, l) => n + l.impls.length, 0) !== 1) throw new UsageError('--derivation needs exactly one impl (use --impl NAME)');
    const models = new ModelCache();
    const reports: RunReport[] = [];
    const outcomes: ('ok' | 'found' | 'limit')[] = [];
    for (const l of loaded) {
      for (const ci of l.impls) {
        const refused = await interfaceError(ci, params);
        if (refused !== null) {
          const report = refusedReport(ci, params, seed, family, refused);
          reports.push(report);
          outcomes.push('found');
          if (!json) printReport(l.file, report);
          continue;
        }
        const given = overridesOption(args, ci);
        const inputs = given.length > 0 ? withOverrides(familyInputs(family, seed), given) : undefined;
        const model = inputs ? undefined : models.get(l.file, ci, params, seed, family);
        let r: RunResult;
        try {
          r = runImpl(ci, params, { seed, family, inputs, model, file: l.file, omega: args.flags.has('omega'), tolerance, maxSteps, maxCells, derivation: derivFile !== undefined, checkAnnotations: annotations, conditionalStores, slice });
        } catch (e) {
          if (e instanceof SliceError) throw new UsageError(e.message);
          throw e;
        }
        let report: RunReport = given.length > 0 ? { ...r.report, seed: seedJson(seed), inputs: `${family}, ${given.length} given` } : r.report;
        if (annotations && (report.outcome === 'match' || report.outcome === 'sliced')) {
          const a = r.annotations;
          if (a !== null) report = { ...report, outcome: 'error', error: runError('annotation', 'U-ASSIGN', { line: a.line, col: a.col }, a.location, `the assignment writes ${a.written} to ${a.location} where its annotation gives ${a.annotated}${a.at ? ` (${a.at})` : ''}${report.outcome === 'sliced' ? '' : '; the outputs are right'}`) };
        }
        reports.push(report);
        outcomes.push(report.outcome === 'match' || report.outcome === 'sliced' ? 'ok' : report.error?.kind === 'limit' ? 'limit' : 'found');
        if (derivFile !== undefined) {
          if (r.derivation === null) process.stderr.write(`sched run: no derivation to write: ${r.report.outcome === 'error' ? 'the run has no big-step semantics' : 'none recorded'}\n`);
          else writeFileSync(derivFile, toJson({ impl: ci.impl.name, params: r.report.params, seed: r.report.seed, ...r.derivation }) + '\n');
        }
        if (!json) printReport(l.file, report);
      }
    }
    if (json) emitJson(reports);
    return exitFor(outcomes);
  },
};

export { formatDiagnostic };
