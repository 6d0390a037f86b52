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
import { exampleParams, HalideError, halideCase, HalideMissing, jitOracle, type HalideCase, type JitReport } from '../../compilers/halide/run.ts';
import { fastMathReason } from '../../compilers/halide/fast-math.ts';
import type { CheckedImpl } from '../../core/language/typecheck.ts';
import { constant, variable } from '../../core/presburger/term.ts';
import { geT } from '../../core/presburger/formula.ts';
import { smallParameters } from '../../proofs/verifier/replay.ts';
import type { VerifyResult } from '../../proofs/verifier/verify.ts';
import { Unsupported } from '../../compilers/halide/translate.ts';
import { intOption, type ParsedArgs, single, UsageError } from '../args.ts';
import { type Command, CommandError, EXIT_FOUND, EXIT_INPUT, EXIT_OK, JSON_OPTION } from '../command.ts';
import { toJson } from '../io.ts';
import { formatOption, verifyCommand, verifyFiles } from './verify.ts';
import { confirmGuarded } from '../../proofs/validate/halide-guarded.ts';
import { withinBufferLimits } from '../../proofs/validate/halide-limits.ts';
import { halideAssumptionText } from '../../compilers/halide/assumptions.ts';
import { fastMathPlace } from '../../proofs/validate/halide-fastmath.ts';

