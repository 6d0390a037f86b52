// KERNEL: @kernel_atax
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
// PIPELINE vector: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT vector: valid
// RUNNER vector: agrees
//
// PolyBench/C 4.2 atax: y := A^T (A x), tmp := A x.
func.func @kernel_atax(%A: memref<5x7xf64>, %x: memref<7xf64>,
                       %y: memref<7xf64>, %tmp: memref<5xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 7 {
    affine.store %zero, %y[%i] : memref<7xf64>
  }
  affine.for %i = 0 to 5 {
    affine.store %zero, %tmp[%i] : memref<5xf64>
    affine.for %j = 0 to 7 {
      %t = affine.load %tmp[%i] : memref<5xf64>
      %a = affine.load %A[%i, %j] : memref<5x7xf64>
      %xv = affine.load %x[%j] : memref<7xf64>
      %p = arith.mulf %a, %xv : f64
      %s = arith.addf %t, %p : f64
      affine.store %s, %tmp[%i] : memref<5xf64>
    }
    affine.for %j = 0 to 7 {
      %yv = affine.load %y[%j] : memref<7xf64>
      %a = affine.load %A[%i, %j] : memref<5x7xf64>
      %t = affine.load %tmp[%i] : memref<5xf64>
      %p = arith.mulf %a, %t : f64
      %s = arith.addf %yv, %p : f64
      affine.store %s, %y[%j] : memref<7xf64>
    }
  }
  return
}
