// `sched mlir INPUT.mlir --passes '<mlir-opt args>'` and `sched mlir SRC.mlir TGT.mlir`: the MLIR 16
// front end (compilers/mlir/, docs/mlir.md). mlir-opt 16 runs the passes under a time limit (or the
// target comes from elsewhere); the source becomes the spec by dataflow, the target the annotated
// implementation; both are written to a .sched file and verified as `sched verify` does (same
// verdicts, counterexamples, --json, --certs). `--oracle` adds the execution oracle (both modules
// under mlir-cpu-runner against our runs), and every `invalid` is run again under mlir-cpu-runner.

import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SchedInputError, formatDiagnostic } from '../../core/language/diagnostics.ts';
import { mlirMissing } from '../../compilers/mlir/tools.ts';
import { MlirRunError } from '../../compilers/mlir/runner.ts';
import { seededInputs } from '../../semantics/model.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { checkedImpl, confirmInvalid, defaultParams, executionOracle, type OracleReport, prepareMlir, type Prepared, untranslatable } from '../../proofs/validate/mlir.ts';
import type { VerifyResult } from '../../proofs/verifier/verify.ts';
import { intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_INPUT, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';
import { displayName, readSource } from '../../core/language/load.ts';
import { formatOption, verifyCommand, verifyFiles } from './verify.ts';

export const mlirCommand: Command = {
  name: 'mlir',
  summary: "Validate MLIR 16 passes: run mlir-opt (or take a target made elsewhere), translate source and target to SCHED and verify.",
  usage: "sched mlir INPUT.mlir --passes '<mlir-opt args>' | sched mlir SRC.mlir TGT.mlir [--func NAME] [--assume COND] [--emit FILE] [--oracle] [--param NAME=V] [--seed S] [--limit-ms T] [--no-verify] [verify options: --certs DIR --timeout-ms T --float M --json]",
  options: [
    { name: 'passes', value: true, metavar: 'ARGS', help: "the mlir-opt 16 arguments to run on INPUT (e.g. '--affine-loop-tile=tile-size=8' or \"--pass-pipeline=builtin.module(func.func(affine-loop-fusion))\")" },
    { name: 'func', value: true, metavar: 'NAME', help: 'the function to validate (default: the only one with a body that no other calls)' },
    { name: 'emit', value: true, metavar: 'FILE', help: 'write the translated .sched program to FILE (default: <tmpdir>/sched-mlir/<name>-<hash>.sched, named by its content)' },
    { name: 'name', value: true, metavar: 'N', help: "the spec's name (default: the function's); the implementation is N_tgt" },
    { name: 'oracle', value: false, help: 'the execution oracle: both modules under mlir-cpu-runner on the same seeded inputs, against the spec model and the big-step run of the translation' },
    { name: 'assume', value: true, repeat: true, metavar: 'COND', help: "a condition on the translation's parameters (SCHED syntax: 'NI >= 0 && NJ >= 0') the verdict is to hold under; it is reported with the verdict (valid for …)" },
    { name: 'param', value: true, repeat: true, metavar: 'NAME=VALUE', help: "a parameter of the translation for the runs (an index argument %N is N, an extent of %C is C_d0; see the translation's header; default 6)" },
    { name: 'seed', value: true, metavar: 'S', help: "seed of the oracle's inputs (default 0)" },
    { name: 'limit-ms', value: true, metavar: 'T', help: 'CPU-time limit of each mlir-opt / mlir-cpu-runner run (default 20000)' },
    { name: 'no-verify', value: false, help: 'translate (and run the oracle) only' },
    ...verifyCommand.options.filter((o) => !['impl', 'spec'].includes(o.name)),
  ],
  async run(args: ParsedArgs): Promise<number> {
    const passes = single(args, 'passes');
    if (passes !== undefined ? args.positional.length !== 1 : args.positional.length !== 2) throw new UsageError("give INPUT.mlir with --passes '<mlir-opt args>', or SRC.mlir TGT.mlir");
    const [srcPath, tgtPath] = args.positional as [string, string | undefined];
    const text = formatOption(args) === 'text';
    const limitMs = intOption(args, 'limit-ms', 20_000, 1);
    const srcName = displayName(srcPath);
    const fail = (code: number, kind: string, message: string): number => {
      process.stderr.write(`sched mlir: ${srcName}: ${message}\n`);
      if (!text) process.stdout.write(toJson({ error: kind, message }) + '\n');
      return code;
    };
    const missing = mlirMissing();
    if (missing !== null) return fail(EXIT_INPUT, 'setup', missing);
    let p: Prepared;
    try {
      p = await prepareMlir({
        source: readSource(srcPath),
        ...(passes !== undefined ? { passes } : { target: readSource(tgtPath!), targetFile: displayName(tgtPath!) }),
        ...(single(args, 'func') !== undefined ? { func: single(args, 'func')! } : {}),
        ...(single(args, 'name') !== undefined ? { name: single(args, 'name')! } : {}),
        sourceFile: srcName,
        limitMs,
        assumes: args.values.get('assume') ?? [],
      });
    } catch (e) {
      if (e instanceof SchedInputError) {
        for (const d of e.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
        if (!text) process.stdout.write(toJson({ error: 'input', diagnostics: e.diagnostics }) + '\n');
        return EXIT_INPUT;
      }
      // The compiler failed (a crash, a pass error, a limit): there is no target to validate.
      if (e instanceof MlirRunError) return fail(EXIT_UNKNOWN, `mlir-opt-${e.kind}`, e.message);
      const reason = untranslatable(e);
      if (reason === null) throw e;
      if (text) process.stdout.write(`${srcName}: unknown (unsupported) — ${reason}\n`);
      else process.stdout.write(toJson({ results: [{ file: srcName, impl: null, verdict: 'unknown', class: 'unsupported', reason }], inputErrors: [], mlir: { source: srcName, passes: passes ?? null, target: tgtPath ?? null } }) + '\n');
      return EXIT_UNKNOWN;
    }
    const tr = p.translation;
    const ms = p.ms;
    // Named by its content: concurrent runs never overwrite a file another's replay names.
    const stem = (single(args, 'name') ?? tr.func).replace(/[^A-Za-z0-9_.-]/g, '_');
    const hash = createHash('sha256').update(tr.text).digest('hex').slice(0, 8);
    const file = single(args, 'emit') ?? join(tmpdir(), 'sched-mlir', `${stem}-${hash}.sched`);
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, tr.text);
    renameSync(partial, file);
    if (text) {
      process.stdout.write(`mlir: @${tr.func} of ${srcName}${passes !== undefined ? ` through mlir-opt ${passes} (${ms.passes} ms)` : ` against ${tgtPath}`}: translated in ${tr.ms.toFixed(0)} ms, ${tr.annotated} of ${tr.stores} store(s) annotated -> ${file}\n`);
      for (const n of tr.notes) process.stdout.write(`  note: ${n}\n`);
    }
    const seed = intOption(args, 'seed', 0);
    const params = defaultParams(tr);
    for (const kv of args.values.get('param') ?? []) {
      const k = kv.indexOf('=');
      if (k < 0 || !/^-?\d+$/.test(kv.slice(k + 1))) throw new UsageError(`--param wants NAME=INTEGER, got '${kv}'`);
      if (!params.has(kv.slice(0, k))) throw new UsageError(`--param ${kv.slice(0, k)}: the translation's parameters are ${[...params.keys()].join(', ') || 'none'}`);
      params.set(kv.slice(0, k), BigInt(kv.slice(k + 1)));
    }
    const extra: { mlir: Record<string, unknown> } = { mlir: { source: srcName, passes: passes ?? null, target: tgtPath ?? null, func: tr.func, sched: file, stores: tr.stores, annotated: tr.annotated, notes: tr.notes, ms: { ...ms, translate: Math.round(tr.ms) }, oracle: null, confirmations: [] } };
    let code = EXIT_OK;
    if (args.flags.has('oracle')) {
      const ci = await checkedImpl(tr, file);
      const rep = executionOracle(tr, ci, p.modules, params, seededInputs(seed));
      extra.mlir.oracle = rep;
      if (text) printOracle(rep, seed);
      if (rep.skipped === null && (rep.source!.differences > 0 || rep.target!.differences > 0)) code = EXIT_UNKNOWN;
    }
    if (args.flags.has('no-verify')) {
      if (!text) process.stdout.write(toJson(extra) + '\n');
      return code;
    }
    const confirmations = extra.mlir.confirmations as unknown[];
    const adjust = async (r: VerifyResult, ci: CheckedImpl): Promise<VerifyResult> => {
      const c = await confirmInvalid(r, ci, p, params);
      if (c.report) confirmations.push(c.report);
      return c.result;
    };
    const v = await verifyFiles(args, [file], extra, adjust);
    return v !== EXIT_OK ? v : code;
  },
};

function printOracle(r: OracleReport, seed: number): void {
  const ps = Object.entries(r.params).map(([k, v]) => `${k} = ${v}`).join(', ');
  const head = `  oracle (mlir-cpu-runner${ps ? `; ${ps}` : ''}; seed ${seed})`;
  if (r.skipped !== null) {
    process.stdout.write(`${head}: not run: ${r.skipped}\n`);
    return;
  }
  const line = (what: string, a: NonNullable<OracleReport['source']>): string => (a.differences === 0 ? `${what}: all ${a.cells} cells agree` : `${what}: ${a.differences} of ${a.cells} cells DIFFER (${a.examples.slice(0, 2).map((x) => `${x.array}[${x.index.join(', ')}]: ${x.expected} vs ${x.actual}`).join('; ')})`);
  process.stdout.write(`${head}, ${r.ms.toFixed(0)} ms:\n    ${line('source vs spec model', r.source!)}\n    ${line('target vs big-step run of the translation', r.target!)} (big-step: ${r.bigstep})\n    ${line('source vs target', r.compiler!)}\n`);
}

