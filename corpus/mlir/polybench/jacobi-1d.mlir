// KERNEL: @kernel_jacobi_1d
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
// PIPELINE tile-unroll: --affine-loop-tile='tile-size=4' --affine-loop-unroll=unroll-factor=2
// EXPECT tile-unroll: valid
// RUNNER tile-unroll: agrees
// PIPELINE vector: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT vector: invalid output-mismatch
// RUNNER vector: differs
//
// PolyBench/C 4.2 jacobi-1d: TSTEPS sweeps of a 3-point average between A and B.
// vector: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/218120 (a loop whose trip count is not a multiple of 4 is vectorized past its iteration space).
func.func @kernel_jacobi_1d(%A: memref<9xf64>, %B: memref<9xf64>) {
  %third = arith.constant 0.33333 : f64
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 8 {
      %a0 = affine.load %A[%i - 1] : memref<9xf64>
      %a1 = affine.load %A[%i] : memref<9xf64>
      %a2 = affine.load %A[%i + 1] : memref<9xf64>
      %s0 = arith.addf %a0, %a1 : f64
      %s1 = arith.addf %s0, %a2 : f64
      %r = arith.mulf %third, %s1 : f64
      affine.store %r, %B[%i] : memref<9xf64>
    }
    affine.for %i = 1 to 8 {
      %b0 = affine.load %B[%i - 1] : memref<9xf64>
      %b1 = affine.load %B[%i] : memref<9xf64>
      %b2 = affine.load %B[%i + 1] : memref<9xf64>
      %s0 = arith.addf %b0, %b1 : f64
      %s1 = arith.addf %s0, %b2 : f64
      %r = arith.mulf %third, %s1 : f64
      affine.store %r, %A[%i] : memref<9xf64>
    }
  }
  return
}
