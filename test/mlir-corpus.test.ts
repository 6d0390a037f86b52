// The MLIR corpus (docs/mlir.md § Corpus files): the header reader, then with Debian's MLIR 16 every
// PolyBench kernel of corpus/mlir/polybench run under mlir-cpu-runner equals its plain reference
// (corpus/mlir/polybench/reference.ts) bit for bit, and every pipeline of corpus/bugs/mlir does what
// its RUNNER line says (the miscompilations differ, the controls agree). The PolyBench pipelines
// are checked by `npx tsx corpus/mlir/check.ts corpus/mlir` (a minute and more: not a test).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SchedInputError } from '../core/language/diagnostics.ts';
import { floatBits, floatOfBits, isFloat } from '../compilers/mlir/cells.ts';
import { argSpecs, kernelArgNames, readHeader } from '../compilers/mlir/corpus-header.ts';
import { execute } from '../compilers/mlir/runner.ts';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';
import { checkFile, mlirFiles } from '../corpus/mlir/check.ts';
import { type Args, REFERENCES } from '../corpus/mlir/polybench/reference.ts';
import { DEEP, sample } from './tier.ts';

const ROOT = join(import.meta.dirname, '..');
const MISSING = mlirMissing();
if (MISSING !== null) process.stderr.write(`mlir-corpus.test: MLIR corpus runs skipped: ${MISSING}\n`);

const HEADER = `// KERNEL: @k
// SIZES: N=3 A=Nx2 alpha=0.5
// PIPELINE t: --affine-loop-tile='tile-size=2'
// EXPECT t: valid
// RUNNER t: agrees
// PIPELINE u: --affine-loop-unroll
// EXPECT u: invalid output-mismatch
// RUNNER u: differs
// BUG: new: a summary
// prose is ignored
func.func @k(%N: index, %A: memref<?x2xf32> {llvm.noalias}, %alpha: f32, %s: i32) {
  return
}
`;

function inputErrors(text: string): string {
  try {
    readHeader(text, 'x.mlir');
    return 'ok';
  } catch (e) {
    if (e instanceof SchedInputError) return e.message;
    throw e;
  }
}

