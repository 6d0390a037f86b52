// KERNEL: @kernel_3mm
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE fusion: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT fusion: valid
// RUNNER fusion: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
//
// PolyBench/C 4.2 3mm: E := A*B, F := C*D, G := E*F.
func.func @kernel_3mm(%E: memref<5x6xf64>, %A: memref<5x4xf64>, %B: memref<4x6xf64>,
                      %F: memref<6x7xf64>, %C: memref<6x3xf64>, %D: memref<3x7xf64>,
                      %G: memref<5x7xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 6 {
      affine.store %zero, %E[%i, %j] : memref<5x6xf64>
      affine.for %k = 0 to 4 {
        %a = affine.load %A[%i, %k] : memref<5x4xf64>
        %b = affine.load %B[%k, %j] : memref<4x6xf64>
        %p = arith.mulf %a, %b : f64
        %e = affine.load %E[%i, %j] : memref<5x6xf64>
        %s = arith.addf %e, %p : f64
        affine.store %s, %E[%i, %j] : memref<5x6xf64>
      }
    }
  }
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 7 {
      affine.store %zero, %F[%i, %j] : memref<6x7xf64>
      affine.for %k = 0 to 3 {
        %c = affine.load %C[%i, %k] : memref<6x3xf64>
        %d = affine.load %D[%k, %j] : memref<3x7xf64>
        %p = arith.mulf %c, %d : f64
        %f = affine.load %F[%i, %j] : memref<6x7xf64>
        %s = arith.addf %f, %p : f64
        affine.store %s, %F[%i, %j] : memref<6x7xf64>
      }
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 7 {
      affine.store %zero, %G[%i, %j] : memref<5x7xf64>
      affine.for %k = 0 to 6 {
        %e = affine.load %E[%i, %k] : memref<5x6xf64>
        %f = affine.load %F[%k, %j] : memref<6x7xf64>
        %p = arith.mulf %e, %f : f64
        %g = affine.load %G[%i, %j] : memref<5x7xf64>
        %s = arith.addf %g, %p : f64
        affine.store %s, %G[%i, %j] : memref<5x7xf64>
      }
    }
  }
  return
}
