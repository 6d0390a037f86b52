// `sched lower ALGORITHM --schedule S`: the reference scheduling compiler (compilers/reference). Reads a
// Halide-style algorithm (text `.alg`, or JSON; a protocol request `{algorithm, schedule}` too) and
// a schedule (text or JSON), prints the `.sched` program: the SARE spec and the annotated
// implementation. See proofs/fuzz/README.md for the formats.

import { readFileSync, writeFileSync } from 'node:fs';
import { checkSource } from '../../core/language/check.ts';
import { formatDiagnostic, SchedInputError } from '../../core/language/diagnostics.ts';
import { type Algorithm, LowerError, parseAlgorithmText } from '../../compilers/algorithm/algorithm.ts';
import { BUG_NAMES, isBugName } from '../../compilers/reference/bugs.ts';
import { lower } from '../../compilers/reference/lower.ts';
import { parseScheduleText, type Schedule } from '../../compilers/algorithm/schedule.ts';
import { request } from '../../proofs/fuzz/compilers.ts';
import { halideScript, ScriptUnsupported } from '../../compilers/halide/script.ts';
import { type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';

function read(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new LowerError(`cannot read the ${what} file '${file}'`, 'algorithm');
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new LowerError(`${file}: not valid JSON (${(e as Error).message})`, 'algorithm');
  }
}

/** An algorithm file (text or JSON, or a protocol request) and an optional schedule file. */
export function loadCase(algFile: string, schedFile: string | undefined): { alg: Algorithm; sched: Schedule } {
  const text = read(algFile, 'algorithm');
  let alg: Algorithm;
  let sched: Schedule = { funcs: {} };
  if (/^\s*\{/.test(text)) {
    const j = parseJson(text, algFile) as Record<string, unknown>;
    if (j['algorithm'] !== undefined) {
      alg = j['algorithm'] as Algorithm;
      if (j['schedule'] !== undefined) sched = j['schedule'] as Schedule;
    } else alg = j as unknown as Algorithm;
  } else alg = parseAlgorithmText(text);
  if (schedFile !== undefined) {
    const s = read(schedFile, 'schedule');
    sched = /^\s*\{/.test(s) ? (parseJson(s, schedFile) as Schedule) : parseScheduleText(s);
    if (typeof sched !== 'object' || sched === null || typeof sched.funcs !== 'object') throw new LowerError(`${schedFile}: a JSON schedule is { "funcs": { … } }`, 'schedule');
  }
  return { alg, sched };
}

export const lowerCommand: Command = {
  name: 'lower',
  summary: 'Compile a Halide-style algorithm with a schedule into a .sched file (SARE spec + annotated SCHED).',
  usage: 'sched lower ALGORITHM [--schedule FILE] [--inject BUG] [--out FILE] [--request | --halide-script] [--no-check] [--json]',
  options: [
    { name: 'schedule', value: true, metavar: 'FILE', help: 'a file holding the schedule (text, one directive chain per line, or JSON); default: Halide defaults' },
    { name: 'inject', value: true, metavar: 'BUG', help: `compile with a known lowering bug (${BUG_NAMES.join(', ')})` },
    { name: 'out', value: true, metavar: 'FILE', help: 'write the .sched file here instead of stdout' },
    { name: 'request', value: false, help: 'print the JSON request an external compiler would receive, and stop' },
    { name: 'halide-script', value: false, help: 'print the Python Halide 14 script of the algorithm and schedule (what `sched fuzz --compiler halide` gives Halide; `sched halide` reads it), and stop' },
    { name: 'no-check', value: false, help: 'do not parse, type-check and check the well-formedness of the result' },
    JSON_OPTION,
  ],
  async run(args: ParsedArgs): Promise<number> {
    const json = args.flags.has('json');
    if (args.positional.length !== 1) throw new UsageError('give exactly one algorithm file');
    const file = args.positional[0]!;
    const inject = single(args, 'inject');
    if (inject !== undefined && !isBugName(inject)) throw new UsageError(`unknown bug '${inject}' (${BUG_NAMES.join(', ')})`);
    let text: string;
    try {
      const { alg, sched } = loadCase(file, single(args, 'schedule'));
      if (args.flags.has('request')) {
        process.stdout.write(toJson(request(alg, sched)) + '\n');
        return EXIT_OK;
      }
      if (args.flags.has('halide-script')) {
        // Only legal cases: the reference compiler's checks first, so both compilers get the same input.
        lower(alg, sched, {});
        const script = halideScript(alg, sched);
        const out = single(args, 'out');
        if (out !== undefined) writeFileSync(out, script);
        if (json) process.stdout.write(toJson({ ok: true, script, file: out ?? null }) + '\n');
        else if (out === undefined) process.stdout.write(script);
        return EXIT_OK;
      }
      text = lower(alg, sched, { bugs: inject ? [inject] : [] }).text;
    } catch (e) {
      if (e instanceof ScriptUnsupported) {
        if (json) process.stdout.write(toJson({ ok: false, phase: 'halide-script', error: e.message }) + '\n');
        else process.stderr.write(`${file}: no Halide 14 script: ${e.message}\n`);
        return EXIT_INPUT;
      }
      if (!(e instanceof LowerError)) throw e;
      if (json) process.stdout.write(toJson({ ok: false, phase: e.phase, error: e.message }) + '\n');
      else process.stderr.write(`${file}: error: ${e.message}\n`);
      return EXIT_INPUT;
    }
    if (!args.flags.has('no-check')) {
      try {
        await checkSource('lowered.sched', text);
      } catch (e) {
        if (!(e instanceof SchedInputError)) throw e;
        // The compiler produced a file the front end rejects: a bug in the compiler.
        process.stderr.write(`sched lower: the generated program is rejected (a bug in the compiler):\n${e.diagnostics.map(formatDiagnostic).join('\n')}\n${text}`);
        return EXIT_INTERNAL;
      }
    }
    const out = single(args, 'out');
    if (out !== undefined) writeFileSync(out, text);
    if (json) process.stdout.write(toJson({ ok: true, text, file: out ?? null }) + '\n');
    else if (out === undefined) process.stdout.write(text);
    return EXIT_OK;
  },
};