describe('corpus headers', () => {
  it('reads the header and maps SIZES to the kernel arguments', () => {
    const h = readHeader(HEADER, 'x.mlir');
    expect(h.kernel).toBe('k');
    expect(h.pipelines.map((p) => [p.label, p.args, p.expect, p.runner])).toEqual([
      ['t', "--affine-loop-tile='tile-size=2'", { verdict: 'valid' }, 'agrees'],
      ['u', '--affine-loop-unroll', { verdict: 'invalid', cls: 'output-mismatch' }, 'differs'],
    ]);
    expect(h.bugs).toEqual([{ url: null, summary: 'a summary' }]);
    expect(kernelArgNames(HEADER, 'k')?.map((a) => a.name)).toEqual(['N', 'A', 'alpha', 's']);
    expect(argSpecs(h, HEADER, 'x.mlir')).toEqual([3n, { shape: [3, 2] }, 0.5, undefined]);
  });

  it('says what is wrong, where', () => {
    expect(inputErrors('// PIPELINE t: --x\n// EXPECT t: valid\n')).toMatch(/x.mlir:1:1: error: no KERNEL line/);
    expect(inputErrors('// KERNEL: @k\n// PIPELINE t: --x\n// EXPECT t: valid\n')).toMatch(/x.mlir:2:4: error: PIPELINE t has no RUNNER line/);
    expect(inputErrors('// KERNEL: @k\n// PIPELINE t: --x\n// EXPECT t: maybe\n// RUNNER t: agrees\n')).toMatch(/x.mlir:3:4: error: bad EXPECT \(expected valid \| invalid/);
    expect(inputErrors('// KERNEL: @k\n// PIPELINE t: --x\n// EXPECT t: valid\n// RUNNER q: agrees\n')).toMatch(/RUNNER for an unknown pipeline 'q'/);
    expect(inputErrors('// KERNEL: @k\n// PIPELINE t: --x\n// EXPECT t: valid\n// RUNNER t: agrees\n// BUG: issue 5\n')).toMatch(/x.mlir:5:9: error: bad BUG/);
    const h = readHeader(HEADER.replace('A=Nx2', 'A=Mx2'), 'x.mlir');
    expect(() => argSpecs(h, HEADER, 'x.mlir')).toThrow(/x.mlir:2:\d+: error: unknown size 'M' in the shape of %A/);
  });
});

/** The kernel's arguments by name, as numbers (floats decoded, integers exact in a double). */
function namedArgs(text: string, kernel: string, run: ReturnType<typeof execute>): Args {
  const names = kernelArgNames(text, kernel)!;
  const out: Record<string, number | { shape: number[]; data: number[] }> = {};
  run.signature.args.forEach((a, k) => {
    const v = run.inputs[k]!;
    const dec = (c: bigint): number => (isFloat(a.elem) ? floatOfBits(a.elem as 'f32' | 'f64', c) : Number(c));
    out[names[k]!.name] = v.kind === 'scalar' ? dec(v.cell) : { shape: [...v.shape], data: v.cells.map(dec) };
  });
  return out;
}

describe.skipIf(MISSING !== null)(`corpus under mlir-cpu-runner (${MLIR_PACKAGES})`, () => {
  const polybench = mlirFiles([join(ROOT, 'corpus/mlir/polybench')]);

  it('has at least 20 PolyBench kernels with 3 agreeing pipelines each', () => {
    expect(polybench.length).toBeGreaterThanOrEqual(20);
    for (const f of polybench) {
      const h = readHeader(readFileSync(f, 'utf8'), f);
      expect(h.pipelines.filter((p) => p.runner === 'agrees').length, f).toBeGreaterThanOrEqual(3);
    }
  });

  it('runs every PolyBench kernel exactly as its plain reference', () => {
    for (const f of polybench) {
      const text = readFileSync(f, 'utf8');
      const h = readHeader(text, f);
      const run = execute(text, h.kernel, argSpecs(h, text, f), h.seed, { fileName: f });
      const args = namedArgs(text, h.kernel, run);
      const reference = REFERENCES[h.kernel];
      expect(reference, `a reference for ${h.kernel}`).toBeDefined();
      reference!(args);
      const names = kernelArgNames(text, h.kernel)!;
      for (const m of run.memrefs) {
        const want = (args[names[m.arg]!.name] as { data: number[] }).data;
        // A NaN's sign and payload are the hardware's (JavaScript has one NaN): any NaN matches a NaN.
        const got = m.final.map((c) => (isFloat(m.elem) && Number.isNaN(floatOfBits(m.elem as 'f32' | 'f64', c)) ? 'NaN' : c));
        const wantCells = want.map((x) => (Number.isNaN(x) ? 'NaN' : isFloat(m.elem) ? floatBits(m.elem as 'f32' | 'f64', x) : BigInt(x)));
        expect(got, `${f}: %${names[m.arg]!.name}`).toEqual(wantCells);
        expect(m.guardBytesChanged).toBe(0);
      }
    }
  });

  it('reproduces every miscompilation of corpus/bugs/mlir, and every control agrees', () => {
    // Every other file in the quick tier (`npm test`), every one in the deep tier (test/tier.ts).
    const files = mlirFiles([join(ROOT, 'corpus/bugs/mlir')]);
    const rows = sample(files, 2).flatMap((f) => checkFile(f, { detectUnchanged: false }));
    expect(rows.filter((r) => !r.ok).map((r) => `${r.file} ${r.label}: ${r.seen}`)).toEqual([]);
    // Floors on how many were checked: of every file, in the deep tier.
    if (DEEP) {
      expect(rows.filter((r) => r.expected === 'differs').length).toBeGreaterThanOrEqual(12);
      expect(rows.filter((r) => r.expected === 'agrees').length).toBeGreaterThanOrEqual(12);
    }
  });
});
