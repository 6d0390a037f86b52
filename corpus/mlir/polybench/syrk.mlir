// KERNEL: @kernel_syrk
// SIZES: N=7 M=5 C=NxN A=NxM
// ASSUME: N >= 0 && M >= 0 && C_d0 == N && C_d1 == N && A_d0 == N && A_d1 == M
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE licm: --affine-loop-invariant-code-motion
// EXPECT licm: valid
// RUNNER licm: agrees
// PIPELINE vector: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT vector: invalid output-mismatch
// RUNNER vector: differs
//
// PolyBench/C 4.2 syrk: C := alpha*A*A^T + beta*C on the lower triangle (j <= i).
// vector: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/218120 (a loop whose trip count is not a multiple of 4 is vectorized past its iteration space).
#le = affine_map<(d0) -> (d0 + 1)>
func.func @kernel_syrk(%N: index, %M: index, %alpha: f64, %beta: f64, %C: memref<?x?xf64>, %A: memref<?x?xf64>) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to #le(%i) {
      %c = affine.load %C[%i, %j] : memref<?x?xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<?x?xf64>
    }
    affine.for %k = 0 to %M {
      affine.for %j = 0 to #le(%i) {
        %a = affine.load %A[%i, %k] : memref<?x?xf64>
        %aa = arith.mulf %alpha, %a : f64
        %b = affine.load %A[%j, %k] : memref<?x?xf64>
        %p = arith.mulf %aa, %b : f64
        %c = affine.load %C[%i, %j] : memref<?x?xf64>
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
