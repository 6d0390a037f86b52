// KERNEL: @kernel_jacobi_2d
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
// PolyBench/C 4.2 jacobi-2d: TSTEPS sweeps of a 5-point average between A and B.
// vector: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/218120 (a loop whose trip count is not a multiple of 4 is vectorized past its iteration space).
func.func @kernel_jacobi_2d(%A: memref<7x7xf64>, %B: memref<7x7xf64>) {
  %fifth = arith.constant 0.2 : f64
  affine.for %t = 0 to 2 {
    affine.for %i = 1 to 6 {
      affine.for %j = 1 to 6 {
        %c = affine.load %A[%i, %j] : memref<7x7xf64>
        %w = affine.load %A[%i, %j - 1] : memref<7x7xf64>
        %e = affine.load %A[%i, %j + 1] : memref<7x7xf64>
        %s = affine.load %A[%i + 1, %j] : memref<7x7xf64>
        %n = affine.load %A[%i - 1, %j] : memref<7x7xf64>
        %t0 = arith.addf %c, %w : f64
        %t1 = arith.addf %t0, %e : f64
        %t2 = arith.addf %t1, %s : f64
        %t3 = arith.addf %t2, %n : f64
        %r = arith.mulf %fifth, %t3 : f64
        affine.store %r, %B[%i, %j] : memref<7x7xf64>
      }
    }
    affine.for %i = 1 to 6 {
      affine.for %j = 1 to 6 {
        %c = affine.load %B[%i, %j] : memref<7x7xf64>
        %w = affine.load %B[%i, %j - 1] : memref<7x7xf64>
        %e = affine.load %B[%i, %j + 1] : memref<7x7xf64>
        %s = affine.load %B[%i + 1, %j] : memref<7x7xf64>
        %n = affine.load %B[%i - 1, %j] : memref<7x7xf64>
        %t0 = arith.addf %c, %w : f64
        %t1 = arith.addf %t0, %e : f64
        %t2 = arith.addf %t1, %s : f64
        %t3 = arith.addf %t2, %n : f64
        %r = arith.mulf %fifth, %t3 : f64
        affine.store %r, %A[%i, %j] : memref<7x7xf64>
      }
    }
  }
  return
}
