// KERNEL: @kernel_bicg
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
// PolyBench/C 4.2 bicg: s := A^T r, q := A p.
func.func @kernel_bicg(%A: memref<7x5xf64>, %s: memref<5xf64>,
                       %q: memref<7xf64>, %p: memref<5xf64>, %r: memref<7xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 5 {
    affine.store %zero, %s[%i] : memref<5xf64>
  }
  affine.for %i = 0 to 7 {
    affine.store %zero, %q[%i] : memref<7xf64>
    affine.for %j = 0 to 5 {
      %sv = affine.load %s[%j] : memref<5xf64>
      %rv = affine.load %r[%i] : memref<7xf64>
      %a = affine.load %A[%i, %j] : memref<7x5xf64>
      %m1 = arith.mulf %rv, %a : f64
      %s1 = arith.addf %sv, %m1 : f64
      affine.store %s1, %s[%j] : memref<5xf64>
      %qv = affine.load %q[%i] : memref<7xf64>
      %pv = affine.load %p[%j] : memref<5xf64>
      %m2 = arith.mulf %a, %pv : f64
      %s2 = arith.addf %qv, %m2 : f64
      affine.store %s2, %q[%i] : memref<7xf64>
    }
  }
  return
}
