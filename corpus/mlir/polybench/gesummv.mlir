// KERNEL: @kernel_gesummv
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
//
// PolyBench/C 4.2 gesummv: y := alpha*A x + beta*B x.
func.func @kernel_gesummv(%alpha: f64, %beta: f64, %A: memref<7x7xf64>, %B: memref<7x7xf64>,
                          %tmp: memref<7xf64>, %x: memref<7xf64>, %y: memref<7xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 7 {
    affine.store %zero, %tmp[%i] : memref<7xf64>
    affine.store %zero, %y[%i] : memref<7xf64>
    affine.for %j = 0 to 7 {
      %a = affine.load %A[%i, %j] : memref<7x7xf64>
      %xv = affine.load %x[%j] : memref<7xf64>
      %p = arith.mulf %a, %xv : f64
      %t = affine.load %tmp[%i] : memref<7xf64>
      %s = arith.addf %p, %t : f64
      affine.store %s, %tmp[%i] : memref<7xf64>
      %b = affine.load %B[%i, %j] : memref<7x7xf64>
      %q = arith.mulf %b, %xv : f64
      %yv = affine.load %y[%i] : memref<7xf64>
      %s2 = arith.addf %q, %yv : f64
      affine.store %s2, %y[%i] : memref<7xf64>
    }
    %t = affine.load %tmp[%i] : memref<7xf64>
    %at = arith.mulf %alpha, %t : f64
    %yv = affine.load %y[%i] : memref<7xf64>
    %by = arith.mulf %beta, %yv : f64
    %r = arith.addf %at, %by : f64
    affine.store %r, %y[%i] : memref<7xf64>
  }
  return
}
