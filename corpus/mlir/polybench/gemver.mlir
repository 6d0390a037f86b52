// KERNEL: @kernel_gemver
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
// PIPELINE fusionmax: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{fusion-maximal}))'
// EXPECT fusionmax: invalid output-mismatch
// RUNNER fusionmax: differs
//
// PolyBench/C 4.2 gemver: A := A + u1 v1^T + u2 v2^T, x := x + beta A^T y + z, w := w + alpha A x.
// fusionmax: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/210490 (the in-place update x := x + z is fused into the w nest and re-executed for every row).
func.func @kernel_gemver(%alpha: f64, %beta: f64, %A: memref<7x7xf64>,
                         %u1: memref<7xf64>, %v1: memref<7xf64>, %u2: memref<7xf64>, %v2: memref<7xf64>,
                         %w: memref<7xf64>, %x: memref<7xf64>, %y: memref<7xf64>, %z: memref<7xf64>) {
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %a = affine.load %A[%i, %j] : memref<7x7xf64>
      %a1 = affine.load %u1[%i] : memref<7xf64>
      %b1 = affine.load %v1[%j] : memref<7xf64>
      %p1 = arith.mulf %a1, %b1 : f64
      %a2 = affine.load %u2[%i] : memref<7xf64>
      %b2 = affine.load %v2[%j] : memref<7xf64>
      %p2 = arith.mulf %a2, %b2 : f64
      %s0 = arith.addf %a, %p1 : f64
      %s1 = arith.addf %s0, %p2 : f64
      affine.store %s1, %A[%i, %j] : memref<7x7xf64>
    }
  }
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %xv = affine.load %x[%i] : memref<7xf64>
      %a = affine.load %A[%j, %i] : memref<7x7xf64>
      %ba = arith.mulf %beta, %a : f64
      %yv = affine.load %y[%j] : memref<7xf64>
      %p = arith.mulf %ba, %yv : f64
      %s = arith.addf %xv, %p : f64
      affine.store %s, %x[%i] : memref<7xf64>
    }
  }
  affine.for %i = 0 to 7 {
    %xv = affine.load %x[%i] : memref<7xf64>
    %zv = affine.load %z[%i] : memref<7xf64>
    %s = arith.addf %xv, %zv : f64
    affine.store %s, %x[%i] : memref<7xf64>
  }
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 7 {
      %wv = affine.load %w[%i] : memref<7xf64>
      %a = affine.load %A[%i, %j] : memref<7x7xf64>
      %aa = arith.mulf %alpha, %a : f64
      %xv = affine.load %x[%j] : memref<7xf64>
      %p = arith.mulf %aa, %xv : f64
      %s = arith.addf %wv, %p : f64
      affine.store %s, %w[%i] : memref<7xf64>
    }
  }
  return
}
