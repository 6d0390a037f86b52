// KERNEL: @kernel_fdtd_2d
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
// PolyBench/C 4.2 fdtd-2d: TMAX steps of the 2-D finite-difference time-domain update of ex, ey, hz.
// vector: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/218120 (a loop whose trip count is not a multiple of 4 is vectorized past its iteration space).
func.func @kernel_fdtd_2d(%ex: memref<5x6xf64>, %ey: memref<5x6xf64>,
                          %hz: memref<5x6xf64>, %fict: memref<3xf64>) {
  %half = arith.constant 0.5 : f64
  %c07 = arith.constant 0.7 : f64
  affine.for %t = 0 to 3 {
    affine.for %j = 0 to 6 {
      %f = affine.load %fict[%t] : memref<3xf64>
      affine.store %f, %ey[0, %j] : memref<5x6xf64>
    }
    affine.for %i = 1 to 5 {
      affine.for %j = 0 to 6 {
        %e = affine.load %ey[%i, %j] : memref<5x6xf64>
        %h = affine.load %hz[%i, %j] : memref<5x6xf64>
        %hm = affine.load %hz[%i - 1, %j] : memref<5x6xf64>
        %d = arith.subf %h, %hm : f64
        %m = arith.mulf %half, %d : f64
        %r = arith.subf %e, %m : f64
        affine.store %r, %ey[%i, %j] : memref<5x6xf64>
      }
    }
    affine.for %i = 0 to 5 {
      affine.for %j = 1 to 6 {
        %e = affine.load %ex[%i, %j] : memref<5x6xf64>
        %h = affine.load %hz[%i, %j] : memref<5x6xf64>
        %hm = affine.load %hz[%i, %j - 1] : memref<5x6xf64>
        %d = arith.subf %h, %hm : f64
        %m = arith.mulf %half, %d : f64
        %r = arith.subf %e, %m : f64
        affine.store %r, %ex[%i, %j] : memref<5x6xf64>
      }
    }
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 5 {
        %h = affine.load %hz[%i, %j] : memref<5x6xf64>
        %exp = affine.load %ex[%i, %j + 1] : memref<5x6xf64>
        %exc = affine.load %ex[%i, %j] : memref<5x6xf64>
        %eyp = affine.load %ey[%i + 1, %j] : memref<5x6xf64>
        %eyc = affine.load %ey[%i, %j] : memref<5x6xf64>
        %d0 = arith.subf %exp, %exc : f64
        %d1 = arith.addf %d0, %eyp : f64
        %d2 = arith.subf %d1, %eyc : f64
        %m = arith.mulf %c07, %d2 : f64
        %r = arith.subf %h, %m : f64
        affine.store %r, %hz[%i, %j] : memref<5x6xf64>
      }
    }
  }
  return
}