export const halideCommand: Command = {
  name: 'halide',
  summary: 'Lower a Halide 14 pipeline script with real Halide, translate its IR to SCHED and verify it.',
  usage: 'sched halide SCRIPT.py [--emit FILE] [--name N] [--no-jit | --jit] [--seed S] [--no-verify] [verify options: --certs DIR --budget B --float M --json]',
  options: [
    { name: 'emit', value: true, metavar: 'FILE', help: 'write the translated .sched program to FILE (default: <tmpdir>/sched-halide/<name>-<hash>.sched, named by its content, so concurrent runs never overwrite each other)' },
    { name: 'name', value: true, metavar: 'N', help: "name of the spec and implementation (default: the script's file name)" },
    { name: 'jit', value: false, help: "JIT oracle (the default): Halide's realize on seeded inputs (sizes from the script's example, else the smallest the assumptions allow) against the big-step run of the translation; with --jit, a pipeline the oracle cannot run is an error" },
    { name: 'no-jit', value: false, help: 'no JIT oracle: the verdict rests on the verification alone' },
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
    // What stops the front end is an input error of the script (cli/io.ts, the error document).
    const fail = (phase: 'setup' | 'unsupported' | 'compiler' | 'translation', message: string): never => {
      throw new CommandError([{ file: script, line: 1, col: 1, phase: phase === 'translation' ? 'compiler' : phase, message: phase === 'translation' ? `the translation is rejected: ${message}` : message, expected: null, found: null }]);
    };
    let c: HalideCase;
    try {
      c = halideCase(script, name);
    } catch (e) {
      if (e instanceof HalideMissing) return fail('setup', e.message);
      if (e instanceof Unsupported) return fail('unsupported', e.message);
      if (e instanceof HalideError) return fail('compiler', e.message);
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
      process.stdout.write(`halide: lowered ${script} in ${c.ms.lower.toFixed(0)} ms (traced; untraced ${c.ms.lowerPlain.toFixed(0)} ms), translated in ${c.ms.translate.toFixed(0)} ms (simplified in ${c.ms.simplify.toFixed(0)} ms): ${c.translation.stores} store(s) -> ${file}\n`);
      process.stdout.write(`  tracing, ${tracingLine('translated IR', t.pass21)}\n  tracing, ${tracingLine('final IR', t.final)}\n`);
      for (const n of c.translation.notes) process.stdout.write(`  note: ${n}\n`);
    }
    let jit: JitReport | null = null;
    let jitSkipped: string | null = null;
    let code = EXIT_OK;
    if (args.flags.has('jit') && args.flags.has('no-jit')) throw new UsageError('--jit and --no-jit disagree');
    if (!args.flags.has('no-jit')) {
      try {
        const prog = await checkSource(file, c.translation.text);
        const ci = prog.impls.find((i) => i.impl.name === c.translation.implName)!;
        const at = await jitParams(c, ci);
        if (typeof at === 'string') {
          if (args.flags.has('jit')) return fail('compiler', `the JIT oracle cannot run: ${at}`);
          jitSkipped = at;
        } else jit = jitOracle(c, ci, intOption(args, 'seed', 0), at);
      } catch (e) {
        if (e instanceof HalideError) return fail('compiler', e.message);
        if (e instanceof SchedInputError) return fail('translation', e.diagnostics.map(formatDiagnostic).join('\n'));
        throw e;
      }
      if (text && jitSkipped !== null) process.stdout.write(`  jit oracle: not run (${jitSkipped}); --no-jit says so explicitly\n`);
      if (text && jit !== null) {
        const ps = Object.entries(jit.params).map(([k, v]) => `${k} = ${v}`).join(', ');
        const tol = jit.tolerance === null ? 'bit for bit' : `within ${jit.tolerance} (relative; fast-math: ${jit.fastMath}, which Halide compiles with reassociation, fused multiply-adds and no NaN or infinity)`;
        process.stdout.write(`  jit oracle (${ps}; seed ${jit.seed}): big-step ${jit.bigstep}${jit.bigstepError ? ` (${jit.bigstepError})` : ''}; ${jitAgreement(jit)}, compared ${tol} (JIT ${jit.jitMs.toFixed(0)} ms)\n`);
        if (jit.realizeError) process.stdout.write(`    Halide's realize failed: ${jit.realizeError.split('\n').filter((l) => l.trim() !== '').slice(-3).join(' | ')}\n`);
        for (const x of jit.examples) process.stdout.write(`    at [${x.index.join(', ')}]: Halide ${x.halide}, big-step ${x.bigstep}\n`);
      }
      if (jit !== null && jit.beyondTolerance > 0) code = EXIT_FOUND;
    }
    const halide = {
      halide: {
        script,
        sched: file,
        ms: { lower: Math.round(c.ms.lower), lowerUntraced: Math.round(c.ms.lowerPlain), translate: Math.round(c.ms.translate), simplify: Math.round(c.ms.simplify) },
        // The verdict's assumptions are these asserts, simplified (compilers/halide/simplify.ts).
        asserts: c.assumptions.asserts,
        stores: c.translation.stores,
        tracing: t,
        notes: c.translation.notes,
        jit,
        ...(jitSkipped !== null ? { jitSkipped } : {}),
      },
    };
    if (args.flags.has('no-verify')) {
      if (!text) process.stdout.write(toJson(halide) + '\n');
      return code;
    }
    // The verdict's assumptions in Halide's names (the .sched file's are the same, simplified).
    const named = c.assumptions.assumptions === null ? null : halideAssumptionText(c.assumptions.assumptions, c.translation.params, c.translation.inputs.map((i) => i.name), c.assumptions.sizeFacts);
    const fastMath = fastMathReason(c.driver);
    // Concrete runs before the value queries (verify's step 1½, a shortcut to the verdict on
    // wrong programs) only where they are small: the least sizes Halide's asserts allow make them
    // cost seconds (sc1 at 512 × 512, sqsgemm's 27 s), and Halide's own execution is the JIT
    // oracle's. Unproved obligations are still replayed (step 3).
    const v = await verifyFiles(args, [file], halide, async (r, ci) => {
      // A float value shown wrong or not proved: where Halide wrote it differently (fast-math).
      const limited = withinBufferLimits(await confirmGuarded(r, ci, c.translation.guardedStores), c.translation.params, c.driver.target);
      const g = fastMathPlace(notContradicted(limited, jit, script, fastMath), ci);
      return named === null || g.assumptions === null ? g : { ...g, assumptions: named };
    }, { runsFirst: 'small' });
    return Math.max(v, code) === EXIT_INPUT ? EXIT_INPUT : v !== EXIT_OK ? v : code;
  },
};

type TracingComparison = HalideCase['tracing']['final'];

