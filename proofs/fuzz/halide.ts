// Real Halide 14 as a compiler under test of `sched fuzz --compiler halide`: the case is written as a
// Python Halide script (script.ts), lowered by Halide and translated (run.ts, translate.ts), and
// the translated implementation is judged against OUR spec of the algorithm (withReferenceSpec),
// not the spec the translation derives from Halide's view of the Funcs. The jit oracle (Halide's
// realize against our big-step run, run.ts) comes with the output as a NativeOracle.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchedInputError } from '../../core/language/diagnostics.ts';
import type { Algorithm } from '../../compilers/algorithm/algorithm.ts';
import { parseProgram } from '../../core/language/parser.ts';
import { type Compiler, type CompileResult, SPEC_NAME, withReferenceSpec } from './compilers.ts';
import type { NativeReport } from './oracles.ts';
import { HalideError, halideCase, type HalideCase, halideMissing, jitOracle } from '../../compilers/halide/run.ts';
import { halideScript, INPUT_MIN, inputExtent, ScriptUnsupported } from '../../compilers/halide/script.ts';
import { Unsupported } from '../../compilers/halide/translate.ts';

export const HALIDE_COMPILER = 'halide';

/**
 * The translated implementation in the algorithm's parameters: output extents are N, M (the
 * algorithm's names), input buffers have the script's fixed shape, Params keep their names.
 * Identifiers are whole words of the translator's output, which gives every name once.
 */
function instantiate(c: HalideCase, alg: Algorithm): string {
  const text = c.translation.text;
  const at = text.indexOf(`\nimpl ${c.translation.implName} `);
  if (at < 0) throw new Error(`internal: no impl ${c.translation.implName} in the translation`);
  let impl = text.slice(at);
  const subst = new Map<string, string>();
  for (const p of c.translation.params) {
    let m: RegExpExecArray | null;
    if ((m = /^(.+)\.extent\.(\d+)$/.exec(p.halide)) && m[1] === alg.output.func) subst.set(p.sched, alg.output.extents[Number(m[2])]!);
    else if (/\.min\.\d+$/.test(p.halide)) subst.set(p.sched, `(${INPUT_MIN})`);
    else if (/\.extent\.\d+$/.test(p.halide)) subst.set(p.sched, `(${inputExtent(alg)})`);
    else if (alg.params.includes(p.halide)) subst.set(p.sched, p.halide);
    else throw new Error(`internal: translation parameter ${p.sched} (${p.halide}) is not the algorithm's`);
  }
  for (const p of alg.params) {
    // A name of the translation that is one of ours but not the same thing would be captured.
    if (new RegExp(`\\b${p}\\b`).test(impl) && ![...subst].some(([k, v]) => k === p && v === p)) throw new Error(`internal: the translation uses '${p}' for something else`);
  }
  impl = impl.replace(/\b[A-Za-z_][A-Za-z0-9_]*\b/g, (w) => subst.get(w) ?? w);
  return text.slice(0, at) + impl;
}

/** Halide's own run of the case, at parameters of our checked program. */
function nativeOracle(c: HalideCase, alg: Algorithm) {
  return async (ci: Parameters<typeof jitOracle>[1], params: ReadonlyMap<string, bigint>, seed: number): Promise<NativeReport> => {
    const t0 = performance.now();
    const inputMins: Record<string, number[]> = {};
    for (const i of c.translation.inputs) inputMins[i.name] = i.extents.map(() => INPUT_MIN);
    const halideParams: Record<string, number> = {};
    for (const p of alg.params) if (!alg.output.extents.includes(p)) halideParams[p] = Number(params.get(p) ?? 0n);
    const j = jitOracle(c, ci, seed, { params, inputMins, halideParams });
    return {
      params: Object.fromEntries([...params].map(([k, v]) => [k, v.toString()])),
      bigstep: j.bigstepError ? `${j.bigstep} (${j.bigstepError})` : j.bigstep,
      compared: j.bigstep !== 'error',
      cells: j.cells,
      differences: j.differences,
      beyondTolerance: j.beyondTolerance,
      error: j.realizeError ?? null,
      examples: j.examples.map((x) => ({ index: x.index, native: x.halide, bigstep: x.bigstep })),
      ms: performance.now() - t0,
    };
  };
}

/** The first line of Halide's message, for the reason of a rejection. */
function firstLine(s: string): string {
  return s.split('\n').map((l) => l.trim()).filter((l) => l !== '').slice(0, 2).join(' ').slice(0, 300);
}

/**
 * Halide 14 as the compiler under test. Fails at creation, naming the Debian packages, when
 * Debian's python3 cannot import halide.
 */
export function halideCompiler(): Compiler {
  const missing = halideMissing();
  if (missing !== null) throw new HalideError(missing);
  let dir: string | null = null;
  return {
    name: HALIDE_COMPILER,
    async compile(fc): Promise<CompileResult> {
      let script: string;
      try {
        script = halideScript(fc.alg, fc.sched);
      } catch (e) {
        if (e instanceof ScriptUnsupported) return { ok: false, rejected: true, error: `no Halide 14 script: ${e.message}` };
        throw e;
      }
      // One script at a time: the jit oracle reads it again after compile() returns.
      if (dir !== null) rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'sched-hfuzz-'));
      const file = join(dir, `${SPEC_NAME}.py`);
      writeFileSync(file, script);
      let c: HalideCase;
      try {
        c = halideCase(file, SPEC_NAME, { specFromCaller: true });
      } catch (e) {
        if (e instanceof Unsupported) return { ok: false, rejected: true, error: `translation: ${e.message}` };
        if (e instanceof HalideError) return { ok: false, rejected: true, error: `Halide 14: ${firstLine(e.message)}` };
        if (e instanceof SchedInputError) return { ok: false, rejected: false, error: `the translation is not a valid .sched file: ${e.diagnostics[0]?.message ?? ''}` };
        throw e;
      }
      // Lowering got past the translated pass but code generation refused the schedule.
      if (c.driver.traced.error) return { ok: false, rejected: true, error: `Halide 14 (code generation): ${firstLine(c.driver.traced.error)}` };
      const artifacts = { 'pipeline.py': script, 'halide.sched': c.translation.text };
      let text: string;
      try {
        const prog = parseProgram('halide.sched', instantiate(c, fc.alg));
        text = withReferenceSpec(fc.alg, prog.impls[0]!);
      } catch (e) {
        if (e instanceof SchedInputError) return { ok: false, rejected: false, error: `the translation does not parse: ${e.diagnostics[0]?.message ?? ''}` };
        throw e;
      }
      return { ok: true, text, artifacts, native: nativeOracle(c, fc.alg) };
    },
    close(): void {
      if (dir !== null) rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}
