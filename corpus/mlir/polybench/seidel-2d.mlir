// KERNEL: @kernel_seidel_2d
// SIZES: TSTEPS=2 N=7 A=NxN
// ASSUME: TSTEPS >= 0 && N >= 0 && A_d0 == N && A_d1 == N
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE tile113: --affine-loop-tile='tile-sizes=1,1,3'
// EXPECT tile113: valid
// RUNNER tile113: agrees
// PIPELINE normalize: --affine-loop-normalize
// EXPECT normalize: valid
// RUNNER normalize: agrees
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: invalid output-mismatch
// RUNNER tile: differs
// PIPELINE tile-unroll: --affine-loop-tile='tile-size=4' --affine-loop-unroll=unroll-factor=2
// EXPECT tile-unroll: invalid output-mismatch
// RUNNER tile-unroll: differs
//
// PolyBench/C 4.2 seidel-2d: TSTEPS in-place Gauss-Seidel sweeps of a 9-point average.
// tile: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/pull/196972 (dependence distance (0, 1, -1) is not rejected: tiling reorders it).
// tile-unroll: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/pull/196972 (dependence distance (0, 1, -1) is not rejected: tiling reorders it).
#m2 = affine_map<()[s0] -> (s0 - 1)>
func.func @kernel_seidel_2d(%TSTEPS: index, %N: index, %A: memref<?x?xf64>) {
  %nine = arith.constant 9.0 : f64
  affine.for %t = 0 to %TSTEPS {
    affine.for %i = 1 to #m2()[%N] {
      affine.for %j = 1 to #m2()[%N] {
        %a00 = affine.load %A[%i - 1, %j - 1] : memref<?x?xf64>
        %a01 = affine.load %A[%i - 1, %j] : memref<?x?xf64>
        %a02 = affine.load %A[%i - 1, %j + 1] : memref<?x?xf64>
        %a10 = affine.load %A[%i, %j - 1] : memref<?x?xf64>
        %a11 = affine.load %A[%i, %j] : memref<?x?xf64>
        %a12 = affine.load %A[%i, %j + 1] : memref<?x?xf64>
        %a20 = affine.load %A[%i + 1, %j - 1] : memref<?x?xf64>
        %a21 = affine.load %A[%i + 1, %j] : memref<?x?xf64>
        %a22 = affine.load %A[%i + 1, %j + 1] : memref<?x?xf64>
        %s1 = arith.addf %a00, %a01 : f64
        %s2 = arith.addf %s1, %a02 : f64
        %s3 = arith.addf %s2, %a10 : f64
        %s4 = arith.addf %s3, %a11 : f64
        %s5 = arith.addf %s4, %a12 : f64
        %s6 = arith.addf %s5, %a20 : f64
        %s7 = arith.addf %s6, %a21 : f64
        %s8 = arith.addf %s7, %a22 : f64
        %r = arith.divf %s8, %nine : f64
        affine.store %r, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
