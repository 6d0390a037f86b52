// `sched halide SCRIPT.py`: the Halide 14 front end (compilers/halide/, docs/halide.md). Real Halide
// lowers the pipeline the script defines; its IR is translated to annotated SCHED with the spec
// taken from the same Func definitions, written to a .sched file, and verified as `sched verify`
// does (same verdicts, counterexamples, --json, --certs). `--jit` adds the JIT oracle.

import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { checkSource } from '../../core/language/check.ts';
import { SchedInputError, formatDiagnostic } from '../../core/language/diagnostics.ts';
import { HalideError, halideCase, halideMissing, jitOracle, TOLERANCE, type HalideCase, type JitReport } from '../../compilers/halide/run.ts';
import { Unsupported } from '../../compilers/halide/translate.ts';
import { intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, EXIT_FOUND, EXIT_INPUT, EXIT_OK, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';
import { formatOption, verifyCommand, verifyFiles } from './verify.ts';
import { confirmGuarded } from '../../proofs/validate/halide-guarded.ts';

export const halideCommand: Command = {
  name: 'halide',
  summary: 'Lower a Halide 14 pipeline script with real Halide, translate its IR to SCHED and verify it.',
  usage: 'sched halide SCRIPT.py [--emit FILE] [--name N] [--jit] [--seed S] [--no-verify] [verify options: --certs DIR --budget B --float M --json]',
  options: [
    { name: 'emit', value: true, metavar: 'FILE', help: 'write the translated .sched program to FILE (default: <tmpdir>/sched-halide/<name>-<hash>.sched, named by its content, so concurrent runs never overwrite each other)' },
    { name: 'name', value: true, metavar: 'N', help: "name of the spec and implementation (default: the script's file name)" },
    { name: 'jit', value: false, help: "JIT oracle: Halide's realize on seeded inputs (sizes from the script's example) against the big-step run of the translation" },
    { name: 'seed', value: true, metavar: 'S', help: 'seed of the JIT oracle inputs (default 0)' },
    { name: 'no-verify', value: false, help: 'translate (and run the JIT oracle) only' },
    ...verifyCommand.options.filter((o) => !['impl', 'spec'].includes(o.name)),
  ],
  async run(args: ParsedArgs): Promise<number> {
    if (args.positional.length !== 1) throw new UsageError('give one pipeline script (SCRIPT.py)');
    const script = args.positional[0]!;
    const format = formatOption(args);
    const text = format === 'text';
    const name = single(args, 'name') ?? basename(script).replace(/\.py$/, '').replace(/[^A-Za-z0-9_]/g, '_');
    const missing = halideMissing();
    const fail = (kind: string, message: string): number => {
      process.stderr.write(`sched halide: ${script}: ${message}\n`);
      if (!text) process.stdout.write(toJson({ error: kind, message }) + '\n');
      return EXIT_INPUT;
    };
    if (missing !== null) return fail('setup', missing);
    let c: HalideCase;
    try {
      c = halideCase(script, name);
    } catch (e) {
      if (e instanceof Unsupported) return fail('unsupported', e.message);
      if (e instanceof HalideError) return fail('halide', e.message);
      if (e instanceof SchedInputError) return fail('translation', e.diagnostics.map(formatDiagnostic).join('\n'));
      throw e;
    }
    // Named by its content: two runs at once (shards, two scripts of one name) never overwrite a
    // file the other's replay command names; written whole, then renamed into place.
    const hash = createHash('sha256').update(c.translation.text).digest('hex').slice(0, 8);
    const file = single(args, 'emit') ?? join(tmpdir(), 'sched-halide', `${name}-${hash}.sched`);
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, c.translation.text);
    renameSync(partial, file);
    const t = c.tracing;
    const tracingLine = (what: string, r: TracingComparison): string => ('error' in r ? `${what}: not compared (${r.error})` : r.same ? `${what}: identical once the trace calls are stripped` : `${what}: ${r.onlyTraced.length} line(s) only in the traced lowering, ${r.onlyPlain.length} only in the untraced one`);
    if (text) {
      process.stdout.write(`halide: lowered ${script} in ${c.ms.lower.toFixed(0)} ms (traced; untraced ${c.ms.lowerPlain.toFixed(0)} ms), translated in ${c.ms.translate.toFixed(0)} ms: ${c.translation.stores} store(s) -> ${file}\n`);
      process.stdout.write(`  tracing, ${tracingLine('translated IR', t.pass21)}\n  tracing, ${tracingLine('final IR', t.final)}\n`);
      for (const n of c.translation.notes) process.stdout.write(`  note: ${n}\n`);
    }
    let jit: JitReport | null = null;
    let code = EXIT_OK;
    if (args.flags.has('jit')) {
      try {
        const prog = await checkSource(file, c.translation.text);
        const ci = prog.impls.find((i) => i.impl.name === c.translation.implName)!;
        jit = jitOracle(c, ci, intOption(args, 'seed', 0));
      } catch (e) {
        if (e instanceof HalideError) return fail('halide', e.message);
        if (e instanceof SchedInputError) return fail('translation', e.diagnostics.map(formatDiagnostic).join('\n'));
        throw e;
      }
      if (text) {
        const ps = Object.entries(jit.params).map(([k, v]) => `${k} = ${v}`).join(', ');
        process.stdout.write(`  jit oracle (${ps}; seed ${jit.seed}): big-step ${jit.bigstep}${jit.bigstepError ? ` (${jit.bigstepError})` : ''}; ${jit.differences === 0 ? `Halide's realize and the big-step run agree on all ${jit.cells} output cells` : jit.beyondTolerance === 0 ? `Halide's realize and the big-step run agree within ${TOLERANCE} (relative, absolute below 1) on all ${jit.cells} output cells, bit for bit on ${jit.cells - jit.differences}` : `Halide's realize and the big-step run DIFFER on ${jit.beyondTolerance}/${jit.cells} output cells`} (JIT ${jit.jitMs.toFixed(0)} ms)\n`);
        if (jit.realizeError) process.stdout.write(`    Halide's realize failed: ${jit.realizeError.split('\n').filter((l) => l.trim() !== '').slice(-3).join(' | ')}\n`);
        for (const x of jit.examples) process.stdout.write(`    at [${x.index.join(', ')}]: Halide ${String(x.halide)}, big-step ${String(x.bigstep)}\n`);
      }
      if (jit.beyondTolerance > 0 || jit.bigstep !== 'match') code = EXIT_FOUND;
    }
    const halide = {
      halide: {
        script,
        sched: file,
        ms: { lower: Math.round(c.ms.lower), lowerUntraced: Math.round(c.ms.lowerPlain), translate: Math.round(c.ms.translate) },
        stores: c.translation.stores,
        tracing: t,
        notes: c.translation.notes,
        jit,
      },
    };
    if (args.flags.has('no-verify')) {
      if (!text) process.stdout.write(toJson(halide) + '\n');
      return code;
    }
    const v = await verifyFiles(args, [file], halide, (r, ci) => confirmGuarded(r, ci, c.translation.guardedStores));
    return Math.max(v, code) === EXIT_INPUT ? EXIT_INPUT : v !== EXIT_OK ? v : code;
  },
};

type TracingComparison = HalideCase['tracing']['final'];
