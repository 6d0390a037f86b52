// The MLIR execution oracle (compilers/mlir/runner.ts, docs/mlir.md). Without MLIR 16: the pipeline
// words, the signature reader and the exact cells. With Debian's mlir-16-tools and libmlir-16: a gemm
// run under mlir-cpu-runner equals a plain reference bit for bit, tiling it changes nothing, a wrong
// target is caught cell by cell, an out-of-bounds write is seen in the guard zones, and bad input of
// every kind is an input error (never a crash).

import { describe, expect, it } from 'vitest';
import { cellOfNumber, denseHex, floatBits, floatOfBits, renderCell } from '../compilers/mlir/cells.ts';
import { kernelSignature, parseFunctionType } from '../compilers/mlir/harness.ts';
import { checkPipelineArgs, joinArgs, splitArgs } from '../compilers/mlir/pipeline-args.ts';
import { compare, differential, execute, executeBatch, type Execution, MlirInputError, MlirRunError, runPasses } from '../compilers/mlir/runner.ts';
import { MLIR_PACKAGES, mlirMissing } from '../compilers/mlir/tools.ts';

const MISSING = mlirMissing();
if (MISSING !== null) process.stderr.write(`mlir-runner.test: MLIR execution tests skipped: ${MISSING}\n`);

const GEMM = `func.func @gemm(%N: index, %A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %alpha: f32) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to %N {
      affine.for %k = 0 to %N {
        %a = affine.load %A[%i, %k] : memref<?x?xf32>
        %b = affine.load %B[%k, %j] : memref<?x?xf32>
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.mulf %p, %alpha : f32
        %s = arith.addf %c, %q : f32
        affine.store %s, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}`;

describe('without MLIR', () => {
  it('splits pipeline words like a shell and refuses what is not a pass option', () => {
    expect(splitArgs(`--affine-loop-tile='tile-size=4 separate' --pass-pipeline="builtin.module(func.func(affine-loop-fusion{mode=\\"producer\\"}))"`)).toEqual([
      '--affine-loop-tile=tile-size=4 separate',
      '--pass-pipeline=builtin.module(func.func(affine-loop-fusion{mode="producer"}))',
    ]);
    expect(splitArgs(joinArgs(["--x='a b'", '--y'])) ).toEqual(["--x='a b'", '--y']);
    expect(() => splitArgs("--a='b")).toThrow(/unterminated/);
    for (const bad of [['-o', 'f'], ['in.mlir'], ['--load-pass-plugin=x.so'], ['--mlir-print-op-generic']]) expect(() => checkPipelineArgs(bad)).toThrow();
    expect(() => checkPipelineArgs(['--affine-loop-unroll=unroll-factor=2', '--canonicalize'])).not.toThrow();
  });

  it('reads signatures from the generic printing', () => {
    const generic = [
      '#map = affine_map<(d0) -> (d0)>',
      '"builtin.module"() ({',
      '  "func.func"() ({',
      '  }) {function_type = (memref<4xf32>) -> (), sym_name = "decl", sym_visibility = "private"} : () -> ()',
      '  "func.func"() ({',
      '  ^bb0(%arg0: memref<?x4xi8, strided<[?, 1], offset: ?>>, %arg1: index):',
      '    "func.return"(%arg1) : (index) -> ()',
      '  }) {function_type = (memref<?x4xi8, strided<[?, 1], offset: ?>>, index) -> index, sym_name = "k"} : () -> ()',
      '}) : () -> ()',
    ].join('\n');
    const sig = kernelSignature(generic, 'k');
    expect(sig.args.map((a) => [a.kind, a.elem, a.kind === 'memref' ? a.shape : null])).toEqual([['memref', 'i8', [null, 4]], ['scalar', 'index', null]]);
    expect(sig.results.map((r) => r.elem)).toEqual(['index']);
    expect(() => kernelSignature(generic, 'decl')).toThrow(/declaration/);
    expect(() => kernelSignature(generic, 'nope')).toThrow(/no function/);
    expect(() => parseFunctionType('(memref<4xf32, affine_map<(d0) -> (d0 + 1)>>) -> ()', 'f')).toThrow(/layout/);
    expect(() => parseFunctionType('(memref<4xf32, 1>) -> ()', 'f')).toThrow(/memory space/);
    expect(() => parseFunctionType('(memref<4xbf16>) -> ()', 'f')).toThrow(/bf16/);
    expect(() => parseFunctionType('() -> memref<4xf32>', 'f')).toThrow(/memref results/);
  });

  it('keeps cells exact', () => {
    expect(denseHex('f32', [floatBits('f32', 1.5)])).toBe('0x0000C03F');
    expect(denseHex('i16', [-2n])).toBe('0xFEFF');
    expect(floatOfBits('f64', floatBits('f64', 0.1))).toBe(0.1);
    expect(cellOfNumber('f32', 0.1)).toBeNull();
    expect(cellOfNumber('i8', 200)).toBeNull();
    expect(renderCell('f32', 0xbfa00000n)).toBe('-1.25 (0xbfa00000)');
  });
});

