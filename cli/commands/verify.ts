// `sched verify FILE…`: prophetic + symbolic evaluation, obligations discharged by Z3, a verdict
// per implementation (SCHED-LANGUAGE.md §2).

import { type Diagnostic, SchedInputError, formatDiagnostic } from '../../core/diagnostics.ts';
import { FLOAT_MODES, type FloatMode } from '../../smt/values.ts';
import { type Replay, verifyImpl, type VerifyResult } from '../../proofs/verify.ts';
import { expandFiles, intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_INPUT, EXIT_OK, EXIT_UNKNOWN, JSON_OPTION } from '../command.ts';
import { displayName, loadChecked, SPEC_OPTION, toJson } from '../io.ts';
import { isAbsolute, relative } from 'node:path';
import { bundleDir, writeBundle } from '../../proofs/certificates.ts';
import { eliminationLog } from '../../core/presburger/elimlog.ts';
import { startFromScratch } from '../../proofs/fresh-state.ts';

/** A path as the manifest records it: relative to the working directory when inside it. */
function relativeName(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** Integer values as JSON numbers where they are exact (others stay strings: 2^64 - 1, `(fp …)`). */
export function jsonValues(values: Record<string, string>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : v]));
}

/** The `sched run` command line that reproduces a counterexample. */
export function replayCommand(file: string, impl: string, r: Replay): string {
  const quote = (x: string): string => (/^[A-Za-z0-9_./=:-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`);
  const parts = ['npx', 'sched', 'run', quote(file), '--impl', quote(impl), ...Object.entries(r.params).flatMap(([k, v]) => ['--param', `${k}=${v}`])];
  if (r.seed !== 0) parts.push('--seed', String(r.seed));
  if (r.inputs !== 'default') parts.push('--inputs', r.inputs);
  for (const v of r.inputValues) parts.push('--input', quote(`${v.tensor}(${v.point.join(',')})=${v.value}`));
  if (r.annotations) parts.push('--check-annotations');
  return parts.join(' ');
}

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'Prove that each implementation implements its spec (prophetic + symbolic evaluation, Z3).',
  usage: 'sched verify FILE|DIR… [--impl NAME] [--certs DIR] [--timeout-ms T] [--float ieee|real|uf] [--log] [--json]',
  options: [
    { name: 'impl', value: true, metavar: 'NAME', help: 'verify only this implementation' },
    SPEC_OPTION,
    { name: 'timeout-ms', value: true, metavar: 'T', help: 'per-query solver budget (default 10000)' },
    { name: 'float', value: true, metavar: 'MODE', help: 'float encoding: ieee (default, sound), real (fast-math, unsound), uf' },
    { name: 'certs', value: true, metavar: 'DIR', help: 'write a certificate bundle per implementation under DIR (see sched recheck)' },
    { name: 'log', value: false, help: 'print the symbolic evaluation (=> context changes, <= results), as thesis Fig. 5.5' },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    const float = (single(args, 'float') ?? 'ieee') as FloatMode;
    if (!FLOAT_MODES.includes(float)) throw new UsageError(`--float must be one of ${FLOAT_MODES.join(', ')}, got '${float}'`);
    const timeoutMs = intOption(args, 'timeout-ms', 10_000, 1);
    const only = single(args, 'impl');
    const files = expandFiles(args.positional);
    if (files.length === 0) throw new UsageError('no .sched files given');
    const results: (VerifyResult & { file: string })[] = [];
    const inputErrors: Diagnostic[] = [];
    let inputError = false;
    let matched = false;
    for (const path of files) {
      const file = displayName(path);
      let checked;
      try {
        checked = await loadChecked(path, single(args, 'spec'));
      } catch (e) {
        if (!(e instanceof SchedInputError)) throw e;
        inputError = true;
        inputErrors.push(...e.diagnostics);
        for (const d of e.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
        continue;
      }
      for (const ci of checked.impls) {
        if (only !== undefined && ci.impl.name !== only) continue;
        matched = true;
        const log = args.flags.has('log') && !json ? (depth: number, text: string) => process.stdout.write(`${'  '.repeat(depth)}// ${text}\n`) : undefined;
        // A bundle holds exactly this verification's eliminations, byte-identically.
        if (single(args, 'certs') !== undefined) startFromScratch();
        const r = await verifyImpl(ci, { float, timeoutMs, log });
        results.push({ ...r, file });
        const certs = single(args, 'certs');
        if (certs !== undefined) {
          const dir = bundleDir(certs, path, ci.impl.name);
          writeBundle(dir, { name: path === '-' ? '-' : relativeName(path), text: checked.text }, r, eliminationLog());
          if (!json) process.stdout.write(`  certificates: ${dir}\n`);
        }
        if (!json) {
          let line = `${file}: ${r.impl}: ${r.verdict}`;
          if (r.class) line += ` (${r.class})`;
          if (r.assumptions && r.verdict !== 'invalid') line += ` for ${r.assumptions}`;
          line += ` — ${r.vcs} obligation${r.vcs === 1 ? '' : 's'}, ${r.ms.toFixed(0)} ms, float ${r.float}`;
          process.stdout.write(line + '\n');
          if (r.verdict !== 'valid' && r.reason) process.stdout.write(`  ${r.verdict === 'invalid' ? `${file}:${r.counterexample?.line}:${r.counterexample?.col}: ` : ''}${r.reason}\n`);
          if (r.counterexample) {
            const vs = Object.entries(r.counterexample.values).map(([k, v]) => `${k} = ${v}`).join(', ');
            if (vs) process.stdout.write(`  counterexample: ${vs}\n`);
          }
          if (r.replay) process.stdout.write(`  replay: ${replayCommand(file, r.impl, r.replay)}\n`);
          else if (r.verdict === 'invalid' && r.counterexample?.obligation === 'I-ASSUME') process.stdout.write('  (no parameter value satisfies the assumptions: there is nothing to run)\n');
          else if (r.verdict === 'invalid') process.stdout.write('  (the refutation is exact; no run small enough to reproduce it was found)\n');
        }
      }
    }
    if (only !== undefined && !matched && !inputError) throw new UsageError(`no implementation named '${only}'`);
    if (json) {
      const out = results.map((r) => ({
        file: r.file, impl: r.impl, spec: r.spec, verdict: r.verdict, class: r.class, reason: r.reason,
        assumptions: r.assumptions, counterexample: r.counterexample ? { ...r.counterexample, values: jsonValues(r.counterexample.values) } : null, replay: r.replay ? { ...r.replay, command: replayCommand(r.file, r.impl, r.replay) } : null, vcs: r.vcs, ms: Math.round(r.ms), float: r.float,
      }));
      process.stdout.write(toJson({ results: out, inputErrors }) + '\n');
    }
    if (inputError) return EXIT_INPUT;
    if (results.some((r) => r.verdict === 'invalid')) return EXIT_FOUND;
    if (results.some((r) => r.verdict === 'unknown')) return EXIT_UNKNOWN;
    return EXIT_OK;
  },
};