function jitAgreement(jit: JitReport): string {
  if (jit.realizeError) return "not compared: Halide's realize failed";
  if (jit.bigstep === 'error') return "not compared: the translation's run stopped on an error";
  if (jit.differences === 0) return `Halide's realize and the big-step run agree on all ${jit.cells} output cells`;
  if (jit.beyondTolerance === 0) return `Halide's realize and the big-step run agree on all ${jit.cells} output cells within the tolerance, bit for bit on ${jit.cells - jit.differences}`;
  return `Halide's realize and the big-step run DIFFER on ${jit.beyondTolerance}/${jit.cells} output cells`;
}

/**
 * Where the JIT oracle runs: the script's `example`, or, without one, the smallest parameters the
 * assumptions allow, with the output at least 4 wide in each dimension when that is possible (1,
 * else anything): a message when it cannot run (the script's example is None, or the sizes found
 * are too large to run).
 */
export async function jitParams(c: HalideCase, ci: CheckedImpl): Promise<ReadonlyMap<string, bigint> | string> {
  const ex = c.driver.example;
  if (ex === null) return "the script's example is None (sizes too large to run)";
  if (ex !== undefined && ex !== 'choose') return exampleParams(c);
  const outs = c.translation.params.filter((p) => p.halide.startsWith(`${c.driver.output}.extent.`)).map((p) => p.sched);
  for (const least of [4n, 1n, null]) {
    const ctx = least === null ? [] : outs.map((p) => geT(variable(p), constant(least)));
    const [m] = await smallParameters(ci, 1, null, ctx);
    if (m === undefined) continue;
    const cells = outs.reduce((a, p) => a * (m.get(p) ?? 1n), 1n);
    if (cells > 1n << 16n) return `the smallest sizes the assumptions allow give ${cells} output cells`;
    return m;
  }
  return 'no parameter values satisfy the assumptions within [0, 4096]';
}

/**
 * A verdict Halide's own execution contradicts is not `valid`: when the JIT oracle found output
 * cells where Halide's realize and the translation differ (beyond the tolerance of a fast-math
 * pipeline), or realize failed where the translation runs, the verdict becomes `invalid`
 * (`jit-mismatch`): the translation does not mean what Halide's code computes on those inputs.
 * A fast-math pipeline that agrees within the tolerance keeps its verdict with the tolerance
 * stated as its qualifier.
 */
export function notContradicted(r: VerifyResult, jit: JitReport | null, script: string, fastMath: string | null = jit?.fastMath ?? null): VerifyResult {
  // A pipeline Halide compiles with fast-math flags is not the IEEE program the verdict is about:
  // a `valid` says so (fast-math.ts), whatever the JIT showed (it may not have run).
  const qualify = (what: string): VerifyResult => ({ ...r, qualifier: `${r.qualifier ? `${r.qualifier}, ` : ''}${what}` });
  const loose = r.verdict === 'valid' && fastMath !== null && r.float !== 'real';
  // A realize that fails (an assert on metadata the translation does not model, a device
  // runtime that is not there) compares nothing: the verdict stands, and the failure is shown.
  if (jit === null || r.verdict !== 'valid' || jit.realizeError || jit.bigstep === 'error') return loose ? qualify(`of the IEEE reading (Halide's code is fast-math: ${fastMath})`) : r;
  if (jit.beyondTolerance === 0) {
    if (!loose) return r;
    return qualify(`of the IEEE reading (Halide's code is fast-math: ${fastMath}; its JIT agrees ${jit.differences === 0 ? 'bit for bit' : `within ${jit.tolerance} relative`} on ${jit.cells} cells)`);
  }
  const cells = jit.examples.map((x) => `[${x.index.join(', ')}]: Halide ${x.halide}, translation ${x.bigstep}`).join('; ');
  const what = `Halide's realize and the translation differ on ${jit.beyondTolerance} of ${jit.cells} output cells${cells ? ` (${cells})` : ''}`;
  return {
    ...r,
    verdict: 'invalid',
    class: 'jit-mismatch',
    reason: `${what} at ${Object.entries(jit.params).map(([k, v]) => `${k} = ${v}`).join(', ')}, seed ${jit.seed}: the verification's proof is about a program that does not compute what Halide's code computes (replay: npx sched halide ${script} --jit --seed ${jit.seed})`,
    counterexample: { values: jit.params, line: 0, col: 0, obligation: 'halide-jit', description: "Halide's own execution against the translation" },
    replay: null,
  };
}