describe.skipIf(MISSING !== null)(`with MLIR 16 (${MLIR_PACKAGES})`, () => {
  const sizes = [4, { shape: [4, 4] }, { shape: [4, 4] }, { shape: [4, 4] }] as const;

  it('runs gemm exactly as a plain reference computes it', () => {
    const e = execute(GEMM, 'gemm', sizes, 7);
    const f = (bits: bigint): number => floatOfBits('f32', bits);
    const [A, B, C] = e.memrefs.map((m) => m.initial.map(f));
    const alpha = f((e.inputs[4] as { cell: bigint }).cell);
    const ref = [...C!];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) {
      ref[i * 4 + j] = Math.fround(ref[i * 4 + j]! + Math.fround(Math.fround(A![i * 4 + k]! * B![k * 4 + j]!) * alpha));
    }
    expect(e.memrefs[2]!.final.map(f)).toEqual(ref);
    expect(e.memrefs.map((m) => m.guardBytesChanged)).toEqual([0, 0, 0]);
    // Inputs are seeded: the same seed gives the same cells, another seed others.
    expect(execute(GEMM, 'gemm', sizes, 7).memrefs[0]!.initial).toEqual(e.memrefs[0]!.initial);
    expect(e.memrefs[0]!.initial).not.toEqual(execute(GEMM, 'gemm', sizes, 8).memrefs[0]!.initial);
  });

  it('agrees with a tiling and finds a wrong target cell by cell', () => {
    const d = differential(GEMM, "--affine-loop-tile='tile-size=3'", 'gemm', sizes, 1);
    expect(d.pass.output).toMatch(/step = 3 : index/);
    expect(d.comparison).toMatchObject({ equal: true, cells: 48 });
    // A "target" whose inner loop stops one short: C[i][j] misses its k = 3 term, for every i, j.
    const wrong = GEMM.replace('affine.for %k = 0 to %N', 'affine.for %k = 0 to affine_map<()[s0] -> (s0 - 1)>()[%N]');
    const before = execute(GEMM, 'gemm', sizes, 1);
    const after = execute(wrong, 'gemm', before.inputs.map((v, k) => (v.kind === 'memref' ? { shape: v.shape, cells: v.cells } : sizes[k])), 1);
    const c = compare(before, after);
    expect(c.equal).toBe(false);
    expect(c.differences.map((x) => x.index)).toHaveLength(16 - before.memrefs[2]!.final.filter((_, i) => {
      // a cell whose k = 3 term is zero keeps its value
      const a = before.memrefs[0]!.initial[Math.floor(i / 4) * 4 + 3]!;
      const b = before.memrefs[1]!.initial[12 + (i % 4)]!;
      return floatOfBits('f32', a) * floatOfBits('f32', b) === 0;
    }).length);
    expect(c.differences[0]!.where).toBe('argument 3');
  });

  it('sees an out-of-bounds write in the guard zone', () => {
    const oob = 'func.func @f(%a: memref<2xi32>) {\n %c = arith.constant 2 : index\n %x = arith.constant 7 : i32\n memref.store %x, %a[%c] : memref<2xi32>\n return\n}';
    expect(execute(oob, 'f', []).memrefs[0]!.guardBytesChanged).toBe(4);
    // A write past a buffer the kernel allocates itself is seen in the heap's guard zones; a read of
    // a cell nobody wrote gives the heap's canary bytes, the same on every run.
    const heap = 'func.func @f(%a: memref<2xi32>) {\n %b = memref.alloc() : memref<3xi32>\n %c3 = arith.constant 3 : index\n %c0 = arith.constant 0 : index\n %x = arith.constant 7 : i32\n memref.store %x, %b[%c3] : memref<3xi32>\n %y = memref.load %b[%c0] : memref<3xi32>\n memref.store %y, %a[%c0] : memref<2xi32>\n memref.dealloc %b : memref<3xi32>\n return\n}';
    const e = execute(heap, 'f', []);
    expect(e.heapGuardBytesChanged).toBe(4);
    expect(e.memrefs[0]!.final[0]).toBe(0x5a5a5a5an);
  });

  it('runs several kernels in one process, and each alone when the batch fails', () => {
    const module = `${GEMM}
func.func @twice(%a: memref<3xi16>, %k: i16) -> (i16, f64) {
  %c1 = arith.constant 1 : index
  %x = memref.load %a[%c1] : memref<3xi16>
  %y = arith.addi %x, %x : i16
  memref.store %y, %a[%c1] : memref<3xi16>
  %f = arith.constant 2.5 : f64
  return %k, %f : i16, f64
}
func.func @wild(%a: memref<2xi32>) {
  %big = arith.constant 100000000 : index
  %x = arith.constant 7 : i32
  memref.store %x, %a[%big] : memref<2xi32>
  return
}`;
    const [g, t] = executeBatch(module, [{ kernel: 'gemm', specs: sizes, seed: 7 }, { kernel: 'twice', specs: [undefined, 5], seed: 1 }]);
    expect(g).not.toBeInstanceOf(Error);
    expect((g as Execution).memrefs[2]!.final).toEqual(execute(GEMM, 'gemm', sizes, 7).memrefs[2]!.final);
    const tw = t as Execution;
    expect(tw.memrefs[0]!.final[1]).toBe(2n * tw.memrefs[0]!.initial[1]!);
    expect(tw.results.map((r) => r.cell)).toEqual([5n, floatBits('f64', 2.5)]);
    // A kernel that writes far outside its buffers faults: the others still get their runs.
    const [w, t2] = executeBatch(module, [{ kernel: 'wild', specs: [], seed: 0 }, { kernel: 'twice', specs: [undefined, 5], seed: 1 }]);
    expect(w).toBeInstanceOf(MlirRunError);
    expect((w as MlirRunError).kind).toBe('runtime');
    expect((t2 as Execution).results.map((r) => r.cell)).toEqual([5n, floatBits('f64', 2.5)]);
  });

  it('reports bad input as input errors and a runaway program as a limit', () => {
    const kind = (f: () => unknown): string => {
      try {
        f();
        return 'ok';
      } catch (e) {
        if (e instanceof MlirInputError) return `input: ${e.message}`;
        if (e instanceof MlirRunError) return e.kind;
        throw e;
      }
    };
    expect(kind(() => runPasses(GEMM, '--affine-loop-tyle'))).toMatch(/^input: <pipeline>:1:1: error: Unknown command line argument/);
    expect(kind(() => runPasses(GEMM, '--affine-loop-tile=tile-sise=3'))).toMatch(/no such option tile-sise/);
    expect(kind(() => runPasses(GEMM, "--pass-pipeline='builtin.module(func.func(cse)'"))).toMatch(/^input: <pipeline>:1:\d+: error: pass pipeline/);
    expect(kind(() => runPasses('func.func @f( {', '--canonicalize', { fileName: 'x.mlir' }))).toMatch(/^input: x.mlir:1:14: error: expected non-function type/);
    expect(kind(() => execute(GEMM, 'gemm', [4]))).toMatch(/dynamic dimension: give its shape/);
    expect(kind(() => execute(GEMM, 'gemm', []))).toMatch(/is an index: give its value/);
    expect(kind(() => execute('func.func @f(%t: tensor<4xf32>) { return }', 'f', []))).toMatch(/tensor<4xf32>: the harness supports/);
    const dma = GEMM.replaceAll('?x?', '4x4');
    expect(kind(() => differential(dma, '--affine-data-copy-generate', 'gemm', [4], 0))).toBe('lowering');
    const spin = 'func.func @f(%a: memref<2xi32>) {\n cf.br ^bb1\n^bb1:\n cf.br ^bb1\n}';
    expect(kind(() => execute(spin, 'f', [], 0, { limitMs: 1000 }))).toBe('limit');
  });
});
