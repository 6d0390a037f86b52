// KERNEL: @kernel_2mm
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
// PolyBench/C 4.2 2mm: D := alpha*A*B*C + beta*D (tmp = alpha*A*B first).
func.func @kernel_2mm(%alpha: f64, %beta: f64,
                      %tmp: memref<5x6xf64>, %A: memref<5x4xf64>, %B: memref<4x6xf64>,
                      %C: memref<6x7xf64>, %D: memref<5x7xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 6 {
      affine.store %zero, %tmp[%i, %j] : memref<5x6xf64>
      affine.for %k = 0 to 4 {
        %a = affine.load %A[%i, %k] : memref<5x4xf64>
        %aa = arith.mulf %alpha, %a : f64
        %b = affine.load %B[%k, %j] : memref<4x6xf64>
        %p = arith.mulf %aa, %b : f64
        %t = affine.load %tmp[%i, %j] : memref<5x6xf64>
        %s = arith.addf %t, %p : f64
        affine.store %s, %tmp[%i, %j] : memref<5x6xf64>
      }
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 7 {
      %d = affine.load %D[%i, %j] : memref<5x7xf64>
      %db = arith.mulf %d, %beta : f64
      affine.store %db, %D[%i, %j] : memref<5x7xf64>
      affine.for %k = 0 to 6 {
        %t = affine.load %tmp[%i, %k] : memref<5x6xf64>
        %c = affine.load %C[%k, %j] : memref<6x7xf64>
        %p = arith.mulf %t, %c : f64
        %d2 = affine.load %D[%i, %j] : memref<5x7xf64>
        %s = arith.addf %d2, %p : f64
        affine.store %s, %D[%i, %j] : memref<5x7xf64>
      }
    }
  }
  return
}
